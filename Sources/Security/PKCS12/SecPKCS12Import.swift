import Foundation
import OSecPKCS12
import OSecX509

/// Apple's `SecPKCS12Import`: decodes a PKCS#12 file into one dictionary per identity.
///
/// Options: `kSecImportExportPassphrase` (a string; absent = empty). `kSecImportToMemoryOnly`,
/// `kSecImportExportKeychain` and `kSecImportExportAccess` are accepted and ignored — import never adds
/// anything to a keychain here.
///
/// Each dictionary holds `kSecImportItemIdentity`, `kSecImportItemCertChain` (leaf first, then the issuers
/// found in the file, in chain order), `kSecImportItemTrust` (a SecTrust over that chain with the basic
/// X.509 policy), `kSecImportItemLabel` (the friendlyName, else the leaf's subject summary) and
/// `kSecImportItemKeyID` (the localKeyId, else the SHA-1 of the public key). A file with certificates but
/// no key gives an empty array (iOS behaviour).
///
/// Results: `errSecAuthFailed` for a wrong password; `errSecDecode` for a malformed file, an unsupported
/// algorithm or a file beyond the resource limits; `errSecParam` for bad options.
public func SecPKCS12Import(
    _ importedData: CFData, _ options: CFDictionary, _ items: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    withOSStatus {
        let passphrase = try AttributeDictionary(options).string(kSecImportExportPassphrase)
        // `swiftData`, not `as Data`: Foundation's bridging copies byte by byte on Linux (≈ 0.5 ms for 2.5 KB).
        let results = try PKCS12Importer.importItems(importedData.swiftData, passphrase: passphrase)
        items.pointee = results.map { $0.dictionary } as NSArray
    }
}

/// The facade's PKCS#12 import logic (also behind ``OpenSecurityPKCS12/importItems(_:passphrase:)``).
enum PKCS12Importer {
    struct Item {
        let identity: SecIdentity
        let chain: [SecCertificate]
        let trust: SecTrust
        let label: String?
        let keyID: Data

        var swiftDictionary: [String: Any] {
            var result: [String: Any] = [
                kSecImportItemIdentity as String: identity,
                kSecImportItemCertChain as String: chain as NSArray,
                kSecImportItemTrust as String: trust,
                kSecImportItemKeyID as String: keyID as NSData,
            ]
            if let label { result[kSecImportItemLabel as String] = label as NSString }
            return result
        }

        var dictionary: NSDictionary { swiftDictionary as NSDictionary }
    }

    static func importItems(_ data: Data, passphrase: String?) throws -> [Item] {
        let identities: [PKCS12Identity]
        do {
            identities = try PKCS12File.identities(in: data, password: passphrase).identities
        } catch {
            throw SecError(error)
        }
        return try identities.map { found in
            // Built from the DER directly rather than through SecCertificateCreateWithData(CFData), whose
            // NSData bridging costs more than the whole PKCS#12 parse.
            let chain = try found.chain.map { der in
                do {
                    return SecCertificate(try Certificate(derEncoded: [UInt8](der)))
                } catch {
                    throw SecError.decode("PKCS#12: a certificate in the file does not decode: \(error)")
                }
            }
            guard let leaf = chain.first else { throw SecError(errSecInternal, "PKCS#12: empty chain") }
            let identity: SecIdentity
            guard let privateKey = SecKey.wrapping(found.privateKey) else {
                throw SecError.decode("PKCS#12: the private key is Ed25519, which has no SecKey type")
            }
            do {
                identity = try SecIdentity(certificate: leaf, privateKey: privateKey)
            } catch let error as SecError {
                throw SecError(errSecDecode, "PKCS#12: \(error.message)")
            }
            var trust: SecTrust?
            let status = SecTrustCreateWithCertificates(chain as NSArray, SecPolicyCreateBasicX509(), &trust)
            guard status == errSecSuccess, let trust else { throw SecError(status, "PKCS#12: cannot create the trust") }
            // Label: the friendlyName, else Apple's subject summary of the leaf.
            let label = found.friendlyName ?? (SecCertificateCopySubjectSummary(leaf) as String?)
            return Item(identity: identity, chain: chain, trust: trust, label: label, keyID: found.keyID)
        }
    }
}
