import Foundation

/// The shape of a find: its conditions plus the projection and whether it has a LIMIT.
struct FindShape: Hashable, Sendable {
    let query: ItemSQL.QueryShape
    let withAttributes: Bool
    let hasLimit: Bool
}

/// SQL texts of finds by shape, so a repeated lookup does not rebuild its SQL string.
///
/// No ORDER BY: without table statistics SQLite would pick an index that yields row-id order (e.g.
/// `svce` alone) over the one that matches every condition, turning a point lookup into a scan.
/// Results are sorted by row id afterwards; which items a LIMIT keeps is unspecified, as in Apple's API.
final class FindSQLCache: @unchecked Sendable {  // sendable: `texts` guarded by `lock`
    private let lock = NSLock()
    private var texts: [FindShape: String] = [:]
    /// Distinct shapes kept at most (a shape is a set of attribute keys, so real callers have few).
    static let limit = 512

    func text(for shape: FindShape) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let text = texts[shape] { return text }
        var sql = ItemSQL.selectPrefix(ItemClass.all[shape.query.ordinal], withAttributes: shape.withAttributes)
            + ItemSQL.whereClause(shape.query)
        if shape.hasLimit { sql += " LIMIT ?" }
        if texts.count >= FindSQLCache.limit { texts.removeAll(keepingCapacity: true) }
        texts[shape] = sql
        return sql
    }
}
