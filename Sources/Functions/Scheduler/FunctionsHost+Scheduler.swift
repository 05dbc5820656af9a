import FirestoreModel

extension FunctionsHost {
    /// Runs every scheduled function on its interval until the calling task is cancelled.
    ///
    /// Each function first runs one interval after this call, then every interval. Runs are
    /// sequential; a run that overruns delays the next ones, and missed ticks are skipped
    /// (the next run is the first tick after the current time). Errors go to the error sink.
    /// Functions registered after the call starts are not scheduled.
    /// - Parameter clock: the clock to sleep on; tests pass a virtual clock.
    public func runScheduler<C: Clock>(clock: C) async where C.Duration == Duration {
        let jobs = functions.scheduled.values.sorted { $0.name < $1.name }
        guard !jobs.isEmpty else { return }
        let start = clock.now
        var next = jobs.map { start.advanced(by: $0.schedule.interval) }
        while !Task.isCancelled {
            guard let deadline = next.min() else { return }
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
            for (i, job) in jobs.enumerated() where next[i] <= deadline {
                _ = try? await run(job, at: self.clock())
                let now = clock.now
                while next[i] <= now { next[i] = next[i].advanced(by: job.schedule.interval) }
            }
        }
    }
}
