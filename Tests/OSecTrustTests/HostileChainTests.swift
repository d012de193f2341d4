import Foundation
import OSecASN1
import OSecCrypto
import OSecTrust
import OSecX509
import Testing

/// Issue 12 item 1: cross-issued intermediates that never reach an anchor, each CA with many excluded name
/// constraints and a leaf with many names. Before one budget bounded the whole evaluation, every dead-end path was
/// validated in full with a fresh name-constraint budget (3^6 = 729 paths × 250,000 comparisons: 742 s in a debug
/// build). These tests count work units in the evaluation's budget; the only clock is a generous hang guard.
@Suite struct HostileChainTests {
    /// A layered, fully cross-issued PKI: `layers` layers of `width` CAs; every CA of layer n > 1 holds one certificate
    /// from each CA of layer n − 1 (same subject and key, different issuers); layer 1 is issued by roots nobody
    /// trusts or supplies. With width 3 and 7 layers: 3 + 6 × 9 = 57 intermediates and 3^6 = 729 dead-end paths.
    struct HostilePKI {
        let leaf: Certificate
        let intermediates: [Certificate]
        let anchor: Certificate
        /// The roots that issued layer 1 (neither trusted nor supplied unless a test does so).
        let hiddenRoots: [Certificate]
        /// Dead-end paths from the leaf (width^(layers − 1)).
        let paths: Int
        /// Name-constraint comparisons one path costs in full (every CA's exclusions × every leaf name).
        let comparisonsPerPath: Int
    }

    static let excludedPerCA = 36
    static let leafNames = 1000

    static func hostilePKI(width: Int, layers: Int) throws -> HostilePKI {
        // A few reused EC keys (one per column of CAs, one per hidden root): key generation is the expensive part.
        let keys = TestPKI.ecKeys
        let exclusions = (0..<excludedPerCA).map { GeneralName.dnsName("excluded\($0).example.org") }
        func caBuilder(_ name: String, key: AsymmetricKey) -> CertificateBuilder {
            var b = TestPKI.builder(
                name, key: key, from: TestPKI.now - 100 * TestPKI.day, to: TestPKI.now + 900 * TestPKI.day)
            b.basicConstraints = BasicConstraints(isCertificateAuthority: true)
            b.keyUsage = [.keyCertSign, .cRLSign]
            b.nameConstraints = NameConstraints(excludedSubtrees: exclusions)
            return b
        }
        let hiddenRoots = (0..<width).map { TestPKI.root("Hidden Root \($0)", key: keys[width + $0]) }
        var intermediates: [Certificate] = []
        // Layer 1: CA (1, c), issued by hidden root c.
        var previous: [TestPKI.Node] = []
        for column in 0..<width {
            let b = caBuilder("Hostile CA 1-\(column)", key: keys[column])
            let certificate = try b.issued(by: hiddenRoots[column].certificate, issuerKey: hiddenRoots[column].key)
            intermediates.append(certificate)
            previous.append(TestPKI.Node(certificate: certificate, key: keys[column]))
        }
        // Layers 2…n: CA (n, c), cross-issued by every CA of the layer above.
        for layer in 2...max(2, layers) where layer <= layers {
            var current: [TestPKI.Node] = []
            for column in 0..<width {
                let b = caBuilder("Hostile CA \(layer)-\(column)", key: keys[column])
                var first: Certificate? = nil
                for issuer in previous {
                    let certificate = try b.issued(by: issuer.certificate, issuerKey: issuer.key)
                    intermediates.append(certificate)
                    if first == nil { first = certificate }
                }
                if let first { current.append(TestPKI.Node(certificate: first, key: keys[column])) }
            }
            previous = current
        }
        var leafBuilder = TestPKI.builder("host0.example.net", key: keys[2 * width])
        leafBuilder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        leafBuilder.keyUsage = [.digitalSignature]
        leafBuilder.extendedKeyUsage = [X509OID.serverAuth]
        leafBuilder.subjectAlternativeNames = (0..<leafNames).map { GeneralName.dnsName("host\($0).example.net") }
        let leaf = try leafBuilder.issued(by: previous[0].certificate, issuerKey: previous[0].key)
        let anchor = TestPKI.root("Unrelated Trusted Root", key: keys[7]).certificate
        var paths = 1
        for _ in 1..<layers { paths *= width }
        return HostilePKI(
            leaf: leaf, intermediates: intermediates, anchor: anchor, hiddenRoots: hiddenRoots.map(\.certificate),
            paths: paths,
            comparisonsPerPath: layers * excludedPerCA * leafNames)
    }

    /// Evaluates on another thread and waits at most `seconds` (a hang guard, not a timing assertion).
    static func evaluateWithHangGuard(_ pki: HostilePKI, seconds: Int = 120) -> TrustEvaluation? {
        final class Box: @unchecked Sendable {  // written once by the worker, read after the semaphore
            var result: TrustEvaluation?
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let builder = ChainBuilder(
            anchors: [AnchorStore([pki.anchor])], intermediates: pki.intermediates,
            options: TestPKI.serverOptions("host0.example.net"))
        let leaf = pki.leaf
        Thread.detachNewThread {
            box.result = builder.evaluate(leaf)
            done.signal()
        }
        guard done.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
        return box.result
    }

    @Test(arguments: [(2, 4), (2, 6), (3, 7)])
    func crossIssuedDeadEndsAreAnsweredWithinOneBudget(width: Int, layers: Int) throws {
        let pki = try Self.hostilePKI(width: width, layers: layers)
        if width == 3 {
            #expect(pki.intermediates.count == 57)
            let pem = ([pki.leaf] + pki.intermediates).map { $0.pemString }.joined()
            #expect(pem.utf8.count > 90_000, "\(pem.utf8.count) bytes of PEM")
        }
        let started = ContinuousClock.now
        guard let result = Self.evaluateWithHangGuard(pki) else {
            Issue.record("evaluation of \(pki.paths) dead-end paths did not finish within the hang guard")
            return
        }
        let elapsed = ContinuousClock.now - started
        let budget = result.budget
        print(
            "hostile \(width)x\(layers) (\(pki.paths) paths): \(budget.signatureChecks) signature checks, "
                + "\(budget.pathBuildingSteps) steps, \(budget.candidatePaths) candidate paths, "
                + "\(budget.nameConstraintComparisons) name-constraint comparisons, \(elapsed) (observation only)")
        #expect(!result.isTrusted)
        #expect(!result.isAnchored)
        // One budget for the whole evaluation, never exceeded.
        #expect(budget.signatureChecks <= TrustLimits.maximumSignatureChecks + 1)
        #expect(budget.pathBuildingSteps <= TrustLimits.maximumPathBuildingSteps + 1)
        #expect(budget.candidatePaths <= TrustLimits.maximumCandidatePaths + 1)
        #expect(budget.nameConstraintComparisons <= TrustLimits.maximumNameConstraintComparisons + 1)
        // Dead ends get no whole-path checks: not one name is compared (before, every path was, in full:
        // `comparisonsPerPath` each).
        #expect(budget.nameConstraintComparisons == 0, "one path in full would be \(pki.comparisonsPerPath)")
        if pki.paths > TrustLimits.maximumCandidatePaths {
            // More dead ends than the candidate cap: the budget runs out, a fatal failure that says so.
            #expect(result.checks.contains(.workBudget))
            #expect(result.failures.hasFatal)
            #expect(budget.isExhausted)
        } else {
            #expect(budget.candidatePaths == pki.paths)
        }
    }

    @Test func anchoredPathsShareOneNameConstraintBudget() throws {
        // The same graph, but layer 1's roots are trusted: all 8 paths reach an anchor and all fail (the leaf has
        // expired), so each one gets the whole-path checks; 144,000 comparisons per path, one budget of 250,000.
        let pki = try Self.hostilePKI(width: 2, layers: 4)
        var options = TestPKI.serverOptions("host0.example.net", time: TestPKI.now + 400 * TestPKI.day)
        options.peerNames = []
        let result = ChainBuilder(
            anchors: [AnchorStore(pki.hiddenRoots)], intermediates: pki.intermediates, options: options
        ).evaluate(pki.leaf)
        #expect(!result.isTrusted)
        #expect(result.isAnchored)
        #expect(result.budget.exhausted == .nameConstraintComparisons)
        #expect(result.budget.nameConstraintComparisons <= TrustLimits.maximumNameConstraintComparisons + 1)
        #expect(result.checks.contains(.workBudget))
        #expect(result.failures.hasFatal)
    }

    @Test func budgetExhaustionIsFatalAndNamesTheLimit() {
        var budget = TrustBudget()
        var granted = 0
        for _ in 0..<TrustLimits.maximumSignatureChecks where budget.consume(.signatureChecks) { granted += 1 }
        #expect(granted == TrustLimits.maximumSignatureChecks)
        let oneMore = budget.consume(.signatureChecks)
        #expect(!oneMore)
        #expect(budget.exhausted == .signatureChecks)
        let afterwards = budget.consume(.pathBuildingSteps)
        #expect(!afterwards, "nothing is granted once a resource ran out")
        let failure = budget.failure
        #expect(failure?.check == .workBudget)
        #expect(failure?.check.isFatal == true)
        #expect(failure?.reason.contains("\(TrustLimits.maximumSignatureChecks)") == true)
    }

    @Test func cachedSignatureVerdictsCountAgainstTheBudget() {
        let (root, intermediate, leaf) = TestPKI.chain()
        let first = TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root])
        CertificateInfo.purgeCache(keeping: [leaf.certificate, intermediate.certificate, root.certificate])
        EvaluationMemo.purge()
        let second = TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root])
        #expect(first.isTrusted && second.isTrusted)
        // The second run finds every verdict remembered and still counts the checks.
        #expect(second.budget.signatureChecks == first.budget.signatureChecks)
        #expect(second.budget.signatureChecks >= 2)
    }

    @Test func realChainsUseAFewUnits() {
        let (root, intermediate, leaf) = TestPKI.chain()
        EvaluationMemo.purge()
        let result = TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root])
        #expect(result.isTrusted)
        #expect(result.budget.candidatePaths == 1)
        #expect(result.budget.signatureChecks <= 3)
        #expect(result.budget.pathBuildingSteps <= 6)
    }

    @Test func depthIsCappedAtSixIntermediates() throws {
        // root → 7 intermediates → leaf: the seventh is one too many; six is fine.
        var issuer = TestPKI.root()
        var chain: [TestPKI.Node] = []
        for index in 0..<7 {
            issuer = TestPKI.intermediate("Deep CA \(index)", key: TestPKI.ecKeys[1 + index % 5], issuer: issuer)
            chain.append(issuer)
        }
        let root = TestPKI.root()
        let deepLeaf = TestPKI.leaf(issuer: chain[6])
        let deep = TestPKI.evaluate(deepLeaf, intermediates: chain, anchors: [root])
        #expect(!deep.isTrusted)
        let shallowLeaf = TestPKI.leaf(issuer: chain[5])
        let shallow = TestPKI.evaluate(shallowLeaf, intermediates: Array(chain[0..<6]), anchors: [root])
        #expect(shallow.isTrusted, "\(shallow.failures)")
    }
}
