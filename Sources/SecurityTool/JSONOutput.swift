import Foundation

/// `--json`: one JSON document on standard output. Bytes become base64 strings, dates RFC 3339 strings (UTC),
/// keys are sorted so that output is stable.
enum JSONOutput {
    /// Writes `value` (dictionaries, arrays, strings, numbers, booleans, `Data`, `Date`, `nil` as null).
    static func print(_ value: Any?) {
        let document = normalize(value)
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: document,
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else {
            ToolOutput.error("cannot encode the JSON output")
            return
        }
        ToolOutput.write(data + Data("\n".utf8))
    }

    /// RFC 3339, UTC (`2024-01-01T12:00:00Z`).
    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    static func normalize(_ value: Any?) -> Any {
        guard let value else { return NSNull() }
        switch value {
        case let data as Data: return data.base64EncodedString()
        case let data as NSData: return (data as Data).base64EncodedString()
        case let date as Date: return Self.date(date)
        case let string as String: return string
        case let bool as Bool: return bool
        case let number as NSNumber: return number
        case let int as Int: return int
        case let dictionary as [String: Any?]:
            var result: [String: Any] = [:]
            for (key, entry) in dictionary { result[key] = normalize(entry) }
            return result
        case let dictionary as [String: Any]:
            var result: [String: Any] = [:]
            for (key, entry) in dictionary { result[key] = normalize(entry) }
            return result
        case let array as [Any?]: return array.map { normalize($0) }
        case let array as [Any]: return array.map { normalize($0) }
        default: return "\(value)"
        }
    }
}
