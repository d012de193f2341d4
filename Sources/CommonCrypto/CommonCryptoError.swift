// CommonCryptoError.h: the status codes every CommonCrypto function returns.
//
// Apple declares these as an anonymous C enum, which Swift imports as `Int` constants; the status types are
// `int32_t` typedefs. So Apple-platform code writes `Int(status) == kCCSuccess` or
// `CCCryptorStatus(kCCParamError)`, and this module makes both spellings compile unchanged.

/// The status a CommonCrypto operation returns (`int32_t`; `kCCSuccess` is 0).
public typealias CCStatus = Int32

/// The status a `CCCryptor…` function returns (`int32_t`; `kCCSuccess` is 0).
public typealias CCCryptorStatus = Int32

/// The operation completed normally.
public let kCCSuccess: Int = 0
/// An illegal parameter value (a NULL pointer, an unknown algorithm or mode, a wrong IV length, …).
public let kCCParamError: Int = -4300
/// The output buffer is too small; the function reports the size it needs through its `dataOutMoved` argument.
public let kCCBufferTooSmall: Int = -4301
/// Memory could not be allocated.
public let kCCMemoryFailure: Int = -4302
/// The input was not a whole number of blocks where the mode needs it (no padding, or a padded decryption).
public let kCCAlignmentError: Int = -4303
/// The input did not decode or decrypt properly (bad PKCS#7 padding, failed key unwrap).
public let kCCDecodeError: Int = -4304
/// The function is not implemented for this algorithm or mode.
public let kCCUnimplemented: Int = -4305
/// An arithmetic or buffer-size overflow.
public let kCCOverflow: Int = -4306
/// The random number generator failed.
public let kCCRNGFailure: Int = -4307
/// An error without a more specific code.
public let kCCUnspecifiedError: Int = -4308
/// The functions were called in the wrong order (for example, an operation on a released cryptor).
public let kCCCallSequenceError: Int = -4309
/// The key has a length the algorithm does not take.
public let kCCKeySizeError: Int = -4310
/// The key is not valid.
public let kCCInvalidKey: Int = -4311
