import Foundation
import OSecCrypto
import OSecKeychain

/// The key of a sync circle, derived from the circle passphrase with scrypt and a per-circle salt kept on the
/// server. 64 bytes come out of scrypt: the first 32 seal items (AES-256-GCM), the last 32 make the key-check
/// value, HMAC-SHA256(check key, "OSecSync.keycheck.v1" ‖ circle id), which the server stores so a wrong
/// passphrase is detected before anything is pulled or pushed.
package struct CircleKey: Sendable {
    /// The circle this key belongs to.
    package let circleID: Data
    let sealingKey: AESGCMKey
    /// The 64 derived bytes (kept to store the key in the local keychain after joining).
    let material: Data

    /// scrypt work factors of a circle (chosen by its creator, stored on the server): the keychain's
    /// `KDFParameters`, held to the tighter bounds a joiner accepts from the server.
    package struct Parameters: Sendable, Hashable {
        /// The work factors, valid for scrypt.
        let scrypt: KDFParameters

        /// CPU/memory cost N (a power of two, 2^10 to 2^20).
        package var n: UInt64 { scrypt.n }
        /// Block size r (1 to 16).
        package var r: UInt32 { scrypt.r }
        /// Parallelism p (1 to 4).
        package var p: UInt32 { scrypt.p }

        package init(n: UInt64, r: UInt32, p: UInt32) throws(SyncError) {
            // The server chooses what joiners run: bound it (a hostile row must not pin a CPU or 1 GiB for long).
            guard n >= 1 << 10, n <= 1 << 20, (1...16).contains(r), (1...4).contains(p),
                let scrypt = try? KDFParameters(n: n, r: r, p: p)
            else {
                throw SyncError(.serverIncompatible, "the circle's scrypt parameters are out of range")
            }
            self.scrypt = scrypt
        }

        private init(_ scrypt: KDFParameters) { self.scrypt = scrypt }

        /// New circles: N = 2^17, r = 8, p = 1 (128 MiB; paid once per process that joins, never per item).
        package static let `default` = Parameters(.default)
        /// Tests only (N = 2^10).
        package static let testing = Parameters(.testing)
    }

    static let saltLength = 16
    static let checkLabel = Data("OSecSync.keycheck.v1".utf8)

    /// Derives the key from `passphrase` (slow: scrypt).
    package static func derive(
        passphrase: Data, salt: Data, parameters: Parameters, circleID: Data
    ) throws(SyncError) -> CircleKey {
        try SyncError.converting {
            let material = try KDF.scrypt(
                password: passphrase, salt: salt, n: parameters.n, r: parameters.r, p: parameters.p, keyLength: 64)
            return try CircleKey(circleID: circleID, material: material)
        } otherwise: { error in
            SyncError(.internal, "scrypt failed", underlying: error)
        }
    }

    /// Rebuilds a key from its stored 64 bytes.
    package init(circleID: Data, material: Data) throws(SyncError) {
        guard material.count == 64 else { throw SyncError(.param, "a circle key has 64 bytes") }
        self.circleID = circleID
        self.material = material
        do {
            sealingKey = try AESGCMKey(key: material.prefix(32))
        } catch {
            throw SyncError(.internal, "preparing the circle key failed", underlying: error)
        }
    }

    /// The key-check value the server keeps for this circle.
    package var keyCheck: Data {
        HMAC.authenticate(.sha256, key: material.suffix(32), data: CircleKey.checkLabel + circleID)
    }

    /// `true` when `stored` is this key's check value (constant-time comparison).
    package func matches(keyCheck stored: Data) -> Bool {
        ConstantTime.equals(keyCheck, stored)
    }
}
