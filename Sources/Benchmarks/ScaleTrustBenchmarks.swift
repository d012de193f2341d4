import Foundation
import OSecCrypto
import OSecX509
@_spi(OpenSecurityInternal) import Security
import Synchronization

/// `--suite scale-trust`: how trust evaluation grows with the CA bundle and the intermediate pool, and how it
/// scales with threads.
///
/// The fixture is a CA bundle of the system's size (the system bundle's roots when it has one, plus generated
/// P-256 roots, 150 or more in all) and a pool of 1,000 intermediates in which the leaf's real path (root →
/// "Scale Issuing CA 2" → "Scale Issuing CA 1" → leaf) is hidden among decoys: one in ten has the subject of the
/// real first intermediate and one in ten that of the second (other keys, issued by other roots), the rest other
/// names. Every evaluation is an SSL server evaluation of "scale.example.com" with the bundle as the only anchors.
///
/// Series:
/// - first evaluation: DER bytes to verdict with every shared cache emptied (`SecTrustPurgeSharedCaches`): the
///   anchors, the leaf and the pool parsed into new `SecCertificate`s, a new `SecTrust`, its evaluation. Median of
///   five, against the pool size (150 anchors) and against the number of anchors (1,000-certificate pool).
/// - steady state: the same `SecCertificate`s in a new `SecTrust` per evaluation (what a server judging the same
///   peer chain again does), evaluations per second against the pool size, one thread.
/// - threads: evaluations per second of 1, 2, 4 and 8 threads sharing one anchor array and one set of
///   certificates (leaf + 2 intermediates, and leaf + the 1,000-certificate pool).
///
/// Bounded in time: the fixture takes a few seconds to generate, the first evaluations at most a few seconds, each
/// throughput point `--seconds` (default 1 s); about half a minute in all. Nothing is written to disk.
enum ScaleTrustBenchmarks {
    static let suite = ScaleSuite(name: "scale-trust") { options in run(options) }

    static let host = "scale.example.com"
    static let poolSize = 1_000
    static let bundleSize = 150

    struct Fixture: @unchecked Sendable {
        /// The bundle's DER, the real root somewhere in the middle.
        let anchorDER: [NSData]
        /// Where the real root is in ``anchorDER``.
        let realRoot: Int
        let leafDER: NSData
        /// The two real intermediates (issuing CA 1, then 2).
        let pathDER: [NSData]
        /// The decoys (``poolSize`` − 2).
        let decoyDER: [NSData]
        let date: Date

        /// `count` anchors including the real root.
        func anchors(_ count: Int) -> [NSData] {
            guard count < anchorDER.count else { return anchorDER }
            var subset = Array(
                anchorDER.enumerated().filter { $0.offset != realRoot }.map(\.element).prefix(max(count - 1, 0)))
            subset.insert(anchorDER[realRoot], at: subset.count / 2)
            return subset
        }

        /// A pool of `count` certificates (at least the real path): decoys with the real intermediates hidden at a
        /// third and two thirds of the way.
        func pool(_ count: Int) -> [NSData] {
            var pool = Array(decoyDER.prefix(max(count - 2, 0)))
            pool.insert(pathDER[1], at: pool.count * 2 / 3)
            pool.insert(pathDER[0], at: pool.count / 3)
            return pool
        }
    }

    static func run(_ options: BenchOptions) -> [ScalePoint] {
        let fixture: Fixture
        do {
            fixture = try makeFixture()
        } catch {
            BenchTable.line("scale-trust: cannot build the fixture: \(error)")
            return []
        }
        var points: [ScalePoint] = []
        func point(_ series: String, _ xLabel: String, _ x: Int, _ value: Double, _ unit: String, _ note: String?) {
            points.append(
                ScalePoint(
                    suite: "scale-trust", series: series, xLabel: xLabel, x: Double(x), value: value, unit: unit,
                    note: note))
        }
        let anchorCount = fixture.anchorDER.count
        for size in [2, 10, 100, poolSize] {
            point(
                "first evaluation (DER → verdict, caches empty), \(anchorCount) anchors", "intermediates", size,
                firstEvaluation(fixture, anchors: anchorCount, pool: size), "ms",
                size == poolSize
                    ? "parsing every certificate dominates: linear in the pool, the path search is not" : nil)
        }
        for count in [1, 10, 50, anchorCount] {
            point(
                "first evaluation (DER → verdict, caches empty), \(poolSize)-certificate pool", "anchors", count,
                firstEvaluation(fixture, anchors: count, pool: poolSize), "ms",
                count == anchorCount ? "the anchors are parsed too; issuer lookup is by name, not a scan" : nil)
        }
        let anchors = fixture.anchors(anchorCount).compactMap { SecCertificateCreateWithData(nil, $0) }
        guard let leaf = SecCertificateCreateWithData(nil, fixture.leafDER) else { return points }
        for size in [2, 10, 100, poolSize] {
            let pool = fixture.pool(size).compactMap { SecCertificateCreateWithData(nil, $0) }
            let rate = throughput(threads: 1, seconds: options.seconds) {
                try evaluate([leaf] + pool, anchors, fixture.date)
            }
            point(
                "steady state (same certificates, new SecTrust), 1 thread", "intermediates", size, rate, "eval/s",
                size == poolSize ? "handing the pool to a new SecTrust is linear in it; the search is remembered" : nil)
        }
        let path = fixture.pathDER.compactMap { SecCertificateCreateWithData(nil, $0) }
        let pool = fixture.pool(poolSize).compactMap { SecCertificateCreateWithData(nil, $0) }
        for (label, certificates) in [("leaf + 2 intermediates", [leaf] + path), ("leaf + 1,000 pool", [leaf] + pool)] {
            for threads in [1, 2, 4, 8] {
                let rate = throughput(threads: threads, seconds: options.seconds) {
                    try evaluate(certificates, anchors, fixture.date)
                }
                point(
                    "steady state, \(label), shared anchors", "threads", threads, rate, "eval/s",
                    threads == 8
                        ? "flat beyond the machine's \(ProcessInfo.processInfo.activeProcessorCount) cores"
                            + " if nothing is contended" : nil)
            }
        }
        return points
    }

    /// A new SecTrust over `certificates` (leaf first), SSL server policy, `anchors` only.
    static func evaluate(_ certificates: [SecCertificate], _ anchors: [SecCertificate], _ date: Date) throws {
        var trust: SecTrust?
        guard
            SecTrustCreateWithCertificates(certificates as NSArray, SecPolicyCreateSSL(true, host as CFString), &trust)
                == errSecSuccess, let trust,
            SecTrustSetAnchorCertificates(trust, anchors as NSArray) == errSecSuccess,
            SecTrustSetVerifyDate(trust, date as NSDate) == errSecSuccess
        else { throw BenchFailure() }
        var error: CFError?
        guard SecTrustEvaluateWithError(trust, &error) else {
            let reason = error.map { "\($0)" } ?? "no error"
            BenchTable.line("scale-trust: evaluation failed: \(reason)")
            throw BenchFailure()
        }
    }

    /// The median of five first evaluations in milliseconds (every shared cache emptied before each), or -1.
    static func firstEvaluation(_ fixture: Fixture, anchors anchorCount: Int, pool poolCount: Int) -> Double {
        let anchorDER = fixture.anchors(anchorCount)
        let poolDER = fixture.pool(poolCount)
        var samples: [Double] = []
        for _ in 0..<5 {
            SecTrustPurgeSharedCaches()
            let start = DispatchTime.now().uptimeNanoseconds
            let anchors = anchorDER.compactMap { SecCertificateCreateWithData(nil, $0) }
            let certificates = ([fixture.leafDER] + poolDER).compactMap { SecCertificateCreateWithData(nil, $0) }
            guard anchors.count == anchorDER.count, certificates.count == poolDER.count + 1,
                (try? evaluate(certificates, anchors, fixture.date)) != nil
            else { return -1 }
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return samples.sorted()[samples.count / 2]
    }

    /// Calls of `body` per second over `threads` threads running for `seconds`; -1 when a call fails.
    static func throughput(threads: Int, seconds: Double, _ body: @escaping @Sendable () throws -> Void) -> Double {
        let total = Atomic<Int>(0)
        let failed = Atomic<Bool>(false)
        let group = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        for _ in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                var count = 0
                do {
                    while DispatchTime.now().uptimeNanoseconds < deadline {
                        for _ in 0..<4 { try body() }
                        count += 4
                    }
                } catch {
                    failed.store(true, ordering: .relaxed)
                }
                total.add(count, ordering: .relaxed)
                group.leave()
            }
        }
        group.wait()
        guard !failed.load(ordering: .relaxed) else { return -1 }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(total.load(ordering: .relaxed)) / elapsed
    }

    // MARK: Fixture

    static func makeFixture() throws -> Fixture {
        let now = Int64(Date().timeIntervalSince1970)
        func builder(_ cn: String, _ key: AsymmetricKey, _ days: Int64, ca: Bool) throws -> CertificateBuilder {
            var builder = try CertificateBuilder(
                subject: try DistinguishedName([(X509OID.commonName, cn)]), publicKey: try SubjectPublicKeyInfo(key),
                notBefore: X509Time(secondsSinceEpoch: now - 86_400),
                notAfter: X509Time(secondsSinceEpoch: now + days * 86_400))
            builder.basicConstraints = BasicConstraints(isCertificateAuthority: ca)
            builder.keyUsage = ca ? [.keyCertSign, .cRLSign] : [.digitalSignature]
            return builder
        }
        // The system's bundle (when there is one) and generated roots: at least `bundleSize` anchors.
        var system: [NSData] = []
        if let pem = FileManager.default.contents(atPath: "/etc/ssl/certs/ca-certificates.crt"),
            let certificates = try? Certificate.certificates(fromPEMBytes: [UInt8](pem)[...])
        {
            system = certificates.map { Data($0.derBytes) as NSData }
        }
        let generatedCount = max(bundleSize - system.count, 11)
        var roots: [(Certificate, AsymmetricKey)] = []
        for index in 0..<generatedCount {
            let key = try AsymmetricKey.generateEC(.p256)
            roots.append((try builder("Scale Root \(index)", key, 3650, ca: true).selfSigned(with: key), key))
        }
        let real = roots[generatedCount / 2]
        let keyI2 = try AsymmetricKey.generateEC(.p256)
        let keyI1 = try AsymmetricKey.generateEC(.p256)
        let keyLeaf = try AsymmetricKey.generateEC(.p256)
        let i2 = try builder("Scale Issuing CA 2", keyI2, 1000, ca: true).issued(by: real.0, issuerKey: real.1)
        let i1 = try builder("Scale Issuing CA 1", keyI1, 1000, ca: true).issued(by: i2, issuerKey: keyI2)
        var leafBuilder = try builder(host, keyLeaf, 365, ca: false)
        leafBuilder.extendedKeyUsage = [X509OID.serverAuth]
        leafBuilder.subjectAlternativeNames = [.dnsName(host)]
        let leaf = try leafBuilder.issued(by: i1, issuerKey: keyI1)
        var decoys: [NSData] = []
        for index in 0..<(poolSize - 2) {
            let name =
                switch index % 10 {
                case 0: "Scale Issuing CA 1"
                case 1: "Scale Issuing CA 2"
                default: "Scale Decoy CA \(index)"
                }
            let issuer = roots[(index * 7) % roots.count]
            let key = try AsymmetricKey.generateEC(.p256)
            let decoy = try builder(name, key, 1000, ca: true).issued(by: issuer.0, issuerKey: issuer.1)
            decoys.append(Data(decoy.derBytes) as NSData)
        }
        // The real root in the middle of the bundle, the generated roots spread through the system ones.
        var anchors = system
        for (index, root) in roots.enumerated() {
            anchors.insert(Data(root.0.derBytes) as NSData, at: min(index * 13, anchors.count))
        }
        let realDER = Data(real.0.derBytes) as NSData
        anchors.removeAll { $0 == realDER }
        let position = anchors.count / 2
        anchors.insert(realDER, at: position)
        return Fixture(
            anchorDER: anchors, realRoot: position,
            leafDER: Data(leaf.derBytes) as NSData,
            pathDER: [Data(i1.derBytes) as NSData, Data(i2.derBytes) as NSData], decoyDER: decoys, date: Date())
    }
}
