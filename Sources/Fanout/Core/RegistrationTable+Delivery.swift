extension RegistrationTable where Value == Schema.Target {
    /// Calls, with `invoke`, every target of `entries` that responds to the message named `key`, in order, while
    /// `shouldContinue` accepts the answers: the dispatch of the strategies that hold their targets strongly in a
    /// table. The caller keeps the buffer, and so every target, alive until the dispatch ends.
    ///
    /// - Complexity: O(*n*) in `entries`.
    @inlinable
    @inline(__always)
    static func deliver<Result>(
        _ key: Schema.Key, to entries: UnsafeBufferPointer<Entry>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        // Through the buffer, not `for entry in` an array, which retains and releases every target around a call that
        // returns a reference.
        let sent = MessageSet(key)
        let count = entries.count
        var index = 0
        while true {
            // Non-responders skipped in a loop of their own, marked unlikely: fewer branches per message (measured).
            while index < count && _slowPath(!entries[index].messages.intersects(sent)) { index &+= 1 }
            guard index < count, shouldContinue(invoke(entries[index].value)) else { return }
            index &+= 1
        }
    }
}
