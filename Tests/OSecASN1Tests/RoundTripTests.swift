import Foundation
import Testing

@testable import OSecASN1

/// The shape the X.509 layer will use: an OPTIONAL EXPLICIT [0] field and a SET OF.
struct ExampleRecord: DERImplicitlyTaggable, Equatable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var version: Int  // [0] EXPLICIT INTEGER DEFAULT 0
    var algorithm: ASN1ObjectIdentifier
    var label: ASN1UTF8String?  // [1] IMPLICIT UTF8String OPTIONAL
    var names: [ASN1PrintableString]  // SET OF PrintableString

    init(version: Int, algorithm: ASN1ObjectIdentifier, label: ASN1UTF8String?, names: [ASN1PrintableString]) {
        self.version = version
        self.algorithm = algorithm
        self.label = label
        self.names = names
    }

    init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(node, identifier: identifier) { nodes in
            let version = try DER.decodeDefaultExplicitlyTagged(&nodes, tagNumber: 0, defaultValue: 0)
            let algorithm = try ASN1ObjectIdentifier(derEncoded: &nodes)
            let label = try DER.optionalImplicitlyTagged(&nodes, ASN1UTF8String.self, tagNumber: 1)
            let names = try DER.set(of: ASN1PrintableString.self, rootNode: ASN1Node(derEncoded: &nodes))
            return ExampleRecord(version: version, algorithm: algorithm, label: label, names: names)
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            if version != 0 { try coder.serialize(version, explicitlyTaggedWithTagNumber: 0) }
            try coder.serialize(algorithm)
            try coder.serializeOptionalImplicitlyTagged(label, withIdentifier: .contextSpecific(1, constructed: false))
            try coder.serializeSetOf(names)
        }
    }
}

@Suite struct RoundTripTests {
    @Test func declarativeStructRoundTrips() throws {
        let record = ExampleRecord(
            version: 2, algorithm: [1, 2, 3], label: try ASN1UTF8String("hi"),
            names: [try ASN1PrintableString("b"), try ASN1PrintableString("a")])
        let bytes = try record.derEncoded()
        #expect(bytes == hex("3015 a003020102 06022a03 81026869 3106 130161 130162"))
        let decoded = try ExampleRecord(derEncoded: bytes)
        #expect(decoded.version == 2 && decoded.label?.string == "hi")
        #expect(decoded.names.map(\.string) == ["a", "b"])

        let minimal = ExampleRecord(version: 0, algorithm: [1, 2, 3], label: nil, names: [])
        let minimalBytes = try minimal.derEncoded()
        #expect(minimalBytes == hex("3006 06022a03 3100"))
        #expect(try ExampleRecord(derEncoded: minimalBytes) == minimal)
        // DEFAULT value encoded explicitly: DER error, BER accepted.
        let withDefault = hex("300b a003020100 06022a03 3100")
        expectASN1Error(.invalidASN1Object) { try ExampleRecord(derEncoded: withDefault) }
        #expect(try ExampleRecord(derEncoded: withDefault, rules: .basic).version == 0)
        // Extra element, unsorted SET OF.
        expectASN1Error(.invalidASN1Object) { try ExampleRecord(derEncoded: hex("3008 06022a03 3100 0500")) }
        expectASN1Error(.unsortedSet) { try ExampleRecord(derEncoded: hex("300c 06022a03 3106 130162 130161")) }
        #expect(try ExampleRecord(derEncoded: hex("300c 06022a03 3106 130162 130161"), rules: .basic).names.count == 2)
    }

    @Test func sampleStructureRoundTrips() throws {
        let node = try DER.parse(Fixtures.sample)
        #expect(try node.derEncoded() == Fixtures.sample)
    }

    @Test func everySystemCertificateRoundTripsByteForByte() throws {
        let certificates = Fixtures.caCertificates
        try #require(certificates.count > 50)
        var nodeCount = 0
        for der in certificates {
            let node = try DER.parse(der)
            var coder = DER.Serializer()
            try coder.serialize(node)
            #expect(coder.serializedBytes == der)
            nodeCount += countNodes(node)
            // TBSCertificate bytes are an exact slice of the input.
            let tbs = try #require(node.children?.first)
            #expect(tbs.encodedBytes.startIndex == (der[1] & 0x80 == 0 ? 2 : 2 + Int(der[1] & 0x7f)))
        }
        #expect(nodeCount > certificates.count * 50)
    }

    @Test func systemCertificatesDecodeWithTypedDecoders() throws {
        // Walk every primitive node and decode the universal types we know; everything must decode.
        var decoded = 0
        for der in Fixtures.caCertificates {
            try visit(DER.parse(der)) { node in
                switch node.identifier {
                case .objectIdentifier: _ = try ASN1ObjectIdentifier(derEncoded: node)
                case .integer: _ = try ASN1Integer(derEncoded: node)
                case .boolean: _ = try Bool(derEncoded: node)
                case .utcTime: _ = try UTCTime(derEncoded: node)
                case .generalizedTime: _ = try GeneralizedTime(derEncoded: node)
                case .utf8String: _ = try ASN1UTF8String(derEncoded: node).string
                case .printableString: _ = try ASN1PrintableString(derEncoded: node).string
                case .bmpString: _ = try ASN1BMPString(derEncoded: node).string
                case .teletexString: _ = try ASN1TeletexString(derEncoded: node).string
                case .bitString: _ = try ASN1BitString(derEncoded: node)
                default: return
                }
                decoded += 1
            }
        }
        #expect(decoded > 1000)
    }

    @Test func parseSpeedOfTheSystemBundle() throws {
        let certificates = Fixtures.caCertificates
        try #require(!certificates.isEmpty)
        let rounds = 20
        let clock = ContinuousClock()
        var nodes = 0
        let elapsed = try clock.measure {
            for _ in 0..<rounds {
                for der in certificates { nodes += countNodes(try DER.parse(der)) }
            }
        }
        let perCertificate = elapsed / (rounds * certificates.count)
        print(
            "OSecASN1 parse+walk: \(certificates.count) certificates, \(perCertificate) per certificate (debug build)")
        #expect(nodes > 0)
    }
}

func countNodes(_ node: ASN1Node) -> Int {
    guard let children = node.children else { return 1 }
    return children.reduce(1) { $0 + countNodes($1) }
}

func visit(_ node: ASN1Node, _ body: (ASN1Node) throws -> Void) throws {
    try body(node)
    if let children = node.children { for child in children { try visit(child, body) } }
}
