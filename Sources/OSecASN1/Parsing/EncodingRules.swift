/// Which BER leniencies a parse accepts. Each relaxation of DER is a separately named flag.
///
/// The rules used to parse are recorded in every ``ASN1Node`` so that type decoders
/// (strings, booleans, bit strings, times) apply the same policy.
package struct EncodingRules: Hashable, Sendable {
    /// Accept indefinite lengths (`0x80`) terminated by end-of-contents octets, on constructed nodes.
    package var allowsIndefiniteLength: Bool
    /// Accept long-form lengths that could be shorter (leading zero octets, long form below 128).
    package var allowsNonMinimalLengths: Bool
    /// Accept constructed OCTET STRING, BIT STRING and character strings; segments are concatenated.
    package var allowsConstructedStrings: Bool
    /// Accept any non-zero octet as TRUE (DER requires `0xFF`).
    package var allowsNonCanonicalBooleans: Bool
    /// Accept non-zero unused bits in the last octet of a BIT STRING.
    package var allowsNonZeroUnusedBits: Bool
    /// Accept SET OF elements that are not in DER order.
    package var allowsUnsortedSets: Bool
    /// Accept INTEGER / ENUMERATED with redundant leading octets. Not BER either, but common in the wild.
    package var allowsNonMinimalIntegers: Bool
    /// Accept fractional seconds in GeneralizedTime (RFC 5280 forbids them).
    package var allowsFractionalSeconds: Bool
    /// Accept a DEFAULT field whose value equals the default (DER requires omitting it).
    package var allowsEncodedDefaultValues: Bool

    /// Creates rules with every flag given explicitly.
    package init(
        allowsIndefiniteLength: Bool,
        allowsNonMinimalLengths: Bool,
        allowsConstructedStrings: Bool,
        allowsNonCanonicalBooleans: Bool,
        allowsNonZeroUnusedBits: Bool,
        allowsUnsortedSets: Bool,
        allowsNonMinimalIntegers: Bool,
        allowsFractionalSeconds: Bool,
        allowsEncodedDefaultValues: Bool
    ) {
        self.allowsIndefiniteLength = allowsIndefiniteLength
        self.allowsNonMinimalLengths = allowsNonMinimalLengths
        self.allowsConstructedStrings = allowsConstructedStrings
        self.allowsNonCanonicalBooleans = allowsNonCanonicalBooleans
        self.allowsNonZeroUnusedBits = allowsNonZeroUnusedBits
        self.allowsUnsortedSets = allowsUnsortedSets
        self.allowsNonMinimalIntegers = allowsNonMinimalIntegers
        self.allowsFractionalSeconds = allowsFractionalSeconds
        self.allowsEncodedDefaultValues = allowsEncodedDefaultValues
    }

    /// Strict DER (X.690 §10–11) plus RFC 5280's time rules.
    package static let distinguished = EncodingRules(
        allowsIndefiniteLength: false, allowsNonMinimalLengths: false, allowsConstructedStrings: false,
        allowsNonCanonicalBooleans: false, allowsNonZeroUnusedBits: false, allowsUnsortedSets: false,
        allowsNonMinimalIntegers: false, allowsFractionalSeconds: false, allowsEncodedDefaultValues: false)

    /// Lenient BER as found in PKCS#12 files in the wild: every leniency enabled.
    package static let basic = EncodingRules(
        allowsIndefiniteLength: true, allowsNonMinimalLengths: true, allowsConstructedStrings: true,
        allowsNonCanonicalBooleans: true, allowsNonZeroUnusedBits: true, allowsUnsortedSets: true,
        allowsNonMinimalIntegers: true, allowsFractionalSeconds: true, allowsEncodedDefaultValues: true)
}
