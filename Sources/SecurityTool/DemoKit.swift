import Foundation
import OpenSecurityKit
import Security

/// The OpenSecurityKit part of `security demo`: the keychain one-liners and the transport envelope (a modern and a
/// legacy round trip), on a temporary keychain and a fresh RSA-2048 key.
enum DemoKit {
    static func run() throws {
        try keychain()
        try envelopes()
    }

    static func keychain() throws {
        Demo.step("OpenSecurityKit: keychain one-liners (a temporary keychain)")
        let directory = NSTemporaryDirectory() + "opensecurity-demo-kit-\(getpid())"
        var created: SecKeychain?
        guard SecKeychainCreate(directory + "/kit.keychain-db", 0, nil, false, nil, &created) == errSecSuccess,
            let created
        else { throw Demo.DemoFailure(description: "SecKeychainCreate failed") }
        defer {
            _ = SecKeychainDelete(created)
            try? FileManager.default.removeItem(atPath: directory)
        }
        let keychain = Keychain(service: "api.example.com", keychain: created).label("Example API")
        try keychain.set("s3cret", forAccount: "alice")
        try keychain.set("n3w s3cret", forAccount: "alice")
        try keychain.set(Data([0xDE, 0xAD]), forAccount: "bob")
        print("set twice, read: \"\(try keychain.string(forAccount: "alice") ?? "nil")\"")
        print("accounts: \(try keychain.accounts())")
        struct Session: Codable, Equatable {
            var token: String
            var expires: Date
        }
        let session = Session(token: "tok-123", expires: Date(timeIntervalSince1970: 1_900_000_000))
        try keychain.set(session, forAccount: "session")
        print("Codable value back: \(try keychain.value(Session.self, forAccount: "session") == session)")
        try KeychainObjects.save(["uid": 42, "name": "alice"] as NSDictionary, forIdentifier: "profile", in: created)
        let profile = try KeychainObjects.object(forIdentifier: "profile", in: created) as? [String: Any]
        print("archived object by identifier: name = \(profile?["name"] ?? "nil")")
        do {
            _ = try keychain.string(forAccount: "bob")
        } catch {
            print("bytes that are not UTF-8, read as text: \(error)")
        }
        print("deleted: \(try keychain.delete(account: "alice")), again: \(try keychain.delete(account: "alice"))")
    }

    static func envelopes() throws {
        Demo.step("OpenSecurityKit: the RSA + AES transport envelope (RSA-2048)")
        var error: Unmanaged<CFError>?
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048,
        ]
        let serverKey = try Demo.unwrap(
            SecKeyCreateRandomKey(attributes as CFDictionary, &error), error, "SecKeyCreateRandomKey")
        let serverPublic = try Demo.unwrap(SecKeyCopyPublicKey(serverKey), nil, "SecKeyCopyPublicKey")
        let order = #"{"order":"2024-0001","amount":"10.00"}"#
        for profile in [Envelope.Profile.modern, .legacy] {
            let envelope = try Envelope.seal(order, to: serverPublic, id: "merchant-42", profile: profile)
            let json = try envelope.jsonString()
            print("\(profile): \(json.prefix(110))…")
            let opened = try Envelope(json: json).openText(with: serverKey, profile: profile)
            print("\(profile) opened: \(opened)")
            guard opened == order else { throw Demo.DemoFailure(description: "the \(profile) envelope did not open") }
        }
        var tampered = try Envelope.seal(order, to: serverPublic, id: "merchant-42")
        tampered.identifier = "merchant-43"
        do {
            _ = try tampered.open(with: serverKey)
            throw Demo.DemoFailure(description: "a tampered envelope opened")
        } catch let failure as SecurityKitError {
            print("changed id: \(failure)")
        }
    }
}
