import Foundation
import OSecASN1
import OSecCrypto
import OSecKeychain

/// How keychain password items and Secret Service items correspond.
///
/// - An item a client creates is a generic password (`genp`): `service` → `svce`; `account` (else `username`,
///   else `user`) → `acct`; the label → `labl`. The whole attribute map and the content type are kept in the
///   generic attribute (`gena`), and a digest of the map in the sync view hint (`vwht`), which is part of the
///   keychain's uniqueness key: two items whose maps differ are two items even with the same service and account.
/// - A generic password added through SecItem or `security` shows `service`, `account` and
///   `xdg:schema = org.freedesktop.Secret.Generic` (empty values left out).
/// - An internet password shows libsecret's network schema: `user`, `server`, `protocol` (`https` for `htps`),
///   `port`, `object` (the path), `authtype`, `domain` (the security domain).
enum SecretAttributeMapping {
    /// The schema name of plain generic passwords.
    static let genericSchema = "org.freedesktop.Secret.Generic"
    /// libsecret's schema of network passwords.
    static let networkSchema = "org.gnome.keyring.NetworkPassword"
    /// The access group of the items the service creates (the one SecItem and `security` use by default).
    static let accessGroup = "opensecurity.shared"
    /// What starts a `gena` value written by the service.
    static let genericMarker = Data("org.freedesktop.secrets/1\n".utf8)
    /// What starts a `vwht` value written by the service.
    static let digestPrefix = "org.freedesktop.secrets:"
    /// The content type of secrets nobody typed.
    static let defaultContentType = "text/plain"

    /// Limits on what a client may store (a hostile client cannot make the service build huge rows).
    static let maximumAttributes = 256
    static let maximumAttributeBytes = 64 * 1024
    static let maximumLabelBytes = 64 * 1024
    static let maximumSecretBytes = 1 << 20

    /// The Secret Service view of one keychain item.
    struct Projection {
        var attributes: [String: String]
        var label: String
        var contentType: String
        /// Whether the service created the item (its map is stored whole).
        var isOwnItem: Bool
    }

    /// A decoded stored map (the part of `gena` after the marker).
    typealias StoredMap = (attributes: [String: String], contentType: String)

    /// The Secret Service view of a stored keychain item.
    /// - Parameter decode: decodes a stored map (the collection passes a cached decoder; default: decode afresh).
    static func project(_ item: KeychainItem, decode: (Data) -> StoredMap? = { decodeStored($0) }) -> Projection {
        let attributes = item.attributes
        func string(_ key: String) -> String {
            switch attributes[key] {
            case .string(let s): return s
            case .data(let d): return String(decoding: d, as: UTF8.self)
            case .integer(let n): return String(n)
            default: return ""
            }
        }
        let label = string("labl")
        if item.itemClass == .genericPassword {
            if case .data(let generic) = attributes["gena"], generic.starts(with: genericMarker),
                let stored = decode(generic)
            {
                // The keychain's service and account win over the stored map: an item changed through SecItem or
                // `security` shows its new values (the map keeps the client's name for the account).
                var map = stored.attributes
                let service = string("svce")
                if service.isEmpty { map["service"] = nil } else { map["service"] = service }
                let accountName = ["account", "username", "user"].first { map[$0] != nil } ?? "account"
                let account = string("acct")
                if account.isEmpty { map[accountName] = nil } else { map[accountName] = account }
                return Projection(attributes: map, label: label, contentType: stored.contentType, isOwnItem: true)
            }
            var map = ["xdg:schema": genericSchema]
            let service = string("svce")
            let account = string("acct")
            if !service.isEmpty { map["service"] = service }
            if !account.isEmpty { map["account"] = account }
            return Projection(
                attributes: map, label: label.isEmpty ? service : label, contentType: defaultContentType,
                isOwnItem: false)
        }
        var map = ["xdg:schema": networkSchema]
        let pairs = [
            ("user", "acct"), ("server", "srvr"), ("object", "path"), ("authtype", "atyp"), ("domain", "sdmn"),
        ]
        for (name, key) in pairs {
            let value = string(key)
            if !value.isEmpty { map[name] = value }
        }
        let port = string("port")
        if !port.isEmpty && port != "0" { map["port"] = port }
        let protocolCode = string("ptcl")
        if !protocolCode.isEmpty && protocolCode != "0" { map["protocol"] = protocolName(protocolCode) }
        return Projection(
            attributes: map, label: label.isEmpty ? string("srvr") : label, contentType: defaultContentType,
            isOwnItem: false)
    }

    /// The keychain attributes of an item a client creates with `attributes` and `label`.
    /// - Parameter duplicate: a random suffix for the view hint, for a second item with the same map (CreateItem
    ///   without `replace` adds one, as the specification says).
    static func keychainAttributes(
        _ attributes: [String: String], label: String, contentType: String, duplicate: String? = nil
    ) -> [String: AttributeValue] {
        var stored = genericMarker
        stored.append(encodeStored(attributes, contentType: contentType))
        return [
            "svce": .string(attributes["service"] ?? ""),
            "acct": .string(attributes["account"] ?? attributes["username"] ?? attributes["user"] ?? ""),
            "labl": .string(label),
            "gena": .data(stored),
            "vwht": .string(digestPrefix + identityDigest(attributes) + (duplicate.map { ":" + $0 } ?? "")),
        ]
    }

    /// The item identity: SHA-256 over the sorted map (`key NUL value NUL` …), hex.
    static func identityDigest(_ attributes: [String: String]) -> String {
        var canonical = Data()
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            canonical.append(contentsOf: Array(key.utf8) + [0] + Array(value.utf8) + [0])
        }
        return HexEncoding.lowercase(Digest.hash(.sha256, canonical))
    }

    /// Checks a client's attribute map and label against the limits.
    static func validate(_ attributes: [String: String], label: String) -> String? {
        if attributes.count > maximumAttributes { return "more than \(maximumAttributes) attributes" }
        for (key, value) in attributes where key.utf8.count + value.utf8.count > maximumAttributeBytes {
            return "an attribute longer than \(maximumAttributeBytes) bytes"
        }
        if label.utf8.count > maximumLabelBytes { return "a label longer than \(maximumLabelBytes) bytes" }
        return nil
    }

    /// libsecret's protocol name for a keychain protocol code (`htps` → `https`, `ftp ` → `ftp`).
    static func protocolName(_ code: String) -> String {
        let known = [
            "htps": "https", "ftps": "ftps", "imps": "imaps", "pops": "pop3s", "ldps": "ldaps", "teln": "telnet",
            "tels": "telnets", "ircs": "ircs", "nnsp": "nntps", "smb ": "smb", "afp ": "afp", "svn ": "svn",
        ]
        if let name = known[code] { return name }
        return code.trimmingCharacters(in: .whitespaces)
    }

    // MARK: The stored map

    private static func encodeStored(_ attributes: [String: String], contentType: String) -> Data {
        let object: [String: Any] = ["attributes": attributes, "contentType": contentType]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    /// Decodes a whole `gena` value written by the service (marker and JSON object), or `nil`.
    static func decodeStored(_ generic: Data) -> StoredMap? {
        guard generic.starts(with: genericMarker) else { return nil }
        let data = generic.dropFirst(genericMarker.count)
        guard let object = try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Any],
            let attributes = object["attributes"] as? [String: String]
        else { return nil }
        return (attributes, object["contentType"] as? String ?? defaultContentType)
    }
}
