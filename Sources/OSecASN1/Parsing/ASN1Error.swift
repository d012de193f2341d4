/// The single error type thrown by `OSecASN1`.
///
/// Errors compare equal when their ``Code`` matches; the reason, file and line are diagnostics only.
package struct ASN1Error: Error, Sendable {
    /// An open set of error conditions. New codes can be added without breaking callers.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) { self.name = name }

        package var description: String { name }

        /// The input ended before a complete field was read.
        package static let truncatedField = Code("truncatedField")
        /// A length field is malformed, non-minimal (in DER), indefinite where not allowed, or too large.
        package static let invalidLength = Code("invalidLength")
        /// An identifier octet sequence is malformed.
        package static let invalidIdentifier = Code("invalidIdentifier")
        /// A node has a different tag than the one expected.
        package static let unexpectedTag = Code("unexpectedTag")
        /// A structure has the wrong shape (missing or extra elements, wrong form, ...).
        package static let invalidASN1Object = Code("invalidASN1Object")
        /// The encoding is valid BER but not allowed by the active ``EncodingRules``.
        package static let invalidEncoding = Code("invalidEncoding")
        /// An OBJECT IDENTIFIER is malformed.
        package static let invalidObjectIdentifier = Code("invalidObjectIdentifier")
        /// An INTEGER or ENUMERATED is malformed, non-minimal, or does not fit the requested type.
        package static let invalidInteger = Code("invalidInteger")
        /// A BOOLEAN is malformed.
        package static let invalidBoolean = Code("invalidBoolean")
        /// A NULL has content.
        package static let invalidNull = Code("invalidNull")
        /// A BIT STRING is malformed.
        package static let invalidBitString = Code("invalidBitString")
        /// A character string contains characters outside its alphabet or is badly encoded.
        package static let invalidString = Code("invalidString")
        /// A UTCTime or GeneralizedTime is malformed or out of range.
        package static let invalidTime = Code("invalidTime")
        /// Bytes follow the last complete node.
        package static let trailingBytes = Code("trailingBytes")
        /// Nesting exceeds ``DER/maximumNestingDepth``.
        package static let tooDeeplyNested = Code("tooDeeplyNested")
        /// A SET OF is not in DER order.
        package static let unsortedSet = Code("unsortedSet")
        /// A PEM document is malformed (framing, labels, headers or base64).
        package static let invalidPEM = Code("invalidPEM")
    }

    /// What went wrong.
    package let code: Code
    /// Human-readable detail, for diagnostics only.
    package let reason: String
    /// Where the error was raised.
    package let file: String
    /// Where the error was raised.
    package let line: UInt

    /// Creates an error.
    package init(_ code: Code, _ reason: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }
}

extension ASN1Error: Hashable {
    package static func == (lhs: ASN1Error, rhs: ASN1Error) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension ASN1Error: CustomStringConvertible {
    package var description: String { "ASN1Error.\(code): \(reason) (\(file):\(line))" }
}
