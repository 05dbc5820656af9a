#if os(Linux)
    import CLinux
#endif

/// How `hearth start` and `hearth exec` ask glibc's allocator to hand memory back: the one door
/// to mallopt(3) and malloc_trim(3).
///
/// Measured on `hearth start --data FILE` (release build, 10,000 documents loaded over REST in
/// commits of 500): with glibc's defaults 13.4 MiB of the process was anonymous memory, of
/// which malloc's statistics (malloc_stats(3)) showed 6.4 MiB free but kept in eight
/// per-thread arenas; a trim returned 3 MiB of it. After a 200,000-document RunQuery (141 MiB
/// answer) the defaults kept 300 MiB (Benchmarks/README.md, "Memory budget").
///
/// The arenas stay as many as glibc makes (one per thread here, up to 8 per core): capping
/// them at two saved 2.2 MiB at 10,000 documents before a trim and 0.3 MiB after one, and
/// would make the reader thread of a long scan share an arena lock with the threads serving
/// point reads. Source: mallopt(3) (`M_MMAP_THRESHOLD`, `M_TRIM_THRESHOLD`), malloc_trim(3).
enum MallocTuning {
    /// Allocations of at least this many bytes get a mapping of their own, unmapped on free:
    /// a RunQuery's answer buffer (141 MiB for 200,000 documents) goes back to the system
    /// when sent. Fixed, so glibc does not raise it (to as much as 32 MiB) after freeing a
    /// large block and keep the next ones in the heap.
    static let mmapThresholdBytes: Int32 = 256 << 10
    /// Free memory at the top of a heap beyond this is returned at once.
    static let trimThresholdBytes: Int32 = 1 << 20

    /// Applies the settings; call once, before the server starts its threads.
    static func configure() {
        #if os(Linux)
            _ = mallopt(M_MMAP_THRESHOLD, mmapThresholdBytes)
            _ = mallopt(M_TRIM_THRESHOLD, trimThresholdBytes)
        #endif
    }

    /// Returns free memory inside the heaps (not only at their tops) to the system: what a
    /// large answer or a load left behind. Walks every arena under its lock, so it runs from a
    /// periodic task, not per request.
    static func releaseFreeMemory() {
        #if os(Linux)
            _ = malloc_trim(0)
        #endif
    }
}
