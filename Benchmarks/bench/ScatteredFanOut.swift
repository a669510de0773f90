import Fanout
import FanoutMicrobench
import FanoutScrollViewKit

/// The targets of a fan-out as an app's heap holds them: each allocated among
/// other objects (one to seven blocks of 16 to 512 bytes before each target,
/// kept alive, so that consecutive targets are not neighbours in memory), and
/// registered in a shuffled order, so that registration order is not address
/// order. Seeded: the same width gives the same layout in every run.
struct ScatteredFanOut {
    /// The targets in registration order.
    let targets: [any ScrollViewDelegate]
    /// The blocks between them, kept alive with them.
    let fillers: [[UInt8]]

    init(width: Int, responders: Int, make: (_ index: Int, _ responds: Bool) -> any ScrollViewDelegate = makeTarget) {
        var generator = SplitMix64(seed: UInt64(width) &* 0x9E37_79B9 &+ UInt64(responders))
        var fillers: [[UInt8]] = []
        let stride = width / max(responders, 1)
        var targets: [any ScrollViewDelegate] = []
        for index in 0..<width {
            for _ in 0..<Int.random(in: 1...7, using: &generator) {
                fillers.append([UInt8](repeating: 0, count: Int.random(in: 16...512, using: &generator)))
            }
            targets.append(make(index, index.isMultiple(of: stride) && index / stride < responders))
        }
        self.targets = targets.shuffled(using: &generator)
        self.fillers = fillers
    }
}

/// A small seeded generator (SplitMix64), so that layouts repeat from run to run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
