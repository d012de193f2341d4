import Foundation

// The CSSM-era types of macOS's keychain item API (Security/SecKeychainItem.h, SecKeychain.h, SecBase.h) with the
// Swift types Apple's SDK imports. The four-character codes are Apple's raw values: the code of a tag or class is
// the attribute key or class name the SecItem API uses (`'svce'` is `kSecAttrService`, `'genp'` is
// `kSecClassGenericPassword`), so both APIs see the same items.

/// Apple's `FourCharCode`.
public typealias FourCharCode = UInt32
/// Apple's `OSType`.
public typealias OSType = FourCharCode

/// Apple's `SecKeychainAttrType` (a four-character attribute tag, `SecItemAttr`'s raw value).
public typealias SecKeychainAttrType = OSType

/// Apple's `SecKeychainAttribute`: one attribute's tag and value bytes.
public struct SecKeychainAttribute {
    public var tag: SecKeychainAttrType
    public var length: UInt32
    public var data: UnsafeMutableRawPointer?

    public init() {
        tag = 0
        length = 0
        data = nil
    }

    public init(tag: SecKeychainAttrType, length: UInt32, data: UnsafeMutableRawPointer?) {
        self.tag = tag
        self.length = length
        self.data = data
    }
}

/// Apple's `SecKeychainAttributePtr`.
public typealias SecKeychainAttributePtr = UnsafeMutablePointer<SecKeychainAttribute>

/// Apple's `SecKeychainAttributeList`: `count` attributes at `attr`.
public struct SecKeychainAttributeList {
    public var count: UInt32
    public var attr: UnsafeMutablePointer<SecKeychainAttribute>?

    public init() {
        count = 0
        attr = nil
    }

    public init(count: UInt32, attr: UnsafeMutablePointer<SecKeychainAttribute>?) {
        self.count = count
        self.attr = attr
    }
}

/// Apple's `SecKeychainAttributeInfo`: `count` tags and their CSSM formats (`CSSM_DB_ATTRIBUTE_FORMAT_…`).
public struct SecKeychainAttributeInfo {
    public var count: UInt32
    public var tag: UnsafeMutablePointer<UInt32>
    public var format: UnsafeMutablePointer<UInt32>?

    public init(count: UInt32, tag: UnsafeMutablePointer<UInt32>, format: UnsafeMutablePointer<UInt32>?) {
        self.count = count
        self.tag = tag
        self.format = format
    }
}

/// The four-character code of `text` (`"genp"` → `'genp'`), or nil when it is not four ASCII bytes.
func fourCharCode(_ text: String) -> FourCharCode? {
    let bytes = Array(text.utf8)
    guard bytes.count == 4 else { return nil }
    return bytes.reduce(0) { $0 << 8 | FourCharCode($1) }
}

/// The text of a four-character code (`'htps'` → `"htps"`).
func fourCharString(_ code: FourCharCode) -> String {
    let bytes = [UInt8(code >> 24 & 0xFF), UInt8(code >> 16 & 0xFF), UInt8(code >> 8 & 0xFF), UInt8(code & 0xFF)]
    return String(decoding: bytes, as: UTF8.self)
}

/// Apple's `SecItemClass` (macOS): a keychain item's class code.
public enum SecItemClass: FourCharCode, @unchecked Sendable {
    case internetPasswordItemClass = 0x696E_6574  // 'inet'
    case genericPasswordItemClass = 0x6765_6E70  // 'genp'
    case certificateItemClass = 0x8000_1000  // CSSM_DL_DB_RECORD_X509_CERTIFICATE
    case publicKeyItemClass = 0x0000_000F  // CSSM_DL_DB_RECORD_PUBLIC_KEY
    case privateKeyItemClass = 0x0000_0010  // CSSM_DL_DB_RECORD_PRIVATE_KEY
    case symmetricKeyItemClass = 0x0000_0011  // CSSM_DL_DB_RECORD_SYMMETRIC_KEY
}

/// Apple's `SecItemAttr` (macOS): the attribute tags of keychain items.
public enum SecItemAttr: FourCharCode, @unchecked Sendable {
    case creationDateItemAttr = 0x6364_6174  // 'cdat'
    case modDateItemAttr = 0x6D64_6174  // 'mdat'
    case descriptionItemAttr = 0x6465_7363  // 'desc'
    case commentItemAttr = 0x6963_6D74  // 'icmt'
    case creatorItemAttr = 0x6372_7472  // 'crtr'
    case typeItemAttr = 0x7479_7065  // 'type'
    case scriptCodeItemAttr = 0x7363_7270  // 'scrp'
    case labelItemAttr = 0x6C61_626C  // 'labl'
    case invisibleItemAttr = 0x696E_7669  // 'invi'
    case negativeItemAttr = 0x6E65_6761  // 'nega'
    case customIconItemAttr = 0x6375_7369  // 'cusi'
    case accountItemAttr = 0x6163_6374  // 'acct'
    case serviceItemAttr = 0x7376_6365  // 'svce'
    case genericItemAttr = 0x6765_6E61  // 'gena'
    case securityDomainItemAttr = 0x7364_6D6E  // 'sdmn'
    case serverItemAttr = 0x7372_7672  // 'srvr'
    case authenticationTypeItemAttr = 0x6174_7970  // 'atyp'
    case portItemAttr = 0x706F_7274  // 'port'
    case pathItemAttr = 0x7061_7468  // 'path'
    case volumeItemAttr = 0x766C_6D65  // 'vlme'
    case addressItemAttr = 0x6164_6472  // 'addr'
    case signatureItemAttr = 0x7373_6967  // 'ssig'
    case protocolItemAttr = 0x7074_636C  // 'ptcl'
    case certificateType = 0x6374_7970  // 'ctyp'
    case certificateEncoding = 0x6365_6E63  // 'cenc'
    case crlType = 0x6372_7470  // 'crtp'
    case crlEncoding = 0x6372_6E63  // 'crnc'
    case alias = 0x616C_6973  // 'alis'
}

/// Apple's `SecProtocolType` (macOS): an Internet password's protocol (the code is `kSecAttrProtocol…`'s value).
public enum SecProtocolType: FourCharCode, @unchecked Sendable {
    case FTP = 0x6674_7020  // 'ftp '
    case ftpAccount = 0x6674_7061  // 'ftpa'
    case HTTP = 0x6874_7470  // 'http'
    case IRC = 0x6972_6320  // 'irc '
    case NNTP = 0x6E6E_7470  // 'nntp'
    case POP3 = 0x706F_7033  // 'pop3'
    case SMTP = 0x736D_7470  // 'smtp'
    case SOCKS = 0x736F_7820  // 'sox '
    case IMAP = 0x696D_6170  // 'imap'
    case LDAP = 0x6C64_6170  // 'ldap'
    case appleTalk = 0x6174_6C6B  // 'atlk'
    case AFP = 0x6166_7020  // 'afp '
    case telnet = 0x7465_6C6E  // 'teln'
    case SSH = 0x7373_6820  // 'ssh '
    case FTPS = 0x6674_7073  // 'ftps'
    case HTTPS = 0x6874_7073  // 'htps'
    case httpProxy = 0x6874_7078  // 'htpx'
    case httpsProxy = 0x6874_7378  // 'htsx'
    case ftpProxy = 0x6674_7078  // 'ftpx'
    case CIFS = 0x6369_6673  // 'cifs'
    case SMB = 0x736D_6220  // 'smb '
    case RTSP = 0x7274_7370  // 'rtsp'
    case rtspProxy = 0x7274_7378  // 'rtsx'
    case DAAP = 0x6461_6170  // 'daap'
    case EPPC = 0x6570_7063  // 'eppc'
    case IPP = 0x6970_7020  // 'ipp '
    case NNTPS = 0x6E74_7073  // 'ntps'
    case LDAPS = 0x6C64_7073  // 'ldps'
    case telnetS = 0x746C_6E73  // 'tlns'
    case IMAPS = 0x696D_7073  // 'imps'
    case IRCS = 0x6972_6373  // 'ircs'
    case POP3S = 0x706F_7073  // 'pops'
    case cvSpserver = 0x6376_7370  // 'cvsp'
    case SVN = 0x7376_6E20  // 'svn '
    case any = 0
}

/// Apple's `SecAuthenticationType` (macOS): an Internet password's authentication scheme (the code is
/// `kSecAttrAuthenticationType…`'s value on 64-bit systems).
public enum SecAuthenticationType: FourCharCode, @unchecked Sendable {
    case NTLM = 0x6E74_6C6D  // 'ntlm'
    case MSN = 0x6D73_6E61  // 'msna'
    case DPA = 0x6470_6161  // 'dpaa'
    case RPA = 0x7270_6161  // 'rpaa'
    case httpBasic = 0x6874_7470  // 'http'
    case httpDigest = 0x6874_7464  // 'httd'
    case htmlForm = 0x666F_726D  // 'form'
    case `default` = 0x6466_6C74  // 'dflt'
    case any = 0
}

/// Apple's `SecKeychainGetVersion`: the keychain manager's version (Apple's current value, 1).
public func SecKeychainGetVersion(_ returnVers: UnsafeMutablePointer<UInt32>) -> OSStatus {
    returnVers.pointee = 1
    return errSecSuccess
}

/// Whether the process lets the keychain prompt the user (`SecKeychainSetUserInteractionAllowed`).
nonisolated(unsafe) private var userInteractionAllowed = true
private let userInteractionLock = NSLock()

/// Apple's `SecKeychainSetUserInteractionAllowed`. Remembered and reported back; no call of OpenSecurity ever
/// prompts (a locked keychain, or a missing passphrase, gives errSecInteractionNotAllowed either way).
public func SecKeychainSetUserInteractionAllowed(_ state: Bool) -> OSStatus {
    userInteractionLock.lock()
    userInteractionAllowed = state
    userInteractionLock.unlock()
    return errSecSuccess
}

/// Apple's `SecKeychainGetUserInteractionAllowed` (true until set otherwise, as on macOS).
public func SecKeychainGetUserInteractionAllowed(_ state: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    userInteractionLock.lock()
    let value = userInteractionAllowed
    userInteractionLock.unlock()
    state.pointee = DarwinBoolean(value)
    return errSecSuccess
}
