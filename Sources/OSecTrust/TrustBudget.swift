/// The named bounds on one evaluation (rustls-webpki's `Budget` and `MAX_SUB_CA_COUNT`, same figures).
///
/// Every candidate path of an evaluation draws on one ``TrustBudget``: a hostile set of cross-signed intermediates
/// cannot multiply the work by offering many paths. Real chains use a handful of units of each kind (a
/// three-certificate chain: 2 signature checks, 3 path-building steps, 1 candidate path).
package enum TrustLimits {
    /// Most intermediates between leaf and anchor (webpki's `MAX_SUB_CA_COUNT`; Web PKI chains have 1–3). A caller
    /// may lower it (``ValidationOptions/maximumIntermediates``), never raise it.
    package static let maximumIntermediates = 6
    /// Signature verifications per evaluation, remembered verdicts included (webpki: 100).
    package static let maximumSignatureChecks = 100
    /// Path-building steps per evaluation: every candidate issuer considered (webpki: 200,000 build-chain calls).
    package static let maximumPathBuildingSteps = 200_000
    /// Name-constraint comparisons per evaluation, across every path (webpki: 250,000).
    package static let maximumNameConstraintComparisons = 250_000
    /// Complete candidate paths per evaluation, paths ending at an anchor and dead ends alike.
    package static let maximumCandidatePaths = 64
}

/// The work one evaluation has done, against ``TrustLimits``. Shared by every candidate path; once a resource is
/// exhausted the search stops and, unless a trusted path was already found, the evaluation fails with the fatal
/// ``TrustCheck/workBudget`` check.
package struct TrustBudget: Sendable, Hashable {
    /// The kinds of work counted.
    package enum Resource: String, Sendable, Hashable {
        case signatureChecks = "signature checks"
        case pathBuildingSteps = "path-building steps"
        case nameConstraintComparisons = "name-constraint comparisons"
        case candidatePaths = "candidate paths"

        /// The limit of this resource per evaluation.
        package var limit: Int {
            switch self {
            case .signatureChecks: return TrustLimits.maximumSignatureChecks
            case .pathBuildingSteps: return TrustLimits.maximumPathBuildingSteps
            case .nameConstraintComparisons: return TrustLimits.maximumNameConstraintComparisons
            case .candidatePaths: return TrustLimits.maximumCandidatePaths
            }
        }
    }

    /// Signature verifications asked for (cached verdicts count).
    package private(set) var signatureChecks = 0
    /// Candidate issuers considered.
    package private(set) var pathBuildingSteps = 0
    /// Name compared with a name constraint.
    package private(set) var nameConstraintComparisons = 0
    /// Complete candidate paths (anchored or dead ends).
    package private(set) var candidatePaths = 0
    /// The first resource that ran out, if any.
    package private(set) var exhausted: Resource? = nil

    /// A budget with nothing used.
    package init() {}

    /// Whether any resource ran out.
    package var isExhausted: Bool { exhausted != nil }

    /// Draws `units` of `resource`; false (and ``exhausted`` set) when that would pass its limit.
    package mutating func consume(_ resource: Resource, _ units: Int = 1) -> Bool {
        guard exhausted == nil else { return false }
        let used: Int
        switch resource {
        case .signatureChecks:
            signatureChecks += units
            used = signatureChecks
        case .pathBuildingSteps:
            pathBuildingSteps += units
            used = pathBuildingSteps
        case .nameConstraintComparisons:
            nameConstraintComparisons += units
            used = nameConstraintComparisons
        case .candidatePaths:
            candidatePaths += units
            used = candidatePaths
        }
        if used > resource.limit {
            exhausted = resource
            return false
        }
        return true
    }

    /// The failure that reports exhaustion (nil when nothing ran out).
    package var failure: TrustFailure? {
        guard let exhausted else { return nil }
        return TrustFailure(
            0, .workBudget,
            "evaluation stopped: the budget of \(exhausted.limit) \(exhausted.rawValue) per evaluation is exhausted")
    }
}
