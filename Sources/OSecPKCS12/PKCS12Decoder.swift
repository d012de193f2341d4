import Foundation
import OSecASN1
import OSecCrypto

/// Reads a PFX: checks the MAC, decrypts the safes and shrouded keys, and collects the bags.
///
/// Errors thrown inside are `PKCS12Error`, `ASN1Error`, `CryptoError` or ``PBEDecryptionFailure``;
/// ``PKCS12File/decode(_:password:)`` maps them to `PKCS12Error`.
struct PKCS12Decoder {
    let password: PKCS12Password
    /// The BMP encoding confirmed by the MAC or by a successful decryption; `nil` until then.
    private var confirmedBMP: Data?
    /// Whether a MAC (or PBMAC1) verified the password; decryption failures then mean corruption.
    private var passwordVerified = false
    private var bagCount = 0
    private var decryptionCount = 0
    /// The KDF work this file may still cost.
    let budget: PKCS12KDFBudget

    init(password: PKCS12Password, budget: PKCS12KDFBudget = PKCS12KDFBudget()) {
        self.password = password
        self.budget = budget
    }

    mutating func decode(_ bytes: [UInt8]) throws -> PKCS12Contents {
        guard bytes.count <= PKCS12Limits.maximumFileSize else {
            throw PKCS12Error(.resourceLimit, "file larger than \(PKCS12Limits.maximumFileSize) bytes")
        }
        let root = try DER.parse(bytes, rules: .basic)
        let (authSafeContent, mac) = try DER.sequence(root) { nodes -> (ArraySlice<UInt8>, PKCS12MAC?) in
            let version = try Int(derEncoded: &nodes)
            guard version == 3 else { throw PKCS12Error.malformed("PFX version \(version), expected 3") }
            guard let authSafe = nodes.next() else { throw PKCS12Error.malformed("PFX without authSafe") }
            let content = try PKCS12Decoder.dataContent(ofContentInfo: authSafe, what: "authSafe")
            let mac = try nodes.next().map { try PKCS12MAC(macData: $0) }
            return (content, mac)
        }

        // Refuse a file that declares more KDF work than the budget before running any KDF (a malformed authSafe
        // is reported after the MAC check, as before).
        let declared =
            (try? DER.parse(authSafeContent, rules: .basic)).map {
                PKCS12Decoder.declaredKDFCost(ofAuthenticatedSafe: $0)
            } ?? 0
        try budget.checkDeclared((mac?.kdfCost ?? 0).addingClamped(declared))

        var integrity = PKCS12Contents.Integrity.none
        if let mac {
            // The MAC covers the content octets of the authSafe (concatenated if BER-constructed), as read.
            guard let matched = try mac.verify(content: Data(authSafeContent), password: password, budget: budget)
            else {
                throw PKCS12Error(.authenticationFailed, "MAC verification failed: wrong password or corrupt file")
            }
            passwordVerified = true
            switch mac {
            case .hmac(let digest, _, let iterations, _):
                confirmedBMP = matched
                integrity = .mac(digest: digest, iterations: iterations)
            case .pbmac1(let kdf, let hmac, _):
                integrity = .pbmac1(digest: hmac, iterations: kdf.iterations)
            }
        }

        let authSafe = try DER.parse(authSafeContent, rules: .basic)
        var bags: [SafeBag] = []
        var contentInfoCount = 0
        try DER.sequence(authSafe) { contentInfos in
            while let contentInfo = contentInfos.next() {
                contentInfoCount += 1
                guard contentInfoCount <= PKCS12Limits.maximumContentInfoCount else {
                    throw PKCS12Error(.resourceLimit, "more than \(PKCS12Limits.maximumContentInfoCount) ContentInfos")
                }
                bags.append(contentsOf: try decodeSafe(contentInfo))
            }
        }
        return PKCS12Contents(bags: bags, integrity: integrity)
    }

    // MARK: Safes

    /// Decodes one ContentInfo of the AuthenticatedSafe: plain `data` or password-`encryptedData`.
    private mutating func decodeSafe(_ contentInfo: ASN1Node) throws -> [SafeBag] {
        let (type, content) = try PKCS12Decoder.contentInfo(contentInfo)
        switch type {
        case PKCS12OID.data:
            guard let content else { throw PKCS12Error.malformed("data ContentInfo without content") }
            let octets = try ASN1OctetString(derEncoded: content).bytes
            return try decodeSafeContents(octets, depth: 1)
        case PKCS12OID.encryptedData:
            guard let content else { throw PKCS12Error.malformed("encryptedData ContentInfo without content") }
            let (algorithm, ciphertext) = try PKCS12Decoder.encryptedData(content)
            guard let ciphertext else { return [] }  // encryptedContent is OPTIONAL
            // Parsing the plaintext is the password check for files without a MAC; the bags are then
            // decoded outside the closure.
            let safeContents = try decrypting(algorithm, ciphertext, what: "encrypted safe") { plaintext in
                let node = try DER.parse([UInt8](plaintext)[...], rules: .basic)
                guard node.identifier == .sequence else {
                    throw PKCS12Error.malformed("SafeContents is not a SEQUENCE")
                }
                return node
            }
            return try decodeSafeContents(safeContents, depth: 1)
        case PKCS12OID.envelopedData:
            throw PKCS12Error.unsupported("public-key privacy mode (envelopedData)", oid: type.dotted)
        default:
            throw PKCS12Error.unsupported("content type", oid: type.dotted)
        }
    }

    /// `SafeContents ::= SEQUENCE OF SafeBag`.
    private mutating func decodeSafeContents(_ bytes: ArraySlice<UInt8>, depth: Int) throws -> [SafeBag] {
        guard depth <= PKCS12Limits.maximumSafeContentsNesting else {
            throw PKCS12Error(
                .resourceLimit, "SafeContents nested deeper than \(PKCS12Limits.maximumSafeContentsNesting)")
        }
        let node = try DER.parse(bytes, rules: .basic)
        return try decodeSafeContents(node, depth: depth)
    }

    private mutating func decodeSafeContents(_ node: ASN1Node, depth: Int) throws -> [SafeBag] {
        guard depth <= PKCS12Limits.maximumSafeContentsNesting else {
            throw PKCS12Error(
                .resourceLimit, "SafeContents nested deeper than \(PKCS12Limits.maximumSafeContentsNesting)")
        }
        var bags: [SafeBag] = []
        try DER.sequence(node) { nodes in
            while let bagNode = nodes.next() {
                bagCount += 1
                guard bagCount <= PKCS12Limits.maximumBagCount else {
                    throw PKCS12Error(.resourceLimit, "more than \(PKCS12Limits.maximumBagCount) bags")
                }
                bags.append(try decodeBag(SafeBagValue(derEncoded: bagNode), depth: depth))
            }
        }
        return bags
    }

    private mutating func decodeBag(_ bag: SafeBagValue, depth: Int) throws -> SafeBag {
        switch bag.bagID {
        case PKCS12OID.keyBag:
            let der = try bag.value.derEncoded()  // definite lengths even if the file was BER
            try PKCS12Decoder.checkPrivateKeyInfoShape(der[...])
            return .privateKey(PrivateKeyBag(pkcs8: Data(der), wasEncrypted: false), attributes: bag.attributes)
        case PKCS12OID.pkcs8ShroudedKeyBag:
            // EncryptedPrivateKeyInfo ::= SEQUENCE { encryptionAlgorithm AlgorithmIdentifier, encryptedData OCTET
            // STRING }
            let (algorithm, ciphertext) = try DER.sequence(bag.value) { nodes in
                guard let algorithm = nodes.next() else {
                    throw PKCS12Error.malformed("EncryptedPrivateKeyInfo is empty")
                }
                return (algorithm, try ASN1OctetString(derEncoded: &nodes).bytes)
            }
            let pkcs8 = try decrypting(algorithm, ciphertext, what: "shrouded key") { plaintext in
                try PKCS12Decoder.checkPrivateKeyInfoShape([UInt8](plaintext)[...])
                return plaintext
            }
            return .privateKey(PrivateKeyBag(pkcs8: pkcs8, wasEncrypted: true), attributes: bag.attributes)
        case PKCS12OID.certBag:
            // CertBag ::= SEQUENCE { certId OID, certValue [0] EXPLICIT OCTET STRING }
            return try DER.sequence(bag.value) { nodes in
                let certType = try ASN1ObjectIdentifier(derEncoded: &nodes)
                guard let wrapper = nodes.next() else { throw PKCS12Error.malformed("CertBag without a value") }
                guard certType == PKCS12OID.x509Certificate else {
                    return .otherCertificate(typeOID: certType.dotted, attributes: bag.attributes)
                }
                let der = try DER.explicitlyTagged(wrapper, tagNumber: 0) { try ASN1OctetString(derEncoded: $0).bytes }
                return .certificate(Data(der), attributes: bag.attributes)
            }
        case PKCS12OID.crlBag:
            return .crl(attributes: bag.attributes)
        case PKCS12OID.secretBag:
            let type =
                (try? DER.sequence(bag.value) { nodes in
                    let oid = try ASN1ObjectIdentifier(derEncoded: &nodes)
                    nodes.skipRemaining()
                    return oid.dotted
                }) ?? "?"
            return .secret(typeOID: type, attributes: bag.attributes)
        case PKCS12OID.safeContentsBag:
            return .safeContents(try decodeSafeContents(bag.value, depth: depth + 1), attributes: bag.attributes)
        default:
            return .unknown(typeOID: bag.bagID.dotted, attributes: bag.attributes)
        }
    }

    // MARK: Decryption

    /// Decrypts `ciphertext` and hands the plaintext to `body`.
    ///
    /// Without a verified MAC, a padding failure or a plaintext that `body` cannot decode means the
    /// password is wrong (→ `.authenticationFailed`); for an empty password each encoding is tried.
    /// With a verified MAC, the same failures mean the file is corrupt (→ `.malformed`).
    private mutating func decrypting<T>(
        _ algorithmNode: ASN1Node, _ ciphertext: ArraySlice<UInt8>, what: String, _ body: (Data) throws -> T
    ) throws -> T {
        decryptionCount += 1
        guard decryptionCount <= PKCS12Limits.maximumDecryptions else {
            throw PKCS12Error(.resourceLimit, "more than \(PKCS12Limits.maximumDecryptions) encrypted items")
        }
        let algorithm = try PBEAlgorithm(algorithmIdentifier: algorithmNode)
        let input = Data(ciphertext)
        let candidates: [Data]
        if !algorithm.usesBMPPassword {
            candidates = [password.utf8]
        } else if let confirmedBMP {
            candidates = [confirmedBMP]
        } else {
            candidates = password.bmpCandidates
        }
        for (index, candidate) in candidates.enumerated() {
            let isLast = index == candidates.count - 1
            let plaintext: Data
            try budget.charge(algorithm.kdfCost, for: "decrypting the \(what)")
            do {
                plaintext = try algorithm.decrypt(input, passwordBytes: candidate)
            } catch is PBEDecryptionFailure {
                if !isLast { continue }
                throw passwordVerified
                    ? PKCS12Error.malformed("\(what) does not decrypt")
                    : PKCS12Error(.authenticationFailed, "\(what) does not decrypt: wrong password")
            }
            do {
                let result = try body(plaintext)
                if algorithm.usesBMPPassword { confirmedBMP = candidate }
                return result
            } catch let error as PKCS12Error where error.code == .resourceLimit || error.code == .unsupportedAlgorithm {
                throw error
            } catch {
                if !isLast { continue }
                if passwordVerified { throw error }
                throw PKCS12Error(.authenticationFailed, "\(what) decrypts to garbage: wrong password")
            }
        }
        throw PKCS12Error(.authenticationFailed, "\(what): no password encoding works")
    }

    // MARK: Declared work

    /// The KDF iterations the file's visible parts declare, one password encoding each: the encrypted safes and
    /// the shrouded keys in plain safes (nested SafeContents bags included). Parts that do not parse count
    /// nothing here; decoding reports them.
    static func declaredKDFCost(ofAuthenticatedSafe authSafe: ASN1Node) -> Int {
        var total = 0
        try? DER.sequence(authSafe) { contentInfos in
            while let contentInfo = contentInfos.next() {
                total = total.addingClamped(declaredKDFCost(ofContentInfo: contentInfo))
            }
        }
        return total
    }

    private static func declaredKDFCost(ofContentInfo node: ASN1Node) -> Int {
        guard let (type, content) = try? contentInfo(node), let content else { return 0 }
        switch type {
        case PKCS12OID.data:
            guard let octets = try? ASN1OctetString(derEncoded: content).bytes,
                let safeContents = try? DER.parse(octets, rules: .basic)
            else { return 0 }
            return declaredKDFCost(ofSafeContents: safeContents, depth: 1)
        case PKCS12OID.encryptedData:
            guard let (algorithm, _) = try? encryptedData(content),
                let pbe = try? PBEAlgorithm(algorithmIdentifier: algorithm)
            else { return 0 }
            return pbe.kdfCost
        default:
            return 0
        }
    }

    private static func declaredKDFCost(ofSafeContents node: ASN1Node, depth: Int) -> Int {
        guard depth <= PKCS12Limits.maximumSafeContentsNesting else { return 0 }
        var total = 0
        try? DER.sequence(node) { bags in
            while let bagNode = bags.next() {
                guard let bag = try? SafeBagValue(derEncoded: bagNode) else { continue }
                switch bag.bagID {
                case PKCS12OID.pkcs8ShroudedKeyBag:
                    let cost = try? DER.sequence(bag.value) { fields -> Int in
                        guard let algorithm = fields.next() else { return 0 }
                        fields.skipRemaining()
                        return try PBEAlgorithm(algorithmIdentifier: algorithm).kdfCost
                    }
                    total = total.addingClamped(cost ?? 0)
                case PKCS12OID.safeContentsBag:
                    total = total.addingClamped(declaredKDFCost(ofSafeContents: bag.value, depth: depth + 1))
                default:
                    break
                }
            }
        }
        return total
    }

    // MARK: Wire helpers

    /// `ContentInfo ::= SEQUENCE { contentType OID, content [0] EXPLICIT ANY OPTIONAL }`.
    static func contentInfo(_ node: ASN1Node) throws -> (ASN1ObjectIdentifier, ASN1Node?) {
        try DER.sequence(node) { nodes in
            let type = try ASN1ObjectIdentifier(derEncoded: &nodes)
            let content = try DER.optionalExplicitlyTagged(&nodes, tagNumber: 0) { $0 }
            return (type, content)
        }
    }

    /// The octets of a `data` ContentInfo; other types are unsupported integrity modes.
    static func dataContent(ofContentInfo node: ASN1Node, what: String) throws -> ArraySlice<UInt8> {
        let (type, content) = try contentInfo(node)
        guard type == PKCS12OID.data else {
            if type == PKCS12OID.signedData {
                throw PKCS12Error.unsupported("public-key integrity mode (signedData)", oid: type.dotted)
            }
            throw PKCS12Error.unsupported("\(what) content type", oid: type.dotted)
        }
        guard let content else { throw PKCS12Error.malformed("\(what) without content") }
        return try ASN1OctetString(derEncoded: content).bytes
    }

    /// `EncryptedData ::= SEQUENCE { version INTEGER, EncryptedContentInfo }` with
    /// `EncryptedContentInfo ::= SEQUENCE { contentType, contentEncryptionAlgorithm, encryptedContent [0] IMPLICIT
    /// OCTET STRING OPTIONAL }`.
    static func encryptedData(_ node: ASN1Node) throws -> (ASN1Node, ArraySlice<UInt8>?) {
        try DER.sequence(node) { nodes in
            _ = try Int(derEncoded: &nodes)
            guard let info = nodes.next() else { throw PKCS12Error.malformed("EncryptedData without content info") }
            nodes.skipRemaining()  // unprotectedAttrs [1]
            return try DER.sequence(info) { fields in
                let type = try ASN1ObjectIdentifier(derEncoded: &fields)
                guard type == PKCS12OID.data else { throw PKCS12Error.malformed("encrypted content is not data") }
                guard let algorithm = fields.next() else {
                    throw PKCS12Error.malformed("EncryptedData without algorithm")
                }
                guard let content = fields.next() else { return (algorithm, nil) }
                let octets = try content.stringContent(
                    expecting: .contextSpecific(0, constructed: false), segmentTag: .octetString)
                return (algorithm, octets)
            }
        }
    }

    /// A cheap check that decrypted bytes look like a PrivateKeyInfo: SEQUENCE { INTEGER, SEQUENCE, OCTET STRING, … }.
    /// Wrong-password plaintext with valid padding (1 in 256 for block ciphers) fails here.
    static func checkPrivateKeyInfoShape(_ bytes: ArraySlice<UInt8>) throws {
        let node = try DER.parse(bytes, rules: .basic)
        try DER.sequence(node) { nodes in
            _ = try ASN1Integer(derEncoded: &nodes)
            guard let algorithm = nodes.next(), algorithm.identifier == .sequence else {
                throw PKCS12Error.malformed("PrivateKeyInfo without algorithm")
            }
            _ = try ASN1OctetString(derEncoded: &nodes)
            nodes.skipRemaining()
        }
    }
}

extension Int {
    /// `self + other`, saturating at `Int.max` (declared work is attacker-chosen).
    fileprivate func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
