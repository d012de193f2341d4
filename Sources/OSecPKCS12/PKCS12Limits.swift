/// Resource limits applied to every file we read. A PKCS#12 file is attacker-controlled input: it picks
/// the KDF iteration counts, the number of bags and how deeply bags nest, so each of those is capped.
package enum PKCS12Limits {
    /// Largest accepted file. Real files hold a few keys and certificates (a few KiB); Windows and Java
    /// exports with long chains stay under 100 KiB. 16 MiB leaves ample room while bounding memory.
    package static let maximumFileSize = 16 * 1024 * 1024

    /// Largest KDF iteration count (PKCS#12 KDF, PBKDF2, MAC). Ten million PBKDF2-HMAC-SHA256 rounds take
    /// about 9 s here; real files use 2048 (OpenSSL) to 600,000 (hardened exports).
    #if PKCS12_FUZZING
    // Fuzz builds (`Fuzz/fuzz.sh pkcs12`) cap iterations low so inputs that mutate a count upwards do
    // not slow the fuzzer to a crawl; the code paths are the same.
    package static let maximumIterations = 4096
    #else
    package static let maximumIterations = 10_000_000
    #endif

    /// Largest sum of KDF iterations spent on one file: every MAC key, PBE key and IV derivation and PBKDF2 run,
    /// for each password encoding tried (see `PKCS12KDFBudget`). The per-KDF cap alone does not bound a file: it
    /// may hold ``maximumDecryptions`` encrypted items. Real files stay far below: OpenSSL writes 2,048 iterations
    /// per KDF, keytool 10,000, NSS and GnuTLS 600,000, and a file has a MAC plus one or two encrypted safes and a
    /// shrouded key per identity; 30 million is 50 KDF runs at NSS's count, about 27 s of PBKDF2-HMAC-SHA256 here.
    /// Exceeding it fails with `.resourceLimit` (errSecDecode) naming this limit.
    #if PKCS12_FUZZING
    package static let maximumTotalIterations = 65_536
    #else
    package static let maximumTotalIterations = 30_000_000
    #endif

    /// Largest total number of safe bags (all safes, all nesting levels).
    package static let maximumBagCount = 10_000

    /// Largest number of ContentInfos in the AuthenticatedSafe.
    package static let maximumContentInfoCount = 1_000

    /// Deepest nesting of SafeContentsBags (a bag holding more bags). Real files never nest.
    package static let maximumSafeContentsNesting = 8

    /// Largest number of encrypted items decrypted per file (each costs KDF runs).
    package static let maximumDecryptions = 1_000

    /// Longest certificate chain assembled for one identity.
    package static let maximumChainLength = 16
}
