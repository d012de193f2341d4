internal import COpenSSL

/// Hash functions supported by the crypto layer.
package enum DigestAlgorithm: Sendable, CaseIterable, Hashable {
    case md5, sha1, sha224, sha256, sha384, sha512

    /// Output length in bytes.
    package var outputSize: Int {
        switch self {
        case .md5: 16
        case .sha1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// Internal block length in bytes (the HMAC block size).
    package var blockSize: Int {
        switch self {
        case .md5, .sha1, .sha224, .sha256: 64
        case .sha384, .sha512: 128
        }
    }

    /// OpenSSL's name for the algorithm.
    var openSSLName: String {
        switch self {
        case .md5: "MD5"
        case .sha1: "SHA1"
        case .sha224: "SHA224"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
    }

    /// The EVP_MD, fetched once per process (fetching by name on every call costs a lookup).
    func fetched() throws(CryptoError) -> OpaquePointer {
        switch self {
        case .md5: try FetchedDigests.md5.get()
        case .sha1: try FetchedDigests.sha1.get()
        case .sha224: try FetchedDigests.sha224.get()
        case .sha256: try FetchedDigests.sha256.get()
        case .sha384: try FetchedDigests.sha384.get()
        case .sha512: try FetchedDigests.sha512.get()
        }
    }
}

/// Process-wide fetched EVP_MD objects (Swift `static let` initialisation is lazy and thread-safe).
private enum FetchedDigests {
    static let md5 = fetch("MD5")
    static let sha1 = fetch("SHA1")
    static let sha224 = fetch("SHA224")
    static let sha256 = fetch("SHA256")
    static let sha384 = fetch("SHA384")
    static let sha512 = fetch("SHA512")

    private static func fetch(_ name: String) -> FetchedAlgorithm {
        FetchedAlgorithm(name: name, raw: EVP_MD_fetch(nil, name, nil))
    }
}
