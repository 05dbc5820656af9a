import FirestoreModel
import Testing

@Suite struct TrimmingTests {
    @Test("trimmingASCII drops the listed characters at both ends only")
    func trims() {
        #expect(" \t a b \t".trimmingASCII() == "a b")
        #expect("  42 ".trimmingASCII(" ") == "42")
        #expect("\t42".trimmingASCII(" ") == "\t42")
        #expect("   ".trimmingASCII().isEmpty)
        #expect("".trimmingASCII().isEmpty)
    }
}
