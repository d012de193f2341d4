import OSecTrust
import OSecX509
import Testing

@Suite struct HostnameTests {
    @Test(
        arguments: [
            ("example.com", "example.com", true), ("EXAMPLE.com", "example.COM", true),
            ("example.com.", "example.com", false),
            ("example.com", "example.com.", true), ("*.example.com", "www.example.com", true),
            ("*.example.com", "example.com", false), ("*.example.com", "a.b.example.com", false),
            ("*.com", "example.com", false), ("*", "com", false), ("f*.example.com", "foo.example.com", false),
            ("*oo.example.com", "foo.example.com", false), ("www.*.com", "www.example.com", false),
            ("*.co.uk", "example.co.uk", false), ("*.example.co.uk", "www.example.co.uk", true),
            ("*.example.com", "xn--bcher-kva.example.com", false), ("xn--*.example.com", "xn--a.example.com", false),
            ("exa_mple.com", "exa_mple.com", false), ("example.com", "examp1e.com", false),
        ] as [(String, String, Bool)])
    func matching(_ pattern: String, _ host: String, _ expected: Bool) {
        #expect(HostnameMatcher.matches(pattern: pattern, host: host) == expected, "\(pattern) vs \(host)")
    }

    @Test func peerNameParsesIPLiterals() {
        #expect(PeerName.host("192.0.2.1") == .ip([192, 0, 2, 1]))
        #expect(PeerName.host("[::1]") == .ip([UInt8](repeating: 0, count: 15) + [1]))
        #expect(PeerName.host("example.com") == .dns("example.com"))
    }

    @Test func dnsConstraints() {
        typealias M = NameConstraintMatcher
        #expect(M.dns("a.example.com", "example.com", forExclusion: false) == .match)
        #expect(M.dns("example.com", "example.com", forExclusion: false) == .match)
        // A leading period is not in the preferred name syntax: the constraint cannot be applied (RFC 5280 §4.2.1.10,
        // issue 13); it was read as "subdomains only" before, which let it silently narrow or widen a CA's scope.
        #expect(M.dns("example.com", ".example.com", forExclusion: false) == .invalid)
        #expect(M.dns("example.com", ".example.com", forExclusion: true) == .invalid)
        #expect(M.dns("badexample.com", "example.com", forExclusion: false) == .noMatch)
        #expect(M.dns("anything.org", "", forExclusion: false) == .match)
        #expect(M.dns("*.example.com", "example.com", forExclusion: false) == .match)
        #expect(M.dns("*.example.com", "a.example.com", forExclusion: false) == .noMatch)
        #expect(M.dns("*.example.com", "a.example.com", forExclusion: true) == .match)
        #expect(M.ip([10, 1, 2, 3], [10, 0, 0, 0, 255, 0, 0, 0]) == .match)
        #expect(M.ip([11, 1, 2, 3], [10, 0, 0, 0, 255, 0, 0, 0]) == .noMatch)
        #expect(M.ip([10, 1, 2, 3], [10, 0, 0, 0, 255, 0, 255, 0]) == .invalid)
        #expect(M.email("a@mail.example.com", ".example.com") == .match)
        #expect(M.email("a@example.com", ".example.com") == .noMatch)
        #expect(M.email("a@Example.com", "example.com") == .match)
    }
}
