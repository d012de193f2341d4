internal import COpenSSL

/// Access to OpenSSL's thread-local error queue.
enum OpenSSLErrorQueue {
    /// Upper bound on entries kept (the queue itself holds at most 16).
    private static let maxEntries = 32

    /// Removes every entry from the queue and returns them as strings (oldest first).
    static func drain() -> [String] {
        var result: [String] = []
        while true {
            let code = ERR_get_error_all(nil, nil, nil, nil, nil)
            if code == 0 { break }
            if result.count < maxEntries {
                var buffer = [CChar](repeating: 0, count: 256)
                let text = buffer.withUnsafeMutableBufferPointer { buf -> String in
                    guard let base = buf.baseAddress else { return "error \(code)" }
                    ERR_error_string_n(code, base, buf.count)
                    return String(cString: base)
                }
                result.append(text)
            }
        }
        return result
    }

    /// Empties the queue without keeping the entries (used when a failure is an answer, e.g. a bad signature).
    static func clear() { ERR_clear_error() }
}

extension CryptoError {
    /// An error of `code` carrying the drained OpenSSL error queue.
    static func openSSL(_ code: Code, _ reason: String) -> CryptoError {
        CryptoError(code, reason, openSSLErrors: OpenSSLErrorQueue.drain())
    }

    /// An `internalError` for an OpenSSL call that failed unexpectedly.
    static func failed(_ operation: String) -> CryptoError {
        openSSL(.internalError, "\(operation) failed")
    }
}

/// Throws `.internalError` (with the drained queue) unless `rc == 1`.
@inline(__always)
func ossl(_ rc: Int32, _ operation: @autoclosure () -> String) throws(CryptoError) {
    guard rc == 1 else { throw CryptoError.failed(operation()) }
}

/// Throws `code` (with the drained queue) unless `rc == 1`.
@inline(__always)
func ossl(_ rc: Int32, _ code: CryptoError.Code, _ reason: @autoclosure () -> String) throws(CryptoError) {
    guard rc == 1 else { throw CryptoError.openSSL(code, reason()) }
}

/// Unwraps a handle returned by OpenSSL, throwing `.internalError` on NULL.
@inline(__always)
func ossl<T>(_ pointer: T?, _ operation: @autoclosure () -> String) throws(CryptoError) -> T {
    guard let pointer else { throw CryptoError.failed(operation()) }
    return pointer
}
