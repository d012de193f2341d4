import Foundation
import OSecASN1
import OSecCrypto

/// Entry points for reading PKCS#12 (PFX) files.
package enum PKCS12File {
    /// Decodes a PKCS#12 file: verifies the MAC (if any), decrypts the safes and shrouded keys.
    ///
    /// The work is bounded: besides the per-KDF, bag and size limits, the KDF iterations of the whole file are
    /// summed against a budget (``PKCS12Limits/maximumTotalIterations``).
    ///
    /// - Parameters:
    ///   - data: The file, DER or BER.
    ///   - password: The password; `nil` is treated as empty. For an empty password both the `00 00` BMP
    ///     encoding and the zero-length encoding are tried, as OpenSSL does.
    ///   - kdfIterationLimit: the KDF iterations the whole file may cost (``PKCS12Limits/maximumTotalIterations``;
    ///     smaller values are for tests).
    /// - Throws: `.authenticationFailed` for a wrong password (MAC mismatch; for files without a MAC, a
    ///   decryption failure or undecodable plaintext), `.malformed`, `.unsupportedAlgorithm` (naming the
    ///   OID) or `.resourceLimit` (among them: more KDF work than `kdfIterationLimit`).
    package static func decode(
        _ data: Data, password: String?, kdfIterationLimit: Int = PKCS12Limits.maximumTotalIterations
    ) throws(PKCS12Error) -> PKCS12Contents {
        try mapErrors {
            var decoder = PKCS12Decoder(
                password: PKCS12Password(password), budget: PKCS12KDFBudget(total: kdfIterationLimit))
            return try decoder.decode([UInt8](data))
        }
    }

    /// Decodes a file and pairs its keys and certificates (see ``PKCS12Contents/identities()``).
    package static func identities(
        in data: Data, password: String?
    ) throws(PKCS12Error)
        -> (identities: [PKCS12Identity], contents: PKCS12Contents)
    {
        let contents = try decode(data, password: password)
        return (try contents.identities(), contents)
    }

    /// Runs `body`, turning the lower layers' errors into `PKCS12Error`.
    static func mapErrors<T>(_ body: () throws -> T) throws(PKCS12Error) -> T {
        try PKCS12Error.converting(body) { error in
            switch error {
            case let error as ASN1Error:
                return PKCS12Error(.malformed, "ASN.1: \(error.reason)")
            case let error as CryptoError:
                switch error.code {
                case .resourceLimit: return PKCS12Error(.resourceLimit, error.reason)
                case .unsupportedAlgorithm: return PKCS12Error(.unsupportedAlgorithm, error.reason)
                case .invalidParameter, .invalidKey, .decryptionFailed: return PKCS12Error(.malformed, error.reason)
                default: return PKCS12Error(.internalError, error.description)
                }
            case is PBEDecryptionFailure:
                return PKCS12Error(.malformed, "decryption failed")
            default:
                return PKCS12Error(.internalError, "\(error)")
            }
        }
    }
}
