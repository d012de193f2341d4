import Foundation
import OSecKeychain
import OSecTestSupport
import Testing

/// What clients see of changes: the specification's signals and `PropertiesChanged` (watched with `gdbus monitor`),
/// prompts that do not hold up other clients, aliases that survive a restart, and items changed through the keychain
/// seen with their new attributes.
@Suite(.serialized, .enabled(if: SecretServiceBus.missingPeer == nil, "\(SecretServiceBus.missingPeer ?? "")"))
struct SecretServiceEventTests {
    private let service = "/org/freedesktop/secrets"
    private let login = "/org/freedesktop/secrets/collection/login"

    /// Runs `body` while `gdbus monitor` watches the service; returns what it printed.
    private func monitored(_ bus: SecretServiceBus, _ body: () throws -> Void) throws -> String {
        let output = bus.directory.path("monitor-\(UUID().uuidString).txt")
        let monitor = try bus.start(
            "/usr/bin/gdbus", ["monitor", "--session", "--dest", "org.freedesktop.secrets"], output: output)
        defer {
            // SIGKILL: children of the test runner may inherit a signal mask that blocks SIGTERM.
            if monitor.isRunning { _ = try? bus.run("/bin/kill", ["-KILL", String(monitor.processIdentifier)]) }
            monitor.waitUntilExit()
        }
        Thread.sleep(forTimeInterval: 0.7)  // gdbus monitor subscribes before anything happens
        try body()
        let deadline = Date().addingTimeInterval(5)
        var text = ""
        // Signals are emitted after the replies: wait until the last expected one is there.
        while Date() < deadline {
            text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if text.contains("CollectionDeleted") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return text
    }

    @Test func clientsSeeSignalsAndPropertiesChanged() throws {
        let bus = try SecretServiceBus()
        defer { bus.stop() }
        let text = try monitored(bus) {
            #expect(try bus.secretTool(["store", "--label=Sig", "service", "sig.example"], input: "one").status == 0)
            let relabel = try bus.python(
                """
                import secretstorage
                conn = secretstorage.dbus_init()
                col = secretstorage.get_default_collection(conn)
                item = next(col.search_items({'service': 'sig.example'}))
                item.set_label('Sig 2')
                item.set_attributes({'service': 'sig.example', 'extra': 'x'})
                print('ok')
                """)
            #expect(relabel.stdout == "ok\n", "\(relabel.stderr)")
            #expect(try bus.secretTool(["clear", "service", "sig.example"]).status == 0)
            #expect(try bus.call(service, "org.freedesktop.Secret.Service.Lock", ["['\(login)']"]).status == 0)
            #expect(try bus.call(service, "org.freedesktop.Secret.Service.Unlock", ["['\(login)']"]).status == 0)
            let created = try bus.call(
                service, "org.freedesktop.Secret.Service.CreateCollection",
                ["{'org.freedesktop.Secret.Collection.Label': <'Signals'>}", "''"])
            #expect(created.status == 0, "\(created.stderr)")
            let path = "/org/freedesktop/secrets/collection/Signals"
            #expect(
                try bus.call(
                    path, "org.freedesktop.DBus.Properties.Set",
                    ["org.freedesktop.Secret.Collection", "Label", "<'Renamed'>"]
                ).status == 0)
            #expect(try bus.call(path, "org.freedesktop.Secret.Collection.Delete").status == 0)
        }
        let lines = text.split(separator: "\n").map(String.init)
        func has(_ fragments: String...) -> Bool {
            lines.contains { line in fragments.allSatisfy { line.contains($0) } }
        }
        #expect(has(login + ": org.freedesktop.Secret.Collection.ItemCreated", "/collection/login/g"), "\(text)")
        #expect(has(login + ": org.freedesktop.Secret.Collection.ItemChanged"), "\(text)")
        #expect(has(login + ": org.freedesktop.Secret.Collection.ItemDeleted"), "\(text)")
        // The collection's Items are invalidated (and Modified sent) when items come and go.
        #expect(
            has(login + ": org.freedesktop.DBus.Properties.PropertiesChanged", "'Modified'", "['Items']"), "\(text)")
        // The item's new label and attributes.
        #expect(has("/collection/login/g", "PropertiesChanged", "'Label': <'Sig 2'>"), "\(text)")
        #expect(has("/collection/login/g", "PropertiesChanged", "'extra': 'x'"), "\(text)")
        // Lock and Unlock: Locked changes, and the service's CollectionChanged.
        #expect(has(login + ": org.freedesktop.DBus.Properties.PropertiesChanged", "'Locked': <true>"), "\(text)")
        #expect(has(login + ": org.freedesktop.DBus.Properties.PropertiesChanged", "'Locked': <false>"), "\(text)")
        #expect(has(service + ": org.freedesktop.Secret.Service.CollectionChanged", "/collection/login'"), "\(text)")
        // Collections: created, relabelled, deleted, and the service's Collections property each time.
        #expect(has(service + ": org.freedesktop.Secret.Service.CollectionCreated", "/collection/Signals"), "\(text)")
        #expect(has(service + ": org.freedesktop.Secret.Service.CollectionChanged", "/collection/Signals"), "\(text)")
        #expect(has(service + ": org.freedesktop.Secret.Service.CollectionDeleted", "/collection/Signals"), "\(text)")
        #expect(has(service + ": org.freedesktop.DBus.Properties.PropertiesChanged", "'Collections'"), "\(text)")
        #expect(has("/collection/Signals: org.freedesktop.DBus.Properties.PropertiesChanged", "'Renamed'"), "\(text)")
        // No secret ever travels in a signal.
        #expect(!text.contains("'one'"))
    }

    @Test func aPromptDoesNotHoldUpOtherClients() throws {
        let bus = try SecretServiceBus()
        defer { bus.stop() }
        // The unlock prompt's askpass program waits until the hold file is removed (SecretServiceBus).
        let hold = bus.directory.path("ASKPASS_HOLD")
        _ = FileManager.default.createFile(atPath: hold, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: hold) }
        let unlocker = """
            import secretstorage
            conn = secretstorage.dbus_init()
            vault = [c for c in secretstorage.get_all_collections(conn) if c.collection_path.endswith('/vault')][0]
            assert vault.is_locked()
            dismissed = vault.unlock()
            assert not dismissed and not vault.is_locked()
            print('unlocked')
            """
        let group = DispatchGroup()
        nonisolated(unsafe) var unlocked: SecretServiceBus.Result?
        DispatchQueue.global().async(group: group) { unlocked = try? bus.python(unlocker) }
        let waiting = bus.directory.path("ASKPASS_WAITING")
        var polls = 0
        while !FileManager.default.fileExists(atPath: waiting) && polls < 1_200 {
            Thread.sleep(forTimeInterval: 0.05)
            polls += 1
        }
        #expect(FileManager.default.fileExists(atPath: waiting), "the unlock prompt never ran its askpass program")
        // Another client's call is answered while the prompt is still waiting for its password.
        let search = try bus.call(service, "org.freedesktop.Secret.Service.SearchItems", ["{}"])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(group.wait(timeout: .now()) == .timedOut, "the unlock finished before the search was answered")
        try FileManager.default.removeItem(atPath: hold)
        group.wait()
        #expect(unlocked?.stdout == "unlocked\n", "\(unlocked?.stderr ?? "")")
    }

    @Test func aliasesSurviveARestart() throws {
        let bus = try SecretServiceBus()
        defer { bus.stop() }
        let vault = "/org/freedesktop/secrets/collection/vault"
        #expect(try bus.call(service, "org.freedesktop.Secret.Service.SetAlias", ["'work'", "'\(vault)'"]).status == 0)
        #expect(try bus.call(service, "org.freedesktop.Secret.Service.SetAlias", ["'home'", "'\(login)'"]).status == 0)
        let file = bus.directory.path("config/secret-service-aliases.plist")
        let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        try bus.restartProvider()
        func readAlias(_ name: String) throws -> String {
            try bus.call(service, "org.freedesktop.Secret.Service.ReadAlias", ["'\(name)'"]).stdout
        }
        #expect(try readAlias("work") == "(objectpath '\(vault)',)\n")
        #expect(try readAlias("home") == "(objectpath '\(login)',)\n")
        // The alias path is a real object after the restart.
        #expect(
            try bus.call(
                "/org/freedesktop/secrets/aliases/work", "org.freedesktop.DBus.Properties.Get",
                ["org.freedesktop.Secret.Collection", "Label"]
            ).stdout == "(<'vault'>,)\n")
        // Removing an alias is kept too.
        #expect(try bus.call(service, "org.freedesktop.Secret.Service.SetAlias", ["'work'", "'/'"]).status == 0)
        try bus.restartProvider()
        #expect(try readAlias("work") == "(objectpath '/',)\n")
        #expect(try readAlias("home") == "(objectpath '\(login)',)\n")
    }

    @Test func itemsChangedThroughTheKeychainShowTheirNewAttributes() throws {
        let bus = try SecretServiceBus()
        defer { bus.stop() }
        #expect(
            try bus.secretTool(
                ["store", "--label=Old", "service", "old.example", "account", "alice", "extra", "kept"],
                input: "old-secret"
            ).status == 0)
        // Warm the service's view of the item.
        #expect(try bus.secretTool(["lookup", "service", "old.example"]).stdout == "old-secret")
        // Change service, account, label and data through the keychain store (SecItemUpdate's path).
        let store = try KeychainStore.open(at: bus.keychain)
        let updated = try store.update(
            ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("old.example")]),
            with: ItemChanges(
                attributes: ["svce": .string("new.example"), "acct": .string("bob"), "labl": .string("New")],
                secret: Data("new-secret".utf8)))
        #expect(updated == 1)
        #expect(
            try bus.security(["find-generic-password", "-s", "new.example", "-a", "bob", "-w", bus.keychain]).stdout
                == "new-secret\n")
        #expect(try bus.secretTool(["lookup", "service", "old.example"]).status != 0)
        #expect(try bus.secretTool(["lookup", "service", "new.example", "account", "bob"]).stdout == "new-secret")
        let search = try bus.secretTool(["search", "--all", "service", "new.example"])
        let listing = search.stdout + search.stderr
        #expect(listing.contains("label = New"), "\(listing)")
        #expect(listing.contains("attribute.account = bob"), "\(listing)")
        #expect(listing.contains("attribute.extra = kept"), "\(listing)")
        #expect(listing.contains("secret = new-secret"), "\(listing)")
        #expect(!listing.contains("alice"), "\(listing)")
    }
}
