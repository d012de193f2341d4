/// Handles for the objects behind C handles that Apple's Swift API imports as `OpaquePointer`
/// (`CCCryptorRef`, `SecRandomRef`, …).
///
/// Code written for Apple platforms allocates the out-parameter itself (`UnsafeMutablePointer<CCCryptorRef?>`),
/// stores what a create function writes there and passes it back later, so the handle must be a plain pointer
/// value, not a Swift reference. A handle here is a number shaped like a pointer (never dereferenced, never
/// pointing at memory): the table maps it to the Swift object, so a released, forged or garbage handle is simply
/// not found and the facade answers with the API's parameter error instead of touching memory.
package final class OpaqueHandleTable<Object: AnyObject & Sendable>: Sendable {
    private struct State {
        var objects: [UInt: Object] = [:]
        var next: UInt
    }
    private let state: LockedValue<State>
    /// Handle values step by 16, so they look like (and are as aligned as) heap pointers; `tag` keeps the handles
    /// of different tables apart.
    private static var stride: UInt { 16 }

    /// A table whose handles start at `0x0005_0000_0000_0000 + tag << 40`: far from any real address.
    package init(tag: UInt8) {
        state = LockedValue(State(next: 0x0005_0000_0000_0000 | (UInt(tag) << 40)))
    }

    /// Registers `object` and returns its new handle.
    package func insert(_ object: Object) -> OpaquePointer {
        let value = state.withLock { state -> UInt in
            let value = state.next
            state.next &+= Self.stride
            state.objects[value] = object
            return value
        }
        guard let handle = OpaquePointer(bitPattern: value) else {
            preconditionFailure("handle values start far above zero and never wrap to it")
        }
        return handle
    }

    /// The object behind `handle`, or nil for nil, a released or an unknown handle.
    package func object(for handle: OpaquePointer?) -> Object? {
        guard let handle else { return nil }
        let value = UInt(bitPattern: handle)
        return state.withLock { $0.objects[value] }
    }

    /// Forgets `handle` and returns its object (nil when the handle was not registered).
    @discardableResult
    package func remove(_ handle: OpaquePointer?) -> Object? {
        guard let handle else { return nil }
        let value = UInt(bitPattern: handle)
        return state.withLock { $0.objects.removeValue(forKey: value) }
    }

    /// How many handles are registered (for tests).
    package var count: Int { state.withLock { $0.objects.count } }
}
