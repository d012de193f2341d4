#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an update changes. `nil` fields are left as they are — unless ``replacesItem`` is set; the row id,
/// persistent ref and `cdat` never change, `mdat` is always refreshed.
package struct ItemChanges: Sendable {
    /// Attributes to set (by 4-character key of the query's class).
    package var attributes: [String: AttributeValue]
    /// New access group.
    package var accessGroup: String?
    /// New accessibility (re-seals the secret under the new protection class's key).
    package var accessibility: Accessibility?
    /// New `sync` flag.
    package var isSynchronizable: Bool?
    /// Replacement secret.
    package var secret: Data?
    /// The changes are the whole item, not a patch (a record pulled by the keychain sync): an attribute not in
    /// ``attributes`` is removed (a primary-key attribute reads back as its default, as when an item is added
    /// without it), and a `nil` ``secret`` removes the secret.
    package var replacesItem: Bool

    package init(
        attributes: [String: AttributeValue] = [:], accessGroup: String? = nil,
        accessibility: Accessibility? = nil, isSynchronizable: Bool? = nil, secret: Data? = nil,
        replacesItem: Bool = false
    ) {
        self.attributes = attributes
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.isSynchronizable = isSynchronizable
        self.secret = secret
        self.replacesItem = replacesItem
    }

    /// `true` when nothing would change besides `mdat`.
    package var isEmpty: Bool {
        attributes.isEmpty && accessGroup == nil && accessibility == nil && isSynchronizable == nil && secret == nil
            && !replacesItem
    }
}
