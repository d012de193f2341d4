internal import COpenSSL
import OSecLocks

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Owns one EVP_PKEY_CTX.
///
/// `@unchecked Sendable`: a context is never used by two threads at once. It is used by the thread that created
/// it, or parked in a key's ``PKeyContextPool``, which hands it to one caller at a time.
final class PKeyContext: @unchecked Sendable {
    let raw: OpaquePointer

    /// A context for an operation with `key` (the context holds its own reference to the key).
    init(key: OpaquePointer) throws(CryptoError) {
        raw = try ossl(EVP_PKEY_CTX_new_from_pkey(nil, key, nil), "EVP_PKEY_CTX_new_from_pkey")
    }

    /// A context for key generation by algorithm name.
    init(algorithmName: String) throws(CryptoError) {
        raw = try ossl(EVP_PKEY_CTX_new_from_name(nil, algorithmName, nil), "EVP_PKEY_CTX_new_from_name")
    }

    deinit { EVP_PKEY_CTX_free(raw) }

    /// Runs EVP_PKEY_generate and wraps the result.
    func generate() throws(CryptoError) -> AsymmetricKey {
        var pkey: OpaquePointer?
        try ossl(EVP_PKEY_generate(raw, &pkey), "EVP_PKEY_generate")
        let key = try ossl(pkey, "EVP_PKEY_generate")
        return try AsymmetricKey(takingOwnershipOf: key, isPrivate: true)
    }

    /// Sets the RSA padding mode.
    func setRSAPadding(_ mode: Int32) throws(CryptoError) {
        try ossl(EVP_PKEY_CTX_set_rsa_padding(raw, mode), "EVP_PKEY_CTX_set_rsa_padding")
    }

    /// Sets the signature digest (PKCS#1 DigestInfo / PSS hash).
    func setSignatureDigest(_ digest: DigestAlgorithm) throws(CryptoError) {
        try ossl(EVP_PKEY_CTX_set_signature_md(raw, try digest.fetched()), "EVP_PKEY_CTX_set_signature_md")
    }

    /// A context for `operation` on `key`: created, initialised for the operation and configured.
    convenience init(key: OpaquePointer, for operation: PKeyOperation) throws(CryptoError) {
        try self.init(key: key)
        switch operation.kind {
        case .sign: try ossl(EVP_PKEY_sign_init(raw), "EVP_PKEY_sign_init")
        case .verify: try ossl(EVP_PKEY_verify_init(raw), "EVP_PKEY_verify_init")
        case .encrypt: try ossl(EVP_PKEY_encrypt_init(raw), "EVP_PKEY_encrypt_init")
        case .decrypt: try ossl(EVP_PKEY_decrypt_init(raw), "EVP_PKEY_decrypt_init")
        }
        if let padding = operation.padding { try setRSAPadding(padding) }
        guard let digest = operation.digest else { return }
        switch operation.kind {
        case .sign, .verify:
            try setSignatureDigest(digest)
            if let saltLength = operation.pssSaltLength {
                try ossl(EVP_PKEY_CTX_set_rsa_mgf1_md(raw, try digest.fetched()), "EVP_PKEY_CTX_set_rsa_mgf1_md")
                try ossl(EVP_PKEY_CTX_set_rsa_pss_saltlen(raw, saltLength), "EVP_PKEY_CTX_set_rsa_pss_saltlen")
            }
        case .encrypt, .decrypt:
            let md = try digest.fetched()
            try ossl(EVP_PKEY_CTX_set_rsa_oaep_md(raw, md), "EVP_PKEY_CTX_set_rsa_oaep_md")
            try ossl(EVP_PKEY_CTX_set_rsa_mgf1_md(raw, md), "EVP_PKEY_CTX_set_rsa_mgf1_md")
        }
    }
}

/// What an EVP_PKEY_CTX was initialised and configured for. Two operations with equal values can share a context
/// one after the other: OpenSSL documents EVP_PKEY_sign, _verify, _encrypt and _decrypt as callable "more than
/// once on the same context if several operations are performed using the same parameters".
struct PKeyOperation: Hashable, Sendable {
    enum Kind: Hashable, Sendable { case sign, verify, encrypt, decrypt }

    let kind: Kind
    /// The RSA padding mode, nil to keep OpenSSL's default (EC keys).
    let padding: Int32?
    /// Sign/verify: the signature digest set on the context (nil: sign the input as given). Encrypt/decrypt: the
    /// OAEP and MGF1 digest.
    let digest: DigestAlgorithm?
    /// RSASSA-PSS only: the salt length (MGF1 then uses `digest`).
    let pssSaltLength: Int32?

    init(_ kind: Kind, padding: Int32? = nil, digest: DigestAlgorithm? = nil, pssSaltLength: Int32? = nil) {
        self.kind = kind
        self.padding = padding
        self.digest = digest
        self.pssSaltLength = pssSaltLength
    }
}

/// Initialised EVP_PKEY_CTXs of one key that are not in use, by operation.
///
/// Creating and configuring a context costs more than an RSA-2048 verification's padding check and a good part
/// of the verification itself (EVP_PKEY_CTX_new_from_pkey, the provider's signature lookup in *_init, the digest
/// lookup by name behind EVP_PKEY_CTX_set_signature_md). A context cannot be shared by two threads, so each
/// caller takes one out, uses it alone and puts it back: a key used from N threads at once holds up to N
/// contexts per operation (bounded by ``maximumIdlePerOperation``).
///
/// The slots are guarded by a `PosixMutex` (a pthread mutex), not `Synchronization.Mutex`: ThreadSanitizer sees the
/// ordering a pthread mutex creates, but not that of `Mutex`, whose futex-based lock lives in the uninstrumented
/// standard library. With `Mutex`, every hand-over of a context (and of the slot array) from one thread to the
/// next was reported as a data race although the lock orders it (issue 26; docs/fuzzing.md, "Sanitizers").
final class PKeyContextPool: @unchecked Sendable {  // sendable: `slots` is only touched under `lock`
    /// Idle contexts kept per operation (more than the cores of most machines; extra ones are freed).
    static let maximumIdlePerOperation = 8
    /// Operations (distinct parameter sets) a key keeps contexts for; others get a fresh context every time.
    static let maximumOperations = 8

    private struct Slot {
        let operation: PKeyOperation
        var idle: [PKeyContext]
    }

    private let lock = PosixMutex()
    private var slots: [Slot] = []

    /// An idle context for `operation`, if one is parked.
    func take(_ operation: PKeyOperation) -> PKeyContext? {
        lock.withLock {
            for index in slots.indices where slots[index].operation == operation {
                return slots[index].idle.popLast()
            }
            return nil
        }
    }

    /// Parks `context` (idle, initialised for `operation`) for the next caller, or frees it when the pool is full.
    func park(_ context: PKeyContext, for operation: PKeyOperation) {
        // A context the pool has no room for is returned from the lock and freed outside it.
        let overflow: PKeyContext? = lock.withLock {
            for index in slots.indices where slots[index].operation == operation {
                guard slots[index].idle.count < Self.maximumIdlePerOperation else { return context }
                slots[index].idle.append(context)
                return nil
            }
            guard slots.count < Self.maximumOperations else { return context }
            slots.append(Slot(operation: operation, idle: [context]))
            return nil
        }
        _ = overflow
    }
}

extension AsymmetricKey {
    /// Runs `body` with an EVP_PKEY_CTX set up for `operation`: a parked one when the key has one, else a new
    /// one. After `body` returns the context is parked again; when it throws, the context is freed (nothing
    /// half-done is ever reused).
    func withContext<R>(
        _ operation: PKeyOperation, _ body: (OpaquePointer) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        let context: PKeyContext
        if let parked = contexts.take(operation) {
            context = parked
        } else {
            context = try PKeyContext(key: raw, for: operation)
        }
        let result = try body(context.raw)
        contexts.park(context, for: operation)
        return result
    }
}

/// The signature OpenSSL's one-shot key operations share (EVP_PKEY_sign, _encrypt, _decrypt,
/// _verify_recover): context, output, its room in and the bytes written out, input, input length.
typealias PKeyTransform = (
    OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?, UnsafePointer<UInt8>?, Int
) -> Int32

/// Runs `transform`, one of OpenSSL's one-shot key operations, over `count` bytes at `input` into the
/// `capacity` bytes at `out`, and returns how many it wrote; throws `code` with `reason` (and the drained
/// OpenSSL error queue) when it fails. Inlined, so each caller makes one direct call into OpenSSL.
@inline(__always)
func runPKeyTransform(
    _ transform: PKeyTransform, _ ctx: OpaquePointer, _ input: UnsafeRawPointer, _ count: Int,
    into out: UnsafeMutableRawPointer, capacity: Int, _ code: CryptoError.Code, _ reason: @autoclosure () -> String
) throws(CryptoError) -> Int {
    var written = capacity
    try ossl(
        transform(
            ctx, out.assumingMemoryBound(to: UInt8.self), &written, input.assumingMemoryBound(to: UInt8.self), count),
        code, reason())
    return written
}
