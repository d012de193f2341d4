import Foundation
import OSecSystem

// macOS's legacy access-control objects (Security/SecAccess.h, SecACL.h, SecTrustedApplication.h) with Apple's
// Swift signatures. They are kept and returned as given, never enforced: on Linux the OS user owning the keychain
// file is the boundary (any process of that user that can unlock the keychain reads its items), so an ACL cannot
// keep one of the user's programs from another. An item's access lives with this process (set by
// `SecKeychainItemSetAccess` or the `initialAccess` of a create function); an item without one reports the
// default macOS gives a new item: one ACL for every operation, trusting the creating application.

/// Apple's `SecTrustedApplication`: an application named by its path.
public final class SecTrustedApplication: NSObject, @unchecked Sendable {
    private let state: LockedValue<Data>

    init(data: Data) { state = LockedValue(data) }

    /// The application's identifying data (its path, UTF-8).
    var data: Data {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    public override var description: String { "<SecTrustedApplication \(String(decoding: data, as: UTF8.self))>" }
}

/// Apple's `SecTrustedApplicationRef`.
public typealias SecTrustedApplicationRef = SecTrustedApplication

/// Apple's `SecKeychainPromptSelector`: when an ACL would prompt.
public struct SecKeychainPromptSelector: OptionSet, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static var requirePassphase: SecKeychainPromptSelector { SecKeychainPromptSelector(rawValue: 0x0001) }
    public static var unsigned: SecKeychainPromptSelector { SecKeychainPromptSelector(rawValue: 0x0010) }
    public static var unsignedAct: SecKeychainPromptSelector { SecKeychainPromptSelector(rawValue: 0x0020) }
    public static var invalid: SecKeychainPromptSelector { SecKeychainPromptSelector(rawValue: 0x0040) }
    public static var invalidAct: SecKeychainPromptSelector { SecKeychainPromptSelector(rawValue: 0x0080) }
}

/// Apple's `SecACL`: one access-control entry of a `SecAccess` (trusted applications, a description, a prompt
/// selector, the operations it authorizes).
public final class SecACL: NSObject, @unchecked Sendable {
    struct Contents {
        var applications: [SecTrustedApplication]?
        var description: String
        var selector: SecKeychainPromptSelector
        var authorizations: [String]
    }
    let contents: LockedValue<Contents>
    /// The access the entry belongs to (nil once removed).
    weak var owner: SecAccess?

    init(_ contents: Contents, owner: SecAccess) {
        self.contents = LockedValue(contents)
        self.owner = owner
    }

    public override var description: String { "<SecACL \(contents.withLock { $0.description })>" }
}

/// Apple's `SecACLRef`.
public typealias SecACLRef = SecACL

/// Apple's `SecAccess`: an owner and a list of ACLs.
public final class SecAccess: NSObject, @unchecked Sendable {
    struct Owner {
        var user: uid_t
        var group: gid_t
        var type: SecAccessOwnerType
    }
    let owner: LockedValue<Owner>
    let entries = LockedValue<[SecACL]>([])

    init(owner: Owner) { self.owner = LockedValue(owner) }

    func add(_ contents: SecACL.Contents) -> SecACL {
        let acl = SecACL(contents, owner: self)
        entries.withLock { $0.append(acl) }
        return acl
    }

    func remove(_ acl: SecACL) {
        entries.withLock { $0.removeAll { $0 === acl } }
    }

    /// The default access of a new item: owned by this process's user, one ACL authorizing everything for the
    /// creating application.
    static func defaultAccess(description: String) -> SecAccess {
        let access = SecAccess(owner: Owner(user: getuid(), group: getgid(), type: SecAccessOwnerType(kSecUseOnlyUID)))
        let application = SecTrustedApplication(data: Data((CommandLine.arguments.first ?? "").utf8))
        _ = access.add(
            .init(
                applications: [application], description: description, selector: [],
                authorizations: [kSecACLAuthorizationAny as String]))
        return access
    }

    public override var description: String { "<SecAccess \(entries.withLock { $0.count }) ACLs>" }
}

/// Apple's `SecAccessRef`.
public typealias SecAccessRef = SecAccess

/// Apple's `SecAccessOwnerType`.
public typealias SecAccessOwnerType = UInt32
public var kSecUseOnlyUID: Int { 1 }
public var kSecUseOnlyGID: Int { 2 }
public var kSecHonorRoot: Int { 0x100 }
public var kSecMatchBits: Int { 3 }

// Apple's ACL authorization tags (CFString; the raw values are Apple's).
nonisolated(unsafe) public let kSecACLAuthorizationAny: CFString = "ACLAuthorizationAny"
nonisolated(unsafe) public let kSecACLAuthorizationLogin: CFString = "ACLAuthorizationLogin"
nonisolated(unsafe) public let kSecACLAuthorizationGenKey: CFString = "ACLAuthorizationGenKey"
nonisolated(unsafe) public let kSecACLAuthorizationDelete: CFString = "ACLAuthorizationDelete"
nonisolated(unsafe) public let kSecACLAuthorizationExportWrapped: CFString = "ACLAuthorizationExportWrapped"
nonisolated(unsafe) public let kSecACLAuthorizationExportClear: CFString = "ACLAuthorizationExportClear"
nonisolated(unsafe) public let kSecACLAuthorizationImportWrapped: CFString = "ACLAuthorizationImportWrapped"
nonisolated(unsafe) public let kSecACLAuthorizationImportClear: CFString = "ACLAuthorizationImportClear"
nonisolated(unsafe) public let kSecACLAuthorizationSign: CFString = "ACLAuthorizationSign"
nonisolated(unsafe) public let kSecACLAuthorizationEncrypt: CFString = "ACLAuthorizationEncrypt"
nonisolated(unsafe) public let kSecACLAuthorizationDecrypt: CFString = "ACLAuthorizationDecrypt"
nonisolated(unsafe) public let kSecACLAuthorizationMAC: CFString = "ACLAuthorizationMAC"
nonisolated(unsafe) public let kSecACLAuthorizationDerive: CFString = "ACLAuthorizationDerive"
nonisolated(unsafe) public let kSecACLAuthorizationKeychainCreate: CFString = "ACLAuthorizationKeychainCreate"
nonisolated(unsafe) public let kSecACLAuthorizationKeychainDelete: CFString = "ACLAuthorizationKeychainDelete"
nonisolated(unsafe) public let kSecACLAuthorizationKeychainItemRead: CFString = "ACLAuthorizationKeychainItemRead"
nonisolated(unsafe) public let kSecACLAuthorizationKeychainItemInsert: CFString = "ACLAuthorizationKeychainItemInsert"
nonisolated(unsafe) public let kSecACLAuthorizationKeychainItemModify: CFString = "ACLAuthorizationKeychainItemModify"
nonisolated(unsafe) public let kSecACLAuthorizationKeychainItemDelete: CFString = "ACLAuthorizationKeychainItemDelete"
nonisolated(unsafe) public let kSecACLAuthorizationChangeACL: CFString = "ACLAuthorizationChangeACL"
nonisolated(unsafe) public let kSecACLAuthorizationChangeOwner: CFString = "ACLAuthorizationChangeOwner"
nonisolated(unsafe) public let kSecACLAuthorizationPartitionID: CFString = "ACLAuthorizationPartitionID"
nonisolated(unsafe) public let kSecACLAuthorizationIntegrity: CFString = "ACLAuthorizationIntegrity"

/// The access objects of items, for this process (not enforced; see the top of this file).
enum SecAccessStore {
    private static let table = LockedValue<[SecItemReference: SecAccess]>([:])

    static func set(_ access: SecAccess, for item: SecKeychainItem) {
        table.withLock { $0[item.reference] = access }
    }

    static func access(for item: SecKeychainItem, label: String) -> SecAccess {
        if let known = table.withLock({ $0[item.reference] }) { return known }
        let access = SecAccess.defaultAccess(description: label)
        table.withLock { $0[item.reference] = access }
        return access
    }
}

// MARK: SecAccess

/// Apple's `SecAccessGetTypeID`.
public func SecAccessGetTypeID() -> CFTypeID { CFTypeIdentifier.access }

/// Apple's `SecAccessCreate`: an access with one ACL authorizing everything for `trustedlist` (nil: the calling
/// application; an empty array: no application), described by `descriptor`.
public func SecAccessCreate(
    _ descriptor: CFString, _ trustedlist: CFArray?, _ accessRef: UnsafeMutablePointer<SecAccess?>
) -> OSStatus {
    accessRef.pointee = nil
    return withOSStatus {
        let access = SecAccess(
            owner: .init(user: getuid(), group: getgid(), type: SecAccessOwnerType(kSecUseOnlyUID)))
        var applications: [SecTrustedApplication]?
        if let trustedlist {
            let list = (trustedlist as NSArray).compactMap { $0 as? SecTrustedApplication }
            guard list.count == (trustedlist as NSArray).count else {
                throw SecError.param("SecAccessCreate: the trusted list must hold SecTrustedApplication objects")
            }
            applications = list
        } else {
            var own: SecTrustedApplication?
            _ = SecTrustedApplicationCreateFromPath(nil, &own)
            applications = own.map { [$0] }
        }
        _ = access.add(
            .init(
                applications: applications, description: descriptor as String, selector: [],
                authorizations: [kSecACLAuthorizationAny as String]))
        accessRef.pointee = access
    }
}

/// Apple's `SecAccessCreateWithOwnerAndACL`: an access with an owner and, when given, ACLs copied from `acls`.
public func SecAccessCreateWithOwnerAndACL(
    _ userId: uid_t, _ groupId: gid_t, _ ownerType: SecAccessOwnerType, _ acls: CFArray?,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccess {
    let access = SecAccess(owner: .init(user: userId, group: groupId, type: ownerType))
    for case let acl as SecACL in (acls as NSArray?) ?? [] {
        _ = access.add(acl.contents.withLock { $0 })
    }
    return access
}

/// Apple's `SecAccessCopyOwnerAndACL`.
public func SecAccessCopyOwnerAndACL(
    _ accessRef: SecAccess, _ userId: UnsafeMutablePointer<uid_t>?, _ groupId: UnsafeMutablePointer<gid_t>?,
    _ ownerType: UnsafeMutablePointer<SecAccessOwnerType>?, _ aclList: UnsafeMutablePointer<CFArray?>?
) -> OSStatus {
    let owner = accessRef.owner.withLock { $0 }
    userId?.pointee = owner.user
    groupId?.pointee = owner.group
    ownerType?.pointee = owner.type
    aclList?.pointee = accessRef.entries.withLock { $0 } as NSArray
    return errSecSuccess
}

/// Apple's `SecAccessCopyACLList`.
public func SecAccessCopyACLList(_ accessRef: SecAccess, _ aclList: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    aclList.pointee = accessRef.entries.withLock { $0 } as NSArray
    return errSecSuccess
}

/// Apple's `SecAccessCopyMatchingACLList`: the ACLs that authorize `authorizationTag` (a `kSecACLAuthorization…`
/// string; `…Any` entries authorize every tag). nil when none does.
public func SecAccessCopyMatchingACLList(_ accessRef: SecAccess, _ authorizationTag: CFTypeRef) -> CFArray? {
    guard let tag = authorizationTag as? String else { return nil }
    let matching = accessRef.entries.withLock { $0 }.filter { acl in
        let authorizations = acl.contents.withLock { $0.authorizations }
        return authorizations.contains(tag) || authorizations.contains(kSecACLAuthorizationAny as String)
    }
    return matching.isEmpty ? nil : matching as NSArray
}

/// Apple's `SecKeychainItemCopyAccess`: the item's access (the default one when none was set).
public func SecKeychainItemCopyAccess(
    _ itemRef: SecKeychainItem, _ access: UnsafeMutablePointer<SecAccess?>
) -> OSStatus {
    access.pointee = nil
    return SecItemDiagnostics.run {
        let found = try KeychainItemBridge.read(itemRef, data: false)
        let label = found.attributes[kSecAttrLabel as String] as? String ?? ""
        access.pointee = SecAccessStore.access(for: itemRef, label: label)
    }
}

/// Apple's `SecKeychainItemSetAccess`: replaces the item's access (kept, not enforced).
public func SecKeychainItemSetAccess(_ itemRef: SecKeychainItem, _ access: SecAccess) -> OSStatus {
    SecItemDiagnostics.run {
        _ = try KeychainItemBridge.read(itemRef, data: false)
        SecAccessStore.set(access, for: itemRef)
    }
}

/// Apple's `SecKeychainCopyAccess`: not implemented by Apple either; errSecUnimplemented, as on macOS.
public func SecKeychainCopyAccess(_ keychain: SecKeychain?, _ access: UnsafeMutablePointer<SecAccess?>) -> OSStatus {
    access.pointee = nil
    return errSecUnimplemented
}

/// Apple's `SecKeychainSetAccess`: not implemented by Apple either; errSecUnimplemented, as on macOS.
public func SecKeychainSetAccess(_ keychain: SecKeychain?, _ access: SecAccess) -> OSStatus {
    errSecUnimplemented
}

// MARK: SecACL

/// Apple's `SecACLGetTypeID`.
public func SecACLGetTypeID() -> CFTypeID { CFTypeIdentifier.acl }

/// Apple's `SecACLCreateWithSimpleContents`: adds an ACL to `access` authorizing everything for `applicationList`
/// (nil: any application).
public func SecACLCreateWithSimpleContents(
    _ access: SecAccess, _ applicationList: CFArray?, _ description: CFString,
    _ promptSelector: SecKeychainPromptSelector, _ newAcl: UnsafeMutablePointer<SecACL?>
) -> OSStatus {
    newAcl.pointee = nil
    return withOSStatus {
        let applications = try trustedApplications(applicationList)
        newAcl.pointee = access.add(
            .init(
                applications: applications, description: description as String, selector: promptSelector,
                authorizations: [kSecACLAuthorizationAny as String]))
    }
}

private func trustedApplications(_ list: CFArray?) throws -> [SecTrustedApplication]? {
    guard let list else { return nil }
    let applications = (list as NSArray).compactMap { $0 as? SecTrustedApplication }
    guard applications.count == (list as NSArray).count else {
        throw SecError.param("the application list must hold SecTrustedApplication objects")
    }
    return applications
}

/// Apple's `SecACLRemove`: takes the ACL out of its access.
public func SecACLRemove(_ aclRef: SecACL) -> OSStatus {
    aclRef.owner?.remove(aclRef)
    aclRef.owner = nil
    return errSecSuccess
}

/// Apple's `SecACLCopyContents`.
public func SecACLCopyContents(
    _ acl: SecACL, _ applicationList: UnsafeMutablePointer<CFArray?>, _ description: UnsafeMutablePointer<CFString?>,
    _ promptSelector: UnsafeMutablePointer<SecKeychainPromptSelector>
) -> OSStatus {
    let contents = acl.contents.withLock { $0 }
    applicationList.pointee = contents.applications.map { $0 as NSArray }
    description.pointee = contents.description as CFString
    promptSelector.pointee = contents.selector
    return errSecSuccess
}

/// Apple's `SecACLSetContents`.
public func SecACLSetContents(
    _ acl: SecACL, _ applicationList: CFArray?, _ description: CFString, _ promptSelector: SecKeychainPromptSelector
) -> OSStatus {
    withOSStatus {
        let applications = try trustedApplications(applicationList)
        acl.contents.withLock {
            $0.applications = applications
            $0.description = description as String
            $0.selector = promptSelector
        }
    }
}

/// Apple's `SecACLCopyAuthorizations`: the `kSecACLAuthorization…` tags the ACL grants.
public func SecACLCopyAuthorizations(_ acl: SecACL) -> CFArray {
    acl.contents.withLock { $0.authorizations } as NSArray
}

/// Apple's `SecACLUpdateAuthorizations`. errSecParam when a tag is not a string.
public func SecACLUpdateAuthorizations(_ acl: SecACL, _ authorizations: CFArray) -> OSStatus {
    withOSStatus {
        let tags = (authorizations as NSArray).compactMap { $0 as? String }
        guard tags.count == (authorizations as NSArray).count else {
            throw SecError.param("authorizations must be kSecACLAuthorization… strings")
        }
        acl.contents.withLock { $0.authorizations = tags }
    }
}

// MARK: SecTrustedApplication

/// Apple's `SecTrustedApplicationGetTypeID`.
public func SecTrustedApplicationGetTypeID() -> CFTypeID { CFTypeIdentifier.trustedApplication }

/// Apple's `SecTrustedApplicationCreateFromPath` (NULL: the calling application, `/proc/self/exe`). A path that
/// does not exist gives errSecIO.
public func SecTrustedApplicationCreateFromPath(
    _ path: UnsafePointer<CChar>?, _ app: UnsafeMutablePointer<SecTrustedApplication?>
) -> OSStatus {
    app.pointee = nil
    return withOSStatus {
        let name: String
        if let path {
            name = String(cString: path)
        } else {
            name =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments.first ?? ""
        }
        guard FileManager.default.fileExists(atPath: name) else {
            throw SecError(errSecIO, "SecTrustedApplicationCreateFromPath: \(name) does not exist")
        }
        app.pointee = SecTrustedApplication(data: Data(name.utf8))
    }
}

/// Apple's `SecTrustedApplicationCopyData`.
public func SecTrustedApplicationCopyData(
    _ appRef: SecTrustedApplication, _ data: UnsafeMutablePointer<CFData?>
) -> OSStatus {
    data.pointee = appRef.data as NSData
    return errSecSuccess
}

/// Apple's `SecTrustedApplicationSetData`.
public func SecTrustedApplicationSetData(_ appRef: SecTrustedApplication, _ data: CFData) -> OSStatus {
    appRef.data = data as Data
    return errSecSuccess
}

/// Apple's `SecKeychainItemSetAccessWithPassword`: `SecKeychainItemSetAccess` for callers that hold the keychain
/// password (no ACL is enforced here, so the password is not needed; it is not kept).
public func SecKeychainItemSetAccessWithPassword(
    _ itemRef: SecKeychainItem, _ accessRef: SecAccess, _ passwordLength: UInt32, _ password: UnsafeRawPointer
) -> OSStatus {
    SecKeychainItemSetAccess(itemRef, accessRef)
}
