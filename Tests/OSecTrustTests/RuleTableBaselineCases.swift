import Foundation
import OSecASN1
import OSecCrypto
import OSecTrust
import OSecX509

/// A leaf with the given commonName and subjectAltName entries (host nil: no name check).
private func commonName(_ cn: String, _ names: [GeneralName], host: String? = nil) -> RuleScenario {
    RuleChains.chain(
        leaf: {
            $0.subject = TestPKI.name(cn)
            $0.subjectAlternativeNames = names
        }, host: host)
}

/// The usual chain, its leaf re-signed with a subjectUniqueID ([2] IMPLICIT BIT STRING) after the key.
private func subjectUniqueIDLeaf() throws -> RuleScenario {
    var scenario = RuleChains.chain()
    let intermediate = TestPKI.intermediate(issuer: TestPKI.root())
    scenario.leaf = try Craft.resign(scenario.leaf, key: intermediate.key) { fields in
        fields.insert([0x82, 0x02, 0x00, 0x5A], at: 7)
    }
    return scenario
}

private let v4: [UInt8] = [192, 0, 2, 1]
private func v6(_ groups: [UInt16]) -> [UInt8] { groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
private let v6One = v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1])
private let v6Middle = v6([0x2001, 0xdb8, 0, 0, 1, 0, 0, 1])
private let serverOnly: [RulePolicy] = [.sslServer]
private let notServer: [RulePolicy] = [.basic, .sslClient]

extension RuleTableTests {
    /// CA/Browser Forum BR §7.1 (SSL server policy); the same certificates pass the other policies where RFC 5280
    /// allows them.
    static let baselineCases: [RuleCase] = baselineStructureCases + subscriberCases + commonNameCases

    static let baselineStructureCases: [RuleCase] = [
        RuleCase("BR-7.1.1", "v1 leaf", serverOnly, .malformed) {
            RuleChains.chain(
                leaf: { b in
                    b.version = .v1
                    b.basicConstraints = nil
                    b.keyUsage = nil
                    b.extendedKeyUsage = nil
                    b.subjectAlternativeNames = nil
                    b.includesSubjectKeyIdentifier = false
                    b.includesAuthorityKeyIdentifier = false
                }, host: nil)
        },
        RuleCase("BR-7.1.2.7", "subjectUniqueID present", serverOnly, .malformed) { try subjectUniqueIDLeaf() },
        RuleCase("BR-7.1.2.7", "subjectUniqueID present", notServer, nil) { try subjectUniqueIDLeaf() },
        RuleCase("BR-7.1.3.1", "Ed25519 leaf key", serverOnly, .keySize) {
            RuleChains.chain(leaf: { $0.publicKey = try! SubjectPublicKeyInfo(try! AsymmetricKey.generateEd25519()) })
        },
        RuleCase("BR-7.1.3.1", "Ed25519 leaf key", notServer, nil) {
            RuleChains.chain(leaf: { $0.publicKey = try! SubjectPublicKeyInfo(try! AsymmetricKey.generateEd25519()) })
        },
        RuleCase("BR-7.1.3.1", "RSA key without NULL parameters", serverOnly, .keySize) {
            RuleChains.chain(leaf: { $0.publicKey = try! Craft.rsaSPKI(modulusBits: 2048, nullParameters: false) })
        },
        RuleCase("BR-6.1.6", "RSA key with an even exponent", serverOnly, .keySize) {
            RuleChains.chain(leaf: {
                $0.publicKey = try! Craft.rsaSPKI(modulusBits: 2048, exponent: [0x01, 0x00, 0x00])
            })
        },
        RuleCase("BR-6.1.6", "RSA key with exponent 65537", RuleChains.all, nil) {
            RuleChains.chain(leaf: { $0.publicKey = try! Craft.rsaSPKI(modulusBits: 2048) })
        },
        RuleCase("BR-6.1.5", "RSA modulus of 2052 bits", serverOnly, .keySize) {
            RuleChains.chain(leaf: { $0.publicKey = try! Craft.rsaSPKI(modulusBits: 2052) })
        },
        RuleCase("BR-6.1.5", "RSA modulus of 2052 bits", notServer, nil) {
            RuleChains.chain(leaf: { $0.publicKey = try! Craft.rsaSPKI(modulusBits: 2052) })
        },
        RuleCase("BR-7.1.3.2", "RSA-PSS with a 20-octet salt", serverOnly, .signatureHashAlgorithms) {
            let root = TestPKI.root("RSA Root", key: TestPKI.rsaKey)
            let leaf = TestPKI.leaf(issuer: root, eku: RuleChains.eku) {
                $0.signatureAlgorithm = SignatureAlgorithm(.rsaPSS(digest: .sha256, saltLength: 20))
            }
            return RuleScenario(leaf: leaf.certificate, anchors: [root.certificate])
        },
        RuleCase("BR-7.1.3.2", "RSA-PSS with a 20-octet salt", notServer, nil) {
            let root = TestPKI.root("RSA Root", key: TestPKI.rsaKey)
            let leaf = TestPKI.leaf(issuer: root, eku: RuleChains.eku) {
                $0.signatureAlgorithm = SignatureAlgorithm(.rsaPSS(digest: .sha256, saltLength: 20))
            }
            return RuleScenario(leaf: leaf.certificate, anchors: [root.certificate])
        },
        RuleCase("BR-7.1.3.2", "RSA-PSS SHA-256 with a 32-octet salt and PKCS#1 SHA-384", RuleChains.all, nil) {
            let root = TestPKI.root("RSA Root", key: TestPKI.rsaKey)
            let intermediate = TestPKI.intermediate("RSA CA", key: TestPKI.rsaKey, issuer: root) {
                $0.signatureAlgorithm = SignatureAlgorithm(.rsaPKCS1(.sha384))
            }
            let leaf = TestPKI.leaf(issuer: intermediate, eku: RuleChains.eku) {
                $0.signatureAlgorithm = SignatureAlgorithm(.rsaPSS(digest: .sha256, saltLength: 32))
            }
            return RuleScenario(
                leaf: leaf.certificate, intermediates: [intermediate.certificate], anchors: [root.certificate])
        },
        RuleCase("BR-7.1.2.11.1", "leaf AKI with issuer and serial", serverOnly, .idLinkage) {
            RuleChains.chain(leaf: {
                $0.includesAuthorityKeyIdentifier = false
                let keyID = Craft.keyID(TestPKI.intermediate(issuer: TestPKI.root()))
                $0.additionalExtensions = [
                    Extension(
                        oid: X509OID.authorityKeyIdentifier, critical: false,
                        value: try! Craft.authorityKeyIdentifier(
                            keyID: keyID, issuer: TestPKI.name("Test Root"), serial: [5]))
                ]
            })
        },
        RuleCase("BR-7.1.2.11.1", "leaf AKI with issuer and serial", notServer, nil) {
            RuleChains.chain(leaf: {
                $0.includesAuthorityKeyIdentifier = false
                let keyID = Craft.keyID(TestPKI.intermediate(issuer: TestPKI.root()))
                $0.additionalExtensions = [
                    Extension(
                        oid: X509OID.authorityKeyIdentifier, critical: false,
                        value: try! Craft.authorityKeyIdentifier(
                            keyID: keyID, issuer: TestPKI.name("Test Root"), serial: [5]))
                ]
            })
        },
        RuleCase("BR-7.1.2.1.3", "root AKI with a serial number", serverOnly, .idLinkage) {
            RuleChains.direct(root: {
                $0.includesAuthorityKeyIdentifier = false
                $0.additionalExtensions = [
                    Extension(
                        oid: X509OID.authorityKeyIdentifier, critical: false,
                        value: try! Craft.authorityKeyIdentifier(
                            keyID: Craft.keyID(TestPKI.root()), issuer: nil, serial: [9]))
                ]
            })
        },
        RuleCase("BR-7.1.2.1.3", "root AKI without keyIdentifier", serverOnly, .idLinkage) {
            RuleChains.direct(root: {
                $0.includesAuthorityKeyIdentifier = false
                $0.additionalExtensions = [
                    Extension(
                        oid: X509OID.authorityKeyIdentifier, critical: false,
                        value: try! Craft.authorityKeyIdentifier(
                            keyID: nil, issuer: TestPKI.name("Test Root"), serial: nil))
                ]
            })
        },
        RuleCase("BR-7.1.2.1.3", "root AKI different from its SKI", serverOnly, .idLinkage) {
            RuleChains.direct(root: {
                $0.includesAuthorityKeyIdentifier = false
                $0.additionalExtensions = [
                    Extension(
                        oid: X509OID.authorityKeyIdentifier, critical: false,
                        value: try! AuthorityKeyIdentifier(keyIdentifier: [UInt8](repeating: 3, count: 20))
                            .encodedValue())
                ]
            })
        },
        RuleCase("BR-7.1.2.1.3", "root AKI different from its SKI", notServer, nil) {
            RuleChains.direct(root: {
                $0.includesAuthorityKeyIdentifier = false
                $0.additionalExtensions = [
                    Extension(
                        oid: X509OID.authorityKeyIdentifier, critical: false,
                        value: try! AuthorityKeyIdentifier(keyIdentifier: [UInt8](repeating: 3, count: 20))
                            .encodedValue())
                ]
            })
        },
        RuleCase("BR-7.1.2.1.2", "root with extKeyUsage", serverOnly, .extendedKeyUsage) {
            RuleChains.direct(root: { $0.extendedKeyUsage = [X509OID.serverAuth] })
        },
        RuleCase("BR-7.1.2.1.2", "root with extKeyUsage", notServer, nil) {
            RuleChains.direct(root: { $0.extendedKeyUsage = [X509OID.serverAuth, X509OID.clientAuth] })
        },
        RuleCase("BR-7.1.2.10.7", "CA leaf asserting cA without keyCertSign", serverOnly, .basicConstraints) {
            RuleChains.chain(leaf: { $0.basicConstraints = BasicConstraints(isCertificateAuthority: true) })
        },
    ]

    static let subscriberCases: [RuleCase] =
        [
            RuleCase("BR-7.1.2.7.8", "CA certificate as the leaf", serverOnly, .notCA) {
                let root = TestPKI.root()
                let ca = TestPKI.intermediate(issuer: root) {
                    $0.subjectAlternativeNames = [.dnsName("ca.example.com")]
                }
                return RuleScenario(leaf: ca.certificate, anchors: [root.certificate], host: "ca.example.com")
            },
            RuleCase("BR-7.1.2.7.8", "CA certificate as the leaf", notServer, nil) {
                let root = TestPKI.root()
                let ca = TestPKI.intermediate(issuer: root) {
                    $0.subjectAlternativeNames = [.dnsName("ca.example.com")]
                }
                return RuleScenario(leaf: ca.certificate, anchors: [root.certificate], host: "ca.example.com")
            },
            RuleCase("BR-7.1.2.7.6a", "leaf without subjectAltName", serverOnly, .sslHostname) {
                RuleChains.chain(leaf: { $0.subjectAlternativeNames = nil }, host: nil)
            },
            RuleCase("BR-7.1.2.7.6a", "leaf without subjectAltName", notServer, nil) {
                RuleChains.chain(leaf: { $0.subjectAlternativeNames = nil }, host: nil)
            },
            RuleCase("BR-7.1.2.7.6b", "critical extKeyUsage", serverOnly, .extendedKeyUsage) {
                RuleChains.chain(leaf: {
                    Craft.editExtensions(
                        &$0, issuer: TestPKI.intermediate(issuer: TestPKI.root()),
                        Craft.setCritical(X509OID.extKeyUsage, true))
                })
            },
            RuleCase("BR-7.1.2.7.6b", "critical extKeyUsage", notServer, nil) {
                RuleChains.chain(leaf: {
                    Craft.editExtensions(
                        &$0, issuer: TestPKI.intermediate(issuer: TestPKI.root()),
                        Craft.setCritical(X509OID.extKeyUsage, true))
                })
            },
            RuleCase("BR-7.1.2.7.12", "critical SAN with a non-empty subject", serverOnly, .criticalExtensions) {
                RuleChains.chain(leaf: {
                    Craft.editExtensions(
                        &$0, issuer: TestPKI.intermediate(issuer: TestPKI.root()),
                        Craft.setCritical(X509OID.subjectAltName, true))
                })
            },
            RuleCase("BR-7.1.2.7.12", "critical SAN with a non-empty subject", notServer, nil) {
                RuleChains.chain(leaf: {
                    Craft.editExtensions(
                        &$0, issuer: TestPKI.intermediate(issuer: TestPKI.root()),
                        Craft.setCritical(X509OID.subjectAltName, true))
                })
            },
            RuleCase("BR-7.1.2.7.10", "serverAuth and clientAuth", RuleChains.all, nil) { RuleChains.chain() },
        ]
        + [
            (X509OID.anyExtendedKeyUsage, "anyExtendedKeyUsage"), (X509OID.emailProtection, "emailProtection"),
            (X509OID.codeSigning, "codeSigning"), (X509OID.timeStamping, "timeStamping"),
            (X509OID.ocspSigning, "OCSPSigning"), ([1, 3, 6, 1, 4, 1, 11129, 2, 4, 4], "Precertificate Signing"),
        ].flatMap { (oid: ASN1ObjectIdentifier, name: String) in
            [
                RuleCase("BR-7.1.2.7.10", "serverAuth with \(name)", serverOnly, .extendedKeyUsage) {
                    RuleChains.chain(leaf: { $0.extendedKeyUsage = [X509OID.serverAuth, oid] })
                },
                RuleCase("BR-7.1.2.7.10", "serverAuth, clientAuth and \(name)", notServer, nil) {
                    RuleChains.chain(leaf: { $0.extendedKeyUsage = [X509OID.serverAuth, X509OID.clientAuth, oid] })
                },
            ]
        }
        + [
            RuleCase("BR-7.1.2.7.11", "cRLSign in a leaf", serverOnly, .keyUsage) {
                RuleChains.chain(leaf: { $0.keyUsage = [.digitalSignature, .cRLSign] })
            },
            RuleCase("BR-7.1.2.7.11", "cRLSign in a leaf", notServer, nil) {
                RuleChains.chain(leaf: { $0.keyUsage = [.digitalSignature, .cRLSign] })
            },
            RuleCase("BR-7.1.2.7.11", "keyAgreement with encipherOnly in an ECC leaf", serverOnly, .keyUsage) {
                RuleChains.chain(leaf: { $0.keyUsage = [.digitalSignature, .keyAgreement, .encipherOnly] })
            },
            RuleCase("BR-7.1.2.7.11", "keyAgreement in an ECC leaf", RuleChains.all, nil) {
                RuleChains.chain(leaf: { $0.keyUsage = [.digitalSignature, .keyAgreement] })
            },
            RuleCase("BR-7.1.2.7.11", "keyAgreement in an RSA leaf", serverOnly, .keyUsage) {
                RuleChains.chain(leaf: {
                    $0.publicKey = try! Craft.rsaSPKI(modulusBits: 2048)
                    $0.keyUsage = [.digitalSignature, .keyAgreement]
                })
            },
            RuleCase("BR-7.1.2.7.11", "keyEncipherment in an RSA leaf", RuleChains.all, nil) {
                RuleChains.chain(leaf: {
                    $0.publicKey = try! Craft.rsaSPKI(modulusBits: 2048)
                    $0.keyUsage = [.digitalSignature, .keyEncipherment]
                })
            },
        ]

    static let commonNameCases: [RuleCase] =
        [
            RuleCase("BR-7.1.4.3", "CN a copy of the dNSName", RuleChains.all, nil) {
                commonName("www.example.com", [.dnsName("www.example.com")], host: "www.example.com")
            },
            RuleCase("BR-7.1.4.3", "CN in other letter case", serverOnly, .sslHostname) {
                commonName("WWW.Example.com", [.dnsName("www.example.com")])
            },
            RuleCase("BR-7.1.4.3", "CN a U-label, SAN its A-label", serverOnly, .sslHostname) {
                commonName("bücher.example", [.dnsName("xn--bcher-kva.example")])
            },
            RuleCase("BR-7.1.4.3", "CN an A-label not in the SAN", serverOnly, .sslHostname) {
                commonName("xn--nxasmq6b.com", [.dnsName("xn--n3h.com")])
            },
            RuleCase("BR-7.1.4.3", "CN a wildcard copy", RuleChains.all, nil) {
                commonName("*.example.com", [.dnsName("*.example.com")], host: "www.example.com")
            },
            RuleCase("BR-7.1.4.3", "two commonNames", serverOnly, .sslHostname) {
                RuleChains.chain(leaf: {
                    $0.subject = try! DistinguishedName([
                        (X509OID.commonName, "www.example.com"), (X509OID.commonName, "www.example.com"),
                    ])
                })
            },
            RuleCase("BR-7.1.4.3", "CN an unrelated ASCII name (not refused, see docs)", RuleChains.all, nil) {
                commonName("unrelated.example.org", [.dnsName("www.example.com")], host: "www.example.com")
            },
            RuleCase("BR-7.1.4.3", "CN the canonical IPv4 text", RuleChains.all, nil) {
                commonName("192.0.2.1", [.ipAddress(v4[...])], host: "192.0.2.1")
            },
            RuleCase("BR-7.1.4.3", "CN the canonical IPv6 text", RuleChains.all, nil) {
                commonName("2001:db8::1", [.ipAddress(v6One[...])], host: "2001:db8::1")
            },
            RuleCase("BR-7.1.4.3", "CN the canonical IPv6 text, first longest zero run", RuleChains.all, nil) {
                commonName("2001:db8::1:0:0:1", [.ipAddress(v6Middle[...])], host: "2001:db8::1:0:0:1")
            },
        ]
        + ["0xC0000201", "0300.0.02.01", "192.000.002.001", "192.0.513", "3221225985", "0xc0.0.2.1", "192.0.2.01"].map {
            cn in
            RuleCase("BR-7.1.4.3", "CN \(cn) for 192.0.2.1", serverOnly, .sslHostname) {
                commonName(cn, [.ipAddress(v4[...])])
            }
        }
        + [
            "2001:DB8::1", "2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8:0:0:0:0:0:1", "2001:db8::0:1",
            "2001:0db8::1", "2001:db8:0::1",
        ].map { cn in
            RuleCase("BR-7.1.4.3", "CN \(cn) for 2001:db8::1", serverOnly, .sslHostname) {
                commonName(cn, [.ipAddress(v6One[...])])
            }
        }
        + ["2001:db8:0:0:1:0:0:1", "2001:db8:0:0:1::1", "2001:DB8::1:0:0:1"].map { cn in
            RuleCase("BR-7.1.4.3", "CN \(cn) for 2001:db8::1:0:0:1", serverOnly, .sslHostname) {
                commonName(cn, [.ipAddress(v6Middle[...])])
            }
        }
        + ["0xC0000201", "2001:DB8::1"].map { cn in
            RuleCase("BR-7.1.4.3", "CN \(cn) outside the SSL server policy", notServer, nil) {
                commonName(cn, [.ipAddress(v4[...]), .ipAddress(v6One[...])])
            }
        }

    /// Apple's SSL rules (SSLHostname and the rest are in PathValidationTests / HostnameTests).
    static let appleCases: [RuleCase] = [
        RuleCase("Apple-ServerAuthEKU", "server leaf without EKU, issued 2024", serverOnly, .serverAuthEKU) {
            RuleChains.chain(leaf: { $0.extendedKeyUsage = nil })
        },
        RuleCase("Apple-ServerAuthEKU", "server leaf without EKU, issued before 2019-07-01", RuleChains.all, nil) {
            RuleChains.chain(leaf: {
                $0.extendedKeyUsage = nil
                $0.notBefore = X509Time(secondsSinceEpoch: 1_527_811_200)  // 2018-06-01
            })
        },
        RuleCase("Apple-ServerAuthEKU", "leaf without EKU", notServer, nil) {
            RuleChains.chain(leaf: { $0.extendedKeyUsage = nil })
        },
        RuleCase("Apple-EKU", "anyExtendedKeyUsage alone", notServer, nil) {
            RuleChains.chain(leaf: { $0.extendedKeyUsage = [X509OID.anyExtendedKeyUsage] })
        },
    ]
}
