import Foundation
import Security

/// The certificate, keychain and PKCS#12 parts of `security demo`, through Apple's API plus OpenSecurity's
/// documented extras (CSR and certificate issuing, PKCS#12 export).
extension Demo {
    static func pki() throws {
        var error: Unmanaged<CFError>?
        let ec: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]

        step("Certificates: a private CA, a CSR from a client key, a certificate issued for it")
        let caKey = try unwrap(SecKeyCreateRandomKey(ec as CFDictionary, &error), error, "SecKeyCreateRandomKey")
        var caExtensions = OpenSecurityCertificates.Extensions()
        caExtensions.isCertificateAuthority = true
        caExtensions.keyUsage = [.keyCertSign, .cRLSign]
        let now = Date()
        let ca = try OpenSecurityCertificates.createSelfSignedCertificate(
            subject: [("O", "OpenSecurity Demo"), ("CN", "Demo Root CA")], privateKey: caKey,
            notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86400 * 365),
            extensions: caExtensions)
        print("CA: \(SecCertificateCopySubjectSummary(ca) ?? "?")")
        let clientKey = try unwrap(SecKeyCreateRandomKey(ec as CFDictionary, &error), error, "SecKeyCreateRandomKey")
        var csrExtensions = OpenSecurityCertificates.Extensions()
        csrExtensions.alternativeNames = [.dns("client.demo.example")]
        let csr = try OpenSecurityCertificates.createCertificateSigningRequest(
            subject: [("CN", "client.demo.example")], privateKey: clientKey, extensions: csrExtensions)
        print(
            "CSR: \(csr.der.count) bytes, signature valid: "
                + "\(OpenSecurityCertificates.verifyCertificateSigningRequest(csr.der))"
        )
        let caIdentity = try OpenSecurityCertificates.createIdentity(certificate: ca, privateKey: caKey)
        let leaf = try OpenSecurityCertificates.issueCertificate(
            fromRequest: csr.der, issuer: caIdentity, notBefore: now.addingTimeInterval(-60),
            notAfter: now.addingTimeInterval(86400 * 30))
        // The server replies with a PEM chain: one call turns it into certificates.
        let pemChain =
            OpenSecurityCertificates.pemRepresentation(of: leaf) + OpenSecurityCertificates.pemRepresentation(of: ca)
        let chain = try OpenSecurityCertificates.certificates(fromPEM: pemChain)
        print(
            "PEM chain from the \"server\": \(chain.count) certificates: "
                + "\(chain.map { SecCertificateCopySubjectSummary($0) as String? ?? "?" })"
        )
        var commonName: CFString?
        _ = SecCertificateCopyCommonName(chain[0], &commonName)
        print(
            "leaf common name: \(commonName ?? "?"), serial: "
                + "\(Demo.hex((SecCertificateCopySerialNumberData(chain[0], nil) as Data?) ?? Data()))"
        )

        step("Trust: SecTrust over the chain, and recovering from an expired certificate by moving the verify date")
        var trust: SecTrust?
        guard
            SecTrustCreateWithCertificates([chain[0]] as NSArray, SecPolicyCreateBasicX509(), &trust) == errSecSuccess,
            let trust
        else { throw DemoFailure(description: "SecTrustCreateWithCertificates failed") }
        _ = SecTrustSetAnchorCertificates(trust, [chain[1]] as NSArray)
        var trustError: CFError?
        print("SecTrustEvaluateWithError: \(SecTrustEvaluateWithError(trust, &trustError))")
        _ = SecTrustSetVerifyDate(trust, now.addingTimeInterval(86400 * 400) as NSDate)
        let expired = SecTrustEvaluateWithError(trust, &trustError)
        var trustResult = SecTrustResultType.invalid
        _ = SecTrustGetTrustResult(trust, &trustResult)
        print(
            "a year later: \(expired), result \(trustResult.rawValue) (recoverable), error "
                + "\(trustError?.code ?? 0): \(trustError?.localizedDescription ?? "")"
        )
        _ = SecTrustSetVerifyDate(trust, now as NSDate)
        print("verify date moved back: \(SecTrustEvaluateWithError(trust, &trustError))")

        step("Keychain: an encrypted SQLite keychain (a temporary one, so your login keychain is untouched)")
        let directory = NSTemporaryDirectory() + "opensecurity-demo-\(getpid())"
        var keychain: SecKeychain?
        let password = "demo password"
        guard
            SecKeychainCreate(
                directory + "/demo.keychain-db", UInt32(password.utf8.count), password, false, nil, &keychain)
                == errSecSuccess,
            let keychain
        else { throw DemoFailure(description: "SecKeychainCreate failed") }
        defer { _ = SecKeychainDelete(keychain) }
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "demo.example",
            kSecAttrAccount as String: "alice", kSecValueData as String: Data("hunter2".utf8),
            kSecUseKeychain as String: keychain,
        ]
        print("SecItemAdd password: \(SecItemAdd(add as CFDictionary, nil))")
        print("SecItemAdd again: \(SecItemAdd(add as CFDictionary, nil)) (errSecDuplicateItem)")
        var result: CFTypeRef?
        let find: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "demo.example",
            kSecAttrAccount as String: "alice", kSecReturnData as String: true, kSecUseKeychain as String: keychain,
        ]
        let status = SecItemCopyMatching(find as CFDictionary, &result)
        print(
            "SecItemCopyMatching: \(status), password \"\(String(decoding: result as? Data ?? Data(), as: UTF8.self))\""
        )
        _ = SecKeychainLock(keychain)
        print(
            "locked: SecItemCopyMatching → \(SecItemCopyMatching(find as CFDictionary, &result)) "
                + "(errSecInteractionNotAllowed)"
        )
        _ = SecKeychainUnlock(keychain, UInt32(password.utf8.count), password, true)

        // The flow that trips everyone: key first, the certificate later, then the identity by label.
        let keyAdd: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecValueRef as String: clientKey, kSecUseKeychain as String: keychain,
        ]
        let certAdd: [String: Any] = [
            kSecClass as String: kSecClassCertificate, kSecValueRef as String: leaf,
            kSecAttrLabel as String: "Demo client", kSecUseKeychain as String: keychain,
        ]
        print(
            "SecItemAdd private key: \(SecItemAdd(keyAdd as CFDictionary, nil)); certificate: "
                + "\(SecItemAdd(certAdd as CFDictionary, nil))"
        )
        let identityQuery: [String: Any] = [
            kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: "Demo client",
            kSecReturnRef as String: true, kSecUseKeychain as String: keychain,
        ]
        guard SecItemCopyMatching(identityQuery as CFDictionary, &result) == errSecSuccess,
            let identity = result as? SecIdentity
        else {
            throw DemoFailure(description: "identity not found: \(SecCopyLastErrorMessage() ?? "")")
        }
        print("identity found by label: \(identity)")

        step("PKCS#12: export the identity with its chain, import it with SecPKCS12Import")
        let p12 = try OpenSecurityPKCS12.export(
            identities: [identity], certificates: [ca], passphrase: "p12 password",
            friendlyNames: ["Demo client"])
        print("exported \(p12.count) bytes (PBES2 AES-256-CBC, PBKDF2-SHA-256, SHA-256 MAC)")
        var items: CFArray?
        let wrong = SecPKCS12Import(
            p12 as CFData, [kSecImportExportPassphrase as String: "wrong"] as CFDictionary, &items)
        print("SecPKCS12Import with a wrong password: \(wrong) (errSecAuthFailed)")
        let imported = SecPKCS12Import(
            p12 as CFData, [kSecImportExportPassphrase as String: "p12 password"] as CFDictionary, &items)
        let first = (items as? [[String: Any]])?.first
        let importedChain = first?[kSecImportItemCertChain as String] as? [SecCertificate] ?? []
        print(
            "SecPKCS12Import: \(imported), label \"\(first?[kSecImportItemLabel as String] as? String ?? "?")\", "
                + "chain \(importedChain.map { SecCertificateCopySubjectSummary($0) as String? ?? "?" })"
        )
        guard imported == errSecSuccess, importedChain.count == 2 else {
            throw DemoFailure(description: "PKCS#12 round trip failed")
        }
    }
}
