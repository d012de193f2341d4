import OSecASN1

/// The domain of ``CMSError``.
package enum CMSErrorDomain: ErrorDomain {
    package static var typeName: String { "CMSError" }
}

/// The one error type thrown by `OSecCMS`: a code, a reason (never key or content bytes) and the lower-layer error.
package typealias CMSError = DomainError<CMSErrorDomain>

/// The codes of ``CMSError``.
extension ErrorCode where Domain == CMSErrorDomain {
    /// The bytes are not a well-formed CMS message of a kind we read (→ errSecUnknownFormat).
    package static var malformed: Self { Self("malformed") }
    /// The message uses an algorithm we do not implement; the reason names its OID (→ errSecUnknownFormat when
    /// decoding, errSecParam when encoding).
    package static var unsupportedAlgorithm: Self { Self("unsupportedAlgorithm") }
    /// The message exceeds one of the ``CMSLimits`` (→ errSecUnknownFormat).
    package static var resourceLimit: Self { Self("resourceLimit") }
    /// A caller-supplied parameter is invalid (→ errSecParam).
    package static var invalidParameter: Self { Self("invalidParameter") }
    /// None of the recipients of an enveloped message is one of the keys offered (→ errSecItemNotFound).
    package static var noMatchingRecipient: Self { Self("noMatchingRecipient") }
    /// The content-encryption key or the content does not decrypt (→ errSecDecode).
    package static var decryptionFailed: Self { Self("decryptionFailed") }
    /// A signing or key operation of the caller's key failed (→ the key's own status, else errSecInternal).
    package static var keyOperationFailed: Self { Self("keyOperationFailed") }
}

extension CMSError {
    static func malformed(_ reason: String, _ underlying: (any Error & Sendable)? = nil) -> CMSError {
        CMSError(.malformed, reason, underlying: underlying)
    }

    /// Runs a decoding step: CMS errors pass through, anything else (ASN.1, X.509) becomes `.malformed`.
    static func decoding<R>(_ what: String, _ body: () throws -> R) throws(CMSError) -> R {
        try CMSError.converting(body) { error in
            CMSError(.malformed, "malformed \(what)", underlying: error)
        }
    }
}
