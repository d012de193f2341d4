import Foundation

/// OpenSecurity extras for `CMSDecoder`: what Apple's API cannot express.
public enum OpenSecurityCMS {
    /// Identities the decoder tries, before the keychain's, to decrypt an enveloped message (an identity imported
    /// with `SecPKCS12Import` and never stored, say). Call before `CMSDecoderFinalizeMessage`; an array that holds
    /// anything but `SecIdentity`s → errSecParam.
    @discardableResult
    public static func setDecryptionIdentities(_ decoder: CMSDecoder, _ identities: CFArray) -> OSStatus {
        var list: [SecIdentity] = []
        for element in identities {
            guard let identity = element as? SecIdentity else { return errSecParam }
            list.append(identity)
        }
        return decoder.state.withLock { state in
            guard !state.finalized else { return errSecParam }
            state.decryptionIdentities = list
            return errSecSuccess
        }
    }
}
