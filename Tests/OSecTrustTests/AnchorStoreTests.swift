import OSecTrust
import OSecX509
import Testing

/// AnchorStore's duplicate removal and lookups (the store indexes anchors by name as it removes duplicates, so a
/// bundle of n roots costs n lookups).
@Suite struct AnchorStoreTests {
    @Test func duplicatesAreRemovedAndOrderIsKept() throws {
        let first = TestPKI.root("Store Root A", key: TestPKI.ecKeys[0])
        let second = TestPKI.root("Store Root B", key: TestPKI.ecKeys[1])
        // The same DER parsed twice is two Certificate values with separate storage.
        let reparsed = try Certificate(derEncoded: first.certificate.derBytes)
        let store = AnchorStore([first.certificate, second.certificate, reparsed, second.certificate])
        #expect(store.certificates == [first.certificate, second.certificate])
        let info = CertificateInfo.make(first.certificate)
        #expect(AnchorStore(infos: [info, info]).anchors.count == 1)
    }

    @Test func sameNameOtherKeyIsKeptAndFoundByKey() {
        let a = TestPKI.root("Store Root Same", key: TestPKI.ecKeys[3])
        let b = TestPKI.root("Store Root Same", key: TestPKI.ecKeys[4])
        let other = TestPKI.root("Store Root Other", key: TestPKI.ecKeys[5])
        let store = AnchorStore([a.certificate, other.certificate, b.certificate])
        #expect(store.certificates == [a.certificate, other.certificate, b.certificate])
        let infoA = CertificateInfo.make(a.certificate)
        let infoB = CertificateInfo.make(b.certificate)
        #expect(store.anchors(named: infoA.normalizedSubject).map(\.certificate) == [a.certificate, b.certificate])
        #expect(store.anchor(matching: infoB)?.certificate == b.certificate)
        #expect(store.anchor(matching: infoA)?.certificate == a.certificate)
        let stranger = TestPKI.root("Store Root Same", key: TestPKI.ecKeys[6])
        #expect(store.anchor(matching: CertificateInfo.make(stranger.certificate)) == nil)
    }

    @Test func builderOverDecodedInfosMatchesBuilderOverCertificates() {
        let (root, intermediate, leaf) = TestPKI.chain()
        let options = TestPKI.serverOptions()
        let byCertificate = ChainBuilder(
            anchors: [AnchorStore([root.certificate])], intermediates: [intermediate.certificate], options: options
        ).evaluate(leaf.certificate)
        let byInfo = ChainBuilder(
            anchors: [AnchorStore(infos: [CertificateInfo.make(root.certificate)])],
            intermediateInfos: [CertificateInfo.make(intermediate.certificate)], options: options
        ).evaluate(info: CertificateInfo.make(leaf.certificate))
        #expect(byCertificate.isTrusted && byInfo.isTrusted)
        #expect(byInfo.chain == [leaf.certificate, intermediate.certificate, root.certificate])
    }
}
