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
            // A seal row is timed against the C seal floor, an open row against the C open floor.
            func row(_ call: String, seals: Bool, _ ours: @escaping (Double) -> Double) -> BenchRow {
                BenchRow(
                    name: "[kit] \(call) modern RSA-2048 \(label)", unit: "op/s",
                    opensslLabel: seals
                        ? "RAND_bytes + EVP_PKEY_encrypt (OAEP) + EVP AES-256-GCM"
                        : "EVP_PKEY_decrypt (OAEP) + EVP AES-256-GCM",
                    ours: ours,
                    openssl: seals
                        ? { osec_baseline_envelope_seal(publicPEM, Int32(length), $0) }
                        : { osec_baseline_envelope_open(privatePEM, Int32(length), $0) })
            }
            rows.append(
                row("Envelope.seal", seals: true) { seconds in
                    measure(seconds) { _ = try Envelope.seal(message, to: publicKey, id: "merchant-42") }
                })
            guard let sealed = try? Envelope.seal(message, to: publicKey, id: "merchant-42") else { continue }
            rows.append(
                row("Envelope.open", seals: false) { seconds in
                    measure(seconds) { _ = try sealed.open(with: privateKey) }
                })
            guard length == 1 << 20 else { continue }
            // The byte-array variants: the message reaches the cipher, and the plaintext the caller, uncopied.
            rows.append(
                row("Envelope.seal(bytes:)", seals: true) { seconds in
                    measure(seconds) { _ = try Envelope.seal(bytes: bytes, to: publicKey, id: "merchant-42") }
                })
            rows.append(
                row("Envelope.openBytes", seals: false) { seconds in
                    measure(seconds) { _ = try sealed.openBytes(with: privateKey) }
                })
        }
        return rows
    }
}
