internal import COpenSSL

/// How a process starts libcrypto, for processes that start often and use few algorithms.
///
/// The first algorithm fetch in a process fills OpenSSL 3's name map. Unless told otherwise, libcrypto first
/// copies every legacy cipher and digest name (the `EVP_get_cipherbyname` tables, several hundred entries) into
/// it — about 3.2 million instructions, a sixth of a `security find-generic-password -w` process. Every
/// algorithm this module uses is fetched by a name its provider registers itself (`EVP_CIPHER_fetch`,
/// `EVP_MD_fetch`, `EVP_KDF_fetch`), so a process that calls nothing else of libcrypto does not need them.
/// The configuration file (`openssl.cnf`, the system's provider and property policy) is still loaded.
public enum OpenSSLStartup {
    /// Starts libcrypto without the legacy name tables. Call it first, before anything in the process uses
    /// OpenSSL; a later call, or one after OpenSSL was used, changes nothing. Only for a process whose every
    /// OpenSSL call goes through this module's fetched algorithms (the `security` front end): code that looks
    /// ciphers or digests up by legacy name (`EVP_get_cipherbyname`, PEM's legacy encryption headers, libssl)
    /// would not find them. Returns whether libcrypto started.
    @discardableResult
    public static func withoutLegacyNameTables() -> Bool {
        let options = UInt64(OPENSSL_INIT_NO_ADD_ALL_CIPHERS) | UInt64(OPENSSL_INIT_NO_ADD_ALL_DIGESTS)
        return OPENSSL_init_crypto(options, nil) == 1
    }
}
