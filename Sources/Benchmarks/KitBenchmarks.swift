import Foundation
import OpenSSLBaseline
import OpenSecurityKit
import Security

/// OpenSecurityKit's modern envelope (RSA-2048 recipient) next to the floor of the same operations in C: RAND_bytes,
/// RSA-OAEP-SHA256 of the message key and AES-256-GCM of the message through EVP (COpenSSLKitBaseline.h).
enum KitBenchmarks {
    static func rows() -> [BenchRow] {
        var error: Unmanaged<CFError>?
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048,
        ]
        guard let privateKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error),
            let publicKey = SecKeyCopyPublicKey(privateKey),
            let privatePEM = try? OpenSecurityKeys.pemRepresentation(of: privateKey),
            let publicPEM = try? OpenSecurityKeys.pemRepresentation(of: publicKey)
        else { return [] }
        var rows: [BenchRow] = []
        for length in [1 << 10, 1 << 20] {
            let label = length == 1 << 10 ? "1 KiB" : "1 MiB"
            let message = Data(repeating: 0x5A, count: length)
            let bytes = [UInt8](message)
            rows.append(
                BenchRow(
                    name: "[kit] Envelope.seal modern RSA-2048 \(label)", unit: "op/s",
                    opensslLabel: "RAND_bytes + EVP_PKEY_encrypt (OAEP) + EVP AES-256-GCM",
                    ours: { seconds in
                        measure(seconds) { _ = try Envelope.seal(message, to: publicKey, id: "merchant-42") }
                    },
                    openssl: { osec_baseline_envelope_seal(publicPEM, Int32(length), $0) }))
            guard let sealed = try? Envelope.seal(message, to: publicKey, id: "merchant-42") else { continue }
            rows.append(
                BenchRow(
                    name: "[kit] Envelope.open modern RSA-2048 \(label)", unit: "op/s",
                    opensslLabel: "EVP_PKEY_decrypt (OAEP) + EVP AES-256-GCM",
                    ours: { seconds in measure(seconds) { _ = try sealed.open(with: privateKey) } },
                    openssl: { osec_baseline_envelope_open(privatePEM, Int32(length), $0) }))
            guard length == 1 << 20 else { continue }
            // The byte-array variants: the message reaches the cipher, and the plaintext the caller, uncopied.
            rows.append(
                BenchRow(
                    name: "[kit] Envelope.seal(bytes:) modern RSA-2048 \(label)", unit: "op/s",
                    opensslLabel: "RAND_bytes + EVP_PKEY_encrypt (OAEP) + EVP AES-256-GCM",
                    ours: { seconds in
                        measure(seconds) { _ = try Envelope.seal(bytes: bytes, to: publicKey, id: "merchant-42") }
                    },
                    openssl: { osec_baseline_envelope_seal(publicPEM, Int32(length), $0) }))
            rows.append(
                BenchRow(
                    name: "[kit] Envelope.openBytes modern RSA-2048 \(label)", unit: "op/s",
                    opensslLabel: "EVP_PKEY_decrypt (OAEP) + EVP AES-256-GCM",
                    ours: { seconds in measure(seconds) { _ = try sealed.openBytes(with: privateKey) } },
                    openssl: { osec_baseline_envelope_open(privatePEM, Int32(length), $0) }))
        }
        return rows
    }
}
