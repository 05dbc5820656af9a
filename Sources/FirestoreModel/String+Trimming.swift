extension StringProtocol {
    /// The text without the given characters at either end, e.g. `" 42 ".trimmingASCII(" ")`
    /// is `"42"`; `set` lists the characters (ASCII space and tab, usually). Foundation's
    /// `trimmingCharacters(in:)` without Foundation's character sets, which only its
    /// internationalization layer (ICU) provides.
    public func trimmingASCII(_ set: String = " \t") -> Substring {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return Substring(slice)
    }
}
