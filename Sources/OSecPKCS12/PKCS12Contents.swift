import Foundation
import OSecCrypto

/// The decrypted contents of a PKCS#12 file: its bags and how its integrity was protected.
package struct PKCS12Contents: Sendable {
    /// How the file's integrity was protected.
    package enum Integrity: Sendable, Hashable {
        /// No MAC (`openssl pkcs12 -nomac`): the password was checked only by decryption.
        case none
        /// Password MAC (RFC 7292 MacData) with the given digest and iteration count.
        case mac(digest: DigestAlgorithm, iterations: Int)
        /// PBMAC1 (RFC 9579) with the given HMAC digest and PBKDF2 iteration count.
        case pbmac1(digest: DigestAlgorithm, iterations: Int)
    }

    /// The top-level bags in file order; SafeContentsBags keep their nesting.
    package let bags: [SafeBag]
    /// The integrity protection that was verified.
    package let integrity: Integrity

    package init(bags: [SafeBag], integrity: Integrity) {
        self.bags = bags
        self.integrity = integrity
    }

    /// Every bag, with SafeContentsBags flattened in place (depth-first, file order).
    package var allBags: [SafeBag] {
        var result: [SafeBag] = []
        func walk(_ bags: [SafeBag]) {
            for bag in bags {
                if case .safeContents(let inner, _) = bag { walk(inner) } else { result.append(bag) }
            }
        }
        walk(bags)
        return result
    }

    /// The X.509 certificates in file order.
    package var certificates: [PKCS12Certificate] {
        allBags.compactMap {
            if case .certificate(let der, let attributes) = $0 {
                return PKCS12Certificate(der: der, attributes: attributes)
            }
            return nil
        }
    }

    /// The private keys in file order.
    package var privateKeys: [(key: PrivateKeyBag, attributes: BagAttributes)] {
        allBags.compactMap {
            if case .privateKey(let key, let attributes) = $0 { return (key, attributes) }
            return nil
        }
    }

    /// One identity per private key that has a matching certificate, in key order.
    ///
    /// A key pairs with the certificate that has the same `localKeyId` *and* the same public key; failing
    /// that, with the first certificate carrying its public key. The chain is the leaf followed by the
    /// issuers found among the file's certificates (issuer name = subject name), in chain order.
    /// Keys other than RSA and NIST P-256/384/521 throw `.unsupportedAlgorithm`.
    package func identities() throws(PKCS12Error) -> [PKCS12Identity] {
        let keys = privateKeys
        guard !keys.isEmpty else { return [] }
        let certificates = self.certificates
        var infos: [PKCS12CertificateInfo?] = []
        infos.reserveCapacity(certificates.count)
        for certificate in certificates {
            infos.append(try? PKCS12CertificateInfo(der: certificate.der))
        }
        var publicKeys: [Int: AsymmetricKey] = [:]
        func publicKey(_ index: Int) -> AsymmetricKey? {
            if let cached = publicKeys[index] { return cached }
            guard let info = infos[index],
                let key = try? AsymmetricKey(subjectPublicKeyInfo: Data(info.subjectPublicKeyInfo))
            else { return nil }
            publicKeys[index] = key
            return key
        }

        var result: [PKCS12Identity] = []
        for (keyBag, keyAttributes) in keys {
            let key: AsymmetricKey
            switch Result(catching: { () throws(CryptoError) in try AsymmetricKey(pkcs8: keyBag.pkcs8) }) {
            case .success(let decoded):
                key = decoded
            case .failure(let error):
                if error.code == .unsupportedAlgorithm {
                    throw PKCS12Error(.unsupportedAlgorithm, "private key: \(error.reason)")
                }
                throw PKCS12Error(.malformed, "private key does not decode: \(error.reason)")
            }
            // 1. Same localKeyID and same public key.
            var match: Int? = nil
            if let keyID = keyAttributes.localKeyID {
                match = certificates.indices.first { index in
                    certificates[index].attributes.localKeyID == keyID
                        && publicKey(index).map { key.isSamePublicKey(as: $0) } == true
                }
            }
            // 2. Any certificate with the key's public key.
            if match == nil {
                match = certificates.indices.first { index in
                    publicKey(index).map { key.isSamePublicKey(as: $0) } == true
                }
            }
            guard let leafIndex = match, let leafInfo = infos[leafIndex] else { continue }
            let chainIndices = PKCS12Contents.chain(from: leafIndex, infos: infos)
            let leaf = certificates[leafIndex]
            let keyID = keyAttributes.localKeyID ?? leaf.attributes.localKeyID
            result.append(
                PKCS12Identity(
                    privateKey: key, privateKeyPKCS8: keyBag.pkcs8, certificate: leaf.der,
                    chain: chainIndices.map { certificates[$0].der },
                    friendlyName: keyAttributes.friendlyName ?? leaf.attributes.friendlyName,
                    localKeyID: keyID, publicKeyHash: leafInfo.publicKeyHash,
                    keyAttributes: keyAttributes))
        }
        return result
    }

    /// Indices of the chain starting at `leaf`: each next element is a not-yet-used certificate whose
    /// subject equals the current issuer. Stops at a self-issued certificate or after
    /// ``PKCS12Limits/maximumChainLength`` certificates.
    static func chain(from leaf: Int, infos: [PKCS12CertificateInfo?]) -> [Int] {
        var chain = [leaf]
        var used: Set<Int> = [leaf]
        var current = leaf
        while chain.count < PKCS12Limits.maximumChainLength, let info = infos[current], !info.isSelfIssued {
            // Prefer an issuer whose own issuer is also present (longest chain), else the first match.
            let candidates = infos.indices.filter { index in
                !used.contains(index) && infos[index]?.subject == info.issuer
            }
            guard let next = candidates.first else { break }
            chain.append(next)
            used.insert(next)
            current = next
        }
        return chain
    }
}
