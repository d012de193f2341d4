import CSystemShims

/// The process's C heap.
package enum ProcessMemory {
    /// Returns the heap's free memory to the system (glibc's `malloc_trim(0)`), so that the resident size measured
    /// next counts what is in use rather than what the allocator keeps for later. Tests and the soak call it before
    /// each sample; `true` when memory was released.
    @discardableResult
    package static func trimHeap() -> Bool { osec_malloc_trim() == 1 }
}
