/// The key-derivation work one import may still spend, in KDF iterations (see
/// ``PKCS12Limits/maximumTotalIterations``).
///
/// Every KDF run is charged *before* it runs: the MAC key (once per password encoding tried), each PBE key and IV
/// (PKCS#12 PBE derives both, so it costs twice the iteration count), each PBKDF2 run. Before any KDF runs, the
/// work the file declares where it can be seen without decrypting (MAC, encrypted safes, shrouded keys in plain
/// safes) is added up, so an obviously hostile file is refused without spending anything.
final class PKCS12KDFBudget {
    /// The budget this import started with.
    let total: Int
    private(set) var remaining: Int

    init(total: Int = PKCS12Limits.maximumTotalIterations) {
        self.total = total
        self.remaining = total
    }

    /// Spends `iterations` for `what`, or throws `.resourceLimit` (→ errSecDecode) when they are not left.
    func charge(_ iterations: Int, for what: String) throws(PKCS12Error) {
        guard iterations <= remaining else { throw exceeded(what) }
        remaining -= iterations
    }

    /// Throws `.resourceLimit` when the file declares more work than the whole budget.
    func checkDeclared(_ iterations: Int) throws(PKCS12Error) {
        guard iterations <= total else { throw exceeded("the key derivations this file declares (\(iterations))") }
    }

    private func exceeded(_ what: String) -> PKCS12Error {
        PKCS12Error(
            .resourceLimit,
            "\(what) would exceed the limit of \(total) KDF iterations per file "
                + "(PKCS12Limits.maximumTotalIterations); the file is refused as too costly to open")
    }
}
