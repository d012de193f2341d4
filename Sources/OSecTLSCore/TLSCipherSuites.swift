/// The cipher suites OpenSecurity offers: the ones Apple's Secure Transport enables by default
/// (`kSSLCiphersuiteGroupDefault`), in Apple's order, by IANA number and OpenSSL name.
///
/// 3DES, RC4, export, anonymous, PSK and DHE suites are not offered (Apple's default group does not enable
/// them either; 3DES is only in its compatibility group).
package enum TLSCipherSuites {
    /// One suite.
    package struct Suite: Sendable, Hashable {
        /// The IANA number (Apple's `SSLCipherSuite` value).
        package let number: UInt16
        /// OpenSSL's name for it.
        package let openSSLName: String
        /// True for the TLS 1.3 suites (configured with SSL_set_ciphersuites rather than SSL_set_cipher_list).
        package var isTLS13: Bool { number >> 8 == 0x13 }
        /// True for the ECDHE key exchanges (forward secrecy); TLS 1.3 suites name no key exchange.
        package var isEphemeralKeyExchange: Bool { openSSLName.hasPrefix("ECDHE-") }
        /// True for the ChaCha20-Poly1305 suites.
        package var isChaCha20: Bool { openSSLName.contains("CHACHA20") }
    }

    /// Every supported suite, in preference order.
    package static let all: [Suite] = [
        Suite(number: 0x1301, openSSLName: "TLS_AES_128_GCM_SHA256"),
        Suite(number: 0x1302, openSSLName: "TLS_AES_256_GCM_SHA384"),
        Suite(number: 0x1303, openSSLName: "TLS_CHACHA20_POLY1305_SHA256"),
        Suite(number: 0xC02C, openSSLName: "ECDHE-ECDSA-AES256-GCM-SHA384"),
        Suite(number: 0xC02B, openSSLName: "ECDHE-ECDSA-AES128-GCM-SHA256"),
        Suite(number: 0xC024, openSSLName: "ECDHE-ECDSA-AES256-SHA384"),
        Suite(number: 0xC023, openSSLName: "ECDHE-ECDSA-AES128-SHA256"),
        Suite(number: 0xC00A, openSSLName: "ECDHE-ECDSA-AES256-SHA"),
        Suite(number: 0xC009, openSSLName: "ECDHE-ECDSA-AES128-SHA"),
        Suite(number: 0xCCA9, openSSLName: "ECDHE-ECDSA-CHACHA20-POLY1305"),
        Suite(number: 0xC030, openSSLName: "ECDHE-RSA-AES256-GCM-SHA384"),
        Suite(number: 0xC02F, openSSLName: "ECDHE-RSA-AES128-GCM-SHA256"),
        Suite(number: 0xC028, openSSLName: "ECDHE-RSA-AES256-SHA384"),
        Suite(number: 0xC027, openSSLName: "ECDHE-RSA-AES128-SHA256"),
        Suite(number: 0xC014, openSSLName: "ECDHE-RSA-AES256-SHA"),
        Suite(number: 0xC013, openSSLName: "ECDHE-RSA-AES128-SHA"),
        Suite(number: 0xCCA8, openSSLName: "ECDHE-RSA-CHACHA20-POLY1305"),
        Suite(number: 0x009D, openSSLName: "AES256-GCM-SHA384"),
        Suite(number: 0x009C, openSSLName: "AES128-GCM-SHA256"),
        Suite(number: 0x003D, openSSLName: "AES256-SHA256"),
        Suite(number: 0x003C, openSSLName: "AES128-SHA256"),
        Suite(number: 0x0035, openSSLName: "AES256-SHA"),
        Suite(number: 0x002F, openSSLName: "AES128-SHA"),
    ]

    /// The supported suites among `numbers` (unknown numbers are dropped), in the caller's order.
    package static func suites(_ numbers: [UInt16]) -> [Suite] {
        numbers.compactMap { number in all.first { $0.number == number } }
    }

    /// OpenSSL's TLS 1.2 cipher list and TLS 1.3 ciphersuite list for `suites` (either may be empty).
    static func openSSLLists(_ suites: [Suite]) -> (tls12: String, tls13: String) {
        (
            suites.filter { !$0.isTLS13 }.map(\.openSSLName).joined(separator: ":"),
            suites.filter(\.isTLS13).map(\.openSSLName).joined(separator: ":")
        )
    }
}

/// TLS protocol versions as they appear on the wire.
package enum TLSVersion {
    package static let tls10: Int32 = 0x0301
    package static let tls11: Int32 = 0x0302
    package static let tls12: Int32 = 0x0303
    package static let tls13: Int32 = 0x0304
}
