#if os(Linux)
    import CLinux
#endif

/// How `hearth start` and `hearth exec` ask glibc's allocator to hand memory back: the one door
/// to malloc_trim(3).
///
/// Measured on `hearth start --data FILE` (release build, 10,000 documents loaded over REST in
/// commits of 500): with glibc's defaults 13.4 MiB of the process was anonymous memory, of
/// which malloc's statistics (malloc_stats(3)) showed 6.4 MiB free but kept in eight
/// per-thread arenas; a trim returned 3 MiB of it. After a 200,000-document RunQuery (141 MiB
/// answer) the defaults kept 300 MiB (Benchmarks/README.md, "Memory budget").
///
/// glibc's thresholds stay its own: fixing `M_MMAP_THRESHOLD` at 256 KiB and
/// `M_TRIM_THRESHOLD` at 1 MiB (tried) made every request map and unmap memory of its own, and
/// GetDocument answered on a task fell from 21–25k to 4.4–8k requests/s (wrk -c16, this
/// machine). The arenas stay as many as glibc makes: capping them at two saved 0.3 MiB after a
/// trim and would make the reader thread of a long scan share an arena lock with the threads
/// serving point reads. Source: mallopt(3), malloc_trim(3).
enum MallocTuning {
    /// Returns free memory inside the heaps (not only at their tops) to the system: what a
    /// large answer or a load left behind. Walks every arena under its lock, so it runs from a
    /// periodic task, not per request.
    static func releaseFreeMemory() {
        #if os(Linux)
            _ = malloc_trim(0)
        #endif
    }
}
