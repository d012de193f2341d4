// swift-tools-version:6.0
// OpenSecurity: Apple's Security framework (Certificate, Key and Trust Services; Keychain Services) for Linux.
//
// Layers (a target depends only on layers below it):
//   C shims (COpenSSL, COpenSSLShims, CSQLite)
//   OSecASN1 (pure Swift DER/BER + PEM, hex/base64; depends on nothing)
//   → OSecCrypto (the only Swift code that touches OpenSSL)      OSecSQLite (the only Swift code that touches SQLite)
//     OSecSystem (the only Swift code that calls POSIX file functions)
//   → OSecX509
//   → OSecPKCS12, OSecTrust
//   → OSecKeychain
//   → Security (Apple's API, module name `Security`), CommonCrypto
//   → OpenSecurityTLS (async TLS over POSIX sockets, in the Security product)
//   → OpenSecurityKit (conveniences built only on Security, CommonCrypto and Foundation)
//   → SecurityTool (`security` CLI), Benchmarks, LimboHarness
// TLS: CLibSSL (libssl) → CTLSShims → OSecTLSCore (the only Swift code that touches libssl) → Security
import PackageDescription

let package = Package(
    name: "OpenSecurity",
    products: [
        .library(name: "Security", targets: ["Security", "OpenSecurityTLS"]),
        .library(name: "CommonCrypto", targets: ["CommonCrypto"]),
        .library(name: "LocalAuthentication", targets: ["LocalAuthentication"]),
        .library(name: "OpenSecurityKit", targets: ["OpenSecurityKit"]),
        .executable(name: "security", targets: ["SecurityFront"]),
        .executable(name: "security-tool", targets: ["SecurityTool"]),
        .executable(name: "opensecurity-bench", targets: ["Benchmarks"]),
        .executable(name: "limbo-harness", targets: ["LimboHarness"]),
    ],
    targets: [
        // MARK: C layer
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "COpenSSLShims", dependencies: ["COpenSSL"]),
        .systemLibrary(
            name: "CLibSSL",
            pkgConfig: "libssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "CTLSShims", dependencies: ["CLibSSL"]),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // Baseline measurements of OpenSSL itself, for the benchmark executable only.
        .target(name: "COpenSSLBaseline", dependencies: ["COpenSSL", "CLibSSL", "CSQLite", "CLibPQ"]),
        .target(name: "OpenSSLBaseline", dependencies: ["COpenSSLBaseline"]),

        // MARK: Swift wrapper layers (the only Swift code with unsafe pointers)
        // The pthread mutex of the wrapper layers (they build on FoundationEssentials, which has no NSLock).
        .target(name: "OSecLocks"),
        .target(name: "OSecCrypto", dependencies: ["COpenSSL", "COpenSSLShims", "OSecASN1", "OSecLocks"]),
        .target(name: "OSecSQLite", dependencies: ["CSQLite", "OSecLocks"]),
        // NSData as crypto input and output for the facade (OSecCrypto itself builds on FoundationEssentials).
        .target(name: "OSecCryptoFoundation", dependencies: ["OSecCrypto"]),
        // POSIX: files with exact modes, durability, atomic replacement (the C library, wrapped); terminals,
        // Unix sockets, locked memory and detached processes for the keychain agent.
        .target(name: "CSystemShims"),
        // libpq loaded on first use (dlopen), so that processes that never sync do not pay for it at start-up.
        .target(name: "CLibPQLoader", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "OSecSystem", dependencies: ["CSystemShims", "OSecLocks"]),
        // libssl: SSL_CTX/SSL owners, memory BIOs, handshake state machine, certificate hand-off to SecTrust.
        .target(name: "OSecTLSCore", dependencies: ["CLibSSL", "CTLSShims"]),
        // PostgreSQL client (libpq): connections, parameterized queries, LISTEN/NOTIFY (the keychain's sync).
        .target(name: "OSecPostgres", dependencies: ["CLibPQLoader"]),
        // libdbus: bus connections, typed messages, object dispatch (the keychain's Secret Service provider).
        // libdbus loaded on first use (dlopen), so that processes that never talk D-Bus do not pay for it at start-up.
        .target(name: "CDBusLoader", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "OSecDBus", dependencies: ["CDBusLoader"]),

        // MARK: Pure Swift layers
        .target(name: "OSecASN1"),
        .target(name: "OSecX509", dependencies: ["OSecASN1", "OSecCrypto"]),
        .target(name: "OSecPKCS12", dependencies: ["OSecASN1", "OSecCrypto", "OSecX509"]),
        .target(name: "OSecTrust", dependencies: ["OSecASN1", "OSecCrypto", "OSecSystem", "OSecX509"]),
        // CMS (RFC 5652): SignedData, EnvelopedData and AuthEnvelopedData structures, for CMSEncoder/CMSDecoder.
        .target(name: "OSecCMS", dependencies: ["OSecASN1", "OSecCrypto", "OSecX509"]),
        // The per-user keychain agent (server and client): unlock state shared between processes of one user.
        .target(name: "OSecKeychainAgent", dependencies: ["OSecSystem"]),
        // Where a user's keychains are (default keychain, preferences and search list, operands, access groups),
        // without the keychain store: the `security` front end resolves paths with it and loads no SQLite or OpenSSL.
        .target(name: "OSecKeychainPaths", dependencies: ["OSecSystem", "OSecASN1"]),
        .target(
            name: "OSecKeychain",
            dependencies: [
                "OSecSQLite", "OSecCrypto", "OSecSystem", "OSecKeychainAgent", "OSecKeychainPaths", "OSecASN1",
                "OSecLocks",
            ]),
        // What the `security` tool and its front end share: option parsing, the password's text, the -w request.
        .target(
            name: "OSecToolBase", dependencies: ["OSecKeychainPaths", "OSecKeychainAgent", "OSecSystem", "OSecASN1"]),
        // The -w read on the keychain store (the full tool's first answer) and the agent's reader.
        .target(
            name: "OSecToolCore",
            dependencies: ["OSecKeychain", "OSecKeychainAgent", "OSecSystem", "OSecASN1", "OSecToolBase"]),
        // Synchronizable items shared across machines through PostgreSQL, end-to-end encrypted.
        .target(
            name: "OSecSync", dependencies: ["OSecKeychain", "OSecPostgres", "OSecCrypto", "OSecSystem", "OSecASN1"]),
        // The freedesktop Secret Service (org.freedesktop.secrets) over the keychain store.
        .target(
            name: "OSecSecretService",
            dependencies: ["OSecKeychain", "OSecDBus", "OSecCrypto", "OSecSystem", "OSecASN1"]),

        // MARK: Apple's API
        .target(
            name: "Security",
            dependencies: [
                "OSecCrypto", "OSecASN1", "OSecX509", "OSecPKCS12", "OSecTrust", "OSecKeychain", "OSecSystem",
                "OSecTLSCore", "OSecSync",
                "OSecCMS",
                "OSecCryptoFoundation",
                "OSecKeychainPaths",
            ]),
        // Apple's CommonCrypto C API as Swift imports it (module name `CommonCrypto`).
        .target(name: "CommonCrypto", dependencies: ["OSecCrypto", "OSecSystem"]),
        // The small modern TLS API (async TLSConnection / TLSListener), shipped in the Security product.
        .target(name: "OpenSecurityTLS", dependencies: ["Security", "OSecTLSCore", "OSecSystem"]),

        // Apple's LocalAuthentication (LAContext), answering as a device without biometry or passcode.
        .target(name: "LocalAuthentication", dependencies: ["Security"]),

        // MARK: Conveniences on Apple's API only (keychain one-liners, RSA helpers, the transport envelope)
        // OSecCrypto only for the envelope's one-pass AES-GCM seal of a `Data` (docs/design/kit.md, Performance),
        // OSecASN1 for its hex digests (the package's one hex encoder).
        .target(name: "OpenSecurityKit", dependencies: ["Security", "CommonCrypto", "OSecCrypto", "OSecASN1"]),

        // MARK: Tools
        .executableTarget(
            name: "SecurityTool",
            dependencies: [
                "Security", "CommonCrypto", "OSecASN1", "OSecSystem", "OSecKeychainAgent", "OpenSecurityTLS",
                "OpenSecurityKit",
                "OSecSecretService",
                "OSecToolCore",
                "OSecToolBase",
                "OSecKeychain",
                "OSecKeychainPaths",
            ]),
        // `security`: answers `find-*-password -w` (through the keychain agent) and `--version` on
        // FoundationEssentials alone, without libcrypto or SQLite (a fast start), and runs the full tool
        // (`security-tool`) for everything else.
        .executableTarget(name: "SecurityFront", dependencies: ["OSecToolBase", "OSecKeychainAgent", "OSecSystem"]),
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "Security", "OSecCrypto", "OSecX509", "OSecKeychain", "OpenSSLBaseline", "CommonCrypto",
                "OSecTLSCore", "OSecSync", "OSecPostgres", "OpenSecurityKit",
                "OSecSystem",
                "OpenSecurityTLS",
            ]),
        // x509-limbo testcases through Apple's API, for limbo-harness and the conformance test.
        .target(name: "OSecLimbo", dependencies: ["Security", "OSecASN1"]),
        .executableTarget(name: "LimboHarness", dependencies: ["OSecLimbo"]),

        // MARK: Tests
        .target(name: "OSecTestSupport", dependencies: ["OSecCrypto", "OSecASN1"], path: "Tests/OSecTestSupport"),
        // A second process for the keychain's multi-process and crash tests (not a product).
        .executableTarget(name: "KeychainStress", dependencies: ["Security"], path: "Tests/KeychainStress"),
        // One "machine" of the sync acceptance tests (a separate process per keychain; not a product).
        .executableTarget(name: "SyncStress", dependencies: ["Security"], path: "Tests/SyncStress"),
        // A second process for the TLS load test (counts its own descriptors and memory; not a product).
        .executableTarget(
            name: "TLSLoad", dependencies: ["Security", "OpenSecurityTLS", "OSecSystem", "OSecTLSCore"],
            path: "Tests/TLSLoad"),
        .testTarget(
            name: "OSecCryptoTests", dependencies: ["OSecCrypto", "OSecTestSupport", "OSecCryptoFoundation"]),
        .testTarget(name: "OSecASN1Tests", dependencies: ["OSecASN1"]),
        .testTarget(name: "OSecSQLiteTests", dependencies: ["OSecSQLite"]),
        .testTarget(name: "OSecKeychainAgentTests", dependencies: ["OSecKeychainAgent", "OSecSystem"]),
        .testTarget(
            name: "OSecSyncTests",
            dependencies: ["OSecSync", "OSecKeychain", "OSecPostgres", "OSecCrypto", "OSecTestSupport"]),
        .testTarget(name: "OSecX509Tests", dependencies: ["OSecX509", "OSecASN1", "OSecCrypto", "OSecTestSupport"]),
        .testTarget(
            name: "OSecKeychainTests",
            dependencies: ["OSecKeychain", "OSecKeychainPaths", "OSecSQLite", "OSecSystem", "OSecTestSupport"]),
        .testTarget(
            name: "OSecPKCS12Tests", dependencies: ["OSecPKCS12", "OSecASN1", "OSecCrypto", "OSecTestSupport"]),
        .testTarget(
            name: "OSecTrustTests",
            dependencies: ["OSecTrust", "OSecASN1", "OSecCrypto", "OSecX509", "OSecTestSupport"]),
        .testTarget(
            name: "SecurityTests",
            dependencies: [
                "Security", "OSecTestSupport", "OSecASN1", "OSecCrypto", "OSecX509", "OSecSQLite", "OSecLimbo",
                "OSecKeychain", "OSecPKCS12", "OSecTrust", "OSecSync",
                "OSecToolCore", "OSecToolBase", "OSecKeychainAgent",
            ]),
        .testTarget(
            name: "TLSTests",
            dependencies: ["Security", "OpenSecurityTLS", "OSecTLSCore", "OSecTestSupport", "OSecSystem"]),
        // Apple-platform code written the way popular keychain wrappers and crypto libraries write it, compiled
        // against our Security only (issue 11): Swift 6 mode, and Swift 5 mode with Security imported implicitly.
        .testTarget(name: "AppleCompatTests", dependencies: ["Security"]),
        .testTarget(
            name: "AppleCompatSwift5Tests", dependencies: ["Security"],
            swiftSettings: [
                .swiftLanguageMode(.v5),
                // Code that gets Security from `import Foundation` on Apple platforms (README: porting a package).
                .unsafeFlags(["-Xfrontend", "-import-module", "-Xfrontend", "Security"]),
            ]),
        .testTarget(name: "CommonCryptoTests", dependencies: ["CommonCrypto", "OSecTestSupport", "OSecCrypto"]),
        // The same API compiled in the Swift 5 language mode, as older Apple-platform libraries are.
        .testTarget(
            name: "CommonCryptoSwift5Tests", dependencies: ["CommonCrypto"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "LocalAuthenticationTests", dependencies: ["LocalAuthentication", "Security"]),
        .testTarget(
            name: "LocalAuthenticationSwift5Tests", dependencies: ["LocalAuthentication", "Security"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "CMSTests",
            dependencies: [
                "OSecCMS", "Security", "OpenSecurityKit", "OSecTestSupport", "OSecASN1", "OSecCrypto", "OSecX509",
            ]),
        // The Secret Service provider against secret-tool, secretstorage, keyring and gdbus on a private bus.
        .testTarget(
            name: "SecretServiceTests",
            dependencies: ["OSecSecretService", "OSecDBus", "OSecKeychain", "OSecCrypto", "OSecTestSupport"]),
        .testTarget(
            name: "OpenSecurityKitTests",
            dependencies: ["OpenSecurityKit", "Security", "CommonCrypto", "OSecTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
