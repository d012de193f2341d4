/// Helpers on single, already-validated DER node encodings.
enum DERHeader {
    /// The content octets of one definite-length DER node encoding (low tag numbers only);
    /// empty if the header is malformed.
    static func content(of encoding: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let start = encoding.startIndex
        guard encoding.count >= 2, encoding[start] & 0x1F != 0x1F else { return encoding.suffix(0) }
        let first = encoding[start + 1]
        let headerLength = first < 0x80 ? 2 : 2 + Int(first & 0x7F)
        guard headerLength <= encoding.count else { return encoding.suffix(0) }
        return encoding.dropFirst(headerLength)
    }
}
