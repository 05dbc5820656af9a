import DeterministicRandom


/// How a test feeds its input to a codec (docs/STYLE.md principle 1: whole, byte by byte, random splits).
enum FeedSplit: CustomStringConvertible, Sendable {
    case whole
    case byteByByte
    case random(seed: UInt64)

    static let all: [FeedSplit] = [.whole, .byteByByte] + (1...8).map { .random(seed: $0) }

    /// Cuts `input` into the chunks this strategy feeds.
    func chunks(_ input: [UInt8]) -> [ArraySlice<UInt8>] {
        switch self {
        case .whole:
            return [input[...]]
        case .byteByByte:
            return input.indices.map { input[$0...$0] }
        case .random(let seed):
            var rng = SplitMix64(seed: seed)
            var result: [ArraySlice<UInt8>] = []
            var start = 0
            while start < input.count {
                let length = Int.random(in: 1...max(1, min(64, input.count - start)), using: &rng)
                result.append(input[start..<start + length])
                start += length
            }
            return result
        }
    }

    var description: String {
        switch self {
        case .whole: "whole"
        case .byteByByte: "byte-by-byte"
        case .random(let seed): "random(\(seed))"
        }
    }
}
