// CommonCryptor.h: the constants and types of symmetric encryption (the functions are in CCCryptor.swift).
//
// Apple declares the selectors as anonymous C enums, which Swift imports as `Int` constants, and the selector
// types as `uint32_t` typedefs: Apple-platform code writes `CCOperation(kCCEncrypt)`,
// `CCAlgorithm(kCCAlgorithmAES)`, `CCOptions(kCCOptionPKCS7Padding)`, `CCMode(kCCModeCTR)`.

/// Encrypt or decrypt (`uint32_t`).
public typealias CCOperation = UInt32
/// The cipher (`uint32_t`).
public typealias CCAlgorithm = UInt32
/// Option flags of `CCCryptorCreate` and `CCCrypt` (`uint32_t`).
public typealias CCOptions = UInt32
/// The mode of operation of `CCCryptorCreateWithMode` (`uint32_t`).
public typealias CCMode = UInt32
/// The padding of `CCCryptorCreateWithMode` (`uint32_t`).
public typealias CCPadding = UInt32
/// Mode options of `CCCryptorCreateWithMode` (`uint32_t`); only CTR's counter layout, and only big-endian
/// counters exist.
public typealias CCModeOptions = UInt32

// MARK: Operations

/// Symmetric encryption.
public let kCCEncrypt: Int = 0
/// Symmetric decryption.
public let kCCDecrypt: Int = 1

// MARK: Algorithms

/// AES (128-bit block; 128-, 192- or 256-bit key). The historical name of `kCCAlgorithmAES`.
public let kCCAlgorithmAES128: Int = 0
/// AES (128-bit block; 128-, 192- or 256-bit key: the key length selects the variant).
public let kCCAlgorithmAES: Int = 0
/// DES (64-bit block, 8-byte key). Broken; only for reading old data.
public let kCCAlgorithmDES: Int = 1
/// Triple DES, three keys, EDE (64-bit block, 24-byte key).
public let kCCAlgorithm3DES: Int = 2
/// CAST-128 (64-bit block, 5- to 16-byte key).
public let kCCAlgorithmCAST: Int = 3
/// RC4, a stream cipher (1- to 512-byte key). Broken; only for reading old data.
public let kCCAlgorithmRC4: Int = 4
/// RC2 (64-bit block, 1- to 128-byte key, effective key bits = 8 × key length).
public let kCCAlgorithmRC2: Int = 5
/// Blowfish (64-bit block, 8- to 56-byte key).
public let kCCAlgorithmBlowfish: Int = 6

// MARK: Options

/// Add PKCS#7 padding when encrypting; check and remove it when decrypting (block modes only).
public let kCCOptionPKCS7Padding: Int = 0x0001
/// Electronic Code Book mode; without it block ciphers use CBC.
public let kCCOptionECBMode: Int = 0x0002

// MARK: Key sizes (bytes)

/// AES-128 key size.
public let kCCKeySizeAES128: Int = 16
/// AES-192 key size.
public let kCCKeySizeAES192: Int = 24
/// AES-256 key size.
public let kCCKeySizeAES256: Int = 32
/// DES key size.
public let kCCKeySizeDES: Int = 8
/// Triple DES key size.
public let kCCKeySize3DES: Int = 24
/// Smallest CAST key.
public let kCCKeySizeMinCAST: Int = 5
/// Largest CAST key.
public let kCCKeySizeMaxCAST: Int = 16
/// Smallest RC4 key.
public let kCCKeySizeMinRC4: Int = 1
/// Largest RC4 key.
public let kCCKeySizeMaxRC4: Int = 512
/// Smallest RC2 key.
public let kCCKeySizeMinRC2: Int = 1
/// Largest RC2 key.
public let kCCKeySizeMaxRC2: Int = 128
/// Smallest Blowfish key.
public let kCCKeySizeMinBlowfish: Int = 8
/// Largest Blowfish key.
public let kCCKeySizeMaxBlowfish: Int = 56

// MARK: Block sizes (bytes)

/// AES block size (also the IV length of the AES modes).
public let kCCBlockSizeAES128: Int = 16
/// DES block size.
public let kCCBlockSizeDES: Int = 8
/// Triple DES block size.
public let kCCBlockSize3DES: Int = 8
/// CAST block size.
public let kCCBlockSizeCAST: Int = 8
/// RC2 block size.
public let kCCBlockSizeRC2: Int = 8
/// Blowfish block size.
public let kCCBlockSizeBlowfish: Int = 8

// MARK: Context sizes (bytes) for CCCryptorCreateFromData

/// Apple's minimum caller-supplied context for AES. `CCCryptorCreateFromData` here needs 16 bytes (plus
/// alignment) for any algorithm, as Apple's current one does.
public let kCCContextSizeAES128: Int = 404
/// Apple's minimum caller-supplied context for DES.
public let kCCContextSizeDES: Int = 240
/// Apple's minimum caller-supplied context for triple DES.
public let kCCContextSize3DES: Int = 496
/// Apple's minimum caller-supplied context for CAST.
public let kCCContextSizeCAST: Int = 240
/// Apple's minimum caller-supplied context for RC4.
public let kCCContextSizeRC4: Int = 1072

// MARK: Modes

/// Electronic Code Book.
public let kCCModeECB: Int = 1
/// Cipher Block Chaining.
public let kCCModeCBC: Int = 2
/// Cipher Feedback with whole-block feedback (CFB-128 for AES, CFB-64 for the 64-bit ciphers).
public let kCCModeCFB: Int = 3
/// Counter mode: the IV is the initial counter block, incremented as a big-endian number (NIST SP 800-38A).
public let kCCModeCTR: Int = 4
/// F8 (not implemented by Apple either).
public let kCCModeF8: Int = 5
/// LRW (not implemented by Apple either).
public let kCCModeLRW: Int = 6
/// Output Feedback.
public let kCCModeOFB: Int = 7
/// XTS (Apple's needs its SPI block functions; not available here).
public let kCCModeXTS: Int = 8
/// The RC4 stream "mode".
public let kCCModeRC4: Int = 9
/// Cipher Feedback with 8-bit feedback.
public let kCCModeCFB8: Int = 10

// MARK: Padding

/// No padding: block modes need input that is a whole number of blocks.
public let ccNoPadding: Int = 0
/// PKCS#7 padding (block modes ECB and CBC; stream modes ignore it).
public let ccPKCS7Padding: Int = 1

// MARK: Mode options

/// Little-endian CTR counter: unsupported by Apple since 2012 and accepted here as big-endian, like Apple's
/// current `CCCryptorCreateWithMode`, which ignores the mode options.
public let kCCModeOptionCTR_LE: Int = 0x0001
/// Big-endian CTR counter (the only layout).
public let kCCModeOptionCTR_BE: Int = 0x0002
