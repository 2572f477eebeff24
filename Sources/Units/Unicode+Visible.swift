extension Unicode.Scalar {
    /// Whether the scalar would hide or disguise text where names are shown (a terminal, a
    /// list, Markdown, metrics): a control or format character (escapes, NUL, bidi overrides,
    /// zero-width characters, the byte-order mark, tags), a line or paragraph separator, a
    /// surrogate or an unassigned code point. Names (of clients, phases) refuse them.
    public var hidesText: Bool {
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned:
            true
        default:
            false
        }
    }
}
