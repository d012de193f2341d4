import Foundation
import Security

/// The transport envelope of the RSA + AES guides: a message encrypted with a fresh symmetric key, that key
/// encrypted with the recipient's public key, and the sender's identifier in clear — as JSON
/// `{"encryptkey": …, "id": …, "data": …}`.
///
/// ```swift
/// let envelope = try Envelope.seal(Data(json.utf8), to: serverKey, id: "merchant-42")
/// let body = try envelope.jsonData()                      // {"data":"…","encryptkey":"…","id":"merchant-42"}
///
/// let received = try Envelope(json: body)
/// let plaintext = try received.open(with: serverPrivateKey)
/// ```
///
/// Two profiles (``Profile``):
/// - ``Profile/modern`` (the default): a fresh 256-bit key per message, wrapped with RSA-OAEP-SHA256 (EC keys:
///   ECIES, Apple's `eciesEncryptionCofactorVariableIVX963SHA256AESGCM`); the message sealed with AES-256-GCM
///   under a random 96-bit nonce with the clear `id` as associated data (`data` = base64 of nonce ‖ ciphertext ‖
///   tag); optionally signed by the sender over the whole envelope (`sign`).
/// - ``Profile/legacy``: what the guides' servers expect, byte for byte — insecure, only to talk to them.
///
/// Opening fails with one error — errSecDecode, "the envelope does not open" — whatever is wrong: a wrong key,
/// any modified, truncated or missing field, a bad signature, malformed JSON. Nothing of the plaintext is returned
/// unless all of it is authentic (modern) or its digest matches (legacy).
public struct Envelope: Sendable, Hashable {
    /// The message key encrypted for the recipient (`encryptkey`, base64 in JSON).
    public var encryptedKey: Data
    /// The sender's identifier, in clear (`id` or `merchant_id`); the modern profile authenticates it.
    public var identifier: String
    /// The sender's signature over the envelope (`sign`, modern profile, optional).
    public var signature: Data?
    /// MD5 of the plaintext as lowercase hex (`digest`, legacy profile).
    public var digest: String?
    /// The JSON names of the fields (not part of equality).
    public var fieldNames: FieldNames

    /// The encrypted message, split where the cipher needs it (so opening reads it in place).
    var body: Body

    enum Body: Sendable, Hashable {
        /// Modern: the GCM nonce, and ciphertext ‖ tag.
        case gcm(nonce: [UInt8], sealed: [UInt8])
        /// Legacy: the AES-CBC ciphertext (or any bytes of an envelope whose profile is not known yet).
        case bytes([UInt8])
    }

    /// The encrypted message (`data`, base64 in JSON): nonce ‖ ciphertext ‖ tag for the modern profile, the
    /// AES-CBC ciphertext for the legacy one.
    public var payload: Data {
        get {
            switch body {
            case .gcm(let nonce, let sealed): Data(nonce + sealed)
            case .bytes(let bytes): Data(bytes)
            }
        }
        set { body = .bytes([UInt8](newValue)) }
    }

    /// Envelopes are equal when their fields are (the field names aside).
    public static func == (lhs: Envelope, rhs: Envelope) -> Bool {
        lhs.encryptedKey == rhs.encryptedKey && lhs.identifier == rhs.identifier && lhs.payload == rhs.payload
            && lhs.signature == rhs.signature && lhs.digest == rhs.digest
    }

    /// Consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(encryptedKey)
        hasher.combine(identifier)
        hasher.combine(payload)
        hasher.combine(signature)
        hasher.combine(digest)
    }

    /// The single error of every failed opening.
    static let openFailure = SecurityKitError(errSecDecode, reason: "the envelope does not open")

    /// Largest plaintext sealed (64 MiB; its JSON is about 86 MiB): larger messages belong in a file or a stream.
    public static let maximumPlaintextLength = 64 << 20
    /// Largest envelope JSON read (the JSON of a ``maximumPlaintextLength`` message, with room to spare).
    public static let maximumJSONLength = 96 << 20
}

// MARK: - Profiles and field names

extension Envelope {
    /// How an envelope is sealed: ``modern`` or ``legacy``.
    public struct Profile: Sendable, Hashable, CustomStringConvertible {
        enum Kind: Sendable, Hashable {
            case modern
            case legacy
        }

        let kind: Kind

        /// A fresh 256-bit key per message; RSA-OAEP-SHA256 (EC keys: ECIES through `SecKeyCreateEncryptedData`);
        /// AES-256-GCM with a random 96-bit nonce and the clear `id` as associated data; an optional signature by
        /// the sender over the whole envelope.
        public static let modern = Profile(kind: .modern)

        /// Byte-compatible with what the guides' servers expect: a 16-digit key (0–9, from the system's secure
        /// random), `encryptkey` = RSA PKCS#1 v1.5 of it, `data` = AES-256-CBC with PKCS#7 padding and an all-zero
        /// IV under the key's UTF-8 zero-padded to 32 bytes, `digest` = MD5 of the plaintext as hex.
        ///
        /// Insecure: the ciphertext is not authenticated (anyone can alter it and fix up the MD5), the key has
        /// 53 bits of entropy, the IV never changes, and PKCS#1 v1.5 decryption is open to padding oracles on a
        /// server that reports its errors. Use it only to talk to servers that speak nothing else.
        public static let legacy = Profile(kind: .legacy)

        /// `modern` or `legacy`.
        public var description: String { kind == .modern ? "modern" : "legacy" }
    }

    /// The JSON field names of an envelope, so it matches what a server expects.
    public struct FieldNames: Sendable, Hashable {
        /// The encrypted key (`encryptkey`).
        public var key: String
        /// The sender's identifier (`id`; `merchant_id` in ``merchant``).
        public var identifier: String
        /// The encrypted message (`data`).
        public var data: String
        /// The sender's signature, modern profile (`sign`).
        public var signature: String
        /// The MD5 digest, legacy profile (`digest`).
        public var digest: String

        /// Custom names; each must differ from the others.
        public init(
            key: String = "encryptkey", identifier: String = "id", data: String = "data", signature: String = "sign",
            digest: String = "digest"
        ) {
            self.key = key
            self.identifier = identifier
            self.data = data
            self.signature = signature
            self.digest = digest
        }

        /// `encryptkey`, `id`, `data`, `sign`, `digest`.
        public static let standard = FieldNames()
        /// `encryptkey`, `merchant_id`, `data`, `sign`, `digest`: the payment gateways' variant.
        public static let merchant = FieldNames(identifier: "merchant_id")

        var all: [String] { [key, identifier, data, signature, digest] }
        var areDistinct: Bool { Set(all).count == all.count }
    }
}

// MARK: - JSON

extension CodingUserInfoKey {
    /// The ``Envelope/FieldNames`` an `Envelope` is decoded with (`decoder.userInfo[.envelopeFieldNames]`);
    /// ``Envelope/FieldNames/standard`` when absent. Encoding uses the envelope's own ``Envelope/fieldNames``.
    public static let envelopeFieldNames: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "org.opensecurity.envelopeFieldNames") else {
            preconditionFailure("a constant, non-empty key")
        }
        return key
    }()
}

extension Envelope: Codable {
    struct FieldKey: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// Reads the fields named by `decoder.userInfo[.envelopeFieldNames]` (else the standard names); binary fields
    /// are base64 strings.
    public init(from decoder: any Decoder) throws {
        let names = decoder.userInfo[.envelopeFieldNames] as? FieldNames ?? .standard
        let container = try decoder.container(keyedBy: FieldKey.self)
        func bytes(_ name: String) throws -> Data {
            let text = try container.decode(String.self, forKey: FieldKey(name))
            guard let data = try? Base64Text.decode(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: FieldKey(name), in: container, debugDescription: "not base64")
            }
            return data
        }
        self.init(
            encryptedKey: try bytes(names.key),
            identifier: try container.decode(String.self, forKey: FieldKey(names.identifier)),
            signature: try container.contains(FieldKey(names.signature)) ? bytes(names.signature) : nil,
            digest: try container.decodeIfPresent(String.self, forKey: FieldKey(names.digest)), fieldNames: names,
            body: .bytes([UInt8](try bytes(names.data))))
    }

    /// Writes the fields under ``fieldNames``; binary fields as base64, absent optional fields omitted.
    public func encode(to encoder: any Encoder) throws {
        guard fieldNames.areDistinct else {
            throw EncodingError.invalidValue(
                fieldNames.all, EncodingError.Context(codingPath: [], debugDescription: "field names must differ"))
        }
        var container = encoder.container(keyedBy: FieldKey.self)
        try container.encode(encryptedKey.base64EncodedString(), forKey: FieldKey(fieldNames.key))
        try container.encode(identifier, forKey: FieldKey(fieldNames.identifier))
        try container.encode(payload.base64EncodedString(), forKey: FieldKey(fieldNames.data))
        if let signature {
            try container.encode(signature.base64EncodedString(), forKey: FieldKey(fieldNames.signature))
        }
        if let digest { try container.encode(digest, forKey: FieldKey(fieldNames.digest)) }
    }

    /// Reads an envelope from JSON with the given field names.
    ///
    /// - Throws: the opening error (errSecDecode, "the envelope does not open") for anything that is not such an
    ///   envelope — malformed JSON is treated like any other tampering.
    public init(json: Data, fieldNames: FieldNames = .standard) throws(SecurityKitError) {
        guard json.count <= Envelope.maximumJSONLength else { throw Envelope.openFailure }
        let decoder = JSONDecoder()
        decoder.userInfo[.envelopeFieldNames] = fieldNames
        do {
            self = try decoder.decode(Envelope.self, from: json)
        } catch {
            throw Envelope.openFailure
        }
    }

    /// ``init(json:fieldNames:)`` for JSON text.
    public init(json: String, fieldNames: FieldNames = .standard) throws(SecurityKitError) {
        try self.init(json: Data(json.utf8), fieldNames: fieldNames)
    }

    /// The envelope as compact JSON with sorted keys and unescaped slashes.
    ///
    /// - Throws: errSecParam when two ``fieldNames`` are the same.
    public func jsonData() throws(SecurityKitError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            throw SecurityKitError(errSecParam, reason: "cannot write the envelope as JSON: \(error)")
        }
    }

    /// ``jsonData()`` as text.
    public func jsonString() throws(SecurityKitError) -> String {
        String(decoding: try jsonData(), as: UTF8.self)
    }
}

extension Envelope {
    /// An envelope from its fields (as received by other means than JSON). (Declared in an extension so the
    /// struct keeps its memberwise initialiser, which the module uses with its internal payload form.)
    public init(
        encryptedKey: Data, identifier: String, payload: Data, signature: Data? = nil, digest: String? = nil,
        fieldNames: FieldNames = .standard
    ) {
        self.init(
            encryptedKey: encryptedKey, identifier: identifier, signature: signature, digest: digest,
            fieldNames: fieldNames, body: .bytes([UInt8](payload)))
    }
}
