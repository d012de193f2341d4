import Foundation
import OSecCrypto
import OSecPKCS12

/// OpenSecurity's PKCS#12 API beyond Apple's: export, and import with error messages.
///
/// Apple offers no public PKCS#12 writer (`SecItemExport` is macOS-only and keychain-bound); this writes
/// `.p12` files that OpenSSL, Java's keytool, macOS and Windows read.
public enum OpenSecurityPKCS12 {
    /// How an exported file is protected.
    public struct ExportProfile: Sendable, Hashable {
        let profile: PKCS12ExportProfile

        /// PBES2 (PBKDF2-HMAC-SHA-256, AES-256-CBC) for keys and certificates, HMAC-SHA-256 MAC, 2048
        /// iterations — OpenSSL 3's default. Read by OpenSSL 1.1.1+, Java 8u301+, macOS 10.15+, Windows 10 1709+.
        public static let modern = ExportProfile(profile: .modern)
        /// Certificates PBE-SHA1-RC2-40, keys PBE-SHA1-3DES, HMAC-SHA-1 MAC: for old importers.
        public static let legacy = ExportProfile(profile: .legacy)
        /// Certificates and keys PBE-SHA1-3DES, HMAC-SHA-1 MAC: old importers without RC2.
        public static let legacyTripleDES = ExportProfile(profile: .legacyTripleDES)

        /// A modern profile with a custom iteration count (encryption and MAC), at least 2048.
        public static func modern(iterations: Int) -> ExportProfile {
            var profile = PKCS12ExportProfile.modern
            profile.iterations = max(iterations, PKCS12ExportProfile.defaultIterations)
            profile.macIterations = profile.iterations
            return ExportProfile(profile: profile)
        }
    }

    /// Writes a PKCS#12 file.
    ///
    /// - Parameters:
    ///   - identities: Private keys with their certificates; each key bag and certificate bag gets a
    ///     friendlyName (from `friendlyNames`, else none) and a localKeyId (SHA-1 of the certificate).
    ///   - certificates: Extra certificates (e.g. intermediates), stored without attributes.
    ///   - passphrase: The password; `nil` means empty.
    ///   - profile: ``ExportProfile/modern`` by default.
    ///   - friendlyNames: Labels parallel to `identities` (`nil` entries or a shorter array mean no label).
    /// - Throws: `NSError` in `NSOSStatusErrorDomain`: errSecParam (nothing to export, key and certificate do
    ///   not match, not a private key), errSecInternal.
    public static func export(
        identities: [SecIdentity], certificates: [SecCertificate] = [], passphrase: String?,
        profile: ExportProfile = .modern, friendlyNames: [String?] = []
    ) throws -> Data {
        var entries: [PKCS12ExportIdentity] = []
        for (index, identity) in identities.enumerated() {
            let name = index < friendlyNames.count ? friendlyNames[index] : nil
            entries.append(
                PKCS12ExportIdentity(
                    privateKey: identity.asymmetricKey, certificate: Data(identity.certificate.certificate.derBytes),
                    friendlyName: name))
        }
        do {
            return try PKCS12Builder.export(
                identities: entries, certificates: certificates.map { Data($0.certificate.derBytes) },
                password: passphrase, profile: profile.profile)
        } catch {
            throw SecError(error).nsError
        }
    }

    /// Like `SecPKCS12Import`, but throws an `NSError` whose description explains the failure (for an
    /// unsupported algorithm it names the OID).
    public static func importItems(_ data: Data, passphrase: String?) throws -> [[String: Any]] {
        do {
            return try PKCS12Importer.importItems(data, passphrase: passphrase).map(\.swiftDictionary)
        } catch let error as SecError {
            throw error.nsError
        }
    }
}
