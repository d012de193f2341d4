import Foundation
import OSecASN1
import OSecCrypto
import OSecDBus
import OSecKeychain
import OSecSystem

/// What the service serves.
package struct SecretServiceConfiguration: Sendable {
    /// The default keychain (the `default` alias); opened, or created without password, at start.
    package var defaultKeychain: String
    /// The other keychains of the search list (each one a collection); missing ones are skipped.
    package var keychains: [String]
    /// Where CreateCollection creates keychains (default: the default keychain's directory).
    package var collectionDirectory: String
    /// The environment the askpass program is looked up in and run with.
    package var environment: [String: String]
    /// Where the aliases set by SetAlias (other than `default` and `session`) are kept across restarts (a property
    /// list, mode 0600); `nil`: kept while the service runs only.
    package var aliasFile: String?
    /// The alias file's name in the settings directory.
    package static let aliasFileName = SecretAliasFile.name

    package init(
        defaultKeychain: String, keychains: [String] = [], collectionDirectory: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, aliasFile: String? = nil
    ) {
        self.defaultKeychain = defaultKeychain
        self.keychains = keychains
        self.collectionDirectory = collectionDirectory ?? (defaultKeychain as NSString).deletingLastPathComponent
        self.environment = environment
        self.aliasFile = aliasFile
    }
}

/// The freedesktop Secret Service (API 0.2) over the keychain: the object tree, sessions, prompts and the
/// mapping of every call onto keychain operations. Runs on the one thread of the bus loop.
package final class SecretService: DBusObjectHandler {
    /// The bus name of the service.
    package static let busName = "org.freedesktop.secrets"
    /// At most this many sessions and prompts at once (a client opening millions gets LimitsExceeded).
    static let maximumSessions = 1024
    static let maximumPrompts = 256

    let configuration: SecretServiceConfiguration
    /// Collections by path element, in creation order.
    private(set) var collections: [SecretCollection] = []
    /// Alias → collection name.
    private var aliases: [String: String] = [:]
    private var sessions: [String: SecretSession] = [:]
    private var prompts: [String: SecretPrompt] = [:]
    /// Prompts whose askpass program runs (on another thread; the bus loop keeps answering meanwhile).
    private var runningPrompts: [String: SecretPrompt] = [:]
    /// Where the prompts' threads leave their outcome for the bus loop.
    private let promptOutcomes = SecretPromptOutcomes()
    private var nextSession = 1
    private var nextPrompt = 1
    private var pendingSignals: [DBusSignalEmission] = []

    /// Opens the keychains of `configuration` (creating the default one when missing).
    package init(configuration: SecretServiceConfiguration) throws(KeychainStoreError) {
        self.configuration = configuration
        let defaultStore = try KeychainStore.openOrCreate(at: configuration.defaultKeychain)
        let first = add(store: defaultStore)
        aliases["default"] = first.name
        aliases["login"] = aliases["login"] ?? (first.name == "login" ? first.name : nil)
        for path in configuration.keychains where path != configuration.defaultKeychain {
            guard let store = try? KeychainStore.open(at: path) else { continue }
            add(store: store)
        }
        let session = SecretCollection(name: "session", label: "Session", backing: .memory)
        collections.append(session)
        aliases["session"] = "session"
        loadAliases()
    }

    // MARK: Stored aliases

    /// The aliases that are kept in ``SecretServiceConfiguration/aliasFile`` (not `default`, not `session`).
    static func isStoredAlias(_ name: String) -> Bool { name != "default" && name != "session" }

    /// Restores the stored aliases whose keychain is served (the others stay in the file for a later run).
    private func loadAliases() {
        for (name, path) in SecretAliasFile.read(configuration.aliasFile) where Self.isStoredAlias(name) {
            if let collection = collections.first(where: { $0.store?.path == path }) { aliases[name] = collection.name }
        }
    }

    /// Writes the stored aliases: the ones of this run, and the file's aliases for keychains not served now.
    private func saveAliases() throws(DBusCallError) {
        guard let file = configuration.aliasFile else { return }
        let served = Set(collections.compactMap { $0.store?.path })
        var stored = SecretAliasFile.read(file).filter { !served.contains($0.value) && aliases[$0.key] == nil }
        for (name, target) in aliases where Self.isStoredAlias(name) {
            if let path = collection(named: target)?.store?.path { stored[name] = path }
        }
        do {
            try SecretAliasFile.write(stored, to: file)
        } catch {
            throw .failed("cannot store the aliases in \(file): \(error)")
        }
    }

    @discardableResult
    private func add(store: KeychainStore) -> SecretCollection {
        let file = (store.path as NSString).lastPathComponent
        let base = file.hasSuffix(".keychain-db") ? String(file.dropLast(".keychain-db".count)) : file
        var name = SecretServicePaths.element(base)
        var counter = 2
        while name == "session" || collections.contains(where: { $0.name == name }) {
            name = SecretServicePaths.element(base) + "_\(counter)"
            counter += 1
        }
        let collection = SecretCollection(name: name, label: base, backing: .keychain(store))
        collections.append(collection)
        return collection
    }

    // MARK: Resolving paths

    private enum Object {
        case service
        case collection(SecretCollection)
        case item(SecretCollection, String)
        case session(SecretSession)
        case prompt(SecretPrompt)
    }

    private func collection(named name: String) -> SecretCollection? { collections.first { $0.name == name } }

    /// The collection and item id an item path names, without checking that the item exists.
    private func itemLocation(_ path: String) -> (SecretCollection, String)? {
        for (prefix, isAlias) in [(SecretServicePaths.collectionPrefix, false), (SecretServicePaths.aliasPrefix, true)]
        where path.hasPrefix(prefix) {
            let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            let first = String(parts[0])
            guard let name = isAlias ? aliases[first] : first, let collection = collection(named: name) else {
                return nil
            }
            return (collection, String(parts[1]))
        }
        return nil
    }

    private func resolve(_ path: String) -> Object? {
        if path == SecretServicePaths.service { return .service }
        for (prefix, isAlias) in [(SecretServicePaths.collectionPrefix, false), (SecretServicePaths.aliasPrefix, true)]
        where path.hasPrefix(prefix) {
            let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 1 || parts.count == 2 else { return nil }
            let first = String(parts[0])
            guard let name = isAlias ? aliases[first] : first, let collection = collection(named: name) else {
                return nil
            }
            if parts.count == 1 { return .collection(collection) }
            let id = String(parts[1])
            guard collection.hasItem(id) else { return nil }
            return .item(collection, id)
        }
        if path.hasPrefix(SecretServicePaths.sessionPrefix), let session = sessions[path] { return .session(session) }
        if path.hasPrefix(SecretServicePaths.promptPrefix), let prompt = prompts[path] ?? runningPrompts[path] {
            return .prompt(prompt)
        }
        return nil
    }

    // MARK: DBusObjectHandler

    package func interfaces(at path: String) -> [DBusInterface]? {
        switch resolve(path) {
        case .service: [SecretServiceInterfaces.service]
        case .collection: [SecretServiceInterfaces.collection]
        case .item: [SecretServiceInterfaces.item]
        case .session: [SecretServiceInterfaces.session]
        case .prompt: [SecretServiceInterfaces.prompt]
        case nil: nil
        }
    }

    package func childNodes(of path: String) -> [String] {
        switch path {
        case "/": return ["org"]
        case "/org": return ["freedesktop"]
        case "/org/freedesktop": return ["secrets"]
        case SecretServicePaths.service: return ["collection", "aliases", "session", "prompt"]
        case "/org/freedesktop/secrets/collection": return collections.map(\.name)
        case "/org/freedesktop/secrets/aliases": return aliases.keys.sorted()
        case "/org/freedesktop/secrets/session":
            return sessions.keys.map { String($0.split(separator: "/").last ?? "") }
        default:
            if case .collection(let collection) = resolve(path) {
                return ((try? collection.items()) ?? []).map(\.id)
            }
            return []
        }
    }

    package func clientVanished(_ name: String) {
        sessions = sessions.filter { $0.value.owner != name }
        prompts = prompts.filter { $0.value.owner != name }
        runningPrompts = runningPrompts.filter { $0.value.owner != name }
    }

    package var hasBackgroundWork: Bool { !runningPrompts.isEmpty }

    /// Completes the prompts whose askpass program finished: marks their collections unlocked and emits
    /// `Completed` to the client that ran the prompt.
    package func finishBackgroundWork() {
        for outcome in promptOutcomes.take() {
            guard let prompt = runningPrompts.removeValue(forKey: outcome.prompt) else { continue }  // dismissed
            var changed: [SecretCollection] = []
            for path in outcome.unlocked ?? [] {
                guard let collection = collectionOf(path) else { continue }
                collection.softLocked = false
                if !changed.contains(where: { $0 === collection }) { changed.append(collection) }
            }
            for collection in changed { lockChanged(collection) }
            pendingSignals.append(
                DBusSignalEmission(
                    path: prompt.path, interface: SecretServiceInterfaces.promptName, member: "Completed",
                    [.boolean(outcome.unlocked == nil), .variant(.objectPaths(outcome.unlocked ?? []))],
                    destination: prompt.owner))
        }
    }

    package func takeSignals() -> [DBusSignalEmission] {
        defer { pendingSignals.removeAll() }
        return pendingSignals
    }

    private func emit(_ path: String, _ interface: String, _ member: String, _ values: [DBusValue]) {
        pendingSignals.append(DBusSignalEmission(path: path, interface: interface, member: member, values))
    }

    /// `org.freedesktop.DBus.Properties.PropertiesChanged` for the object at `path`: new values of `changed`, and
    /// the names of `invalidated` properties (whose value the client reads again when it wants it: a collection's
    /// `Items` is invalidated rather than sent, so that adding one item does not send the whole list).
    private func propertiesChanged(
        _ path: String, _ interface: String, _ changed: [(String, DBusValue)], invalidated: [String] = []
    ) {
        emit(
            path, "org.freedesktop.DBus.Properties", "PropertiesChanged",
            [
                .string(interface),
                .dictionary(
                    key: "s", value: "v", changed.map { DBusDictionaryEntry(.string($0.0), .variant($0.1)) }),
                .array(element: "s", invalidated.map { .string($0) }),
            ])
    }

    /// The signals of a collection whose items were added or removed: `Items` invalidated, `Modified`.
    private func collectionItemsChanged(_ collection: SecretCollection) {
        collection.modified = UInt64(Date().timeIntervalSince1970)
        propertiesChanged(
            collection.path, SecretServiceInterfaces.collectionName, [("Modified", .uint64(collection.modified))],
            invalidated: ["Items"])
    }

    /// The signals of a collection whose lock state changed: `PropertiesChanged` (`Locked`) and the service's
    /// `CollectionChanged`.
    private func lockChanged(_ collection: SecretCollection) {
        propertiesChanged(
            collection.path, SecretServiceInterfaces.collectionName, [("Locked", .boolean(collection.isLocked))])
        emit(
            SecretServicePaths.service, SecretServiceInterfaces.serviceName, "CollectionChanged",
            [.objectPath(collection.path)])
    }

    /// The service's `Collections` changed (a collection was created or deleted).
    private func collectionsChanged() {
        propertiesChanged(
            SecretServicePaths.service, SecretServiceInterfaces.serviceName,
            [("Collections", .objectPaths(collections.map(\.path)))])
    }

    /// An item's properties changed: their new values, read back from the collection.
    private func itemPropertiesChanged(_ collection: SecretCollection, _ id: String) {
        guard let view = try? collection.item(id) else { return }
        propertiesChanged(
            SecretServicePaths.item(collection.name, id), SecretServiceInterfaces.itemName,
            [
                ("Attributes", .stringMap(view.attributes)), ("Label", .string(view.label)),
                ("Type", .string(view.attributes["xdg:schema"] ?? "")), ("Modified", .uint64(view.modified)),
            ])
    }

    package func call(_ call: DBusMethodCall) throws(DBusCallError) -> [DBusValue] {
        guard let object = resolve(call.path) else { throw .unknownObject("no object at \(call.path)") }
        let arguments = call.arguments
        switch (object, call.member) {
        case (.service, "OpenSession"):
            return try openSession(algorithm: arguments[0].stringValue ?? "", input: arguments[1], sender: call.sender)
        case (.service, "CreateCollection"):
            return try createCollection(
                properties: arguments[0].variantMapValue ?? [:], alias: arguments[1].stringValue ?? "")
        case (.service, "SearchItems"):
            let query = try attributeMap(arguments[0])
            var unlocked: [String] = []
            var locked: [String] = []
            for collection in collections {
                let found = try keychain { () throws(KeychainStoreError) in try collection.items(matching: query) }
                let paths = found.map { SecretServicePaths.item(collection.name, $0.id) }
                if collection.isLocked { locked += paths } else { unlocked += paths }
            }
            return [.objectPaths(unlocked), .objectPaths(locked)]
        case (.service, "Unlock"):
            return try unlock(arguments[0].objectPathsValue ?? [], sender: call.sender)
        case (.service, "Lock"):
            return try lock(arguments[0].objectPathsValue ?? [])
        case (.service, "GetSecrets"):
            let session = try session(arguments[1].objectPathValue ?? "", sender: call.sender)
            // One lookup per collection and item class; items of locked collections and unknown paths left out.
            var wanted: [(collection: SecretCollection, ids: [(path: String, id: String)])] = []
            for path in arguments[0].objectPathsValue ?? [] {
                guard let (collection, id) = itemLocation(path) else { continue }
                if let index = wanted.firstIndex(where: { $0.collection === collection }) {
                    wanted[index].ids.append((path, id))
                } else {
                    wanted.append((collection, [(path, id)]))
                }
            }
            var entries: [DBusDictionaryEntry] = []
            for (collection, ids) in wanted where !collection.isLocked {
                var found = try keychain { () throws(KeychainStoreError) in try collection.secrets(ids.map(\.id)) }
                defer {
                    for key in Array(found.keys) {
                        if var entry = found.removeValue(forKey: key) {
                            entry.secret.resetBytes(in: 0..<entry.secret.count)
                        }
                    }
                }
                for (path, id) in ids {
                    guard let (secret, contentType) = found[id] else { continue }
                    entries.append(
                        DBusDictionaryEntry(.objectPath(path), try session.encode(secret, contentType: contentType)))
                }
            }
            return [.dictionary(key: "o", value: "(oayays)", entries)]
        case (.service, "ReadAlias"):
            let name = arguments[0].stringValue ?? ""
            guard let target = aliases[name], let collection = collection(named: target) else {
                return [.objectPath("/")]
            }
            return [.objectPath(collection.path)]
        case (.service, "SetAlias"):
            try setAlias(arguments[0].stringValue ?? "", to: arguments[1].objectPathValue ?? "/")
            return []
        case (.collection(let collection), "Delete"):
            return try deleteCollection(collection)
        case (.collection(let collection), "SearchItems"):
            let query = try attributeMap(arguments[0])
            let found = try keychain { () throws(KeychainStoreError) in try collection.items(matching: query) }
            return [.objectPaths(found.map { SecretServicePaths.item(collection.name, $0.id) })]
        case (.collection(let collection), "CreateItem"):
            return try createItem(
                in: collection, properties: arguments[0].variantMapValue ?? [:], secret: arguments[1],
                replace: arguments[2].boolValue ?? false, sender: call.sender)
        case (.item(let collection, let id), "Delete"):
            try deleteItem(collection, id)
            return [.objectPath("/")]
        case (.item(let collection, let id), "GetSecret"):
            let session = try session(arguments[0].objectPathValue ?? "", sender: call.sender)
            guard !collection.isLocked else { throw .isLocked("the collection \(collection.name) is locked") }
            var (secret, contentType) = try readSecret(collection, id)
            defer { secret.resetBytes(in: 0..<secret.count) }
            return [try session.encode(secret, contentType: contentType)]
        case (.item(let collection, let id), "SetSecret"):
            var (secret, contentType) = try decodeSecret(arguments[0], sender: call.sender)
            defer { secret.resetBytes(in: 0..<secret.count) }
            try setSecret(collection, id, secret: secret, contentType: contentType)
            return []
        case (.session(let session), "Close"):
            guard session.owner == call.sender else { throw .accessDenied("the session belongs to another client") }
            sessions[session.path] = nil
            return []
        case (.prompt(let prompt), "Prompt"):
            guard prompt.owner == call.sender else { throw .accessDenied("the prompt belongs to another client") }
            prompts[prompt.path] = nil
            startPrompt(prompt)
            return []
        case (.prompt(let prompt), "Dismiss"):
            guard prompt.owner == call.sender else { throw .accessDenied("the prompt belongs to another client") }
            prompts[prompt.path] = nil
            runningPrompts[prompt.path] = nil  // its askpass program's answer is ignored
            pendingSignals.append(
                DBusSignalEmission(
                    path: prompt.path, interface: SecretServiceInterfaces.promptName, member: "Completed",
                    [.boolean(true), .variant(.objectPaths([]))], destination: call.sender))
            return []
        default:
            throw .unknownMethod("no method \(call.member) at \(call.path)")
        }
    }

    package func property(_ name: String, interface: String, path: String) throws(DBusCallError) -> DBusValue {
        switch (resolve(path), name) {
        case (.service, "Collections"):
            return .objectPaths(collections.map(\.path))
        case (.collection(let collection), "Items"):
            let items = try keychain { () throws(KeychainStoreError) in try collection.items() }
            return .objectPaths(items.map { SecretServicePaths.item(collection.name, $0.id) })
        case (.collection(let collection), "Label"): return .string(collection.label)
        case (.collection(let collection), "Locked"): return .boolean(collection.isLocked)
        case (.collection(let collection), "Created"): return .uint64(collection.created)
        case (.collection(let collection), "Modified"): return .uint64(collection.modified)
        case (.item(let collection, let id), _):
            guard let item = try keychain({ () throws(KeychainStoreError) in try collection.item(id) }) else {
                throw .unknownObject("no item at \(path)")
            }
            switch name {
            case "Locked": return .boolean(collection.isLocked)
            case "Attributes": return .stringMap(item.attributes)
            case "Label": return .string(item.label)
            case "Type": return .string(item.attributes["xdg:schema"] ?? "")
            case "Created": return .uint64(item.created)
            case "Modified": return .uint64(item.modified)
            default: break
            }
        default: break
        }
        throw .unknownProperty("no property \(name) at \(path)")
    }

    package func setProperty(
        _ name: String, interface: String, path: String, value: DBusValue, sender: String
    ) throws(DBusCallError) {
        switch (resolve(path), name) {
        case (.collection(let collection), "Label"):
            collection.label = value.stringValue ?? collection.label
            propertiesChanged(
                collection.path, SecretServiceInterfaces.collectionName, [("Label", .string(collection.label))])
            emit(
                SecretServicePaths.service, SecretServiceInterfaces.serviceName, "CollectionChanged",
                [
                    .objectPath(collection.path)
                ])
        case (.item(let collection, let id), "Label"):
            try updateItem(collection, id, attributes: nil, label: value.stringValue ?? "")
        case (.item(let collection, let id), "Attributes"):
            guard let map = value.stringMapValue else { throw .invalidArgs("Attributes is an a{ss}") }
            try updateItem(collection, id, attributes: map, label: nil)
        case (.item(let collection, let id), "Type"):
            guard let item = try keychain({ () throws(KeychainStoreError) in try collection.item(id) }) else {
                throw .unknownObject("no item at \(path)")
            }
            var map = item.attributes
            map["xdg:schema"] = value.stringValue
            try updateItem(collection, id, attributes: map, label: nil)
        default:
            throw .propertyReadOnly("\(name) cannot be set at \(path)")
        }
    }

    // MARK: Sessions

    private func openSession(algorithm: String, input: DBusValue, sender: String) throws(DBusCallError) -> [DBusValue] {
        guard sessions.count < Self.maximumSessions else { throw .limitsExceeded("too many open sessions") }
        let path = SecretServicePaths.sessionPrefix + "s\(nextSession)"
        nextSession += 1
        let (session, output) = try SecretSession.open(algorithm: algorithm, input: input, path: path, owner: sender)
        sessions[path] = session
        return [.variant(output), .objectPath(path)]
    }

    private func session(_ path: String, sender: String) throws(DBusCallError) -> SecretSession {
        guard let session = sessions[path], session.owner == sender else {
            throw .noSession("no open session \(path) for this client")
        }
        return session
    }

    /// The secret and content type of a `(oayays)` Secret structure, decrypted in its session.
    private func decodeSecret(_ value: DBusValue, sender: String) throws(DBusCallError) -> (Data, String) {
        guard case .structure(let members) = value, members.count == 4,
            let sessionPath = members[0].objectPathValue, let parameters = members[1].bytesValue,
            let sealed = members[2].bytesValue, let contentType = members[3].stringValue
        else { throw .invalidArgs("a secret is (oayays)") }
        guard sealed.count <= SecretAttributeMapping.maximumSecretBytes + 32 else {
            throw .limitsExceeded("a secret longer than \(SecretAttributeMapping.maximumSecretBytes) bytes")
        }
        let session = try session(sessionPath, sender: sender)
        return (try session.decode(parameters: parameters, value: sealed), contentType)
    }

    // MARK: Items

    private func attributeMap(_ value: DBusValue) throws(DBusCallError) -> [String: String] {
        guard let map = value.stringMapValue else { throw .invalidArgs("attributes are an a{ss}") }
        if let problem = SecretAttributeMapping.validate(map, label: "") { throw .limitsExceeded(problem) }
        return map
    }

    private func createItem(
        in collection: SecretCollection, properties: [String: DBusValue], secret: DBusValue, replace: Bool,
        sender: String
    ) throws(DBusCallError) -> [DBusValue] {
        let label = properties["org.freedesktop.Secret.Item.Label"]?.stringValue ?? ""
        var attributes: [String: String] = [:]
        if let given = properties["org.freedesktop.Secret.Item.Attributes"] {
            guard let map = given.stringMapValue else { throw .invalidArgs("Item.Attributes is an a{ss}") }
            attributes = map
        }
        if let type = properties["org.freedesktop.Secret.Item.Type"]?.stringValue, attributes["xdg:schema"] == nil {
            attributes["xdg:schema"] = type
        }
        if let problem = SecretAttributeMapping.validate(attributes, label: label) { throw .limitsExceeded(problem) }
        var (plain, contentType) = try decodeSecret(secret, sender: sender)
        defer { plain.resetBytes(in: 0..<plain.count) }
        guard !collection.isLocked else { throw .isLocked("the collection \(collection.name) is locked") }
        let now = UInt64(Date().timeIntervalSince1970)
        collection.modified = now
        guard let store = collection.store else {
            if replace, let existing = collection.memoryItems.first(where: { $0.value.attributes == attributes }) {
                collection.memoryItems[existing.key]?.secret = try Self.locked(plain)
                collection.memoryItems[existing.key]?.label = label
                collection.memoryItems[existing.key]?.contentType = contentType
                collection.memoryItems[existing.key]?.modified = now
                itemChanged(collection, existing.key)
                return [.objectPath(SecretServicePaths.item(collection.name, existing.key)), .objectPath("/")]
            }
            let id = collection.newMemoryID()
            collection.memoryItems[id] = MemoryItem(
                attributes: attributes, label: label, contentType: contentType, secret: try Self.locked(plain),
                created: now,
                modified: now)
            itemCreated(collection, id)
            return [.objectPath(SecretServicePaths.item(collection.name, id)), .objectPath("/")]
        }
        // Identity = the whole map: replace the item with exactly this map, else add one (the digest in `vwht`
        // keeps the keychain's service/account uniqueness from merging different maps).
        for attempt in 0..<2 {
            if replace {
                let existing = try keychain { () throws(KeychainStoreError) in
                    try collection.items(matching: attributes).first { $0.attributes == attributes }
                }
                if let existing, let ref = SecretCollection.persistentRef(ofItemID: existing.id) {
                    let projected = try keychain { () throws(KeychainStoreError) in
                        try collection.keychainItem(existing.id)
                    }
                    if let projected, projected.itemClass == .genericPassword {
                        // The same map: the item keeps its identity (a second item with this map has its own).
                        try updateGeneric(
                            store, ref, attributes: attributes, label: label, contentType: contentType,
                            mapChanged: false, secret: plain)
                    } else {
                        _ = try keychain { () throws(KeychainStoreError) in
                            var changes = ItemChanges(secret: plain)
                            changes.attributes = ["labl": .string(label)]
                            return try store.update(ItemQuery(persistentRef: ref), with: changes)
                        }
                    }
                    itemChanged(collection, existing.id)
                    return [.objectPath(SecretServicePaths.item(collection.name, existing.id)), .objectPath("/")]
                }
            }
            // A second item with the same map (no replace) gets a random suffix to its identity digest.
            let duplicate =
                attempt == 0 ? nil : (try? SecureRandom.bytes(8)).map { HexEncoding.lowercase($0) }
            let item = NewItem(
                itemClass: .genericPassword,
                attributes: SecretAttributeMapping.keychainAttributes(
                    attributes, label: label, contentType: contentType, duplicate: duplicate),
                accessGroup: SecretAttributeMapping.accessGroup, secret: plain)
            do {
                let added = try store.add(item)
                let id = SecretCollection.itemID(added.persistentRef)
                itemCreated(collection, id)
                return [.objectPath(SecretServicePaths.item(collection.name, id)), .objectPath("/")]
            } catch  where error.code == .duplicateItem {
                // The same map exists (another client may have been first): with replace, replace it; without,
                // add a second item with the same map.
                if attempt == 1 { throw .failed("an item with these attributes exists already") }
            } catch {
                throw Self.map(error)
            }
        }
        throw .failed("the item could not be stored")
    }

    private func itemCreated(_ collection: SecretCollection, _ id: String) {
        collectionItemsChanged(collection)
        emit(
            collection.path, SecretServiceInterfaces.collectionName, "ItemCreated",
            [
                .objectPath(SecretServicePaths.item(collection.name, id))
            ])
    }

    private func itemChanged(_ collection: SecretCollection, _ id: String) {
        itemPropertiesChanged(collection, id)
        emit(
            collection.path, SecretServiceInterfaces.collectionName, "ItemChanged",
            [
                .objectPath(SecretServicePaths.item(collection.name, id))
            ])
    }

    private func readSecret(_ collection: SecretCollection, _ id: String) throws(DBusCallError) -> (Data, String) {
        guard let found = try keychain({ () throws(KeychainStoreError) in try collection.secret(id) }) else {
            throw .noSuchObject("no such item")
        }
        return (found.secret, found.contentType)
    }

    private func setSecret(
        _ collection: SecretCollection, _ id: String, secret: Data, contentType: String
    ) throws(DBusCallError) {
        guard !collection.isLocked else { throw .isLocked("the collection \(collection.name) is locked") }
        if collection.store == nil {
            collection.memoryItems[id]?.secret = try Self.locked(secret)
            collection.memoryItems[id]?.contentType = contentType
            collection.memoryItems[id]?.modified = UInt64(Date().timeIntervalSince1970)
        } else {
            guard let ref = SecretCollection.persistentRef(ofItemID: id), let store = collection.store else {
                throw .noSuchObject("no such item")
            }
            var changes = ItemChanges(secret: secret)
            if let item = try keychain({ () throws(KeychainStoreError) in try collection.keychainItem(id) }),
                item.itemClass == .genericPassword
            {
                let projection = SecretAttributeMapping.project(item)
                if projection.isOwnItem && projection.contentType != contentType {
                    changes.attributes = SecretAttributeMapping.keychainAttributes(
                        projection.attributes, label: projection.label, contentType: contentType)
                }
            }
            _ = try keychain { () throws(KeychainStoreError) in
                try store.update(ItemQuery(persistentRef: ref), with: changes)
            }
        }
        itemChanged(collection, id)
    }

    private func updateItem(
        _ collection: SecretCollection, _ id: String, attributes: [String: String]?, label: String?
    ) throws(DBusCallError) {
        if let problem = SecretAttributeMapping.validate(attributes ?? [:], label: label ?? "") {
            throw .limitsExceeded(problem)
        }
        if collection.store == nil {
            if let attributes { collection.memoryItems[id]?.attributes = attributes }
            if let label { collection.memoryItems[id]?.label = label }
            itemChanged(collection, id)
            return
        }
        guard let store = collection.store, let ref = SecretCollection.persistentRef(ofItemID: id),
            let item = try keychain({ () throws(KeychainStoreError) in try collection.keychainItem(id) })
        else { throw .noSuchObject("no such item") }
        let projection = SecretAttributeMapping.project(item)
        if item.itemClass == .genericPassword {
            let map = attributes ?? projection.attributes
            try updateGeneric(
                store, ref, attributes: map, label: label ?? projection.label, contentType: projection.contentType,
                mapChanged: map != projection.attributes)
        } else {
            guard attributes == nil else {
                throw .notSupported("the attributes of an internet password are its keychain attributes")
            }
            var changes = ItemChanges()
            changes.attributes = ["labl": .string(label ?? projection.label)]
            _ = try keychain { () throws(KeychainStoreError) in
                try store.update(ItemQuery(persistentRef: ref), with: changes)
            }
        }
        itemChanged(collection, id)
    }

    /// Stores a client's view of a generic password (`attributes`, `label`, `contentType`, and `secret` when
    /// given) in the item at `ref`.
    ///
    /// The item's identity digest (`vwht`, part of the keychain's primary key) is kept when its map did not change:
    /// a second item with the same map has a digest of its own, which a label change must not take back. A changed
    /// map gets the map's digest, or — when another item holds that map already, as Secret Service clients may
    /// make two items hold — the digest with a random suffix, as CreateItem gives a second item.
    private func updateGeneric(
        _ store: KeychainStore, _ ref: PersistentRef, attributes: [String: String], label: String,
        contentType: String, mapChanged: Bool, secret: Data? = nil
    ) throws(DBusCallError) {
        for attempt in 0..<2 {
            let duplicate = attempt == 0 ? nil : (try? SecureRandom.bytes(8)).map { HexEncoding.lowercase($0) }
            var changes = ItemChanges(secret: secret)
            changes.attributes = SecretAttributeMapping.keychainAttributes(
                attributes, label: label, contentType: contentType, duplicate: duplicate)
            if !mapChanged { changes.attributes["vwht"] = nil }
            do {
                _ = try store.update(ItemQuery(persistentRef: ref), with: changes)
                return
            } catch  where error.code == .duplicateItem && mapChanged && attempt == 0 {
                continue
            } catch {
                throw Self.map(error)
            }
        }
    }

    private func deleteItem(_ collection: SecretCollection, _ id: String) throws(DBusCallError) {
        if collection.store == nil {
            collection.memoryItems[id] = nil
        } else {
            guard let ref = SecretCollection.persistentRef(ofItemID: id), let store = collection.store else {
                throw .noSuchObject("no such item")
            }
            _ = try keychain { () throws(KeychainStoreError) in try store.delete(ItemQuery(persistentRef: ref)) }
        }
        collectionItemsChanged(collection)
        emit(
            collection.path, SecretServiceInterfaces.collectionName, "ItemDeleted",
            [
                .objectPath(SecretServicePaths.item(collection.name, id))
            ])
    }

    // MARK: Collections

    private func createCollection(properties: [String: DBusValue], alias: String) throws(DBusCallError) -> [DBusValue] {
        if !alias.isEmpty, let target = aliases[alias], let existing = collection(named: target) {
            return [.objectPath(existing.path), .objectPath("/")]
        }
        let label = properties["org.freedesktop.Secret.Collection.Label"]?.stringValue ?? ""
        let base = SecretServicePaths.element(label.isEmpty ? (alias.isEmpty ? "collection" : alias) : label)
        var path = configuration.collectionDirectory + "/" + base + ".keychain-db"
        var counter = 2
        while FileManager.default.fileExists(atPath: path) {
            path = configuration.collectionDirectory + "/" + base + "_\(counter).keychain-db"
            counter += 1
        }
        let store = try keychain { () throws(KeychainStoreError) in try KeychainStore.create(at: path, password: nil) }
        let collection = add(store: store)
        if !label.isEmpty { collection.label = label }
        if !alias.isEmpty {
            aliases[alias] = collection.name
            if Self.isStoredAlias(alias) { try? saveAliases() }
        }
        collectionsChanged()
        emit(
            SecretServicePaths.service, SecretServiceInterfaces.serviceName, "CollectionCreated",
            [
                .objectPath(collection.path)
            ])
        return [.objectPath(collection.path), .objectPath("/")]
    }

    private func deleteCollection(_ collection: SecretCollection) throws(DBusCallError) -> [DBusValue] {
        guard aliases["default"] != collection.name else {
            throw .notSupported("the default keychain is not deleted through the Secret Service")
        }
        if let store = collection.store {
            _ = try keychain { () throws(KeychainStoreError) in try KeychainStore.delete(at: store.path) }
            collections.removeAll { $0 === collection }
        } else {
            collection.memoryItems.removeAll()  // the session collection empties; its object stays
        }
        aliases = aliases.filter { $0.value != collection.name || collection.store == nil }
        try? saveAliases()
        if collection.store == nil { collectionItemsChanged(collection) } else { collectionsChanged() }
        emit(
            SecretServicePaths.service, SecretServiceInterfaces.serviceName, "CollectionDeleted",
            [
                .objectPath(collection.path)
            ])
        return [.objectPath("/")]
    }

    private func setAlias(_ name: String, to path: String) throws(DBusCallError) {
        guard DBusNames.isValidPathElement(name) else { throw .invalidArgs("an alias is letters, digits and _") }
        let previous = aliases[name]
        if path == "/" {
            aliases[name] = nil
        } else {
            guard case .collection(let collection) = resolve(path) else {
                throw .noSuchObject("no collection \(path)")
            }
            aliases[name] = collection.name
        }
        guard Self.isStoredAlias(name) else { return }
        do {
            try saveAliases()
        } catch {
            aliases[name] = previous  // nothing changes when the alias cannot be kept
            throw error
        }
    }

    // MARK: Locking

    private func collectionOf(_ path: String) -> SecretCollection? {
        switch resolve(path) {
        case .collection(let collection), .item(let collection, _): collection
        default: nil
        }
    }

    private func lock(_ objects: [String]) throws(DBusCallError) -> [DBusValue] {
        var locked: [String] = []
        var lockChangedCollections: [SecretCollection] = []
        for path in objects {
            guard let collection = collectionOf(path) else { continue }
            let wasLocked = collection.isLocked
            if let store = collection.store, collection.isPasswordProtected {
                try? store.lock()
                store.forgetInAgent()
            } else {
                collection.softLocked = true
            }
            locked.append(path)
            if !wasLocked && !lockChangedCollections.contains(where: { $0 === collection }) {
                lockChangedCollections.append(collection)
            }
        }
        for collection in lockChangedCollections { lockChanged(collection) }
        return [.objectPaths(locked), .objectPath("/")]
    }

    private func unlock(_ objects: [String], sender: String) throws(DBusCallError) -> [DBusValue] {
        var unlocked: [String] = []
        var needPrompt: [String] = []
        for path in objects {
            guard let collection = collectionOf(path) else { continue }
            if collection.isKeychainLocked {
                needPrompt.append(path)
            } else {
                if collection.softLocked {
                    collection.softLocked = false
                    lockChanged(collection)
                }
                unlocked.append(path)
            }
        }
        guard !needPrompt.isEmpty else { return [.objectPaths(unlocked), .objectPath("/")] }
        guard prompts.count < Self.maximumPrompts else { throw .limitsExceeded("too many open prompts") }
        let path = SecretServicePaths.promptPrefix + "p\(nextPrompt)"
        nextPrompt += 1
        prompts[path] = SecretPrompt(path: path, owner: sender, objects: needPrompt)
        return [.objectPaths(unlocked), .objectPath(path)]
    }

    /// Starts an unlock prompt: on another thread, asks the askpass program for each locked keychain's password and
    /// unlocks it (the key derivation runs there too); the bus loop answers other clients meanwhile and completes the
    /// prompt in ``finishBackgroundWork()``. A prompt counts as dismissed when there is no askpass program, it fails,
    /// or a password is wrong.
    private func startPrompt(_ prompt: SecretPrompt) {
        var collected: [SecretPromptStep] = []
        for path in prompt.objects {
            guard let collection = collectionOf(path), let store = collection.store else {
                promptOutcomes.post(SecretPromptOutcome(prompt: prompt.path, unlocked: nil))
                runningPrompts[prompt.path] = prompt
                return
            }
            collected.append(
                SecretPromptStep(
                    path: path, store: collection.isKeychainLocked ? store : nil,
                    question: "Enter the password to unlock the keychain \(collection.label) for the Secret Service"))
        }
        runningPrompts[prompt.path] = prompt
        let steps = collected
        let environment = configuration.environment
        let outcomes = promptOutcomes
        let path = prompt.path
        DispatchQueue.global().async {
            outcomes.post(SecretPromptOutcome(prompt: path, unlocked: SecretPromptStep.run(steps, environment)))
        }
    }

    // MARK: Errors

    /// `secret` copied into locked memory (the session collection's secrets live there).
    static func locked(_ secret: Data) throws(DBusCallError) -> SecureBytes {
        do { return try SecureBytes(secret) } catch { throw .failed("no locked memory for the secret (\(error))") }
    }

    private func keychain<R>(_ body: () throws(KeychainStoreError) -> R) throws(DBusCallError) -> R {
        do { return try body() } catch { throw Self.map(error) }
    }

    static func map(_ error: KeychainStoreError) -> DBusCallError {
        switch error.code {
        case .interactionNotAllowed, .authFailed: .isLocked("the keychain is locked")
        case .itemNotFound: .noSuchObject("no such item")
        case .param, .noSuchAttribute: .invalidArgs(error.reason)
        default: .failed("the keychain failed: \(error.reason)")
        }
    }
}

/// A pending Unlock prompt.
struct SecretPrompt {
    let path: String
    /// The client that asked (only it may run or dismiss the prompt).
    let owner: String
    /// The objects to unlock.
    let objects: [String]
}

/// One object of a running prompt: the keychain to unlock with the askpass program's answer (`nil`: nothing to
/// ask, the collection is only locked by the service).
struct SecretPromptStep: Sendable {
    let path: String
    let store: KeychainStore?
    let question: String

    /// Asks for and checks each password in turn; the unlocked objects, or `nil` when the prompt is dismissed.
    static func run(_ steps: [SecretPromptStep], _ environment: [String: String]) -> [String]? {
        var done: [String] = []
        for step in steps {
            if let store = step.store {
                guard var secret = SecretAskpass.ask(step.question, environment: environment) else { return nil }
                defer { secret.resetBytes(in: 0..<secret.count) }
                do {
                    try store.unlock(password: secret)
                } catch {
                    return nil
                }
                // Shared with every process of the user (as `security unlock-keychain` does), when an agent runs.
                _ = try? store.publishToAgent()
            }
            done.append(step.path)
        }
        return done
    }
}

/// What a prompt's thread found.
struct SecretPromptOutcome: Sendable {
    let prompt: String
    /// The unlocked objects, or `nil` when dismissed.
    let unlocked: [String]?
}

/// The outcomes of finished prompts, handed from their threads to the bus loop.
final class SecretPromptOutcomes: Sendable {
    private let outcomes = LockedValue<[SecretPromptOutcome]>([])

    func post(_ outcome: SecretPromptOutcome) { outcomes.withLock { $0.append(outcome) } }

    func take() -> [SecretPromptOutcome] {
        outcomes.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
