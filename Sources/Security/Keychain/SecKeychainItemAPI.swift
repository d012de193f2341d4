import Foundation
import OSecSystem

// macOS's SecKeychainItem functions (Security/SecKeychainItem.h) with Apple's Swift signatures, on the SecItem
// engine (see KeychainItemBridge). Buffers handed out are freed with SecKeychainItemFreeContent /
// SecKeychainItemFreeAttributesAndData, as on macOS.

/// Apple's `SecKeychainItemModifyAttributesAndData`: sets the listed attributes and, when `data` is non-NULL,
/// the item's secret (`length` bytes). errSecNoSuchAttr for a tag the item's class lacks.
public func SecKeychainItemModifyAttributesAndData(
    _ itemRef: SecKeychainItem, _ attrList: UnsafePointer<SecKeychainAttributeList>?, _ length: UInt32,
    _ data: UnsafeRawPointer?
) -> OSStatus {
    SecItemDiagnostics.run {
        let attributes = try KeychainItemBridge.attributes(attrList?.pointee, kind: itemRef.itemClass)
        let secret = data.map { Data(bytes: $0, count: Int(length)) }
        try KeychainItemBridge.modify(itemRef, attributes: attributes, data: secret)
        KeychainEvents.post(.updateEvent, item: itemRef)
    }
}

/// Apple's `SecKeychainItemModifyContent`: the same as `SecKeychainItemModifyAttributesAndData`.
public func SecKeychainItemModifyContent(
    _ itemRef: SecKeychainItem, _ attrList: UnsafePointer<SecKeychainAttributeList>?, _ length: UInt32,
    _ data: UnsafeRawPointer?
) -> OSStatus {
    SecKeychainItemModifyAttributesAndData(itemRef, attrList, length, data)
}

/// Apple's `SecKeychainItemCopyContent`: the item's class, the values of the tags in `attrList` (filled in place;
/// an attribute the item does not have comes back with length 0 and no data) and its secret. Free the values and
/// the secret with `SecKeychainItemFreeContent(attrList, outData)`.
public func SecKeychainItemCopyContent(
    _ itemRef: SecKeychainItem, _ itemClass: UnsafeMutablePointer<SecItemClass>?,
    _ attrList: UnsafeMutablePointer<SecKeychainAttributeList>?, _ length: UnsafeMutablePointer<UInt32>?,
    _ outData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> OSStatus {
    outData?.pointee = nil
    return SecItemDiagnostics.run {
        let found = try KeychainItemBridge.read(itemRef, data: outData != nil)
        itemClass?.pointee = KeychainItemBridge.itemClass(of: itemRef, attributes: found.attributes)
        if let attrList { try KeychainItemBridge.fill(attrList, from: found.attributes, kind: itemRef.itemClass) }
        KeychainItemBridge.copyOut(found.data, length: length, data: outData)
    }
}

/// Apple's `SecKeychainItemFreeContent`: frees what `SecKeychainItemCopyContent` and the find functions handed
/// out (the attribute values of `attrList`, not the list itself, and the data). errSecParam for a buffer the
/// keychain did not allocate (or one already freed): it is left alone.
public func SecKeychainItemFreeContent(
    _ attrList: UnsafeMutablePointer<SecKeychainAttributeList>?, _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    withOSStatus { try KeychainItemBridge.free(attrList, data) }
}

/// Apple's `SecKeychainItemCopyAttributesAndData`: the item's class, a new attribute list with the tags of `info`
/// (nil: every attribute of the class) and the secret. Free both with `SecKeychainItemFreeAttributesAndData`.
public func SecKeychainItemCopyAttributesAndData(
    _ itemRef: SecKeychainItem, _ info: UnsafeMutablePointer<SecKeychainAttributeInfo>?,
    _ itemClass: UnsafeMutablePointer<SecItemClass>?,
    _ attrList: UnsafeMutablePointer<UnsafeMutablePointer<SecKeychainAttributeList>?>?,
    _ length: UnsafeMutablePointer<UInt32>?, _ outData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> OSStatus {
    attrList?.pointee = nil
    outData?.pointee = nil
    return SecItemDiagnostics.run {
        let kind = itemRef.itemClass
        var tags: [SecKeychainAttrType] = []
        if let info {
            for index in 0..<Int(info.pointee.count) { tags.append(info.pointee.tag[index]) }
        } else {
            tags = KeychainItemBridge.tags(of: kind).compactMap(fourCharCode)
        }
        for tag in tags where !KeychainItemBridge.isAttribute(KeychainItemBridge.key(for: tag, kind: kind), of: kind) {
            throw SecError(errSecNoSuchAttr, "tag \(tag) is not an attribute of \(kind.rawValue) items")
        }
        let found = try KeychainItemBridge.read(itemRef, data: outData != nil)
        itemClass?.pointee = KeychainItemBridge.itemClass(of: itemRef, attributes: found.attributes)
        if let attrList {
            let entries = tags.map { SecKeychainAttribute(tag: $0, length: 0, data: nil) }
            let array = ContentBuffers.allocate(entries, filler: SecKeychainAttribute())
            let list = ContentBuffers.allocate(
                [SecKeychainAttributeList(count: UInt32(tags.count), attr: array)], filler: SecKeychainAttributeList())
            try KeychainItemBridge.fill(list, from: found.attributes, kind: kind)
            attrList.pointee = list
        }
        KeychainItemBridge.copyOut(found.data, length: length, data: outData)
    }
}

/// Apple's `SecKeychainItemFreeAttributesAndData`: frees a list from `SecKeychainItemCopyAttributesAndData`
/// (values, array and list) and its data.
public func SecKeychainItemFreeAttributesAndData(
    _ attrList: UnsafeMutablePointer<SecKeychainAttributeList>?, _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    withOSStatus {
        try KeychainItemBridge.free(attrList, data)
        guard let attrList else { return }
        guard ContentBuffers.owns(attrList) else {
            throw SecError.param("an attribute list that SecKeychainItemCopyAttributesAndData did not allocate")
        }
        ContentBuffers.release(attrList.pointee.attr)
        ContentBuffers.release(attrList)
    }
}

/// Apple's `SecKeychainItemDelete`: removes the item from its keychain (errSecInvalidItemRef when it is gone).
public func SecKeychainItemDelete(_ itemRef: SecKeychainItem) -> OSStatus {
    SecItemDiagnostics.run {
        do {
            try SecItemOperations.delete(
                try SecItemQuery(KeychainItemBridge.query(for: itemRef) as NSDictionary, for: .delete))
        } catch let error as SecError where error.status == errSecItemNotFound {
            throw SecError(errSecInvalidItemRef, "the item is no longer in its keychain")
        }
        KeychainEvents.post(.deleteEvent, item: itemRef)
    }
}

/// Apple's `SecKeychainItemCopyKeychain`: the keychain that holds the item.
public func SecKeychainItemCopyKeychain(
    _ itemRef: SecKeychainItem, _ keychainRef: UnsafeMutablePointer<SecKeychain?>
) -> OSStatus {
    keychainRef.pointee = SecKeychain(path: itemRef.reference.keychainPath)
    return errSecSuccess
}

/// Apple's `SecKeychainItemCreateFromContent`: a new password item (or certificate, whose data is its DER) of
/// `itemClass` with the listed attributes. Keys are made with `SecKeyCreateRandomKey` / `SecItemAdd` instead:
/// errSecParam names that.
public func SecKeychainItemCreateFromContent(
    _ itemClass: SecItemClass, _ attrList: UnsafeMutablePointer<SecKeychainAttributeList>, _ length: UInt32,
    _ data: UnsafeRawPointer?, _ keychainRef: SecKeychain?, _ initialAccess: SecAccess?,
    _ itemRef: UnsafeMutablePointer<SecKeychainItem?>?
) -> OSStatus {
    itemRef?.pointee = nil
    return SecItemDiagnostics.run {
        guard let kind = KeychainItemBridge.kind(of: itemClass), kind != .key else {
            throw SecError.param("SecKeychainItemCreateFromContent makes password and certificate items")
        }
        var attributes = try KeychainItemBridge.attributes(attrList.pointee, kind: kind)
        let secret = data.map { Data(bytes: $0, count: Int(length)) } ?? Data()
        if kind == .certificate {
            guard let certificate = SecCertificateCreateWithData(nil, secret as NSData) else {
                throw SecError(errSecUnknownFormat, "the data is not a DER certificate")
            }
            attributes = attributes.filter { $0.key == (kSecAttrLabel as String) }
            attributes[kSecValueRef as String] = certificate
        } else {
            attributes[kSecValueData as String] = secret
        }
        let item = try KeychainItemBridge.add(attributes, kind: kind, keychain: keychainRef)
        if let initialAccess { SecAccessStore.set(initialAccess, for: item) }
        itemRef?.pointee = item
        KeychainEvents.post(.addEvent, item: item)
    }
}

/// Apple's `SecKeychainItemCreateCopy`: copies a password item (attributes and secret) into `destKeychainRef`
/// (nil: the default keychain).
public func SecKeychainItemCreateCopy(
    _ itemRef: SecKeychainItem, _ destKeychainRef: SecKeychain?, _ initialAccess: SecAccess?,
    _ itemCopy: UnsafeMutablePointer<SecKeychainItem?>
) -> OSStatus {
    itemCopy.pointee = nil
    return SecItemDiagnostics.run {
        let found = try KeychainItemBridge.read(itemRef, data: true)
        let kind = itemRef.itemClass
        var attributes: [String: Any] = [:]
        for key in KeychainItemBridge.tags(of: kind) where !KeychainItemBridge.dateTags.contains(key) {
            if let value = found.attributes[key] { attributes[key] = value }
        }
        attributes[kSecValueData as String] = found.data ?? Data()
        let copy = try KeychainItemBridge.add(attributes, kind: kind, keychain: destKeychainRef)
        if let initialAccess { SecAccessStore.set(initialAccess, for: copy) }
        itemCopy.pointee = copy
        KeychainEvents.post(.addEvent, item: copy)
    }
}

/// Apple's `SecKeychainItemCreatePersistentReference`: the item's persistent reference (the same bytes
/// `kSecReturnPersistentRef` gives).
public func SecKeychainItemCreatePersistentReference(
    _ itemRef: SecKeychainItem, _ persistentItemRef: UnsafeMutablePointer<CFData?>
) -> OSStatus {
    persistentItemRef.pointee = itemRef.reference.persistentRef as NSData
    return errSecSuccess
}

/// Apple's `SecKeychainItemCopyFromPersistentReference`: the password item a persistent reference names, in the
/// keychains SecItem searches. errSecItemNotFound when there is none.
public func SecKeychainItemCopyFromPersistentReference(
    _ persistentItemRef: CFData, _ itemRef: UnsafeMutablePointer<SecKeychainItem?>
) -> OSStatus {
    itemRef.pointee = nil
    return SecItemDiagnostics.run {
        let query: [String: Any] = [
            kSecValuePersistentRef as String: persistentItemRef, kSecReturnRef as String: true,
        ]
        let found = try SecItemOperations.copyMatching(try SecItemQuery(query as NSDictionary, for: .copyMatching))
        guard let item = found.map({ $0 as AnyObject }) as? SecKeychainItem else {
            throw SecError(errSecItemNotFound, "the persistent reference names no password item")
        }
        itemRef.pointee = item
    }
}

/// Apple's `SecKeychainAttributeInfoForItemID`: the tags and CSSM formats of an item class (`itemID` is a
/// `SecItemClass` raw value). Free it with `SecKeychainFreeAttributeInfo`.
public func SecKeychainAttributeInfoForItemID(
    _ keychain: SecKeychain?, _ itemID: UInt32,
    _ info: UnsafeMutablePointer<UnsafeMutablePointer<SecKeychainAttributeInfo>?>
) -> OSStatus {
    info.pointee = nil
    return withOSStatus {
        guard let itemClass = SecItemClass(rawValue: itemID), let kind = KeychainItemBridge.kind(of: itemClass) else {
            throw SecError(errSecNoSuchClass, "\(itemID) is not a keychain item class")
        }
        let keys = KeychainItemBridge.tags(of: kind)
        let tags = ContentBuffers.allocate(keys.compactMap(fourCharCode), filler: 0)
        let formats = ContentBuffers.allocate(
            keys.map { KeychainItemBridge.format(of: $0, in: kind).rawValue }, filler: 0)
        info.pointee = ContentBuffers.allocate(
            [SecKeychainAttributeInfo(count: UInt32(keys.count), tag: tags, format: formats)],
            filler: SecKeychainAttributeInfo(count: 0, tag: tags, format: nil))
    }
}

/// Apple's `SecKeychainFreeAttributeInfo`.
public func SecKeychainFreeAttributeInfo(_ info: UnsafeMutablePointer<SecKeychainAttributeInfo>) -> OSStatus {
    withOSStatus {
        guard ContentBuffers.owns(info) else {
            throw SecError.param("attribute info that SecKeychainAttributeInfoForItemID did not allocate")
        }
        ContentBuffers.release(info.pointee.tag)
        ContentBuffers.release(info.pointee.format)
        ContentBuffers.release(info)
    }
}
