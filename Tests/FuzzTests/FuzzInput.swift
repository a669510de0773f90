/// Fuzz bytes read as a sequence of small decisions. Running out of bytes
/// reads zeros, so every input, however short, is a complete program.
struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether any byte is left.
    var isAtEnd: Bool { position >= bytes.count }

    /// The next byte, or 0 past the end.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `0 ..< count`.
    mutating func choice(_ count: Int) -> Int {
        precondition(count > 0)
        return Int(byte()) % count
    }

    /// One of `options`.
    mutating func pick<T>(_ options: [T]) -> T { options[choice(options.count)] }

    /// A coin.
    mutating func flag() -> Bool { byte() & 1 == 1 }

    /// Up to `limit` raw bytes, their count read first.
    mutating func bytes(upTo limit: Int) -> [UInt8] {
        let count = Int(byte()) % (limit + 1)
        return (0..<count).map { _ in byte() }
    }
}

/// What a fuzz target found wrong with one input; empty when every check held.
/// The fuzzing entry point traps on a non-empty list, so libFuzzer saves the
/// input; the corpus replay test reports it.
struct FuzzFindings {
    private(set) var messages: [String] = []

    var isEmpty: Bool { messages.isEmpty }

    mutating func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { messages.append(message()) }
    }
}
