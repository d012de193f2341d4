// libFuzzer target for what a TLS peer sends, through OSecTLSCore's engine (the code SecureTransport's SSLContext
// and OpenSecurityTLS run): as a server, the client's first flight (ClientHello with SNI and ALPN, read by our
// client-hello and ALPN-selection callbacks); as a client, the server's flight (ServerHello, Certificate: the chain
// handed to the peer-certificate handler, which SecTrust evaluates in SSLContext). Bytes go through the engine's own
// record framing (receiveRecord, in chunks the input chooses). Built by `Fuzz/fuzz.sh tls`.
//
// Asserted:
// - a handshake never completes (the peer's bytes cannot know this run's ephemeral keys): a completion means a
//   check was skipped;
// - as a server, the ALPN protocol selected is one the server offers and the client offered, every offered name is
//   1–255 bytes; the SNI name read at the client-hello pause is the one libssl reports after it (when both exist);
// - as a client, the chain handed to the handler has 1…maximumPeerCertificates certificates, is what
//   receivedPeerChain reports, and every certificate in it re-encodes as itself through OSecX509 when it parses.
import Foundation
import OSecCrypto
import OSecTLSCore
import OSecX509

nonisolated(unsafe) var credential: TLSCredential?
let serverProtocols = ["h2", "http/1.1", "x"]

/// Feeds `bytes` through the engine's record reader in chunks of `chunk` bytes, stepping the handshake after
/// each record; returns the last step.
func drive(_ engine: TLSEngine, _ bytes: [UInt8], chunk: Int, onPause: () -> Void) -> TLSEngine.HandshakeStep {
    var offset = 0
    var step = engine.handshakeStep()
    var rounds = 0
    while rounds < 64 {
        rounds += 1
        _ = engine.takeOutput()
        switch step {
        case .complete: return step
        case .failed: return step
        case .certificateRequested, .clientHelloReceived:
            onPause()
            step = engine.handshakeStep()
            continue
        case .wantInput: break
        }
        guard offset < bytes.count else { return step }
        let result = engine.receiveRecord { buffer, length in
            let count = min(length.pointee, chunk, bytes.count - offset)
            guard count > 0 else {
                length.pointee = 0
                return .closed
            }
            bytes.withUnsafeBytes { source in
                guard let base = source.baseAddress else { return }
                buffer.copyMemory(from: base + offset, byteCount: count)
            }
            offset += count
            length.pointee = count
            return .ok
        }
        if case .endOfStream = result { engine.receiveEndOfStream() }
        step = engine.handshakeStep()
    }
    return step
}

func fuzzServer(_ input: inout FuzzInput) {
    guard let credential, let engine = try? TLSEngine(side: .server, credential: credential) else {
        fatalError("server engine")
    }
    try? engine.setApplicationProtocols(serverProtocols)
    let flags = input.byte()
    engine.breakOnClientHello = flags & 1 != 0
    if flags & 2 != 0 { try? engine.setVersionRange(minimum: TLSVersion.tls12, maximum: TLSVersion.tls12) }
    let chunk = 1 + Int(input.byte() % 64) * (flags & 4 != 0 ? 1 : 300)
    var pausedName: String?
    let step = drive(engine, input.rest(), chunk: chunk) { pausedName = engine.clientHelloServerName }
    if case .complete = step { fatalError("a server handshake completed on fuzzed bytes") }
    for name in engine.offeredProtocols where !(1...255).contains(name.utf8.count) && !name.contains("\u{FFFD}") {
        fatalError("an offered ALPN name of \(name.utf8.count) bytes")
    }
    if let selected = engine.negotiatedApplicationProtocol {
        guard serverProtocols.contains(selected), engine.offeredProtocols.contains(selected) else {
            fatalError("ALPN selected \(selected), which one side did not offer")
        }
    }
    if let pausedName, let reported = engine.requestedServerName, !pausedName.contains("\u{FFFD}"),
        !pausedName.contains("\0"), reported != pausedName
    {
        fatalError("SNI read as \(pausedName) at the pause, \(reported) after it")
    }
}

func fuzzClient(_ input: inout FuzzInput) {
    guard let engine = try? TLSEngine(side: .client) else { fatalError("client engine") }
    let flags = input.byte()
    try? engine.setServerName("fuzz.example")
    try? engine.setApplicationProtocols(["h2"])
    if flags & 2 != 0 { try? engine.setVersionRange(minimum: TLSVersion.tls12, maximum: TLSVersion.tls12) }
    engine.breakOnCertificateRequest = flags & 8 != 0
    var handed: [Data]?
    let accept = flags & 1 != 0
    engine.peerCertificateHandler = { chain in
        handed = chain
        return accept ? .accept : .reject(.badCertificate)
    }
    let chunk = 1 + Int(input.byte() % 64) * (flags & 4 != 0 ? 1 : 300)
    let step = drive(engine, input.rest(), chunk: chunk) {}
    if case .complete = step { fatalError("a client handshake completed on fuzzed bytes") }
    guard let handed else { return }
    guard (1...TLSLimits.maximumPeerCertificates).contains(handed.count), engine.receivedPeerChain == handed else {
        fatalError("the handler got a chain of \(handed.count) certificates")
    }
    for der in handed {
        if let certificate = try? Certificate(derEncoded: Array(der)) {
            guard (try? certificate.reencoded()) == Array(der) else {
                fatalError("a peer certificate does not re-encode as itself")
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func tlsFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    if input.byte() & 1 == 0 { fuzzServer(&input) } else { fuzzClient(&input) }
    return 0
}

/// A P-256 root and leaf (SAN fuzz.example) for the server; seeds from real handshakes between our own client and
/// server engines: the client's ClientHello (TLS 1.2 only and 1.2–1.3, with SNI and ALPN) and the server's first
/// flight answering it (TLS 1.2: the Certificate message is in clear).
@_cdecl("LLVMFuzzerInitialize")
public func tlsFuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    do {
        let rootKey = try AsymmetricKey.generateEC(.p256)
        let leafKey = try AsymmetricKey.generateEC(.p256)
        let notBefore = X509Time(secondsSinceEpoch: 1_704_067_200)
        let notAfter = X509Time(secondsSinceEpoch: 2_019_686_400)
        var root = try CertificateBuilder(
            subject: DistinguishedName([(X509OID.commonName, "Fuzz Root")]),
            publicKey: SubjectPublicKeyInfo(rootKey), notBefore: notBefore, notAfter: notAfter)
        root.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        let rootCertificate = try root.selfSigned(with: rootKey)
        var leaf = try CertificateBuilder(
            subject: DistinguishedName([(X509OID.commonName, "fuzz.example")]),
            publicKey: SubjectPublicKeyInfo(leafKey), notBefore: notBefore, notAfter: notAfter)
        leaf.subjectAlternativeNames = [.dnsName("fuzz.example")]
        let leafCertificate = try leaf.issued(by: rootCertificate, issuerKey: rootKey)
        credential = try leafKey.withOpenSSLKeyHandle { handle throws(TLSError) in
            try TLSCredential(
                certificateChain: [Data(leafCertificate.derBytes), Data(rootCertificate.derBytes)],
                privateKeyHandle: handle)
        }
    } catch {
        fatalError("making the TLS credential: \(error)")
    }
    guard Seeds.directory != nil, let credential else { return 0 }
    for (index, tls12Only) in [false, true].enumerated() {
        guard let client = try? TLSEngine(side: .client),
            let server = try? TLSEngine(side: .server, credential: credential)
        else { fatalError("seed engines") }
        try? client.setServerName("fuzz.example")
        try? client.setApplicationProtocols(["h2", "http/1.1"])
        try? server.setApplicationProtocols(serverProtocols)
        if tls12Only { try? client.setVersionRange(minimum: TLSVersion.tls12, maximum: TLSVersion.tls12) }
        client.peerCertificateHandler = { _ in .accept }
        _ = client.handshakeStep()
        let hello = client.takeOutput()
        Seeds.write("client-hello-\(index)", [0, 4, 0] + Array(hello))
        _ = server.receive(hello)
        _ = server.handshakeStep()
        let flight = server.takeOutput()
        Seeds.write("server-flight-\(index)", [1, tls12Only ? 3 : 1, 0] + Array(flight))
    }
    return 0
}
