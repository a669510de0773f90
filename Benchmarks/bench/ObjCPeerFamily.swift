import Foundation
import FanoutMicrobench

/// The Objective-C reference peer: `Benchmarks/objc/ForwardingProxy.m`, a
/// `forwardInvocation:` multiplexer over an `NSArray`, built with gcc and
/// GNUstep Base into a shared library that the bench loads with `dlopen`, so
/// that its cases run in this process, interleaved round by round with the
/// Swift cases: its ratios to them come from one run. Its rows are `dispatch`
/// rows with `strategy` = `objcForwardInvocation`, without counters (the
/// Objective-C runtime's reference counting is not Swift's). It runs on
/// GNUstep's runtime, not Apple's. Optional: without the toolchain, `bench`
/// says how to install it and goes on.
enum ObjCPeerFamily: BenchmarkFamily {
    static let name = "objcForwardInvocation"
    static let contenders = [name]

    static func cases(_ selection: Selection) -> [BenchmarkCase] {
        guard selection.includesDidScroll else { return [] }
        let ids = selection.widths.map { DispatchFamily.id(name, .didScroll, width: $0, responders: $0) }.filter(selection.includes)
        // The library is built and loaded only when one of its cases is to be
        // measured; a listing only asks whether the toolchain is there.
        guard !ids.isEmpty, selection.isListing ? ForwardingProxyLibrary.toolchainIsInstalled : ForwardingProxyLibrary.shared != nil
        else { return [] }
        return ids.map { id in
            BenchmarkCase(id, deliveriesPerOperation: id.width, isCounted: false) {
                let library = ForwardingProxyLibrary.shared!
                let proxy = library.makeProxy(Int32(id.width)), view = library.makeView()
                return { iterations in library.send(proxy, view, iterations) }
            }
        }
    }
}

/// The proxy's C interface, loaded from the library `Benchmarks/objc/build.sh`
/// builds.
struct ForwardingProxyLibrary: @unchecked Sendable {
    typealias MakeProxy = @convention(c) (Int32) -> UnsafeMutableRawPointer
    typealias MakeView = @convention(c) () -> UnsafeMutableRawPointer
    typealias Send = @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer, Int) -> Void

    static let buildScript = "Benchmarks/objc/build.sh"
    static let path = ".build/objc/libforwarding-proxy.so"

    let makeProxy: MakeProxy
    let makeView: MakeView
    let send: Send

    /// Whether gcc and GNUstep's `gnustep-config` are on the path.
    static var toolchainIsInstalled: Bool {
        Subprocess.find("gcc") != nil && Subprocess.find("gnustep-config") != nil
    }

    /// The library, built if needed and loaded once; `nil`, with a note on
    /// standard error, when it cannot be.
    static let shared: ForwardingProxyLibrary? = load()

    private static func load() -> ForwardingProxyLibrary? {
        guard FileManager.default.isExecutableFile(atPath: buildScript) else {
            note("note: \(buildScript) not found (run bench from the package root); skipping \(ObjCPeerFamily.name)")
            return nil
        }
        let build = Subprocess.run("/bin/bash", [buildScript, path])
        guard build.status == 0 else {
            note("note: " + build.standardError.trimmingCharacters(in: .whitespacesAndNewlines))
            note("note: continuing without \(ObjCPeerFamily.name)")
            return nil
        }
        guard let handle = dlopen(FileManager.default.currentDirectoryPath + "/" + path, RTLD_NOW | RTLD_LOCAL),
              let makeProxy = dlsym(handle, "fanout_objc_make_proxy"), let makeView = dlsym(handle, "fanout_objc_make_view"),
              let send = dlsym(handle, "fanout_objc_send") else {
            note("note: could not load \(path): \(dlerror().map { String(cString: $0) } ?? "a symbol is missing")")
            return nil
        }
        return ForwardingProxyLibrary(
            makeProxy: unsafeBitCast(makeProxy, to: MakeProxy.self), makeView: unsafeBitCast(makeView, to: MakeView.self),
            send: unsafeBitCast(send, to: Send.self))
    }
}
