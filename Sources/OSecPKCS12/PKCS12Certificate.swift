import Foundation

/// A certificate bag's contents.
package struct PKCS12Certificate: Sendable, Hashable {
    /// Certificate DER.
    package let der: Data
    /// Its bag attributes.
    package let attributes: BagAttributes

    package init(der: Data, attributes: BagAttributes) {
        self.der = der
        self.attributes = attributes
    }
}
