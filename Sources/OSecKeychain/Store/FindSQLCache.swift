import OSecSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The shape of a find: its conditions plus the projection and whether it has a LIMIT.
struct FindShape: Hashable, Sendable {
    let query: ItemSQL.QueryShape
    let withAttributes: Bool
    let hasLimit: Bool
}

/// The SQL text of a find by its shape. The prepared statements are cached by shape in the store's
/// ``KeyedStatementCache`` (so a repeated lookup neither rebuilds nor hashes its SQL string).
///
/// No ORDER BY: without table statistics SQLite would pick an index that yields row-id order (e.g.
/// `svce` alone) over the one that matches every condition, turning a point lookup into a scan.
/// Results are sorted by row id afterwards, and a find's limit is applied after that sort (``KeychainStore/find(_:)``
/// no longer binds a LIMIT), so the items kept are the first added.
enum FindSQL {
    static func text(for shape: FindShape) -> String {
        var sql =
            ItemSQL.selectPrefix(ItemClass.all[shape.query.ordinal], withAttributes: shape.withAttributes)
            + ItemSQL.whereClause(shape.query)
        if shape.hasLimit { sql += " LIMIT ?" }
        return sql
    }
}
