/// NIST prime curves supported by the crypto layer. P-192 and P-224 are there because Apple's SecKey takes them
/// (`kSecAttrKeySizeInBits` 192 and 224); they are weaker than P-256 and nothing here picks them by default.
package enum ECCurve: Sendable, Hashable, CaseIterable {
    case p256, p384, p521, p192, p224

    /// Field element length in bytes (32/48/66, 24/28).
    package var fieldSize: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        case .p521: 66
        case .p192: 24
        case .p224: 28
        }
    }

    /// Curve size in bits (256/384/521, 192/224).
    package var bits: Int {
        switch self {
        case .p256: 256
        case .p384: 384
        case .p521: 521
        case .p192: 192
        case .p224: 224
        }
    }

    /// Dotted named-curve OID.
    package var oid: String {
        switch self {
        case .p256: "1.2.840.10045.3.1.7"
        case .p384: "1.3.132.0.34"
        case .p521: "1.3.132.0.35"
        case .p192: "1.2.840.10045.3.1.1"
        case .p224: "1.3.132.0.33"
        }
    }

    /// The curve whose uncompressed X9.63 public point (04‖X‖Y) has `length` bytes.
    package init?(uncompressedPointLength length: Int) {
        guard let curve = Self.allCases.first(where: { 1 + 2 * $0.fieldSize == length }) else { return nil }
        self = curve
    }

    /// The named-curve OID as DER content bytes.
    var oidContent: [UInt8] {
        switch self {
        case .p256: [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]
        case .p384: [0x2b, 0x81, 0x04, 0x00, 0x22]
        case .p521: [0x2b, 0x81, 0x04, 0x00, 0x23]
        case .p192: [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x01]
        case .p224: [0x2b, 0x81, 0x04, 0x00, 0x21]
        }
    }

    /// The curve for named-curve OID content bytes.
    init?(oidContent: ArraySlice<UInt8>) {
        guard let curve = Self.allCases.first(where: { $0.oidContent.elementsEqual(oidContent) }) else { return nil }
        self = curve
    }

    /// Index used by the C shims (0 = P-256, 1 = P-384, 2 = P-521, 3 = P-192, 4 = P-224).
    var shimIndex: Int32 {
        switch self {
        case .p256: 0
        case .p384: 1
        case .p521: 2
        case .p192: 3
        case .p224: 4
        }
    }

    init?(shimIndex: Int32) {
        switch shimIndex {
        case 0: self = .p256
        case 1: self = .p384
        case 2: self = .p521
        case 3: self = .p192
        case 4: self = .p224
        default: return nil
        }
    }
}
