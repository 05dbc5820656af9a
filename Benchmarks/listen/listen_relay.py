"""The physical baseline of the `listen` section: a gRPC relay with no database.

A grpcio (grpc-core, aio) server that answers the two RPCs the load client uses, and nothing
else: Listen answers an add_target of one document with ADD, CURRENT and a global NO_CHANGE
(docs/reference/grpc-and-listen.md §8.1), then remembers which stream watches which document name;
Commit looks the written names up in that dictionary, pushes a DocumentChange and a global
NO_CHANGE at the commit time onto each watching stream, and answers. No storage, no rules,
no query matching, no diffing: the floor of "a commit reaches a watching stream" with the
same client, the same protobuf types and the same gRPC transport on this machine.

Usage: listen_relay.py --port P   (prints "ready" once it listens; stops on SIGTERM).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import time

import grpc
from google.cloud.firestore_v1.types import firestore as fs

ListenRequest = fs.ListenRequest.pb()
ListenResponse = fs.ListenResponse.pb()
CommitRequest = fs.CommitRequest.pb()
CommitResponse = fs.CommitResponse.pb()

ADD, CURRENT, NO_CHANGE = 1, 3, 0


def now_timestamp(ts) -> None:
    ns = time.time_ns()
    ts.seconds, ts.nanos = divmod(ns, 1_000_000_000)


class Relay:
    def __init__(self):
        self.watchers: dict[str, set[asyncio.Queue]] = {}

    async def listen(self, request_iterator, context):
        queue: asyncio.Queue = asyncio.Queue()
        names: list[str] = []
        try:
            request = await context.read()
            if request is grpc.aio.EOF:
                return
            target = request.add_target
            for name in target.documents.documents:
                names.append(name)
                self.watchers.setdefault(name, set()).add(queue)
            add = ListenResponse()
            add.target_change.target_change_type = ADD
            add.target_change.target_ids.append(target.target_id)
            await context.write(add)
            current = ListenResponse()
            current.target_change.target_change_type = CURRENT
            current.target_change.target_ids.append(target.target_id)
            current.target_change.resume_token = b"relay"
            now_timestamp(current.target_change.read_time)
            await context.write(current)
            snapshot = ListenResponse()
            snapshot.target_change.target_change_type = NO_CHANGE
            snapshot.target_change.read_time.CopyFrom(current.target_change.read_time)
            await context.write(snapshot)
            while True:
                for message in await queue.get():
                    await context.write(message)
        finally:
            for name in names:
                watching = self.watchers.get(name)
                if watching is not None:
                    watching.discard(queue)
                    if not watching:
                        del self.watchers[name]

    async def commit(self, request, context):
        response = CommitResponse()
        now_timestamp(response.commit_time)
        for w in request.writes:
            result = response.write_results.add()
            result.update_time.CopyFrom(response.commit_time)
            watching = self.watchers.get(w.update.name)
            if not watching:
                continue
            change = ListenResponse()
            dc = change.document_change
            dc.document.CopyFrom(w.update)
            dc.document.update_time.CopyFrom(response.commit_time)
            dc.document.create_time.CopyFrom(response.commit_time)
            dc.target_ids.append(1)
            snapshot = ListenResponse()
            snapshot.target_change.target_change_type = NO_CHANGE
            snapshot.target_change.read_time.CopyFrom(response.commit_time)
            for queue in watching:
                queue.put_nowait((change, snapshot))
        return response


async def serve(port: int) -> None:
    relay = Relay()
    handler = grpc.method_handlers_generic_handler(
        "google.firestore.v1.Firestore",
        {
            "Listen": grpc.stream_stream_rpc_method_handler(
                relay.listen, request_deserializer=ListenRequest.FromString, response_serializer=ListenResponse.SerializeToString),
            "Commit": grpc.unary_unary_rpc_method_handler(
                relay.commit, request_deserializer=CommitRequest.FromString, response_serializer=CommitResponse.SerializeToString),
        },
    )
    # The same per-connection stream limit as Hearth (SETTINGS_MAX_CONCURRENT_STREAMS 1000).
    # A burst of 10,000 new streams outruns the Python side asking grpc-core for calls; the
    # default pending-call limits (1,000, hard 3,000) would reject most of the burst.
    server = grpc.aio.server(options=[
        ("grpc.max_concurrent_streams", 1000),
        ("grpc.server.max_pending_requests", 20000),
        ("grpc.server.max_pending_requests_hard_limit", 20000),
    ])
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    print("ready", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop(grace=1)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, required=True)
    args = p.parse_args()
    asyncio.run(serve(args.port))
    sys.exit(0)


if __name__ == "__main__":
    main()
