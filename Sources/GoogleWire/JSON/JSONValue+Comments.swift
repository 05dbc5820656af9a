import FirestoreModel

extension JSONValue {
    /// `bytes` with every `//` line comment and `/* */` block comment replaced by spaces,
    /// line feeds kept, so byte offsets, lines and columns of what remains are unchanged.
    ///
    /// Comments are recognised only outside strings; inside a string `//` and `/*` are text,
    /// and `\"` does not end it. An unterminated block comment is blanked to the end (the
    /// parser then reports the missing value). The Firebase CLI reads `firebase.json` this
    /// way (docs/reference/firestore-wire.md §2.3).
    /// - Complexity: O(bytes.count).
    public static func blankingComments(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        var i = 0
        var inString = false
        while i < out.count {
            let b = out[i]
            if inString {
                if b == 0x5C { i += 2; continue }  // backslash: skip the escaped byte
                if b == 0x22 { inString = false }
                i += 1
                continue
            }
            if b == 0x22 { inString = true; i += 1; continue }
            if b == 0x2F, i + 1 < out.count, out[i + 1] == 0x2F {
                while i < out.count, out[i] != 0x0A { out[i] = 0x20; i += 1 }
                continue
            }
            if b == 0x2F, i + 1 < out.count, out[i + 1] == 0x2A {
                out[i] = 0x20
                out[i + 1] = 0x20
                i += 2
                while i < out.count {
                    if out[i] == 0x2A, i + 1 < out.count, out[i + 1] == 0x2F {
                        out[i] = 0x20
                        out[i + 1] = 0x20
                        i += 2
                        break
                    }
                    if out[i] != 0x0A { out[i] = 0x20 }
                    i += 1
                }
                continue
            }
            i += 1
        }
        return out
    }
}
