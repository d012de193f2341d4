// libFuzzer target for the Secret Service's method calls (any process on the session bus may make them): each input
// is a program of calls from two clients with random paths, members, arguments and signatures, dispatched into
// `SecretService` without a bus, on a fresh copy of a keychain holding three items. Built by
// `Fuzz/fuzz.sh secretservice`.
//
// The calls pass through the same rules `DBusObjectServer.dispatch` applies before the service sees a call (an
// object must exist at the path, the member must be a method of one of its interfaces, the argument signature must
// be the method's input signature; a property set needs a writable property of that type): a call those rules
// refuse never reaches the service, as on the bus. Asserted for every call the service handles:
// - a reply has exactly the method's output signature (the object server would otherwise answer "internal error");
// - a refusal is a D-Bus error of the service's documented set (`org.freedesktop.DBus.Error.*`,
//   `org.freedesktop.Secret.Error.*`), never `Failed` (what the service answers for an unexpected keychain error);
// - a refused call changes nothing a client can see: the collections, aliases, sessions, and every item's label,
//   attributes and secret (read through a session of a third client) are as before. Creation and modification
//   times are left out (a refused CreateItem may touch the collection's `Modified`, a second-resolution clock).
import Foundation
import OSecSecretService

// DBusMethodCall's memberwise initializer is internal (only the object server makes calls): fuzz.sh compiles OSecDBus
// with -enable-testing for this target.
@testable import OSecDBus

nonisolated(unsafe) var template = ""
nonisolated(unsafe) var work = ""
let keychainName = "login.keychain-db"
let clients = [":1.101", ":1.102"]
let checker = ":1.900"
let service = "/org/freedesktop/secrets"

/// Strings the generator draws from (names the service understands), besides random ones.
let vocabulary = [
    "plain", "dh-ietf1024-sha256-aes128-cbc-pkcs7", "default", "session", "login", "text/plain", "",
    "org.freedesktop.Secret.Item.Label", "org.freedesktop.Secret.Item.Attributes", "org.freedesktop.Secret.Item.Type",
    "org.freedesktop.Secret.Collection.Label", "xdg:schema", "org.gnome.keyring.Note", "service", "username",
    "application", "fuzz", "a{ss}", "s", "ay",
]
let variantTypes = ["s", "ay", "o", "b", "u", "a{ss}", "a{sv}", "(oayays)", "ao", "v"]
let allowedErrors: Set<String> = [
    "org.freedesktop.DBus.Error.InvalidArgs", "org.freedesktop.DBus.Error.UnknownMethod",
    "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownInterface",
    "org.freedesktop.DBus.Error.UnknownProperty", "org.freedesktop.DBus.Error.PropertyReadOnly",
    "org.freedesktop.DBus.Error.AccessDenied", "org.freedesktop.DBus.Error.NotSupported",
    "org.freedesktop.DBus.Error.LimitsExceeded", "org.freedesktop.Secret.Error.IsLocked",
    "org.freedesktop.Secret.Error.NoSession", "org.freedesktop.Secret.Error.NoSuchObject",
]

/// The object server's rules, then the service (see the header). `nil` when the object server refuses the call.
func dispatch(
    _ handler: SecretService, path: String, member: String, arguments: [DBusValue], sender: String
)
    -> Result<[DBusValue], DBusCallError>?
{
    guard let interfaces = handler.interfaces(at: path) else { return nil }
    for interface in interfaces {
        guard let method = interface.methods.first(where: { $0.name == member }) else { continue }
        guard DBusValue.signature(of: arguments) == method.inputSignature else { return nil }
        let call = DBusMethodCall(
            path: path, interface: interface.name, member: member, arguments: arguments, sender: sender)
        do {
            let values = try handler.call(call)
            let expected = method.outputs.map(\.type).joined()
            guard DBusValue.signature(of: values) == expected else {
                fatalError(
                    "\(interface.name).\(member) replied (\(DBusValue.signature(of: values))), not (\(expected))")
            }
            return .success(values)
        } catch {
            return .failure(error)
        }
    }
    return nil
}

/// A value's full text (Data's own description gives only its length).
func render(_ value: DBusValue?) -> String {
    guard let value else { return "none" }
    switch value {
    case .bytes(let data): return "ay:" + data.map { String($0, radix: 16) }.joined(separator: ".")
    case .array(let element, let elements): return "a\(element)[" + elements.map(render).joined(separator: ",") + "]"
    case .dictionary(_, _, let entries):
        return "{" + entries.map { render($0.key) + ":" + render($0.value) }.joined(separator: ",") + "}"
    case .structure(let members): return "(" + members.map(render).joined(separator: ",") + ")"
    case .variant(let inner): return "v:" + render(inner)
    default: return "\(value)"
    }
}

/// What a client can see of the service (a third client reads the secrets through its own plain session).
func snapshot(_ handler: SecretService, checkSession: String) -> [String] {
    var lines: [String] = []
    let collections = (try? handler.property("Collections", interface: "", path: service))?.objectPathsValue ?? []
    lines.append("collections \(collections)")
    for alias in handler.childNodes(of: service + "/aliases").sorted() {
        let target = dispatch(handler, path: service, member: "ReadAlias", arguments: [.string(alias)], sender: checker)
        lines.append("alias \(alias) \(render((try? target?.get())?.first))")
    }
    lines.append("sessions \(handler.childNodes(of: service + "/session").sorted())")
    var items: [String] = []
    for collection in collections {
        for name in ["Label", "Locked"] {
            lines.append(
                "\(collection) \(name) \(render(try? handler.property(name, interface: "", path: collection)))")
        }
        for id in handler.childNodes(of: collection).sorted() {
            let item = collection + "/" + id
            items.append(item)
            for name in ["Label", "Attributes", "Type"] {
                lines.append("\(item) \(name) \(render(try? handler.property(name, interface: "", path: item)))")
            }
        }
    }
    let secrets = dispatch(
        handler, path: service, member: "GetSecrets", arguments: [.objectPaths(items), .objectPath(checkSession)],
        sender: checker)
    if case .success(let values)? = secrets, case .dictionary(_, _, let entries)? = values.first {
        lines += entries.map { "secret \(render($0.key)) \(render($0.value))" }.sorted()
    } else {
        lines.append("secrets \(String(describing: secrets))")
    }
    return lines
}

// MARK: Generating calls

/// The object paths a call may name: the service, every collection and alias, the items, sessions and prompts that
/// exist or may exist, and a few that never do.
func knownPaths(_ handler: SecretService) -> [String] {
    var paths = [service, "/", service + "/collection", service + "/collection/nosuch", service + "/aliases/nosuch"]
    for collection in handler.childNodes(of: service + "/collection") {
        let path = service + "/collection/" + collection
        paths.append(path)
        paths += handler.childNodes(of: path).map { path + "/" + $0 }
        paths.append(path + "/999")
    }
    paths += handler.childNodes(of: service + "/aliases").map { service + "/aliases/" + $0 }
    paths += (1...3).map { service + "/session/s\($0)" } + (1...2).map { service + "/prompt/p\($0)" }
    return paths
}

/// A string without NUL (D-Bus strings cannot hold one), from the vocabulary or the input.
func string(_ input: inout FuzzInput) -> String {
    if input.byte() % 4 != 0 { return input.pick(vocabulary) }
    return String(decoding: input.lengthPrefixed().filter { $0 != 0 }, as: UTF8.self)
}

/// A valid object path: a known one, or elements of letters, digits and `_` made from the input.
func objectPath(_ input: inout FuzzInput, _ paths: [String]) -> String {
    if input.byte() % 4 != 0 { return input.pick(paths) }
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789_")
    let elements = (0..<(Int(input.byte() % 6))).map { _ in
        String((0..<(1 + Int(input.byte() % 8))).map { _ in alphabet[Int(input.byte()) % alphabet.count] })
    }
    return elements.isEmpty ? "/" : "/" + elements.joined(separator: "/")
}

/// Splits a signature into its single complete types (nil when it is not one the generator knows).
func completeTypes(_ signature: Substring) -> [Substring]? {
    var types: [Substring] = []
    var rest = signature
    while !rest.isEmpty {
        guard let length = completeTypeLength(rest) else { return nil }
        types.append(rest.prefix(length))
        rest = rest.dropFirst(length)
    }
    return types
}

func completeTypeLength(_ signature: Substring) -> Int? {
    guard let first = signature.first else { return nil }
    switch first {
    case "a":
        return completeTypeLength(signature.dropFirst()).map { $0 + 1 }
    case "(", "{":
        let close: Character = first == "(" ? ")" : "}"
        var length = 1
        var rest = signature.dropFirst()
        while let next = rest.first, next != close {
            guard let inner = completeTypeLength(rest) else { return nil }
            length += inner
            rest = rest.dropFirst(inner)
        }
        return rest.isEmpty ? nil : length + 1
    default:
        return "ybnqiuxtdsogv".contains(first) ? 1 : nil
    }
}

/// A value of the single complete type `type`, its content from the input.
func value(_ type: Substring, _ input: inout FuzzInput, _ paths: [String], depth: Int = 0) -> DBusValue {
    switch type.first {
    case "y": return .byte(input.byte())
    case "b": return .boolean(input.bool())
    case "n": return .int16(Int16(bitPattern: input.uint16()))
    case "q": return .uint16(input.uint16())
    case "i": return .int32(Int32(bitPattern: input.uint32()))
    case "u": return .uint32(input.uint32())
    case "x": return .int64(Int64(bitPattern: input.uint64()))
    case "t": return .uint64(input.uint64())
    case "d": return .double(Double(bitPattern: input.uint64()))
    case "s": return .string(string(&input))
    case "o": return .objectPath(objectPath(&input, paths))
    case "g": return .signature(input.pick(variantTypes))
    case "v":
        let inner = depth < 3 ? input.pick(variantTypes)[...] : "s"
        return .variant(value(inner, &input, paths, depth: depth + 1))
    case "a":
        let element = type.dropFirst()
        let count = depth < 3 ? Int(input.byte() % 5) : 0
        if element == "y" { return .bytes(Data(input.lengthPrefixed())) }
        if element.first == "{", let parts = completeTypes(element.dropFirst().dropLast()), parts.count == 2 {
            return .dictionary(
                key: String(parts[0]), value: String(parts[1]),
                (0..<count).map { _ in
                    DBusDictionaryEntry(
                        value(parts[0], &input, paths, depth: depth + 1),
                        value(parts[1], &input, paths, depth: depth + 1))
                })
        }
        return .array(
            element: String(element), (0..<count).map { _ in value(element, &input, paths, depth: depth + 1) })
    case "(":
        let members = completeTypes(type.dropFirst().dropLast()) ?? []
        return .structure(members.map { value($0, &input, paths, depth: depth + 1) })
    default:
        return .string("")
    }
}

// MARK: The target

@_cdecl("LLVMFuzzerTestOneInput")
public func secretServiceFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let fm = FileManager.default
    try? fm.removeItem(atPath: work)
    do {
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // The database with its WAL and device-key file.
        for file in try fm.contentsOfDirectory(atPath: template) {
            try fm.copyItem(atPath: "\(template)/\(file)", toPath: "\(work)/\(file)")
        }
    } catch {
        fatalError("copying the template keychain: \(error)")
    }
    let handler: SecretService
    do {
        handler = try SecretService(configuration: configuration(work))
    } catch {
        fatalError("the service cannot open its own keychain: \(error)")
    }
    let checkSession = openPlainSession(handler, sender: checker)
    for _ in 0..<(1 + Int(input.byte() % 8)) {
        if input.isAtEnd { break }
        let sender = clients[Int(input.byte()) % clients.count]
        let paths = knownPaths(handler)
        let path = objectPath(&input, paths)
        let kind = input.byte()
        let before = snapshot(handler, checkSession: checkSession)
        var outcome: Result<[DBusValue], DBusCallError>?
        switch kind % 16 {
        case 14:
            handler.clientVanished(input.pick(clients))
            continue
        case 15:
            // org.freedesktop.DBus.Properties.Set: the object server checks that the property exists, is
            // writable and has the value's type.
            let interfaces = handler.interfaces(at: path) ?? []
            let properties = interfaces.flatMap { interface in interface.properties.map { (interface.name, $0) } }
            guard !properties.isEmpty else { continue }
            let (interface, property) = input.pick(properties)
            let newValue = value(input.pick([property.type, input.pick(variantTypes)])[...], &input, paths)
            guard property.writable, newValue.signature == property.type else { continue }
            do {
                try handler.setProperty(
                    property.name, interface: interface, path: path, value: newValue, sender: sender)
                outcome = .success([])
            } catch {
                outcome = .failure(error)
            }
        default:
            let methods = (handler.interfaces(at: path) ?? []).flatMap(\.methods)
            let member: String
            var signature: String
            if methods.isEmpty || kind % 16 == 13 {
                member = string(&input)
                signature = ""
            } else {
                let method = input.pick(methods)
                member = method.name
                signature = method.inputSignature
            }
            // Mostly the method's own signature (what reaches the service); sometimes another one.
            if kind % 16 == 12 {
                signature = (0..<Int(input.byte() % 3)).map { _ in input.pick(variantTypes) }.joined()
            }
            let arguments = (completeTypes(signature[...]) ?? []).map { value($0, &input, paths) }
            outcome = dispatch(handler, path: path, member: member, arguments: arguments, sender: sender)
        }
        _ = handler.takeSignals()
        guard case .failure(let error)? = outcome else { continue }
        guard allowedErrors.contains(error.name) else { fatalError("a call was refused with \(error)") }
        let after = snapshot(handler, checkSession: checkSession)
        if after != before {
            let changed =
                zip(before, after).first { $0 != $1 }.map { "\($0.0) -> \($0.1)" }
                ?? "\(before.count) -> \(after.count) lines"
            fatalError("a refused call (\(error)) changed the service: \(changed)")
        }
    }
    return 0
}

func configuration(_ directory: String) -> SecretServiceConfiguration {
    // No askpass program: an unlock prompt is dismissed rather than run.
    SecretServiceConfiguration(
        defaultKeychain: "\(directory)/\(keychainName)", collectionDirectory: directory,
        environment: ["HOME": directory, "XDG_RUNTIME_DIR": directory])
}

func openPlainSession(_ handler: SecretService, sender: String) -> String {
    let opened = dispatch(
        handler, path: service, member: "OpenSession", arguments: [.string("plain"), .variant(.string(""))],
        sender: sender)
    guard case .success(let values)? = opened, let path = values.last?.objectPathValue else {
        fatalError("OpenSession plain failed: \(String(describing: opened))")
    }
    return path
}

func plainSecret(_ session: String, _ secret: String) -> DBusValue {
    .structure([.objectPath(session), .bytes(Data()), .bytes(Data(secret.utf8)), .string("text/plain")])
}

@_cdecl("LLVMFuzzerInitialize")
public func secretServiceFuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    let base = NSTemporaryDirectory() + "osec-secretservice-fuzz-\(getpid())"
    template = base + "/template"
    work = base + "/work"
    // No agent: the keychain code finds its socket under these.
    setenv("HOME", base, 1)
    setenv("XDG_RUNTIME_DIR", base, 1)
    unsetenv("OPENSECURITY_ASKPASS")
    unsetenv("SSH_ASKPASS")
    do {
        try FileManager.default.createDirectory(
            atPath: template, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
        fatalError("template directory: \(error)")
    }
    guard let handler = try? SecretService(configuration: configuration(template)) else {
        fatalError("cannot create the template keychain")
    }
    let session = openPlainSession(handler, sender: clients[0])
    let login = service + "/collection/login"
    for (label, attributes, secret) in [
        ("mail", ["service": "mail", "username": "alice"], "hunter2"),
        ("note", ["xdg:schema": "org.gnome.keyring.Note"], "a note"),
        ("web", ["service": "web", "username": "bob", "application": "fuzz"], "s3cret"),
    ] {
        let properties = DBusValue.variantMap([
            "org.freedesktop.Secret.Item.Label": .string(label),
            "org.freedesktop.Secret.Item.Attributes": .stringMap(attributes),
        ])
        let created = dispatch(
            handler, path: login, member: "CreateItem",
            arguments: [properties, plainSecret(session, secret), .boolean(false)], sender: clients[0])
        guard case .success? = created else { fatalError("seeding the template: \(String(describing: created))") }
    }
    writeSeeds(handler, login: login)
    return 0
}

/// Programs that open a session and use it: the calls a real client (secret-tool, libsecret) makes.
func writeSeeds(_ handler: SecretService, login: String) {
    let paths = knownPaths(handler)
    func pathIndex(_ path: String) -> UInt8 { UInt8(paths.firstIndex(of: path) ?? 0) }
    // A count byte, then per call: client, path (a byte not 0 mod 4 picks `paths[next byte]`), kind (0: a method of
    // the object), the method's index, bytes for its arguments.
    var programs: [[UInt8]] = []
    for member in 0..<8 {
        var program: [UInt8] = [2]
        program += [0, 1, pathIndex(service), 0, UInt8(member)]
        program += Array(repeating: 1, count: 24)
        programs.append(program)
    }
    for member in 0..<3 {
        programs.append([1, 0, 1, pathIndex(login), 0, UInt8(member)] + Array(repeating: 1, count: 24))
    }
    for (index, program) in programs.enumerated() { Seeds.write("seed-\(index)", program) }
}
