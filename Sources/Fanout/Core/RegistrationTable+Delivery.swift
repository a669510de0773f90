extension RegistrationTable where Value == Schema.Target {
    /// Calls, with `invoke`, every target of `entries` that responds to the
    /// message named `key`, in order,
    /// for as long as `shouldContinue` accepts the answers: the dispatch of
    /// the strategies that hold their targets strongly in a table
    /// (``ExistentialArrayMultiplexer``, ``ConcurrentMultiplexer``). The caller keeps
    /// the buffer, and so every target, alive until the dispatch ends.
    ///
    /// - Complexity: O(*n*) in `entries`.
    @inlinable
    @inline(__always)
    static func deliver<Result>(
        _ key: Schema.Key, to entries: UnsafeBufferPointer<Entry>, while shouldContinue: (Result) -> Bool,
        invoking invoke: (Schema.Target) -> Result
    ) {
        // Through the buffer, not `for entry in` an array: with the plain loop
        // the optimizer retained and released every target around a call that
        // returns a reference (`viewForZooming`).
        let sent = MessageSet(key)
        let count = entries.count
        var index = 0
        while true {
            // The entries that do not respond skipped in a loop of their own: as a `where` clause, the optimizer
            // laid the skip out with a jump back to the loop's head, one instruction more per entry skipped. The
            // skip marked unlikely: the loop is then laid out straight, so that a responding entry's test and its
            // call fall through, and so does the loop's end after the last entry (without the hint the loop was
            // entered and left by jumps, and the call jumped back: three taken branches more per message at width
            // 1; the price is one more per entry skipped, the same instructions).
            while index < count && _slowPath(!entries[index].messages.intersects(sent)) { index &+= 1 }
            guard index < count, shouldContinue(invoke(entries[index].value)) else { return }
            index &+= 1
        }
    }
}
