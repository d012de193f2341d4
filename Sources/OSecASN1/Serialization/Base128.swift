extension DER {
    /// Appends `value` as base-128 groups, most significant first, with the high bit set on every group but the
    /// last and no leading zero group: the form of high tag numbers (X.690 §8.1.2.4.2) and of object identifier
    /// subidentifiers (X.690 §8.19.2).
    @inline(__always)
    static func appendBase128(_ value: UInt, to bytes: inout [UInt8]) {
        var groups = 1
        var rest = value >> 7
        while rest != 0 {
            groups += 1
            rest >>= 7
        }
        for index in stride(from: groups - 1, through: 0, by: -1) {
            let group = UInt8(truncatingIfNeeded: value >> UInt(7 * index)) & 0x7F
            bytes.append(index == 0 ? group : group | 0x80)
        }
    }
}
