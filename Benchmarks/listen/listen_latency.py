"""Commit-to-snapshot latency over N open Listen streams (hearth-bench, section `listen`).

Opens N Listen streams against one server, each with one document target
(`docs/d{i}`), over ceil(N / 900) gRPC channels (Hearth allows 1,000 concurrent streams
per HTTP/2 connection), and waits until every stream has had its first global snapshot:
a TargetChange NO_CHANGE with empty target_ids and a read_time (docs/reference/grpc-and-listen.md
§8.1 step 4, §8.4: the only message on which a client raises a snapshot). Then, one at a
time, for `--samples` streams spread over all N, it commits a change to the watched
document and times from sending the Commit to the arrival of that stream's first global
NO_CHANGE whose read_time is at or after the commit time (the snapshot a client raises).

The server's resident set (VmRSS) and open file descriptors are read from
/proc/<pid>/status and /proc/<pid>/fd before opening, with the N streams open, and after
they are closed. Against Hearth, GET /emulator/v1/stats gives the listen sessions the
engine holds, which must be N while open and 0 after closing.

Prints one JSON object on stdout; progress goes to stderr. Every phase is bounded.
Messages are the real client's protobuf types (google-cloud-firestore's
`google.cloud.firestore_v1.types`, raw `.pb()` classes), sent with grpcio's aio API.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import resource
import sys
import time
import urllib.request

import grpc
from google.cloud.firestore_v1.types import firestore as fs

ListenRequest = fs.ListenRequest.pb()
ListenResponse = fs.ListenResponse.pb()
CommitRequest = fs.CommitRequest.pb()
CommitResponse = fs.CommitResponse.pb()

STREAMS_PER_CHANNEL = 900
TARGET_ID = 1
NO_CHANGE, REMOVE = 0, 2


def log(message: str) -> None:
    print(f"listen_latency: {message}", file=sys.stderr, flush=True)


def raise_open_files_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else 1 << 20
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def process_figures(pid: int | None) -> dict:
    """VmRSS (KiB), threads, open file descriptors and CPU seconds used so far of `pid`, or {} without one."""
    if not pid:
        return {}
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    out["rssKiB"] = int(line.split()[1])
                elif line.startswith("Threads:"):
                    out["threads"] = int(line.split()[1])
        out["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
        with open(f"/proc/{pid}/stat") as f:
            # utime and stime: fields 14 and 15, counted after the ")" closing the command name.
            fields = f.read().rsplit(")", 1)[1].split()
            out["cpuS"] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError as error:
        out["error"] = str(error)
    return out


def listen_sessions(stats_url: str | None) -> int | None:
    """Hearth's open listen sessions (GET /emulator/v1/stats), None where there is no such endpoint."""
    if not stats_url:
        return None
    try:
        with urllib.request.urlopen(stats_url, timeout=2) as response:
            return int(json.loads(response.read())["listenSessions"])
    except Exception:  # noqa: BLE001 - the emulator has no such endpoint
        return None


def timestamp_ns(ts) -> int:
    return ts.seconds * 1_000_000_000 + ts.nanos


class Stream:
    """One Listen stream and what its reader saw."""

    __slots__ = ("index", "call", "ready", "armed", "value", "saw_change", "snapshots", "event", "error")

    def __init__(self, index: int):
        self.index = index
        self.call = None
        self.ready = False
        self.armed = False           # a sample is in flight on this stream
        self.value = None            # the value the armed commit writes
        self.saw_change = False      # a DocumentChange carrying `value` arrived since arming
        self.snapshots = []          # (arrival ns, read_time ns, saw_change) since arming
        self.event = asyncio.Event()
        self.error = None


class Bench:
    def __init__(self, args):
        self.args = args
        self.database = f"projects/{args.project}/databases/(default)"
        self.metadata = (("google-cloud-resource-prefix", self.database), ("authorization", "Bearer owner"))
        self.streams: list[Stream] = []
        self.ready_count = 0
        self.all_ready = asyncio.Event()
        self.errors = 0
        self.first_error = None
        self.closing = False
        self.failed_before_ready = 0

    def doc_name(self, i: int) -> str:
        return f"{self.database}/documents/docs/d{i}"

    async def run_stream(self, s: Stream, channel) -> None:
        listen = channel.stream_stream(
            "/google.firestore.v1.Firestore/Listen",
            request_serializer=ListenRequest.SerializeToString,
            response_deserializer=ListenResponse.FromString,
        )
        request = ListenRequest(database=self.database)
        request.add_target.target_id = TARGET_ID
        request.add_target.documents.documents.append(self.doc_name(s.index))
        try:
            s.call = listen(metadata=self.metadata)
            await s.call.write(request)
            # Never half-close: a Listen client keeps its request side open.
            while True:
                response = await s.call.read()
                if response is grpc.aio.EOF:
                    raise RuntimeError("stream ended by the server")
                kind = response.WhichOneof("response_type")
                if kind == "target_change":
                    tc = response.target_change
                    if tc.target_change_type == NO_CHANGE and len(tc.target_ids) == 0 and tc.HasField("read_time"):
                        if not s.ready:
                            s.ready = True
                            self.ready_count += 1
                            self.check_settled()
                        if s.armed:
                            s.snapshots.append((time.perf_counter_ns(), timestamp_ns(tc.read_time), s.saw_change))
                            s.event.set()
                    elif tc.target_change_type == REMOVE:  # the target was rejected
                        raise RuntimeError(f"target removed: {tc.cause.code} {tc.cause.message}")
                elif kind == "document_change" and s.armed:
                    fields = response.document_change.document.fields
                    if "n" in fields and fields["n"].integer_value == s.value:
                        s.saw_change = True
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - counted and reported
            if isinstance(error, grpc.aio.AioRpcError) and error.code() == grpc.StatusCode.CANCELLED and self.closing:
                return
            if s.call is not None and not (isinstance(error, grpc.aio.AioRpcError) and error.code() != grpc.StatusCode.INTERNAL):
                # A failed write hides the call's own status: ask for it.
                try:
                    code = await asyncio.wait_for(s.call.code(), 2)
                    error = RuntimeError(f"{error!r}; call status {code}: {await s.call.details()}")
                except Exception:  # noqa: BLE001
                    pass
            s.error = error
            self.errors += 1
            if self.first_error is None:
                self.first_error = f"stream {s.index}: {error!r}"[:400]
            s.event.set()
            if not s.ready:
                self.failed_before_ready += 1
                self.check_settled()

    def check_settled(self) -> None:
        """Ends the open phase once every stream has its first snapshot or has failed."""
        if self.ready_count + self.failed_before_ready >= len(self.streams):
            self.all_ready.set()

    async def commit(self, stub, i: int, value: int) -> int:
        request = CommitRequest(database=self.database)
        w = request.writes.add()
        w.update.name = self.doc_name(i)
        w.update.fields["n"].integer_value = value
        response = await stub(request, metadata=self.metadata, timeout=self.args.sample_timeout)
        return timestamp_ns(response.commit_time)

    async def sample(self, stub, i: int, value: int) -> tuple[float | None, float, str | None]:
        """(commit-to-snapshot ms or None, commit round trip ms, problem or None)."""
        s = self.streams[i]
        s.snapshots = []
        s.value = value
        s.saw_change = False
        s.event.clear()
        s.armed = True
        t0 = time.perf_counter_ns()
        try:
            commit_time = await self.commit(stub, i, value)
        except Exception as error:  # noqa: BLE001
            s.armed = False
            return None, 0.0, f"commit failed: {error!r}"[:300]
        commit_ms = (time.perf_counter_ns() - t0) / 1e6
        deadline = time.monotonic() + self.args.sample_timeout
        try:
            while True:
                for arrival, read_time, saw_change in s.snapshots:
                    if read_time >= commit_time:
                        s.armed = False
                        problem = None if saw_change else "snapshot at/after the commit time without the document change"
                        return (arrival - t0) / 1e6, commit_ms, problem
                if s.error is not None:
                    s.armed = False
                    return None, commit_ms, f"stream failed: {s.error!r}"[:300]
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    s.armed = False
                    return None, commit_ms, f"no snapshot within {self.args.sample_timeout} s"
                s.event.clear()
                try:
                    await asyncio.wait_for(s.event.wait(), remaining)
                except asyncio.TimeoutError:
                    pass
        finally:
            s.armed = False

    async def run(self) -> dict:
        a = self.args
        n = a.streams
        out: dict = {"streams": n, "server": a.label}
        out["rlimitNoFile"] = raise_open_files_limit()
        out["idle"] = process_figures(a.pid)
        out["sessionsBefore"] = listen_sessions(a.stats_url)
        channel_count = max(1, math.ceil(n / a.streams_per_channel))
        out["channels"] = channel_count
        # A local subchannel pool: channels with equal arguments would otherwise share one TCP connection.
        options = [("grpc.use_local_subchannel_pool", 1), ("grpc.max_receive_message_length", 64 << 20)]
        channels = [grpc.aio.insecure_channel(a.host, options=options) for _ in range(channel_count)]
        commit_channel = grpc.aio.insecure_channel(a.host, options=options)
        stub = commit_channel.unary_unary(
            "/google.firestore.v1.Firestore/Commit",
            request_serializer=CommitRequest.SerializeToString,
            response_deserializer=CommitResponse.FromString,
        )
        self.streams = [Stream(i) for i in range(n)]
        tasks = []
        try:
            try:
                await asyncio.wait_for(
                    asyncio.gather(*(c.channel_ready() for c in channels + [commit_channel])), a.open_timeout)
            except asyncio.TimeoutError:
                out["error"] = f"could not connect within {a.open_timeout:.0f} s"
                return out
            log(f"{a.label}: opening {n} Listen streams over {channel_count} channels")
            began = time.perf_counter_ns()
            client_cpu = time.process_time()
            tasks = [asyncio.create_task(self.run_stream(s, channels[s.index % channel_count])) for s in self.streams]
            try:
                await asyncio.wait_for(self.all_ready.wait(), a.open_timeout)
            except asyncio.TimeoutError:
                pass
            opened_ms = (time.perf_counter_ns() - began) / 1e6
            out["opened"] = self.ready_count
            out["streamErrors"] = self.errors
            if self.ready_count < n:
                out["error"] = (f"only {self.ready_count} of {n} streams had their first snapshot after "
                                f"{a.open_timeout:.0f} s" + (f" ({self.errors} failed: {self.first_error})" if self.errors else ""))
                out["open"] = process_figures(a.pid)
                return out
            out["openMs"] = opened_ms
            out["open"] = process_figures(a.pid)
            out["clientOpenCpuS"] = time.process_time() - client_cpu
            log(f"{a.label}: {n} streams open in {opened_ms:.0f} ms")
            await asyncio.sleep(0.5)
            out["sessionsOpen"] = listen_sessions(a.stats_url)

            # Warm-up commits on streams that are not sampled, then the samples, one at a time.
            m = min(a.samples, n)
            sampled = [(k * n) // m for k in range(m)]
            warm = [i for i in ((k * n) // m + 1 for k in range(min(a.warmup, m))) if i < n]
            latencies, commits, problems = [], [], []
            budget_end = time.monotonic() + a.sample_budget
            # Values new to this run: a write that leaves a document as it was changes nothing and
            # raises no snapshot (WriteResult.update_time keeps the previous time).
            base = time.time_ns() // 1000 * 1000
            for value, i in enumerate(warm, start=base):
                await self.sample(stub, i, value)
            out["beforeSamples"] = process_figures(a.pid)
            for value, i in enumerate(sampled, start=base + 500):
                if time.monotonic() > budget_end:
                    problems.append(f"sample budget of {a.sample_budget:.0f} s spent after {len(latencies)} samples")
                    break
                latency, commit_ms, problem = await self.sample(stub, i, value)
                if latency is not None:
                    latencies.append(latency)
                    commits.append(commit_ms)
                if problem:
                    problems.append(f"stream {i}: {problem}")
            latencies.sort()
            commits.sort()
            out["samples"] = len(latencies)
            out["samplesWanted"] = m
            out["problems"] = problems[:5]
            out["problemCount"] = len(problems)
            if latencies:
                def pct(xs, p):
                    return xs[min(len(xs) - 1, max(0, math.ceil(p / 100 * len(xs)) - 1))]
                out["p50Ms"] = pct(latencies, 50)
                out["p99Ms"] = pct(latencies, 99)
                out["maxMs"] = latencies[-1]
                out["commitP50Ms"] = pct(commits, 50)
            out["streamErrors"] = self.errors
            if self.first_error:
                out["firstStreamError"] = self.first_error
            out["withStreams"] = process_figures(a.pid)
            return out
        finally:
            self.closing = True
            for s in self.streams:
                if s.call is not None:
                    s.call.cancel()
            for t in tasks:
                t.cancel()
            if tasks:
                await asyncio.wait(tasks, timeout=10)
            for c in channels + [commit_channel]:
                try:
                    await asyncio.wait_for(c.close(), 10)
                except Exception:  # noqa: BLE001
                    pass
            # Hearth frees a session when its stream is reset or its connection closes.
            sessions = listen_sessions(a.stats_url)
            wait_end = time.monotonic() + a.close_wait
            while sessions not in (None, 0) and time.monotonic() < wait_end:
                await asyncio.sleep(0.1)
                sessions = listen_sessions(a.stats_url)
            # The server notices the closed connections a little later: wait (bounded) until its
            # descriptors are back where they were.
            idle_fds = out["idle"].get("fds")
            while idle_fds is not None and time.monotonic() < wait_end:
                await asyncio.sleep(0.1)
                if process_figures(a.pid).get("fds", 0) <= idle_fds:
                    break
            await asyncio.sleep(0.5)
            out["sessionsAfterClose"] = sessions
            out["closed"] = process_figures(a.pid)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--host", required=True, help="127.0.0.1:<port>")
    p.add_argument("--project", default="bench")
    p.add_argument("--streams", type=int, required=True)
    p.add_argument("--samples", type=int, default=200)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--streams-per-channel", type=int, default=STREAMS_PER_CHANNEL,
                   help="at most this many streams share one HTTP/2 connection (Hearth allows 1,000)")
    p.add_argument("--pid", type=int, help="server process whose /proc figures to read")
    p.add_argument("--stats-url", help="Hearth's GET /emulator/v1/stats")
    p.add_argument("--label", default="server")
    p.add_argument("--open-timeout", type=float, default=30.0)
    p.add_argument("--sample-timeout", type=float, default=5.0)
    p.add_argument("--sample-budget", type=float, default=20.0)
    p.add_argument("--close-wait", type=float, default=5.0)
    args = p.parse_args()
    result = asyncio.run(Bench(args).run())
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
