/// Darwin's `DarwinBoolean` (the C `Boolean` type as Swift imports it), which some Security functions take.
public struct DarwinBoolean: Sendable, Hashable, ExpressibleByBooleanLiteral, CustomStringConvertible {
    /// The value as a Swift `Bool`.
    public var boolValue: Bool

    public init(_ value: Bool) { boolValue = value }
    public init(booleanLiteral value: Bool) { boolValue = value }

    public var description: String { boolValue.description }
}

extension Bool {
    /// Darwin's conversion from `DarwinBoolean`.
    public init(_ value: DarwinBoolean) { self = value.boolValue }
}
