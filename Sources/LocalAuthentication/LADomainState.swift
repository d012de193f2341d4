// LADomainState.h (macOS 15 / iOS 18): the state of the device's biometry and paired companions, as seen by an
// Apple device without biometry and without companions.
import Foundation

/// A kind of companion device that can authenticate the user.
public enum LACompanionType: Int, Sendable, Hashable {
    /// A paired Apple Watch.
    case watch = 1
    /// A paired Mac.
    case mac = 2
    /// A paired Vision Pro.
    case vision = 4
}

/// The state of the authentication domains (biometry, companions) of ``LAContext/domainState``.
open class LADomainState: NSObject, @unchecked Sendable {  // sendable: immutable
    /// The biometric domain: no biometry here.
    open var biometry: LADomainStateBiometry { LADomainStateBiometry() }
    /// The companion domain: no paired companion here.
    open var companion: LADomainStateCompanion { LADomainStateCompanion() }
    /// The combined state hash of biometry and companions: nil, as nothing is enrolled or paired.
    open var stateHash: Data? { nil }

    override init() {
        super.init()
    }
}

/// The state of the biometric domain.
open class LADomainStateBiometry: NSObject, @unchecked Sendable {  // sendable: immutable
    /// The biometry of the device: ``LABiometryType/none`` here.
    open var biometryType: LABiometryType { .none }
    /// The state of the enrolled identities: nil, as none are enrolled.
    open var stateHash: Data? { nil }

    override init() {
        super.init()
    }
}

/// The state of the companion domain.
open class LADomainStateCompanion: NSObject, @unchecked Sendable {  // sendable: immutable
    /// The kinds of paired companions: none here.
    open var availableCompanionTypes: Set<LACompanionType> { [] }
    /// The state of the paired companions: nil, as none are paired.
    open var stateHash: Data? { nil }

    /// The state of the paired companions of `companionType`: nil, as none are paired.
    open func stateHash(for companionType: LACompanionType) -> Data? { nil }

    override init() {
        super.init()
    }
}
