import OSecDBus

/// The interfaces of the freedesktop Secret Service API 0.2, as this service implements them.
enum SecretServiceInterfaces {
    static let serviceName = "org.freedesktop.Secret.Service"
    static let collectionName = "org.freedesktop.Secret.Collection"
    static let itemName = "org.freedesktop.Secret.Item"
    static let sessionName = "org.freedesktop.Secret.Session"
    static let promptName = "org.freedesktop.Secret.Prompt"

    static let service = DBusInterface(
        serviceName,
        methods: [
            .init("OpenSession", in: [("algorithm", "s"), ("input", "v")], out: [("output", "v"), ("result", "o")]),
            .init(
                "CreateCollection", in: [("properties", "a{sv}"), ("alias", "s")],
                out: [("collection", "o"), ("prompt", "o")]),
            .init("SearchItems", in: [("attributes", "a{ss}")], out: [("unlocked", "ao"), ("locked", "ao")]),
            .init("Unlock", in: [("objects", "ao")], out: [("unlocked", "ao"), ("prompt", "o")]),
            .init("Lock", in: [("objects", "ao")], out: [("locked", "ao"), ("Prompt", "o")]),
            .init(
                "GetSecrets", in: [("items", "ao"), ("session", "o")], out: [("secrets", "a{o(oayays)}")]),
            .init("ReadAlias", in: [("name", "s")], out: [("collection", "o")]),
            .init("SetAlias", in: [("name", "s"), ("collection", "o")]),
        ],
        properties: [.init("Collections", "ao")],
        signals: [
            .init("CollectionCreated", [("collection", "o")]), .init("CollectionDeleted", [("collection", "o")]),
            .init("CollectionChanged", [("collection", "o")]),
        ])

    static let collection = DBusInterface(
        collectionName,
        methods: [
            .init("Delete", out: [("prompt", "o")]),
            .init("SearchItems", in: [("attributes", "a{ss}")], out: [("results", "ao")]),
            .init(
                "CreateItem", in: [("properties", "a{sv}"), ("secret", "(oayays)"), ("replace", "b")],
                out: [("item", "o"), ("prompt", "o")]),
        ],
        properties: [
            .init("Items", "ao"), .init("Label", "s", writable: true), .init("Locked", "b"),
            .init("Created", "t"), .init("Modified", "t"),
        ],
        signals: [
            .init("ItemCreated", [("item", "o")]), .init("ItemDeleted", [("item", "o")]),
            .init("ItemChanged", [("item", "o")]),
        ])

    static let item = DBusInterface(
        itemName,
        methods: [
            .init("Delete", out: [("Prompt", "o")]),
            .init("GetSecret", in: [("session", "o")], out: [("secret", "(oayays)")]),
            .init("SetSecret", in: [("secret", "(oayays)")]),
        ],
        properties: [
            .init("Locked", "b"), .init("Attributes", "a{ss}", writable: true), .init("Label", "s", writable: true),
            .init("Type", "s", writable: true), .init("Created", "t"), .init("Modified", "t"),
        ])

    static let session = DBusInterface(sessionName, methods: [.init("Close")])

    static let prompt = DBusInterface(
        promptName,
        methods: [.init("Prompt", in: [("window-id", "s")]), .init("Dismiss")],
        signals: [.init("Completed", [("dismissed", "b"), ("result", "v")])])
}

/// The Secret Service's own errors.
extension DBusCallError {
    static func isLocked(_ message: String) -> Self { Self("org.freedesktop.Secret.Error.IsLocked", message) }
    static func noSession(_ message: String) -> Self { Self("org.freedesktop.Secret.Error.NoSession", message) }
    static func noSuchObject(_ message: String) -> Self { Self("org.freedesktop.Secret.Error.NoSuchObject", message) }
}
