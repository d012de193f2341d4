import Foundation
import OSecASN1
import OSecCrypto
import OSecTrust
import OSecX509

/// A leaf whose subjectAltName holds www.example.com and `extra` (CN www.example.com).
private func leafWithNames(_ extra: [GeneralName], host: String? = nil) -> RuleScenario {
    RuleChains.chain(leaf: { $0.subjectAlternativeNames = [.dnsName("www.example.com")] + extra }, host: host)
}

/// root → intermediate carrying `constraints` (critical unless `critical` is false) → leaf with `names`.
private func constrained(
    _ constraints: NameConstraints, critical: Bool = true, leafNames: [GeneralName] = [.dnsName("www.example.com")],
    subject: DistinguishedName? = nil, host: String? = "www.example.com"
) -> RuleScenario {
    RuleChains.chain(
        intermediate: {
            $0.nameConstraints = constraints
            if !critical {
                Craft.editExtensions(&$0, issuer: TestPKI.root(), Craft.setCritical(X509OID.nameConstraints, false))
            }
        },
        leaf: {
            $0.subjectAlternativeNames = leafNames
            if let subject { $0.subject = subject }
        }, host: host)
}

extension RuleTableTests {
    /// RFC 5280 §4.2.1.6 (the syntax of each subjectAltName form) and §4.2.1.10 (name constraints).
    static let nameCases: [RuleCase] = sanSyntaxCases + nameConstraintFormCases + nameConstraintMatchCases

    static let invalidDNSNames = [
        "exa_mple.com", "example.com.", ".example.com", "a..example.com", " ", "", "-a.example.com", "a-.example.com",
        String(repeating: "a", count: 64) + ".example.com", "foo.*.example.com", "ba*.example.com", "*", "*.",
        "xn--*-1b3c148a.example.com", "exa mple.com",
    ]
    static let validDNSNames = [
        "*.com", "*.example.com", "a-b.example.com", "xn--bcher-kva.example", "EXAMPLE.COM", "localhost",
    ]
    static let invalidMailboxes = [
        "a@b@example.com", "noat.example.com", "@example.com", "a@", "a@exa_mple.com", "a..b@example.com",
    ]
    static let validMailboxes = ["\"a b\"@example.com", "a.b+c@example.com", "x@mail.example.com"]
    static let invalidURIs = ["relative/path", "https://", "://x.example", "1http://x.example", "http://x y.example/"]
    static let validURIs = ["https://www.example.com/x", "urn:example:x", "spiffe://td.example/workload"]

    static let sanSyntaxCases: [RuleCase] =
        invalidDNSNames.map { name in
            RuleCase("5280-4.2.1.6b", "SAN dNSName \"\(name)\"", RuleChains.all, .unparseableExtension) {
                leafWithNames([.dnsName(name)])
            }
        }
        + validDNSNames.map { name in
            RuleCase("5280-4.2.1.6b", "SAN dNSName \"\(name)\"", RuleChains.all, nil) {
                leafWithNames([.dnsName(name)])
            }
        }
        + [
            RuleCase("5280-4.2.1.6c", "SAN iPAddress of 8 octets", RuleChains.all, .unparseableExtension) {
                leafWithNames([.ipAddress([192, 0, 2, 0, 255, 255, 255, 0])])
            },
            RuleCase("5280-4.2.1.6c", "SAN iPAddress of 5 octets", RuleChains.all, .unparseableExtension) {
                leafWithNames([.ipAddress([192, 0, 2, 1, 0])])
            },
            RuleCase("5280-4.2.1.6c", "SAN iPAddress of 4 and 16 octets", RuleChains.all, nil) {
                leafWithNames([
                    .ipAddress([192, 0, 2, 1]),
                    .ipAddress([0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1]),
                ])
            },
            RuleCase("5280-4.2.1.6e", "SAN directoryName that is empty", RuleChains.all, .unparseableExtension) {
                leafWithNames([.directoryName(DistinguishedName([RelativeDistinguishedName]()))])
            },
        ]
        + invalidMailboxes.map { address in
            RuleCase("5280-4.2.1.6d", "SAN rfc822Name \"\(address)\"", RuleChains.all, .unparseableExtension) {
                leafWithNames([.rfc822Name(address)])
            }
        }
        + validMailboxes.map { address in
            RuleCase("5280-4.2.1.6d", "SAN rfc822Name \"\(address)\"", RuleChains.all, nil) {
                leafWithNames([.rfc822Name(address)])
            }
        }
        + invalidURIs.map { uri in
            RuleCase("5280-4.2.1.6e", "SAN URI \"\(uri)\"", RuleChains.all, .unparseableExtension) {
                leafWithNames([.uniformResourceIdentifier(uri)])
            }
        }
        + validURIs.map { uri in
            RuleCase("5280-4.2.1.6e", "SAN URI \"\(uri)\"", RuleChains.all, nil) {
                leafWithNames([.uniformResourceIdentifier(uri)])
            }
        }

    static let nameConstraintFormCases: [RuleCase] =
        [
            RuleCase("5280-4.2.1.10a", "critical nameConstraints in a leaf", RuleChains.all, .nameConstraints) {
                RuleChains.chain(leaf: {
                    $0.nameConstraints = NameConstraints(permittedSubtrees: [.dnsName("example.com")])
                })
            },
            RuleCase("5280-4.2.1.10a", "non-critical nameConstraints in a leaf", RuleChains.all, .nameConstraints) {
                RuleChains.chain(leaf: {
                    $0.nameConstraints = NameConstraints(permittedSubtrees: [.dnsName("example.com")])
                    Craft.editExtensions(
                        &$0, issuer: TestPKI.intermediate(issuer: TestPKI.root()),
                        Craft.setCritical(X509OID.nameConstraints, false))
                })
            },
            RuleCase("5280-4.2.1.10b", "non-critical nameConstraints in a CA", [.basic, .sslClient], .nameConstraints) {
                constrained(NameConstraints(permittedSubtrees: [.dnsName("example.com")]), critical: false)
            },
            RuleCase("BR-7.1.2.10.8", "non-critical nameConstraints in a CA", [.sslServer], nil) {
                constrained(NameConstraints(permittedSubtrees: [.dnsName("example.com")]), critical: false)
            },
            RuleCase("BR-7.1.2.10.8", "non-critical nameConstraints still constrain", [.sslServer], .nameConstraints) {
                constrained(NameConstraints(permittedSubtrees: [.dnsName("example.org")]), critical: false)
            },
            RuleCase("5280-4.2.1.10c", "minimum other than 0", RuleChains.all, .nameConstraints) {
                RuleChains.chain(intermediate: {
                    $0.additionalExtensions = [
                        Extension(
                            oid: X509OID.nameConstraints, critical: true,
                            value: try! Craft.nameConstraintsWithDistances(
                                "example.com", minimum: 1, maximum: nil))
                    ]
                })
            },
            RuleCase("5280-4.2.1.10c", "maximum present", RuleChains.all, .nameConstraints) {
                RuleChains.chain(intermediate: {
                    $0.additionalExtensions = [
                        Extension(
                            oid: X509OID.nameConstraints, critical: true,
                            value: try! Craft.nameConstraintsWithDistances(
                                "example.com", minimum: nil, maximum: 3))
                    ]
                })
            },
        ]
        + [".example.com", "*.example.com", "example..com", "exa_mple.com", "example.com.", " "].map { constraint in
            RuleCase("5280-4.2.1.10d", "dNSName constraint \"\(constraint)\"", RuleChains.all, .nameConstraints) {
                constrained(NameConstraints(permittedSubtrees: [.dnsName(constraint)]))
            }
        }
        + [
            RuleCase("5280-4.2.1.10d", "excluded dNSName constraint \".bad.example\"", RuleChains.all, .nameConstraints)
            {
                constrained(NameConstraints(excludedSubtrees: [.dnsName(".bad.example")]))
            },
            RuleCase(
                "5280-4.2.1.10d", "iPAddress constraint of 4 octets, no IP names", RuleChains.all, .nameConstraints
            ) {
                constrained(NameConstraints(excludedSubtrees: [.ipAddress([127, 0, 0, 1])]))
            },
            RuleCase("5280-4.2.1.10d", "iPAddress constraint of 17 octets", RuleChains.all, .nameConstraints) {
                constrained(NameConstraints(excludedSubtrees: [.ipAddress([UInt8](repeating: 0, count: 17)[...])]))
            },
            RuleCase("5280-4.2.1.10d", "iPAddress constraint with a non-prefix mask", RuleChains.all, .nameConstraints)
            {
                constrained(NameConstraints(excludedSubtrees: [.ipAddress([10, 0, 0, 0, 255, 0, 255, 0])]))
            },
            RuleCase("5280-4.2.1.10d", "rfc822Name constraint \"a@b@example.com\"", RuleChains.all, .nameConstraints) {
                constrained(NameConstraints(permittedSubtrees: [.rfc822Name("a@b@example.com")]))
            },
            RuleCase("5280-4.2.1.10d", "URI constraint with a scheme", RuleChains.all, .nameConstraints) {
                constrained(NameConstraints(excludedSubtrees: [.uniformResourceIdentifier("https://example.com")]))
            },
            RuleCase("5280-4.2.1.10d", "well-formed constraints of every form", RuleChains.all, nil) {
                constrained(
                    NameConstraints(
                        permittedSubtrees: [
                            .dnsName("example.com"), .rfc822Name(".example.com"), .rfc822Name("a@example.net"),
                            .rfc822Name("example.org"), .uniformResourceIdentifier(".example.com"),
                            .uniformResourceIdentifier("host.example.net"),
                            .ipAddress([192, 0, 2, 0, 255, 255, 255, 0]),
                        ],
                        excludedSubtrees: [
                            .dnsName("bad.example.com"), .ipAddress([UInt8](repeating: 0, count: 32)[...]),
                        ]))
            },
        ]

    static let nameConstraintMatchCases: [RuleCase] = [
        RuleCase("5280-4.2.1.10e", "DNS name outside a permitted subtree", RuleChains.all, .nameConstraints) {
            constrained(NameConstraints(permittedSubtrees: [.dnsName("example.org")]))
        },
        RuleCase("5280-4.2.1.10e", "DNS name below a permitted subtree", RuleChains.all, nil) {
            constrained(
                NameConstraints(permittedSubtrees: [.dnsName("example.com")]),
                leafNames: [.dnsName("www.example.com"), .dnsName("a.b.example.com")])
        },
        RuleCase(
            "5280-4.2.1.10e", "DNS name with the constraint as a label suffix only", RuleChains.all, .nameConstraints
        ) {
            constrained(
                NameConstraints(permittedSubtrees: [.dnsName("example.com")]),
                leafNames: [.dnsName("www.example.com"), .dnsName("badexample.com")])
        },
        RuleCase("5280-4.2.1.10e", "excluded DNS name, second SAN entry", RuleChains.all, .nameConstraints) {
            constrained(
                NameConstraints(excludedSubtrees: [.dnsName("bad.example.com")]),
                leafNames: [.dnsName("www.example.com"), .dnsName("x.bad.example.com")])
        },
        RuleCase("5280-4.2.1.10e", "empty excluded dNSName excludes every DNS name", RuleChains.all, .nameConstraints) {
            constrained(NameConstraints(excludedSubtrees: [.dnsName("")]))
        },
        RuleCase("5280-4.2.1.10e", "wildcard that could expand into an excluded name", RuleChains.all, .nameConstraints)
        {
            constrained(
                NameConstraints(excludedSubtrees: [.dnsName("bad.example.com")]),
                leafNames: [.dnsName("www.example.com"), .dnsName("*.example.com")])
        },
        RuleCase("5280-4.2.1.10e", "IPv4 inside and outside a permitted subnet", RuleChains.all, .nameConstraints) {
            constrained(
                NameConstraints(permittedSubtrees: [.ipAddress([192, 0, 2, 0, 255, 255, 255, 0])]),
                leafNames: [.dnsName("www.example.com"), .ipAddress([192, 0, 2, 9]), .ipAddress([198, 51, 100, 1])])
        },
        RuleCase("5280-4.2.1.10e", "IPv6 in an excluded /64", RuleChains.all, .nameConstraints) {
            let prefix: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 12)
            let mask: [UInt8] = [UInt8](repeating: 0xFF, count: 8) + [UInt8](repeating: 0, count: 8)
            return constrained(
                NameConstraints(excludedSubtrees: [.ipAddress((prefix + mask)[...])]),
                leafNames: [.dnsName("www.example.com"), .ipAddress((prefix.prefix(15) + [7])[...])])
        },
        RuleCase("5280-4.2.1.10e", "mailbox, host and domain email constraints", RuleChains.all, nil) {
            constrained(
                NameConstraints(permittedSubtrees: [
                    .rfc822Name("a@example.net"), .rfc822Name("example.org"), .rfc822Name(".example.com"),
                ]),
                leafNames: [
                    .dnsName("www.example.com"), .rfc822Name("a@EXAMPLE.net"), .rfc822Name("b@example.org"),
                    .rfc822Name("c@mail.example.com"),
                ])
        },
        RuleCase(
            "5280-4.2.1.10e", "mailbox constraint compares the local part exactly", RuleChains.all, .nameConstraints
        ) {
            constrained(
                NameConstraints(permittedSubtrees: [.rfc822Name("a@example.net")]),
                leafNames: [.dnsName("www.example.com"), .rfc822Name("A@example.net")])
        },
        RuleCase(
            "5280-4.2.1.10e", ".domain email constraint excludes the domain itself", RuleChains.all, .nameConstraints
        ) {
            constrained(
                NameConstraints(permittedSubtrees: [.rfc822Name(".example.com")]),
                leafNames: [.dnsName("www.example.com"), .rfc822Name("c@example.com")])
        },
        RuleCase("5280-4.2.1.10e", "subject emailAddress is an rfc822Name", RuleChains.all, .nameConstraints) {
            constrained(
                NameConstraints(permittedSubtrees: [.rfc822Name("example.com")]),
                subject: try! DistinguishedName([
                    (X509OID.commonName, "www.example.com"), (X509OID.emailAddress, "x@evil.example"),
                ]))
        },
        RuleCase("5280-4.2.1.10e", "URI host outside a permitted domain", RuleChains.all, .nameConstraints) {
            constrained(
                NameConstraints(permittedSubtrees: [.uniformResourceIdentifier(".example.com")]),
                leafNames: [.dnsName("www.example.com"), .uniformResourceIdentifier("https://www.example.org/")])
        },
        RuleCase("5280-4.2.1.10e", "URI without a host cannot be checked", RuleChains.all, .nameConstraints) {
            constrained(
                NameConstraints(permittedSubtrees: [.uniformResourceIdentifier(".example.com")]),
                leafNames: [.dnsName("www.example.com"), .uniformResourceIdentifier("urn:example:x")])
        },
        RuleCase("5280-4.2.1.10e", "subject outside a permitted directoryName", RuleChains.all, .nameConstraints) {
            constrained(
                NameConstraints(permittedSubtrees: [
                    .directoryName(try! DistinguishedName([(X509OID.organizationName, "Good")]))
                ]),
                subject: try! DistinguishedName([
                    (X509OID.organizationName, "Evil"), (X509OID.commonName, "www.example.com"),
                ]))
        },
        RuleCase("5280-6.1.3b", "self-issued intermediate is exempt", RuleChains.all, nil) {
            // The root and a rollover certificate share the name CA not-example.com; the rollover one is self-issued.
            let root = TestPKI.root("CA not-example.com") {
                $0.nameConstraints = NameConstraints(permittedSubtrees: [.dnsName("example.com")])
            }
            let rollover = TestPKI.intermediate("CA not-example.com", key: TestPKI.ecKeys[3], issuer: root) {
                $0.subjectAlternativeNames = [.dnsName("not-example.com")]
            }
            let leaf = TestPKI.leaf(issuer: rollover, eku: RuleChains.eku)
            return RuleScenario(
                leaf: leaf.certificate, intermediates: [rollover.certificate], anchors: [root.certificate])
        },
        RuleCase("5280-6.1.3b", "an intermediate's own SAN is constrained", RuleChains.all, .nameConstraints) {
            let root = TestPKI.root {
                $0.nameConstraints = NameConstraints(permittedSubtrees: [.dnsName("example.com")])
            }
            let intermediate = TestPKI.intermediate(issuer: root) {
                $0.subjectAlternativeNames = [.dnsName("evil.example")]
            }
            let leaf = TestPKI.leaf(issuer: intermediate, eku: RuleChains.eku)
            return RuleScenario(
                leaf: leaf.certificate, intermediates: [intermediate.certificate], anchors: [root.certificate])
        },
    ]
}
