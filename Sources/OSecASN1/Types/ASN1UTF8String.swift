/// An ASN.1 UTF8String.
package struct ASN1UTF8String: ASN1CharacterString {
    package let bytes: ArraySlice<UInt8>

    package init(validatedBytes: ArraySlice<UInt8>) { self.bytes = validatedBytes }

    package static var defaultIdentifier: ASN1Identifier { .utf8String }

    package static func validate(_ bytes: ArraySlice<UInt8>) throws {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw ASN1Error(.invalidString, "UTF8String is not valid UTF-8")
        }
    }

    package static func decode(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    package static func encode(_ string: String) throws -> [UInt8] { Array(string.utf8) }
}
