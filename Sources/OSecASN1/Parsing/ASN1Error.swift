/// The single error type thrown by `OSecASN1`.
///
/// Errors compare equal when their ``Code`` matches; the reason, file and line are diagnostics only.
package struct ASN1Error: CodedError, Sendable {
    /// An open set of error conditions. New codes can be added without breaking callers.
    package typealias Code = ErrorCode<ASN1Error>

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
    /// Hashes the code only, as ``CodedError`` equality compares it only.
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension ASN1Error: CustomStringConvertible {
    package var description: String { "ASN1Error.\(code): \(reason) (\(file):\(line))" }
}

/// The codes of ``ASN1Error``.
extension ErrorCode where Domain == ASN1Error {
    /// The input ended before a complete field was read.
    package static var truncatedField: Self { Self("truncatedField") }
    /// A length field is malformed, non-minimal (in DER), indefinite where not allowed, or too large.
    package static var invalidLength: Self { Self("invalidLength") }
    /// An identifier octet sequence is malformed.
    package static var invalidIdentifier: Self { Self("invalidIdentifier") }
    /// A node has a different tag than the one expected.
    package static var unexpectedTag: Self { Self("unexpectedTag") }
    /// A structure has the wrong shape (missing or extra elements, wrong form, ...).
    package static var invalidASN1Object: Self { Self("invalidASN1Object") }
    /// The encoding is valid BER but not allowed by the active ``EncodingRules``.
    package static var invalidEncoding: Self { Self("invalidEncoding") }
    /// An OBJECT IDENTIFIER is malformed.
    package static var invalidObjectIdentifier: Self { Self("invalidObjectIdentifier") }
    /// An INTEGER or ENUMERATED is malformed, non-minimal, or does not fit the requested type.
    package static var invalidInteger: Self { Self("invalidInteger") }
    /// A BOOLEAN is malformed.
    package static var invalidBoolean: Self { Self("invalidBoolean") }
    /// A NULL has content.
    package static var invalidNull: Self { Self("invalidNull") }
    /// A BIT STRING is malformed.
    package static var invalidBitString: Self { Self("invalidBitString") }
    /// A character string contains characters outside its alphabet or is badly encoded.
    package static var invalidString: Self { Self("invalidString") }
    /// A UTCTime or GeneralizedTime is malformed or out of range.
    package static var invalidTime: Self { Self("invalidTime") }
    /// Bytes follow the last complete node.
    package static var trailingBytes: Self { Self("trailingBytes") }
    /// Nesting exceeds ``DER/maximumNestingDepth``.
    package static var tooDeeplyNested: Self { Self("tooDeeplyNested") }
    /// A SET OF is not in DER order.
    package static var unsortedSet: Self { Self("unsortedSet") }
    /// A PEM document is malformed (framing, labels, headers or base64).
    package static var invalidPEM: Self { Self("invalidPEM") }
}
