#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An item to add: its class, attributes, engine fields and optional secret.
package struct NewItem: Sendable {
    /// The item's class.
    package var itemClass: ItemClass
    /// Class attributes by 4-character key (see ``ItemClass/attributes``). Omitted primary-key
    /// attributes take their defaults; `agrp`, `pdmn`, `sync`, `cdat`, `mdat` are not allowed here.
    package var attributes: [String: AttributeValue]
    /// The access group (`agrp`), part of the uniqueness key.
    package var accessGroup: String
    /// Accessibility (`pdmn`): selects the key that seals the secret.
    package var accessibility: Accessibility
    /// The `sync` flag, part of the uniqueness key.
    package var isSynchronizable: Bool
    /// The secret (`v_Data`): password bytes or key material. Sealed before it is stored; `nil` = none.
    package var secret: Data?
    /// `cdat` and `mdat` to store instead of the time of the add (`nil`: now). The sync layer gives a remote item
    /// its own dates, so every member compares the same ones; applications never set them.
    package var dates: (created: Date, modified: Date)?

    package init(
        itemClass: ItemClass, attributes: [String: AttributeValue] = [:], accessGroup: String = "",
        accessibility: Accessibility? = nil, isSynchronizable: Bool = false, secret: Data? = nil
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.accessGroup = accessGroup
        self.accessibility = accessibility ?? .default(for: itemClass)
        self.isSynchronizable = isSynchronizable
        self.secret = secret
    }
}
