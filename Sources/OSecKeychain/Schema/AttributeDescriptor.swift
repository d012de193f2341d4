/// How one attribute of an item class is stored and matched.
package struct AttributeDescriptor: Sendable, Hashable {
    /// How values are stored in the attribute's SQL column.
    package enum Kind: Sendable, Hashable {
        /// `.string` or `.data`, stored as a BLOB of bytes (strings as UTF-8) so both match byte-exactly;
        /// the engine remembers which attributes were given as strings.
        case bytes
        /// `.integer`, `.double` or `.string`, stored with SQLite's native type (column without affinity).
        case number
        /// `.date`, stored as REAL seconds since 2001-01-01.
        case date
    }

    /// The attribute's 4-character key (`acct`, `svce`, …); also its SQL column name.
    package let key: String
    /// How the value is stored.
    package let kind: Kind
    /// Part of the class's composite primary key (Apple's uniqueness rule). An omitted primary-key
    /// attribute is stored as its kind's default: empty bytes, 0, or date 0.
    package let isPrimaryKey: Bool

    package init(_ key: String, _ kind: Kind, primaryKey: Bool = false) {
        self.key = key
        self.kind = kind
        self.isPrimaryKey = primaryKey
    }
}
