import OSecASN1
import OSecSystem
import OSecX509

/// The outcome of one evaluation: the chain we report and every failed check on it.
///
/// When some path ends at an anchor and passes every check, ``chain`` is that path and ``failures`` is empty.
/// Otherwise ``chain`` is the most promising path found (anchored paths first, then the one whose most
/// important failure is least important) and ``failures`` says why it is not trusted.
package struct TrustEvaluation: Sendable {
    /// Leaf first; ends at the anchor when ``isAnchored``.
    package var chain: [Certificate]
    /// Whether ``chain`` ends at a trust anchor.
    package var isAnchored: Bool
    /// Every failed check on ``chain`` (empty when trusted).
    package var failures: [TrustFailure]
    /// Whether revocation was checked for every non-anchor certificate of the chain.
    package var revocationChecked: Bool
    /// The work the evaluation did (diagnostics and tests; see ``TrustLimits``).
    package var budget: TrustBudget

    /// Path-building steps used (diagnostics).
    package var steps: Int { budget.pathBuildingSteps }

    /// Whether the evaluation found a path that passes every check.
    package var isTrusted: Bool { failures.isEmpty }
}

/// Builds candidate paths from a leaf to the anchors (depth-first, best candidates first, with backtracking)
/// and runs ``PathValidator`` on them.
///
/// Candidate issuers are found by normalized name among the anchors and the supplied intermediates. They are
/// ranked: anchors before intermediates, then AKI keyIdentifier = SKI, then no key identifiers to compare, then
/// mismatching ones; ties prefer certificates valid at the verify time. A certificate whose subject and key already
/// appear on the path is skipped (loop detection).
///
/// One ``TrustBudget`` bounds the whole search. A path that reaches an anchor gets every check; a dead end (a path that
/// cannot be extended to an anchor) gets only the per-certificate checks, which are linear in its size, and counts
/// against the candidate-path limit like an anchored path. The whole-path checks (name constraints, policies,
/// revocation) run only on paths that reach an anchor.
package struct ChainBuilder {
    /// The anchor stores searched, in order.
    package let anchors: [AnchorStore]
    /// The untrusted certificates offered for path building.
    package let intermediates: [CertificateInfo]
    /// The policy and inputs of the evaluation.
    package let options: ValidationOptions
    /// Treat every anchor as a system anchor (Apple's lifetime limits differ); paths ending at an anchor of
    /// ``AnchorStore/system`` are treated so anyway.
    package let usesSystemAnchors: Bool

    /// A builder over anchors and intermediates (decoded through the shared cache) with these options.
    package init(
        anchors: [AnchorStore], intermediates: [Certificate], options: ValidationOptions,
        usesSystemAnchors: Bool = false
    ) {
        self.init(
            anchors: anchors, intermediateInfos: intermediates.map(CertificateInfo.make), options: options,
            usesSystemAnchors: usesSystemAnchors)
    }

    /// A builder over already decoded intermediates (a caller that holds each certificate's info, as `SecCertificate`
    /// does, skips the shared cache: no hashing of every certificate's DER per evaluation, no shared lock).
    package init(
        anchors: [AnchorStore], intermediateInfos: [CertificateInfo], options: ValidationOptions,
        usesSystemAnchors: Bool = false
    ) {
        self.anchors = anchors
        self.intermediates = intermediateInfos
        self.options = options
        self.usesSystemAnchors = usesSystemAnchors
    }

    /// Intermediates by normalized subject (built per search, not per builder: remembered outcomes skip it).
    private func indexIntermediates() -> [ByteKey: [Int]] {
        var index: [ByteKey: [Int]] = [:]
        for (position, info) in intermediates.enumerated() {
            index[info.normalizedSubject, default: []].append(position)
        }
        return index
    }

    private struct Search {
        var intermediatesBySubject: [ByteKey: [Int]] = [:]
        var budget = TrustBudget()
        /// The best path that reached an anchor but failed a check.
        var bestAnchored: TrustEvaluation?
        /// The best dead end (per-certificate checks only, and why it cannot be extended).
        var bestDeadEnd: TrustEvaluation?
    }

    /// Evaluates `leaf`.
    package func evaluate(_ leaf: Certificate) -> TrustEvaluation {
        evaluate(info: CertificateInfo.make(leaf))
    }

    /// Evaluates the leaf whose decoded info the caller holds.
    package func evaluate(info leafInfo: CertificateInfo) -> TrustEvaluation {
        let memoKey = EvaluationMemo.Key(builder: self, leaf: leafInfo)
        if let memoKey, let hit = EvaluationMemo.lookup(memoKey, time: options.time) { return hit }
        let result = search(leafInfo)
        if let memoKey, result.isTrusted { EvaluationMemo.store(memoKey, result) }
        return result
    }

    private func search(_ leafInfo: CertificateInfo) -> TrustEvaluation {
        var search = Search()
        search.intermediatesBySubject = indexIntermediates()
        var path = [leafInfo]
        if let found = extend(&path, &search) { return found }
        var result: TrustEvaluation
        if let anchored = search.bestAnchored {
            result = anchored
        } else if let deadEnd = search.bestDeadEnd {
            // A path that cannot reach an anchor is reported with its per-certificate checks only: the whole-path
            // checks (name constraints, policies, revocation) cannot make it trusted and would only cost work.
            result = deadEnd
        } else {
            result = TrustEvaluation(
                chain: [leafInfo.certificate], isAnchored: false,
                failures: [TrustFailure(0, .anchorTrusted, "no path to a trusted anchor")], revocationChecked: false,
                budget: search.budget)
        }
        result.budget = search.budget
        if let exhausted = search.budget.failure { result.failures.append(exhausted) }
        return result
    }

    private func anchor(for info: CertificateInfo) -> CertificateInfo? {
        for store in anchors { if let match = store.anchor(matching: info) { return match } }
        return nil
    }

    private var maximumIntermediates: Int {
        min(options.maximumIntermediates ?? TrustLimits.maximumIntermediates, TrustLimits.maximumIntermediates)
    }

    /// Extends `path` (whose last element is not an anchor); returns a trusted evaluation when one is found.
    private func extend(_ path: inout [CertificateInfo], _ search: inout Search) -> TrustEvaluation? {
        guard search.budget.consume(.pathBuildingSteps) else { return nil }
        let current = path[path.count - 1]

        // The current certificate is itself an anchor (same name and key): the path ends here.
        if let anchorInfo = anchor(for: current) {
            var complete = path
            complete[complete.count - 1] = path.count == 1 ? current : anchorInfo
            return finishAnchored(complete, &search)
        }

        let candidates = issuerCandidates(of: current, search.intermediatesBySubject)
        var sawBadSignature = false
        var extended = false
        var depthLimited = false
        let intermediateCount = path.count - 1
        for (candidate, isAnchor) in candidates {
            if search.budget.isExhausted { return nil }
            // Every candidate issuer considered is a path-building step.
            guard search.budget.consume(.pathBuildingSteps) else { return nil }
            // Loop detection: same subject and key already on the path.
            if path.contains(where: {
                $0 === candidate
                    || ($0.normalizedSubject == candidate.normalizedSubject && $0.spkiBytes == candidate.spkiBytes)
            }) {
                continue
            }
            if !isAnchor && intermediateCount >= maximumIntermediates {
                depthLimited = true
                continue
            }
            // Every signature check counts, a remembered verdict too: the budget bounds the search, not OpenSSL.
            guard search.budget.consume(.signatureChecks) else { return nil }
            guard current.isSigned(by: candidate) else {
                sawBadSignature = true
                continue
            }
            extended = true
            path.append(candidate)
            defer { path.removeLast() }
            if isAnchor {
                if let found = finishAnchored(path, &search) { return found }
            } else if let found = extend(&path, &search) {
                return found
            }
        }
        if !extended && !search.budget.isExhausted {
            let last = path.count - 1
            let failure: TrustFailure
            if sawBadSignature {
                failure = TrustFailure(last, .signature, "signature does not verify under any candidate issuer's key")
            } else if current.isSelfIssued && isSelfSigned(current, &search.budget) {
                failure = TrustFailure(last, .anchorTrusted, "root certificate is not trusted")
            } else if depthLimited {
                failure = TrustFailure(last, .callerConstraint, "chain would exceed the maximum depth")
            } else {
                failure = TrustFailure(last, .missingIntermediate, "issuer not found")
            }
            recordDeadEnd(path, failure, &search)
        }
        return nil
    }

    /// Whether `info` verifies under its own key, drawing on the signature budget.
    private func isSelfSigned(_ info: CertificateInfo, _ budget: inout TrustBudget) -> Bool {
        guard budget.consume(.signatureChecks) else { return false }
        return info.isSelfSigned
    }

    /// Candidate issuers of `info`, best first (anchors flagged).
    private func issuerCandidates(
        of info: CertificateInfo, _ intermediatesBySubject: [ByteKey: [Int]]
    ) -> [(CertificateInfo, Bool)] {
        var result: [(CertificateInfo, Bool, Int)] = []
        var seen = Set<ObjectIdentifier>()
        for store in anchors {
            for candidate in store.anchors(named: info.normalizedIssuer)
            where seen.insert(ObjectIdentifier(candidate)).inserted {
                result.append((candidate, true, rank(candidate, for: info, anchor: true)))
            }
        }
        for position in intermediatesBySubject[info.normalizedIssuer] ?? [] {
            let candidate = intermediates[position]
            guard seen.insert(ObjectIdentifier(candidate)).inserted else { continue }
            // An intermediate that is an anchor (same name and key) is used as that anchor.
            if anchor(for: candidate) != nil { continue }
            result.append((candidate, false, rank(candidate, for: info, anchor: false)))
        }
        return result.enumerated().sorted { a, b in
            a.element.2 != b.element.2 ? a.element.2 < b.element.2 : a.offset < b.offset
        }.map { ($0.element.0, $0.element.1) }
    }

    /// Lower is better.
    private func rank(_ candidate: CertificateInfo, for subject: CertificateInfo, anchor: Bool) -> Int {
        var score = anchor ? 0 : 100
        let aki = subject.authorityKeyIdentifier?.keyIdentifier
        let ski = candidate.subjectKeyIdentifier
        switch (aki, ski) {
        case (let a?, let s?): score += a == s ? 0 : 20
        default: score += 10
        }
        if !candidate.certificate.isValid(atSecondsSinceEpoch: options.time) { score += 5 }
        return score
    }

    private func validator(for path: [CertificateInfo], anchored: Bool) -> PathValidator {
        // Apple's lifetime limits depend on whether the path ends at a system anchor.
        let systemAnchor =
            anchored && anchors.contains { $0.isSystem && $0.anchor(matching: path[path.count - 1]) != nil }
        return PathValidator(
            path: path, anchored: anchored, options: options, usesSystemAnchors: usesSystemAnchors || systemAnchor)
    }

    /// Validates a path ending at an anchor with every check; returns it when trusted, else remembers the best.
    private func finishAnchored(_ path: [CertificateInfo], _ search: inout Search) -> TrustEvaluation? {
        guard search.budget.consume(.candidatePaths) else { return nil }
        let validator = validator(for: path, anchored: true)
        var failures = validator.validateCertificates(&search.budget)
        let (pathFailures, revocationChecked) = validator.validatePath(&search.budget)
        failures.append(contentsOf: pathFailures)
        let evaluation = TrustEvaluation(
            chain: path.map(\.certificate), isAnchored: true, failures: failures,
            revocationChecked: revocationChecked, budget: search.budget)
        if failures.isEmpty && !search.budget.isExhausted { return evaluation }
        if search.bestAnchored.map({ ChainBuilder.isBetter(evaluation, than: $0) }) ?? true {
            search.bestAnchored = evaluation
        }
        return nil
    }

    /// Remembers a dead end (per-certificate checks only) when it is the best one so far.
    private func recordDeadEnd(_ path: [CertificateInfo], _ failure: TrustFailure, _ search: inout Search) {
        guard search.budget.consume(.candidatePaths) else { return }
        var failures = validator(for: path, anchored: false).validateCertificates(&search.budget)
        failures.append(failure)
        let evaluation = TrustEvaluation(
            chain: path.map(\.certificate), isAnchored: false, failures: failures, revocationChecked: false,
            budget: search.budget)
        if search.bestDeadEnd.map({ ChainBuilder.isBetter(evaluation, than: $0) }) ?? true {
            search.bestDeadEnd = evaluation
        }
    }

    /// Anchored beats unanchored; then no fatal beats fatal; then the least important decisive failure; then fewer
    /// failures.
    static func isBetter(_ a: TrustEvaluation, than b: TrustEvaluation) -> Bool {
        if a.isAnchored != b.isAnchored { return a.isAnchored }
        if a.failures.hasFatal != b.failures.hasFatal { return !a.failures.hasFatal }
        let ca = a.failures.mostImportant?.check.category.rawValue ?? 99
        let cb = b.failures.mostImportant?.check.category.rawValue ?? 99
        if ca != cb { return ca > cb }
        return a.failures.count < b.failures.count
    }
}

/// Remembers trusted outcomes so that evaluating the same certificates, anchors and policy again costs a lookup.
///
/// Only trusted results without revocation input are remembered, and a hit is used only when the verify time lies
/// inside every chain certificate's validity period (so no time-dependent check could fail). Entries hold strong
/// references to the certificates they were made for and compare them by identity.
package enum EvaluationMemo {
    /// Entries kept before the memo is emptied.
    package static let capacity = 1024

    /// What a remembered outcome depends on: the certificates by identity, system anchors, and the policy.
    package struct Key: Hashable {
        let members: [CertificateInfo]
        let includesSystemAnchors: Bool
        let policy: PolicyFingerprint

        init?(builder: ChainBuilder, leaf: CertificateInfo) {
            let options = builder.options
            guard options.crls.isEmpty, options.ocspResponses.isEmpty, !options.revocation.enabled else { return nil }
            var members = [leaf]
            members.append(contentsOf: builder.intermediates)
            var system = false
            for store in builder.anchors {
                if store.isSystem { system = true } else { members.append(contentsOf: store.anchors) }
            }
            self.members = members
            self.includesSystemAnchors = system
            self.policy = PolicyFingerprint(
                options, usesSystemAnchors: builder.usesSystemAnchors, intermediates: builder.intermediates.count)
            var hasher = Hasher()
            for member in members { hasher.combine(ObjectIdentifier(member)) }
            hasher.combine(system)
            hasher.combine(policy)
            self.precomputedHash = hasher.finalize()
        }

        /// Hashed once, outside the memo's lock (a key has a member per certificate of the evaluation).
        let precomputedHash: Int

        /// The same certificate objects, anchors and policy.
        package static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.includesSystemAnchors == rhs.includesSystemAnchors && lhs.policy == rhs.policy
                && lhs.members.count == rhs.members.count && zip(lhs.members, rhs.members).allSatisfy { $0 === $1 }
        }

        /// The certificate identities and the policy, hashed when the key was made.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(precomputedHash)
        }
    }

    /// Everything in ``ValidationOptions`` except the time and revocation inputs.
    package struct PolicyFingerprint: Hashable {
        let peerNames: [PeerName]
        let purpose: LeafPurpose
        let flags: [Bool]
        let numbers: [Int]
        let ekus: [ASN1ObjectIdentifier]
        let algorithms: Set<AlgorithmIdentifier>?
        let eapTrustedServerNames: [String]

        init(_ options: ValidationOptions, usesSystemAnchors: Bool, intermediates: Int) {
            peerNames = options.peerNames
            purpose = options.purpose
            flags = [
                options.sslRules, options.rejectAnyExtendedKeyUsage, options.requireServerAuthEKU, options.cabfProfile,
                options.nameConstraintsMayBeNonCritical, usesSystemAnchors,
            ]
            numbers = [
                options.minimumRSABits, options.maximumIntermediates ?? -1,
                Int(options.requiredKeyUsage?.rawValue ?? 0xFFFF), intermediates,
            ]
            ekus = options.requiredExtendedKeyUsages
            algorithms = options.allowedSignatureAlgorithms
            eapTrustedServerNames = options.eapTrustedServerNames
        }
    }

    struct Entry {
        let evaluation: TrustEvaluation
        let notBefore: Int64
        let notAfter: Int64
    }

    private static let entries = LockedValue([Key: Entry]())

    static func lookup(_ key: Key, time: Int64) -> TrustEvaluation? {
        guard let entry = entries.withLock({ $0[key] }), entry.notBefore <= time, time <= entry.notAfter else {
            return nil
        }
        return entry.evaluation
    }

    static func store(_ key: Key, _ evaluation: TrustEvaluation) {
        let notBefore = evaluation.chain.map(\.notBefore.secondsSinceEpoch).max() ?? .max
        let notAfter = evaluation.chain.map(\.notAfter.secondsSinceEpoch).min() ?? .min
        entries.withLock {
            if $0.count >= capacity { $0.removeAll(keepingCapacity: true) }
            $0[key] = Entry(evaluation: evaluation, notBefore: notBefore, notAfter: notAfter)
        }
    }

    /// Forgets every remembered outcome.
    package static func purge() { entries.withLock { $0.removeAll() } }
}
