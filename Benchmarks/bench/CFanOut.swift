import FanoutBenchFloor
import FanoutScrollViewKit

/// The C fan-out of `BenchFloor`, as the benchmark loops see it. The targets
/// live as long as the process: a case's state is never torn down.
struct CFanOut: MessageReceiver {
    let targets: UnsafeMutablePointer<bench_floor_target>
    let count: Int32

    init(count: Int) {
        targets = bench_floor_make(Int32(count))
        self.count = Int32(count)
    }

    func scrollViewDidScroll(_ scrollView: ScrollView) {
        bench_floor_did_scroll(targets, count, Unmanaged.passUnretained(scrollView).toOpaque())
    }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        bench_floor_did_end_dragging(targets, count, Unmanaged.passUnretained(scrollView).toOpaque(), decelerate)
    }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        bench_floor_should_scroll_to_top(targets, count, Unmanaged.passUnretained(scrollView).toOpaque())
    }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        bench_floor_view_for_zooming(targets, count, Unmanaged.passUnretained(scrollView).toOpaque())
            .map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() }
    }
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>) {
        bench_floor_will_end_dragging(
            targets, count, Unmanaged.passUnretained(scrollView).toOpaque(), velocity, targetContentOffset)
    }
}

/// The C fan-out with one uncontended atomic increment before each message and one decrement after it: the C floor
/// plus what one retain and release pair per message costs on this machine (`cFunctionPointerAtomicPair`).
struct CFanOutWithAtomicPair: MessageReceiver {
    let fanOut: CFanOut

    func scrollViewDidScroll(_ scrollView: ScrollView) {
        bench_floor_increment()
        fanOut.scrollViewDidScroll(scrollView)
        bench_floor_decrement()
    }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        bench_floor_increment()
        fanOut.scrollViewDidEndDragging(scrollView, willDecelerate: decelerate)
        bench_floor_decrement()
    }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        bench_floor_increment()
        defer { bench_floor_decrement() }
        return fanOut.scrollViewShouldScrollToTop(scrollView)
    }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        bench_floor_increment()
        defer { bench_floor_decrement() }
        return fanOut.viewForZooming(in: scrollView)
    }
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>) {
        bench_floor_increment()
        fanOut.scrollViewWillEndDragging(scrollView, withVelocity: velocity, targetContentOffset: targetContentOffset)
        bench_floor_decrement()
    }
}
