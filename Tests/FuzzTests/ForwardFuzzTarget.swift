import Fanout
import FanoutScrollViewKit

/// Fuzz target `forward`: `SelectorDictionaryMultiplexer.forward(_:arguments:)`
/// with a selector and an argument array built from the bytes: known
/// selectors, mutated and arbitrary ones (long, non-ASCII), wrong counts, wrong
/// types, optionals and nested optionals where a value is expected.
///
/// Checked: a call either delivers to exactly the responding targets and
/// returns one answer of the message's type per target, or throws the
/// ``ForwardingError`` that describes the mistake, names the selector and
/// delivers nothing; arguments of exactly the expected types always deliver.
enum ForwardFuzzTarget {
    static func run(_ data: [UInt8]) -> FuzzFindings {
        var input = FuzzInput(data)
        var findings = FuzzFindings()
        let view = ScrollView()
        let multiplexer = SelectorDictionaryMultiplexer<ScrollViewSchema>()
        let targets = (0..<input.choice(5)).map { _ in
            FuzzTarget(responds: input.byte(), agrees: input.flag(), offersView: input.flag())
        }
        for target in targets { multiplexer.add(target) }

        let selector = makeSelector(&input)
        var arguments: [Any] = []
        var exactTypes: [Any.Type?] = []
        for _ in 0..<input.choice(5) {
            let (value, exactType) = makeArgument(&input, view: view)
            arguments.append(value)
            exactTypes.append(exactType)
        }

        let message = ScrollViewMessage(rawValue: selector)
        let signature = message.map(Self.signature)
        let responders = message.map { message in targets.filter { $0.responds(to: message) } } ?? []
        do {
            let answers = try multiplexer.forward(selector, arguments: arguments)
            guard let message, let signature else {
                findings.check(false, "forwarded the unknown selector \(selector.debugDescription)")
                return findings
            }
            findings.check(arguments.count == signature.count, "forwarded \(arguments.count) arguments to \(selector)")
            findings.check(answers.count == responders.count, "\(answers.count) answers from \(responders.count) responders")
            findings.check(
                targets.allSatisfy { $0.deliveries == ($0.responds(to: message) ? 1 : 0) },
                "deliveries \(targets.map(\.deliveries)) for \(message)")
            for (answer, target) in zip(answers, responders) {
                switch message {
                case .didScroll, .didEndDragging, .willEndDragging: findings.check(answer is Void, "answer \(String(describing: answer))")
                case .shouldScrollToTop: findings.check(answer as? Bool == target.agrees, "answer \(String(describing: answer))")
                case .viewForZooming:
                    findings.check(
                        target.offersView ? (answer as AnyObject?) === view : answer == nil,
                        "answer \(String(describing: answer))")
                }
            }
        } catch {
            findings.check(targets.allSatisfy { $0.deliveries == 0 }, "delivered before throwing \(error)")
            // Compared as bytes: a selector that starts with a combining mark joins the quote before it.
            findings.check(
                error.description.utf8.elementsEqualSomewhere(selector.utf8),
                "'\(error)' does not name \(selector.debugDescription)")
            switch error {
            case .unrecognizedSelector(let named, let known):
                findings.check(message == nil && named == selector, "\(error) for a known selector")
                findings.check(known == ScrollViewMessage.allCases.map(\.rawValue), "known selectors \(known)")
            case .wrongArgumentCount(let named, let expected, let actual, let expectedTypes):
                findings.check(named == selector && signature?.count == expected, "\(error)")
                findings.check(actual == arguments.count && actual != expected, "\(error) for \(arguments.count)")
                findings.check(expectedTypes == signature?.map { String(reflecting: $0) }, "\(error)")
            case .wrongArgumentType(let named, let position, let expected, _):
                findings.check(named == selector && signature?.count == arguments.count, "\(error)")
                if let signature, position < signature.count {
                    findings.check(expected == String(reflecting: signature[position]), "\(error)")
                    findings.check(exactTypes[position] != signature[position], "rejected an exact \(expected)")
                } else {
                    findings.check(false, "\(error): position out of range")
                }
            }
            if let signature, signature.count == arguments.count,
               zip(exactTypes, signature).allSatisfy({ $0 == $1 }) {
                findings.check(false, "\(error) for arguments of exactly the expected types")
            }
        }
        return findings
    }

    /// The argument types of `message`.
    static func signature(_ message: ScrollViewMessage) -> [Any.Type] {
        switch message {
        case .didScroll, .shouldScrollToTop, .viewForZooming: [ScrollView.self]
        case .didEndDragging: [ScrollView.self, Bool.self]
        case .willEndDragging: [ScrollView.self, Double.self, UnsafeMutablePointer<Double>.self]
        }
    }

    /// A known selector, a known one with one byte changed, or arbitrary bytes
    /// (long and non-ASCII ones included), decoded as UTF-8.
    static func makeSelector(_ input: inout FuzzInput) -> String {
        let known = ScrollViewMessage.allCases.map(\.rawValue)
        switch input.choice(4) {
        case 0, 1:
            return input.pick(known)
        case 2:
            var bytes = Array(input.pick(known).utf8)
            let position = input.choice(bytes.count + 1)
            if input.flag(), position < bytes.count { bytes[position] = input.byte() } else { bytes.insert(input.byte(), at: position) }
            return String(decoding: bytes, as: UTF8.self)
        default:
            var bytes = input.bytes(upTo: 64)
            if input.flag() { bytes = Array(repeating: bytes, count: 1 + input.choice(16)).flatMap { $0 } }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The offset `willEndDragging`'s targets write through, for the whole process.
    nonisolated(unsafe) static let targetOffset = UnsafeMutablePointer<Double>.allocate(capacity: 1)

    /// An argument and its exact dynamic type when that is one a message takes
    /// (`nil` otherwise).
    static func makeArgument(_ input: inout FuzzInput, view: ScrollView) -> (Any, Any.Type?) {
        switch input.choice(12) {
        case 0: return (view, ScrollView.self)
        case 1: return (input.flag(), Bool.self)
        case 2: return (Int(input.byte()) - 128, nil)
        case 3: return (String(decoding: input.bytes(upTo: 16), as: UTF8.self), nil)
        case 4: return (ScrollView?.some(view) as Any, nil)
        case 5: return (ScrollView?.none as Any, nil)
        case 6: return (Bool??.some(.some(input.flag())) as Any, nil)
        case 7: return (Double(input.byte()) / 3, Double.self)
        case 8: return ([view, input.flag()] as [Any], nil)
        case 9: return (FuzzTarget(responds: 0, agrees: true, offersView: false), nil)
        case 10: return (targetOffset, UnsafeMutablePointer<Double>.self)
        default: return (Bool?.some(input.flag()) as Any, nil)
        }
    }
}

/// A target for the `forward` fuzz target: responds to the messages whose bit
/// is set in `responds`, counts its deliveries, and answers as configured.
final class FuzzTarget: ScrollViewDelegate {
    let respondsMask: UInt8
    let agrees: Bool
    let offersView: Bool
    private(set) var deliveries = 0

    init(responds: UInt8, agrees: Bool, offersView: Bool) {
        self.respondsMask = responds
        self.agrees = agrees
        self.offersView = offersView
    }

    func responds(to message: ScrollViewMessage) -> Bool { respondsMask & (1 << message.ordinal) != 0 }
    func scrollViewDidScroll(_ scrollView: ScrollView) { deliveries += 1 }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) { deliveries += 1 }
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        deliveries += 1
        return agrees
    }
    func viewForZooming(in scrollView: ScrollView) -> AnyObject? {
        deliveries += 1
        return offersView ? scrollView : nil
    }
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Double, targetContentOffset: UnsafeMutablePointer<Double>
    ) {
        deliveries += 1
        targetContentOffset.pointee = velocity
    }
}

extension Sequence where Element: Equatable {
    /// Whether `other` occurs in this sequence as a contiguous run.
    func elementsEqualSomewhere(_ other: some Collection<Element>) -> Bool {
        let elements = Array(self)
        guard !other.isEmpty else { return true }
        guard elements.count >= other.count else { return false }
        return (0...(elements.count - other.count)).contains { start in
            elements[start..<(start + other.count)].elementsEqual(other)
        }
    }
}
