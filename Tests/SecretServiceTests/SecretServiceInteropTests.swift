import Foundation
import OSecKeychain
import OSecTestSupport
import Testing

/// The keychain as the freedesktop Secret Service, driven by real, unmodified clients (`secret-tool`, Python's
/// `secretstorage` and `keyring`, `gdbus`) on a private session bus; every item a client writes is read back from
/// the keychain (the store and `security find-generic-password -w`), and the other way round.
@Suite(.serialized, .enabled(if: SecretServiceBus.missingPeer == nil, "\(SecretServiceBus.missingPeer ?? "")"))
struct SecretServiceInteropTests {
    /// The secret of the generic password (service, account) in `keychain`, read with the store.
    private func storedSecrets(_ keychain: String, service: String) throws -> [String] {
        let store = try KeychainStore.open(at: keychain)
        return try store.find(ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string(service)])).map {
            String(decoding: try $0.secret?.open() ?? Data(), as: UTF8.self)
        }
    }

    @Test func secretToolStoresLooksUpSearchesAndClears() throws {
        let bus = try SecretServiceBus()
        defer { bus.stop() }
        let stored = try bus.secretTool(
            ["store", "--label=Mail", "service", "mail.example", "account", "alice", "extra", "one"],
            input: "pw-one")
        #expect(stored.status == 0, "\(stored.stderr)")
        #expect(try bus.secretTool(["lookup", "service", "mail.example", "account", "alice"]).stdout == "pw-one")
        // Read back through the keychain: the store and `security`.
        #expect(try storedSecrets(bus.keychain, service: "mail.example") == ["pw-one"])
        let found = try bus.security(["find-generic-password", "-s", "mail.example", "-a", "alice", "-w", bus.keychain])
        #expect(found.stdout == "pw-one\n")

        // Identity is the whole map: same service/account, other attributes → a second item.
        #expect(
            try bus.secretTool(
                ["store", "--label=Mail 2", "service", "mail.example", "account", "alice", "extra", "two"],
                input: "pw-two"
            ).status == 0)
        #expect(try bus.secretTool(["lookup", "extra", "two"]).stdout == "pw-two")
        #expect(try bus.secretTool(["lookup", "extra", "one"]).stdout == "pw-one")
        #expect(try storedSecrets(bus.keychain, service: "mail.example").sorted() == ["pw-one", "pw-two"])
        // Storing the same map again replaces (secret-tool asks for replace).
        #expect(
            try bus.secretTool(
                ["store", "--label=Mail", "service", "mail.example", "account", "alice", "extra", "one"],
                input: "pw-one-b"
            ).status == 0)
        #expect(try storedSecrets(bus.keychain, service: "mail.example").sorted() == ["pw-one-b", "pw-two"])

        let search = try bus.secretTool(["search", "--all", "service", "mail.example"])
        #expect(search.status == 0)
        // secret-tool prints the secret and label on standard output, the attributes on standard error.
        let listing = search.stdout + search.stderr
        #expect(listing.contains("attribute.extra = one") && listing.contains("attribute.extra = two"), "\(listing)")
        #expect(listing.contains("secret = pw-two"))

        #expect(try bus.secretTool(["clear", "service", "mail.example", "extra", "two"]).status == 0)
        #expect(try bus.secretTool(["lookup", "extra", "two"]).status != 0)
        #expect(try storedSecrets(bus.keychain, service: "mail.example") == ["pw-one-b"])
    }

    @Test func keychainItemsAppearToSecretTool() throws {
        let bus = try SecretServiceBus()
        defer { bus.stop() }
        #expect(
            try bus.security(["add-generic-password", "-s", "build.example", "-a", "ci", "-w", "gen-pw", bus.keychain])
                .status == 0)
        #expect(try bus.secretTool(["lookup", "service", "build.example", "account", "ci"]).stdout == "gen-pw")
        #expect(
            try bus.secretTool(["lookup", "xdg:schema", "org.freedesktop.Secret.Generic", "account", "ci"]).stdout
                == "gen-pw")
        #expect(
            try bus.security([
                "add-internet-password", "-s", "git.example", "-a", "bob", "-r", "htps", "-P", "8443", "-p", "/repo",
                "-w", "inet-pw", bus.keychain,
            ]).status == 0)
        let lookup = try bus.secretTool([
            "lookup", "server", "git.example", "user", "bob", "protocol", "https", "port", "8443", "object", "/repo",
        ])
        #expect(lookup.stdout == "inet-pw", "\(lookup.stderr)")
        // A change through `security` is seen by the next call.
        #expect(
            try bus.security(["delete-generic-password", "-s", "build.example", "-a", "ci", bus.keychain]).status == 0)
        #expect(try bus.secretTool(["lookup", "service", "build.example", "account", "ci"]).status != 0)
    }

    @Test func secretStorageWithDHSessionAndLocking() throws {
        let bus = try SecretServiceBus()
        defer { bus.stop() }
        let script = """
            import sys, secretstorage
            from secretstorage.dhcrypto import Session
            conn = secretstorage.dbus_init()
            col = secretstorage.get_default_collection(conn)
            item = col.create_item('Deploy key', {'service': 'deploy.example', 'account': 'ops', 'env': 'prod'},
                                   b'dh-secret-1', replace=True)
            assert item.get_secret() == b'dh-secret-1'
            found = list(col.search_items({'env': 'prod'}))
            assert len(found) == 1 and found[0].get_label() == 'Deploy key', found
            item.set_secret(b'dh-secret-2')
            assert found[0].get_secret() == b'dh-secret-2'
            assert item.get_attributes()['env'] == 'prod'
            gone = col.create_item('Temp', {'service': 'temp.example'}, b'temp', replace=False)
            gone.delete()
            assert list(col.search_items({'service': 'temp.example'})) == []
            # The DH session really was used.
            assert conn is not None
            # The password keychain: locked, searchable, unlocked through the askpass prompt.
            vault = [c for c in secretstorage.get_all_collections(conn) if c.collection_path.endswith('/vault')][0]
            vault.lock()
            assert vault.is_locked()
            dismissed = vault.unlock()
            assert not dismissed and not vault.is_locked(), dismissed
            v = vault.create_item('Vault item', {'service': 'vault.example', 'account': 'ops'}, b'vault-secret')
            assert v.get_secret() == b'vault-secret'
            vault.lock()
            assert vault.is_locked()
            locked = list(vault.search_items({'service': 'vault.example'}))
            assert len(locked) == 1 and locked[0].is_locked()
            try:
                locked[0].get_secret()
                raise SystemExit('a locked item gave its secret')
            except secretstorage.exceptions.LockedException:
                pass
            open(sys.argv[1], 'w').close()          # the askpass program now answers a wrong password
            assert vault.unlock() is True and vault.is_locked()
            print('ok')
            """
        let result = try bus.python(script, [bus.directory.path("ASKPASS_WRONG")])
        #expect(result.stdout == "ok\n", "\(result.stderr)")
        #expect(
            try bus.security(["find-generic-password", "-s", "deploy.example", "-a", "ops", "-w", bus.keychain]).stdout
                == "dh-secret-2\n")
        #expect(
            try bus.security(["find-generic-password", "-s", "vault.example", "-w", bus.lockedKeychain]).status != 0)
        // libsecret finds the item in the locked keychain and unlocks it through the askpass prompt.
        try FileManager.default.removeItem(atPath: bus.directory.path("ASKPASS_WRONG"))
        let lookup = try bus.secretTool(["lookup", "service", "vault.example"])
        #expect(lookup.stdout == "vault-secret", "\(lookup.stderr)")
    }

    /// Items may share an attribute map (CreateItem without replace adds a second one): relabelling either, giving a
    /// third item the same map, and replacing by that map all succeed and keep every item and its secret (found by
    /// the Secret Service fuzz target: a label change gave a second item the first one's keychain identity and was
    /// refused with Failed).
    @Test func itemsWithTheSameAttributesCanBeChanged() throws {
        let bus = try SecretServiceBus()
        defer { bus.stop() }
        let script = """
            import secretstorage
            conn = secretstorage.dbus_init()
            col = secretstorage.get_default_collection(conn)
            same = {'service': 'twins.example', 'account': 'tw'}
            first = col.create_item('first', same, b'one')
            second = col.create_item('second', same, b'two')
            third = col.create_item('third', {'service': 'other.example'}, b'three')
            second.set_label('second, relabelled')
            first.set_label('first, relabelled')
            third.set_attributes(same)
            second.set_attributes({'service': 'twins.example', 'account': 'tw', 'extra': '1'})
            second.set_attributes(same)
            replaced = col.create_item('replaced', same, b'four', replace=True)
            found = sorted((i.get_label(), i.get_secret().decode()) for i in col.search_items(same))
            print(found)
            """
        let result = try bus.python(script)
        #expect(result.status == 0, "\(result.stderr)")
        // Replace takes one of the three items with the map; the other two are unchanged.
        let lines = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(lines.contains("('replaced', 'four')"), "\(lines)")
        let kept = ["('first, relabelled', 'one')", "('second, relabelled', 'two')", "('third', 'three')"]
        #expect(kept.filter { lines.contains($0) }.count == 2, "\(lines)")
        #expect(try storedSecrets(bus.keychain, service: "twins.example").count == 3)
    }

    @Test func pythonKeyringSecretServiceBackend() throws {
        let bus = try SecretServiceBus()
        defer { bus.stop() }
        let script = """
            import sys
            from keyring.backends import SecretService
            k = SecretService.Keyring()
            k.set_password('pypi.example', 'carol', 'keyring-pw')
            assert k.get_password('pypi.example', 'carol') == 'keyring-pw'
            if sys.argv[1] == 'delete':
                k.delete_password('pypi.example', 'carol')
                assert k.get_password('pypi.example', 'carol') is None
            print('ok')
            """
        let result = try bus.python(script, ["keep"])
        #expect(result.stdout == "ok\n", "\(result.stderr)")
        #expect(try storedSecrets(bus.keychain, service: "pypi.example") == ["keyring-pw"])
        #expect(
            try bus.security(["find-generic-password", "-s", "pypi.example", "-a", "carol", "-w", bus.keychain]).stdout
                == "keyring-pw\n")
        // The other way: `security` writes, keyring reads and deletes.
        #expect(
            try bus.security([
                "add-generic-password", "-s", "ssh.example", "-a", "dave", "-w", "from-security",
                bus.keychain,
            ]).status == 0)
        let read = try bus.python(
            """
            from keyring.backends import SecretService
            k = SecretService.Keyring()
            print(k.get_password('ssh.example', 'dave'))
            """)
        #expect(read.stdout == "from-security\n", "\(read.stderr)")
        #expect(try bus.python(script, ["delete"]).stdout == "ok\n")
        #expect(try storedSecrets(bus.keychain, service: "pypi.example").isEmpty)
    }

    @Test func badCallsGetDBusErrors() throws {
        let bus = try SecretServiceBus()
        defer { bus.stop() }
        let service = "/org/freedesktop/secrets"
        // gdbus prints "GDBus.Error:NAME: message", dbus-send "Error NAME: message".
        func errorName(_ result: SecretServiceBus.Result) -> String {
            guard result.status != 0 else { return "" }
            for marker in ["GDBus.Error:", "Error "] {
                if let range = result.stderr.range(of: marker) {
                    return String(result.stderr[range.upperBound...].prefix { $0 != ":" })
                }
            }
            return ""
        }
        #expect(
            errorName(try bus.call(service, "org.freedesktop.Secret.Service.NoSuchMethod"))
                == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(
            errorName(
                try bus.dbusSend(service, "org.freedesktop.Secret.Service.OpenSession", ["int32:42", "string:x"]))
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(
            errorName(try bus.dbusSend(service, "org.freedesktop.Secret.Service.SearchItems", ["string:x"]))
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(
            errorName(try bus.call(service, "org.freedesktop.Secret.Service.OpenSession", ["'rot13'", "<''>"]))
                == "org.freedesktop.DBus.Error.NotSupported")
        // Degenerate Diffie-Hellman public values: 0, 1, and more than 128 bytes.
        for value in [
            "[byte 0]", "[byte 1]", "[" + Array(repeating: "byte 7", count: 129).joined(separator: ",") + "]",
        ] {
            let result = try bus.call(
                service, "org.freedesktop.Secret.Service.OpenSession",
                ["'dh-ietf1024-sha256-aes128-cbc-pkcs7'", "<@ay \(value)>"])
            #expect(errorName(result) == "org.freedesktop.DBus.Error.InvalidArgs", "\(value.prefix(20))")
        }
        #expect(
            errorName(try bus.call(service + "/collection/nothing", "org.freedesktop.Secret.Collection.Delete"))
                == "org.freedesktop.DBus.Error.UnknownObject")
        #expect(
            errorName(
                try bus.call(
                    service + "/collection/login/g00112233445566778899aabbccddeeff",
                    "org.freedesktop.Secret.Item.GetSecret", ["'/org/freedesktop/secrets/session/s999'"]))
                == "org.freedesktop.DBus.Error.UnknownObject")
        // A secret in a session that does not exist.
        let create = try bus.call(
            service + "/aliases/default", "org.freedesktop.Secret.Collection.CreateItem",
            ["{}", "(objectpath '/org/freedesktop/secrets/session/s999', @ay [], @ay [1], 'text/plain')", "false"])
        #expect(errorName(create) == "org.freedesktop.Secret.Error.NoSession")
        // A huge attribute map.
        let huge = "{" + (0..<300).map { "'k\($0)': 'v'" }.joined(separator: ", ") + "}"
        #expect(
            errorName(try bus.call(service, "org.freedesktop.Secret.Service.SearchItems", [huge]))
                == "org.freedesktop.DBus.Error.LimitsExceeded")
        // Properties: read-only and unknown.
        #expect(
            errorName(
                try bus.call(
                    service, "org.freedesktop.DBus.Properties.Set",
                    ["org.freedesktop.Secret.Service", "Collections", "<@ao []>"]))
                == "org.freedesktop.DBus.Error.PropertyReadOnly")
        let collections = try bus.call(
            service, "org.freedesktop.DBus.Properties.Get", ["org.freedesktop.Secret.Service", "Collections"])
        #expect(collections.stdout.contains("/org/freedesktop/secrets/collection/login"))
        #expect(collections.stdout.contains("/org/freedesktop/secrets/collection/session"))
        let xml = try bus.call(service, "org.freedesktop.DBus.Introspectable.Introspect")
        #expect(xml.stdout.contains("org.freedesktop.Secret.Service"))
        // Still serving after all that.
        #expect(
            try bus.call(service, "org.freedesktop.Secret.Service.ReadAlias", ["'default'"]).stdout.contains(
                "/org/freedesktop/secrets/collection/login"))
    }

    @Test func securityUnlockAndLockAreSeenByTheService() throws {
        let bus = try SecretServiceBus(agent: true)
        defer { bus.stop() }
        let vault = "/org/freedesktop/secrets/collection/vault"
        func locked() throws -> String {
            try bus.call(vault, "org.freedesktop.DBus.Properties.Get", ["org.freedesktop.Secret.Collection", "Locked"])
                .stdout
        }
        #expect(try bus.security(["lock-keychain", bus.lockedKeychain]).status == 0)
        #expect(try locked() == "(<true>,)\n")
        #expect(try bus.security(["unlock-keychain", "-p", bus.lockedPassword, bus.lockedKeychain]).status == 0)
        #expect(try locked() == "(<false>,)\n")
        // Unlocked through the agent: the service reads and writes the keychain without a prompt.
        #expect(
            try bus.secretTool(
                ["store", "--collection=\(vault)", "--label=v", "service", "agent.example"], input: "via-agent"
            ).status == 0)
        #expect(try bus.secretTool(["lookup", "service", "agent.example"]).stdout == "via-agent")
        // The service's Lock makes the agent forget the keychain: `security` sees it locked.
        let lock = try bus.call(
            "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock", ["['\(vault)']"])
        #expect(lock.status == 0, "\(lock.stderr)")
        #expect(try locked() == "(<true>,)\n")
        #expect(
            try bus.security(["find-generic-password", "-s", "agent.example", "-w", bus.lockedKeychain]).status != 0)
    }

    @Test func callersOfAnotherUserAreRefused() throws {
        let bus = try SecretServiceBus(allowOtherUsers: true)
        defer { bus.stop() }
        guard try bus.run("/usr/bin/id", ["-u"]).stdout == "0\n",
            FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        else {
            print("callersOfAnotherUserAreRefused: skipped, needs root and setpriv to run a client as nobody")
            return
        }
        let other = try bus.run(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/gdbus", "call", "--session", "--dest",
                "org.freedesktop.secrets", "--object-path", "/org/freedesktop/secrets", "--method",
                "org.freedesktop.Secret.Service.ReadAlias", "default",
            ])
        #expect(other.status != 0)
        #expect(other.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(other.stderr)")
        // The owner still gets answers.
        #expect(
            try bus.call("/org/freedesktop/secrets", "org.freedesktop.Secret.Service.ReadAlias", ["'default'"]).stdout
                .contains("/org/freedesktop/secrets/collection/login"))
    }

    @Test func twoClientsAndSecurityWriteConcurrentlyAndNothingIsLost() throws {
        let bus = try SecretServiceBus()
        defer { bus.stop() }
        let writer = """
            import sys, secretstorage
            conn = secretstorage.dbus_init()
            col = secretstorage.get_default_collection(conn)
            name = sys.argv[1]
            for i in range(200):
                col.create_item('%s %d' % (name, i), {'service': 'load.example', 'client': name, 'n': str(i)},
                                ('%s-%d' % (name, i)).encode())
            print('ok')
            """
        let group = DispatchGroup()
        nonisolated(unsafe) var outputs: [String] = ["", "", ""]
        let lock = NSLock()
        for (index, name) in ["a", "b"].enumerated() {
            DispatchQueue.global().async(group: group) {
                let result = try? bus.python(writer, [name])
                lock.withLock { outputs[index] = (result?.stdout ?? "") + (result?.stderr ?? "") }
            }
        }
        DispatchQueue.global().async(group: group) {
            var failures = 0
            for i in 0..<50 {
                let result = try? bus.security([
                    "add-generic-password", "-s", "load.example", "-a", "tool-\(i)", "-w", "tool-\(i)", bus.keychain,
                ])
                if result?.status != 0 { failures += 1 }
            }
            lock.withLock { outputs[2] = failures == 0 ? "ok\n" : "\(failures) failures" }
        }
        group.wait()
        #expect(outputs == ["ok\n", "ok\n", "ok\n"])
        let secrets = Set(try storedSecrets(bus.keychain, service: "load.example"))
        let expected = Set(
            (0..<200).flatMap { ["a-\($0)", "b-\($0)"] } + (0..<50).map { "tool-\($0)" })
        #expect(secrets == expected)
        // Every client sees the final state.
        let count = try bus.python(
            """
            import secretstorage
            conn = secretstorage.dbus_init()
            col = secretstorage.get_default_collection(conn)
            print(len(list(col.search_items({'service': 'load.example'}))))
            """)
        #expect(count.stdout == "450\n", "\(count.stderr)")
    }

    @Test func replaceTakesTheNameAndTheOldInstanceExits() throws {
        let bus = try SecretServiceBus()
        defer { bus.stop() }
        let first = bus.providerProcess
        try bus.startProvider(replace: true)
        let deadline = Date().addingTimeInterval(10)
        while first?.isRunning == true && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(first?.isRunning == false)
        #expect(try bus.secretTool(["store", "--label=x", "service", "after.replace"], input: "s").status == 0)
        #expect(try bus.secretTool(["lookup", "service", "after.replace"]).stdout == "s")
        #expect(first?.terminationStatus == 0)
        // SIGTERM stops the provider cleanly, and the name is free again.
        let second = bus.providerProcess
        second?.terminate()
        second?.waitUntilExit()
        #expect(second?.terminationStatus == 0)
        let owner = try bus.gdbus([
            "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
            "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.secrets",
        ])
        #expect(owner.stdout.contains("false"))
    }
}
