import Foundation
import OSecKeychainAgent
import OSecTestSupport
import OSecToolBase
import OSecToolCore
import Security
import Testing

/// The option table the tool and its front end share names Apple's attributes (by their raw values).
@Test func passwordOptionsNameApplesAttributes() {
    let generic = PasswordRead.Kind.generic.attributeOptions.map { "\($0.letter)=\($0.attribute)" }
    let genericApple: [(Character, CFString)] = [
        ("a", kSecAttrAccount), ("s", kSecAttrService), ("l", kSecAttrLabel), ("j", kSecAttrComment),
        ("D", kSecAttrDescription), ("G", kSecAttrGeneric), ("c", kSecAttrCreator), ("C", kSecAttrType),
    ]
    #expect(generic == genericApple.map { "\($0.0)=\($0.1 as String)" })
    let internet = PasswordRead.Kind.internet.attributeOptions.map { "\($0.letter)=\($0.attribute)" }
    let internetApple: [(Character, CFString)] = [
        ("a", kSecAttrAccount), ("s", kSecAttrServer), ("l", kSecAttrLabel), ("j", kSecAttrComment),
        ("D", kSecAttrDescription), ("d", kSecAttrSecurityDomain), ("p", kSecAttrPath), ("r", kSecAttrProtocol),
        ("t", kSecAttrAuthenticationType), ("P", kSecAttrPort), ("c", kSecAttrCreator), ("C", kSecAttrType),
    ]
    #expect(internet == internetApple.map { "\($0.0)=\($0.1 as String)" })
}

/// `-w`'s text: the password, or lowercase hex when it is not printable UTF-8.
@Test func passwordTextIsTheSecretOrItsHex() {
    #expect(PasswordText.forStandardOutput(Data("s3cret!".utf8)) == "s3cret!")
    #expect(PasswordText.forStandardOutput(Data("pässwörd".utf8)) == "pässwörd")
    #expect(PasswordText.forStandardOutput(Data([0x00, 0xFF, 0x10])) == "00ff10")
    #expect(PasswordText.forStandardOutput(Data("a\nb".utf8)) == "610a62")
    #expect(PasswordText.forStandardOutput(Data("del\u{7F}".utf8)) == "64656c7f")
    #expect(PasswordText.forStandardOutput(Data()) == "")
}

/// What the front end sends the keychain agent is the read the full tool would make itself, whole: for command
/// lines with every option of both commands, the request survives its wire form, and text stays text until the
/// keychain's schema types it (as the full tool's own query does).
@Test func aReadRequestSurvivesTheAgentsWireForm() throws {
    let lines: [(PasswordRead.Kind, [String], [String: AgentReadRequest.Value])] = [
        (
            .generic, ["-a", "alice", "-s", "app", "-l", "Label", "-j", "note", "-D", "kind", "-G", "gen", "-w", "/k"],
            [
                "acct": .text("alice"), "svce": .text("app"), "labl": .text("Label"), "icmt": .text("note"),
                "desc": .text("kind"), "gena": .bytes(Array("gen".utf8)),
            ]
        ),
        (
            .generic, ["-c", "abcd", "-C", "note", "-w", "/k", "/other/k2"],
            ["crtr": .integer(0x6162_6364), "type": .integer(0x6E6F_7465)]
        ),
        (
            .internet, ["-a", "frank", "-s", "example.com", "-r", "htps", "-P", "8443", "-p", "/login", "-w", "/k"],
            [
                "acct": .text("frank"), "srvr": .text("example.com"), "ptcl": .text("htps"), "port": .integer(8443),
                "path": .text("/login"),
            ]
        ),
        (
            .internet, ["-d", "realm", "-t", "dflt", "-r", "1234", "-w", "/k"],
            ["sdmn": .text("realm"), "atyp": .text("dflt"), "ptcl": .text("1234")]
        ),
    ]
    for (kind, arguments, expected) in lines {
        let request = try #require(PasswordRead.request(kind, arguments: arguments), "\(arguments)")
        #expect(request.itemClass == kind.requestClass)
        #expect(request.paths == arguments.filter { $0.hasPrefix("/") && !$0.hasPrefix("/login") })
        #expect(request.attributes.map(\.name) == expected.keys.sorted(), "\(arguments)")
        #expect(Dictionary(uniqueKeysWithValues: request.attributes.map { ($0.name, $0.value) }) == expected)
        let encoded = try #require(request.encoded())
        #expect(AgentReadRequest.decode(encoded) == request, "\(arguments)")
    }
    // A numeric attribute given as text becomes a number in the query (inet's ptcl is stored as a number).
    let numeric = try #require(PasswordRead.request(.internet, arguments: ["-r", "1234", "-w", "/k"]))
    #expect(PasswordLookup.query(numeric).attributes["ptcl"] == .integer(1234))
    let named = try #require(PasswordRead.request(.internet, arguments: ["-r", "htps", "-w", "/k"]))
    #expect(PasswordLookup.query(named).attributes["ptcl"] == .string("htps"))
    // What the full tool answers (another option, a bad value, `~`) makes no request.
    for arguments in [["-s", "x", "-g", "-w"], ["-s", "x"], ["-P", "notaport", "-w"], ["-s", "x", "-w", "~/k"]] {
        #expect(PasswordRead.request(.internet, arguments: arguments) == nil, "\(arguments)")
    }
}

/// The `security` front end against the full tool (`security-tool`): for every invocation both give the same bytes
/// on standard output and standard error and the same exit status, whether the front end answers itself (the
/// plain `find-*-password -w` success, `--version`) or hands the command line to the full tool.
@Suite(
    .enabled(
        if: SecurityTool.executable != nil && SecurityTool.fullTool != nil,
        "needs the security and security-tool executables (swift build)"))
struct SecurityFrontEndTests {
    let sandbox: SecurityToolSandbox

    init() throws { sandbox = try SecurityToolSandbox("osec-front-end") }

    /// Runs `arguments` through the front end and through the full tool; both results must be identical.
    private func expectSame(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> SecurityToolSandbox.Run {
        let front = try sandbox.run(arguments, stdin: stdin, environment: environment)
        let full = try sandbox.run(
            arguments, stdin: stdin, environment: environment, executable: SecurityTool.fullTool)
        #expect(front.status == full.status, "\(arguments)", sourceLocation: sourceLocation)
        #expect(front.stdoutData == full.stdoutData, "\(arguments)", sourceLocation: sourceLocation)
        #expect(front.stderr == full.stderr, "\(arguments)", sourceLocation: sourceLocation)
        return front
    }

    private func add(_ arguments: [String]) throws {
        let added = try sandbox.run(arguments)
        try #require(added.status == 0, "\(arguments): \(added.stderr)")
    }

    @Test func sameOutputAndStatusAsTheFullTool() throws {
        try add(["add-generic-password", "-a", "alice", "-s", "myapp", "-w", "s3cret!", "-l", "Label", "-j", "note"])
        try add(["add-generic-password", "-a", "bob", "-s", "binary", "-X", "00ff10"])
        try add(["add-generic-password", "-a", "carol", "-s", "lines", "-w", "two\nlines"])
        try add(["add-generic-password", "-a", "dave", "-s", "utf8", "-w", "pässwörd €"])
        try add([
            "add-generic-password", "-a", "erin", "-s", "codes", "-c", "abcd", "-C", "note", "-G", "gen", "-w", "x",
        ])
        try add([
            "add-internet-password", "-a", "frank", "-s", "example.com", "-r", "htps", "-P", "8443", "-p", "/login",
            "-d", "realm", "-t", "dflt", "-w", "web-pass",
        ])
        let table: [[String]] = [
            // Answered by the front end (through the agent the first read starts).
            ["find-generic-password", "-a", "alice", "-s", "myapp", "-w"],
            ["find-generic-password", "-w", "-s", "myapp"],
            ["find-generic-password", "-l", "Label", "-j", "note", "-w"],
            ["find-generic-password", "-s", "binary", "-w"],
            ["find-generic-password", "-s", "lines", "-w"],
            ["find-generic-password", "-s", "utf8", "-w"],
            ["find-generic-password", "-c", "abcd", "-C", "note", "-G", "gen", "-w"],
            ["find-generic-password", "-s", "myapp", "-w", sandbox.keychainPath],
            ["find-internet-password", "-s", "example.com", "-w"],
            ["find-internet-password", "-a", "frank", "-s", "example.com", "-r", "htps", "-P", "8443", "-w"],
            ["find-internet-password", "-p", "/login", "-d", "realm", "-t", "dflt", "-w"],
            ["--version"],
            ["version"],
            // Handed to the full tool.
            ["find-generic-password", "-s", "nothing", "-w"],
            ["find-generic-password", "-s", "myapp", "-w", "no-such-keychain"],
            ["find-internet-password", "-s", "example.com", "-P", "notaport", "-w"],
            ["find-generic-password", "-c", "toolong", "-w"],
            ["find-generic-password", "-Z", "-w"],
            ["find-generic-password", "-s"],
            ["find-generic-password", "-s", "myapp"],
            ["find-generic-password", "-s", "myapp", "-g"],
            ["find-generic-password", "-s", "myapp", "-g", "-w"],
            ["find-generic-password", "-s", "myapp", "-w", "--json"],
            ["find-generic-password", "-h"],
            ["version", "extra"],
            ["-v", "find-generic-password", "-s", "myapp", "-w"],
            ["no-such-command"],
            ["help"],
            [],
        ]
        for arguments in table { _ = try expectSame(arguments) }
        #expect(try expectSame(["find-generic-password", "-s", "binary", "-w"]).stdout == "00ff10\n")
        #expect(try expectSame(["find-generic-password", "-s", "nothing", "-w"]).status == 44)
    }

    @Test func keychainOperandsAndLockedKeychains() throws {
        try add(["create-keychain", "-p", "pw", "build"])
        try add(["add-generic-password", "-a", "ci", "-s", "deploy", "-w", "token", "build"])
        let named = try expectSame(["find-generic-password", "-s", "deploy", "-w", "build"])
        #expect(named.stdout == "token\n")
        _ = try expectSame(["find-generic-password", "-s", "deploy", "-w", "build.keychain"])
        _ = try expectSame(["find-generic-password", "-s", "deploy", "-w"])  // on the search list
        try add(["lock-keychain", "build"])
        let locked = try expectSame(["find-generic-password", "-s", "deploy", "-w", "build"])
        #expect(locked.status == 36)  // errSecInteractionNotAllowed & 0xFF
        try add(["unlock-keychain", "-p", "pw", "build"])
        #expect(try expectSame(["find-generic-password", "-s", "deploy", "-w", "build"]).stdout == "token\n")
    }

    @Test func accessGroupsFromTheEnvironment() throws {
        try add(["add-generic-password", "-a", "alice", "-s", "grouped", "-w", "shared"])
        let restricted = ["OPENSECURITY_ACCESS_GROUPS": "other.group"]
        let hidden = try expectSame(["find-generic-password", "-s", "grouped", "-w"], environment: restricted)
        #expect(hidden.status == 44)
        let allowed = ["OPENSECURITY_ACCESS_GROUPS": " opensecurity.shared , other"]
        #expect(try expectSame(["find-generic-password", "-s", "grouped", "-w"], environment: allowed).status == 0)
    }

    /// The agent's state as `keychain-agent -l --json` reports it: whether it runs, and the reads it answered.
    private func agentState() throws -> (running: Bool, reads: Int) {
        let listed = try sandbox.run(["keychain-agent", "-l", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any]
        return (object?["running"] as? Bool ?? false, object?["readsAnswered"] as? Int ?? 0)
    }

    /// Waits (at most 5 s) for the agent the full tool started after a read.
    private func waitForAgent() throws -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if try agentState().running { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// A read that finds no agent (the front end hands it to the full tool) starts one; from then on the agent
    /// answers the front end's reads (the front end opens no keychain), with the full tool's bytes and status for
    /// every command line of the table above; a change to the keychain is seen by the next read, a deleted item is
    /// not found, a password-protected keychain is read by the full tool.
    @Test func theAgentAnswersTheFrontEndsReads() throws {
        try add(["add-generic-password", "-a", "alice", "-s", "myapp", "-w", "s3cret!", "-l", "Label"])
        try add(["add-generic-password", "-a", "bob", "-s", "binary", "-X", "00ff10"])
        try add([
            "add-generic-password", "-a", "erin", "-s", "codes", "-c", "abcd", "-C", "note", "-G", "gen", "-w", "x",
        ])
        try add([
            "add-internet-password", "-a", "frank", "-s", "example.com", "-r", "htps", "-P", "8443", "-p", "/login",
            "-d", "realm", "-t", "dflt", "-w", "web-pass",
        ])
        #expect(try !agentState().running)
        #expect(try sandbox.run(["find-generic-password", "-s", "myapp", "-w"]).stdout == "s3cret!\n")
        try #require(try waitForAgent(), "the first read did not start the agent")

        let answered: [[String]] = [
            ["find-generic-password", "-a", "alice", "-s", "myapp", "-w"],
            ["find-generic-password", "-l", "Label", "-w"],
            ["find-generic-password", "-s", "binary", "-w"],
            ["find-generic-password", "-c", "abcd", "-C", "note", "-G", "gen", "-w"],
            ["find-generic-password", "-s", "myapp", "-w", sandbox.keychainPath],
            ["find-internet-password", "-a", "frank", "-s", "example.com", "-r", "htps", "-P", "8443", "-w"],
            ["find-internet-password", "-p", "/login", "-d", "realm", "-t", "dflt", "-w"],
        ]
        let before = try agentState().reads
        for arguments in answered { #expect(try expectSame(arguments).status == 0, "\(arguments)") }
        #expect(try agentState().reads == before + answered.count, "every read above was the agent's answer")
        // Declined by the agent (no match): the full tool answers, as without an agent.
        #expect(try expectSame(["find-generic-password", "-s", "nothing", "-w"]).status == 44)
        #expect(
            try expectSame(
                ["find-generic-password", "-s", "myapp", "-w"],
                environment: [
                    "OPENSECURITY_ACCESS_GROUPS": "other.group"
                ]
            ).status == 44)

        // A keychain file the group may read is refused by every open; the agent's kept copy is no exception.
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: sandbox.keychainPath)
        let exposed = try expectSame(["find-generic-password", "-s", "binary", "-w"])
        #expect(exposed.status != 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: sandbox.keychainPath)
        #expect(try expectSame(["find-generic-password", "-s", "binary", "-w"]).stdout == "00ff10\n")

        // A change made by another process is seen at once; a deleted item is gone.
        try add(["add-generic-password", "-U", "-a", "alice", "-s", "myapp", "-w", "changed"])
        #expect(try expectSame(["find-generic-password", "-a", "alice", "-s", "myapp", "-w"]).stdout == "changed\n")
        try add(["delete-generic-password", "-a", "alice", "-s", "myapp"])
        #expect(try expectSame(["find-generic-password", "-a", "alice", "-s", "myapp", "-w"]).status == 44)

        // A password-protected keychain: the agent does not read it; unlocked, the full tool does (with the keys the
        // agent holds), locked it is the full tool's errSecInteractionNotAllowed.
        try add(["create-keychain", "-p", "pw", "build"])
        try add(["add-generic-password", "-a", "ci", "-s", "deploy", "-w", "token", "build"])
        let reads = try agentState().reads
        #expect(try expectSame(["find-generic-password", "-s", "deploy", "-w", "build"]).stdout == "token\n")
        #expect(try agentState().reads == reads)
        try add(["lock-keychain", "build"])
        #expect(try expectSame(["find-generic-password", "-s", "deploy", "-w", "build"]).status == 36)
    }

    /// With the agent turned off for a process (`OPENSECURITY_KEYCHAIN_AGENT=off`) a read starts none.
    @Test func noAgentIsStartedWhenTheAgentIsOff() throws {
        try add(["add-generic-password", "-a", "alice", "-s", "myapp", "-w", "s3cret!"])
        let off = ["OPENSECURITY_KEYCHAIN_AGENT": "off"]
        #expect(try sandbox.run(["find-generic-password", "-s", "myapp", "-w"], environment: off).status == 0)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try !agentState().running)
    }

    /// The front end alone, without the full tool beside it: it answers `--version` and what the keychain agent
    /// answers (it opens no keychain itself); anything else — a read with no agent running included — ends with a
    /// clear message and status 1.
    @Test func answersItselfWithoutTheFullTool() throws {
        try add(["add-generic-password", "-a", "alice", "-s", "myapp", "-w", "s3cret!"])
        let alone = try TemporaryDirectory(prefix: "osec-front-alone")
        let copy = alone.path("security")
        try FileManager.default.copyItem(atPath: try #require(SecurityTool.executable), toPath: copy)
        let find = ["find-generic-password", "-s", "myapp", "-w"]
        let noAgent = try sandbox.run(find, executable: copy)
        #expect(noAgent.status == 1)
        #expect(noAgent.stderr.hasPrefix("security: the full tool security-tool is missing"))
        // The full tool's read starts the agent; from then on the front end alone is answered by it.
        #expect(try sandbox.run(find, executable: SecurityTool.fullTool).stdout == "s3cret!\n")
        try #require(try waitForAgent(), "the full tool did not start the agent")
        let found = try sandbox.run(find, executable: copy)
        #expect(found.status == 0)
        #expect(found.stdout == "s3cret!\n")
        #expect(try sandbox.run(["--version"], executable: copy).stdout.hasPrefix("security (OpenSecurity) "))
        let missing = try sandbox.run(["find-generic-password", "-s", "nothing", "-w"], executable: copy)
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.hasPrefix("security: the full tool security-tool is missing"))
    }
}
