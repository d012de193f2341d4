import OSecCrypto
import OSecSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The device key: 32 random bytes in `<keychain>.devkey` (mode 0600) that wrap the class D key, and the
/// master key of a keychain without a password.
///
/// Format: `"OSECDK01"` (8 bytes) ‖ keychain id (16) ‖ key (32). The keychain id ties the file to its
/// database, so a key file from another keychain is rejected instead of producing decryption failures.
enum DeviceKeyFile {
    static let magic = Data("OSECDK01".utf8)
    static let keyLength = 32
    static let fileLength = 8 + 16 + keyLength

    /// Writes the device key durably (atomic rename, fsync).
    static func write(_ key: KeyMaterial, keychainID: Data, files: KeychainFiles) throws(KeychainStoreError) {
        var contents = magic
        contents.append(keychainID)
        contents.append(key.bytes)
        defer { contents.resetBytes(in: 0..<contents.count) }
        try KeychainFiles.writeDurably(contents, to: files.deviceKey)
    }

    /// Reads and checks the device key of the keychain `keychainID`: the file must be ours and private (see
    /// ``KeychainFiles``), never reached through a symbolic link.
    static func read(keychainID: Data, files: KeychainFiles) throws(KeychainStoreError) -> KeyMaterial {
        var contents: Data
        do {
            let file = try files.openChecked(files.deviceKey, "device-key file")
            contents = try KeychainFiles.mapping(files.deviceKey, "device-key file") { () throws(SystemError) in
                try file.readAll(limit: fileLength)
            }
        } catch  where error.code == .noSuchKeychain {
            throw KeychainStoreError(
                .invalidKeychain, "the device key file \(files.deviceKey) is missing", underlying: error)
        } catch  where error.code == .io {
            throw KeychainStoreError(
                .invalidKeychain, "the device key file \(files.deviceKey) is unreadable", underlying: error)
        }
        defer { contents.resetBytes(in: 0..<contents.count) }
        guard contents.count == fileLength, contents.prefix(8) == magic,
            contents.dropFirst(8).prefix(16) == keychainID
        else {
            throw KeychainStoreError(.invalidKeychain, "the device key file does not belong to this keychain")
        }
        return KeyMaterial(Data(contents.suffix(keyLength)))
    }
}
