/// How `forward` boxes the answers of one message into `Any?`: chosen by the public initializer of ``Message``, where
/// the answer's type is concrete, so that no answer is cast at run time.
@usableFromInline
internal protocol AnswerBoxing {
    associatedtype Answer
    /// The type of the value a non-`nil` boxed answer holds.
    associatedtype Boxed
    static func box(_ answer: Answer) -> Any?
}

/// Answers boxed as they are.
@usableFromInline
internal enum AnswerAsIs<Answer>: AnswerBoxing {
    @usableFromInline typealias Boxed = Answer
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    static func box(_ answer: Answer) -> Any? { answer }
}

/// Optional answers unwrapped, so that a `nil` answer reads as `nil`.
extension Optional: AnswerBoxing {
    @usableFromInline typealias Answer = Wrapped?
    @usableFromInline typealias Boxed = Wrapped
    @usableFromInline @_alwaysEmitIntoClient @inline(__always)
    static func box(_ answer: Wrapped?) -> Any? { answer.map { $0 as Any } }
}
