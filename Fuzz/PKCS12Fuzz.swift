// libFuzzer target for PKCS#12 import: PKCS12File.decode + identities (MAC, decryption, bag walking,
// key/certificate pairing, chain building). Built by `Fuzz/fuzz.sh pkcs12`.
import Foundation
import OSecPKCS12

@_cdecl("LLVMFuzzerTestOneInput")
public func pkcs12FuzzTestOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    // The seeds use the password "fuzz"; also try no password so the empty-password paths run.
    for password in ["fuzz", nil] as [String?] {
        do {
            let (identities, contents) = try PKCS12File.identities(in: data, password: password)
            _ = identities.map { ($0.keyID, $0.chain.count, $0.friendlyName) }
            _ = contents.allBags.count
            break
        } catch {
            // Every error must be a PKCS12Error with a known code; anything else is a bug.
            switch error.code {
            case .authenticationFailed, .malformed, .unsupportedAlgorithm, .resourceLimit: continue
            default: fatalError("unexpected PKCS#12 error: \(error)")
            }
        }
    }
    return 0
}
