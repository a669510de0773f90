#if canImport(ObjectiveC)
    import ObjectiveC

    // Public API only: scripts/typecheck-apple type-checks this file on Linux in a module of its own, which imports
    // Fanout.

    /// An `NSObject` to set as the delegate of a UIKit or AppKit object, that
    /// forwards each message to the targets of a multiplexer: the adapter
    /// between an `@objc` delegate protocol, whose host asks
    /// `respondsToSelector:`, and Fanout's schema.
    ///
    /// Swift has no `forwardInvocation:`, so a subclass declares one `@objc`
    /// method per message, each a line of the schema's glue
    /// (<doc:ReusingForYourProtocol>, "UIKit and AppKit delegates"):
    ///
    /// ```swift
    /// final class ScrollViewProxy: DelegateProxy {
    ///     let multiplexer = ExistentialArrayMultiplexer<UIScrollViewSchema>()
    ///     init() { super.init(forwardingTo: multiplexer) }
    /// }
    /// extension ScrollViewProxy: UIScrollViewDelegate {
    ///     func scrollViewDidScroll(_ scrollView: UIScrollView) { multiplexer.send(UIScrollViewSchema.didScroll, scrollView) }
    /// }
    /// ```
    ///
    /// What the host sees:
    /// - ``responds(to:)`` answers, for a selector of the schema, whether some
    ///   target responds to that message, and for any other selector, whether
    ///   the proxy itself or the host's previous delegate does;
    /// - when the targets' answers change, ``install(on:_:)`` assigns the proxy
    ///   again (`nil`, then the proxy), because UIKit reads the answers only when
    ///   its delegate is assigned;
    /// - a message of the schema whose last responder has gone, sent by a host
    ///   whose answers are stale, reaches no target and returns the answer of
    ///   none (`askAll`: `true`, `askUntilAnswered`: `nil`), as the subclass's
    ///   method says; it never reaches `doesNotRecognizeSelector:`;
    /// - a message outside the schema goes to the host's previous delegate, when
    ///   it implements it (``forwardingTarget(for:)``).
    ///
    /// - Precondition: the subclass implements a method for every message of
    ///   the schema; the proxy checks when it is made, and stops naming the
    ///   missing selector otherwise.
    open class DelegateProxy: NSObject {
        /// For a selector of the schema, whether some target responds; `nil` for
        /// any other selector.
        private let targetsRespond: (String) -> Bool?

        /// The host's delegate before ``install(on:_:)``: it receives the messages
        /// outside the schema that it implements.
        public private(set) weak var previousDelegate: NSObject?

        /// Assigns the proxy to its host again; set by ``install(on:_:)``.
        private var reinstall: (() -> Void)?

        /// A proxy for `multiplexer`'s targets, which it announces to its host
        /// whenever their answers change (it takes the multiplexer's
        /// ``Multiplexing/respondersDidChange``).
        ///
        /// - Precondition: this proxy's class has a method for every selector of
        ///   `Targets.Schema` (the `@objc` glue).
        public init<Targets: Multiplexing>(forwardingTo multiplexer: Targets) {
            targetsRespond = { [unowned multiplexer] selector in
                guard let key = Targets.Schema.Key(rawValue: selector) else { return nil }
                return multiplexer.responds(to: key)
            }
            super.init()
            multiplexer.respondersDidChange = { [weak self] in self?.reinstall?() }
            for key in Targets.Schema.Key.allCases {
                let selector = key.rawValue.withCString { sel_registerName($0) }
                precondition(
                    Self.instancesRespond(to: selector),
                    "\(Self.self) has no method for '\(key.rawValue)' of \(Targets.Schema.self): declare one @objc method "
                        + "per message (Documentation/ReusingForYourProtocol.md)")
            }
        }

        /// For a selector of the schema, whether some target responds to that
        /// message; for any other, whether the proxy or its previous delegate does.
        open override func responds(to selector: Selector!) -> Bool {
            guard let selector else { return false }
            if let answer = targetsRespond(String(cString: sel_getName(selector))) { return answer }
            return super.responds(to: selector) || previousDelegate?.responds(to: selector) == true
        }

        /// The previous delegate, for a message outside the schema that it
        /// implements.
        open override func forwardingTarget(for selector: Selector!) -> Any? {
            if let previousDelegate, previousDelegate.responds(to: selector) { return previousDelegate }
            return super.forwardingTarget(for: selector)
        }

        /// Makes the proxy `host`'s delegate, the property `delegate` names, and
        /// keeps the previous delegate for the messages outside the schema. Each
        /// time the targets' answers change, the proxy is assigned again (`nil`,
        /// then the proxy), so that the host reads them again. The host is held
        /// weakly.
        ///
        /// - Precondition: the proxy conforms to `Delegate`.
        @MainActor
        public func install<Host: AnyObject, Delegate>(
            on host: Host, _ delegate: ReferenceWritableKeyPath<Host, Delegate?>
        ) {
            guard let proxy = self as? Delegate else {
                preconditionFailure("\(type(of: self)) is not a \(Delegate.self): declare the conformance on the proxy")
            }
            if let previous = host[keyPath: delegate] as? NSObject, previous !== self { previousDelegate = previous }
            host[keyPath: delegate] = proxy
            reinstall = { [weak self, weak host] in
                guard let self, let host else { return }
                MainActor.assumeIsolated {
                    guard let proxy = self as? Delegate else { return }
                    host[keyPath: delegate] = nil
                    host[keyPath: delegate] = proxy
                }
            }
        }
    }
#endif
