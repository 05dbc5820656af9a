#!/usr/bin/env python3
"""Replay the recorded browser sessions (Tests/WebClients/transcripts/) against Hearth.

Usage:
    python3 Tests/WebClients/replay.py --firestore HOST:PORT [--transport T] [--only CASE]
        [--auth HOST:PORT --functions HOST:PORT (accepted, unused)]

Each transcript is what the Firebase JS SDK 10.11.1 in Chromium sent to the official emulator
and what it answered (browser/run_browser.py --record). This script sends the same requests to
Hearth, in the recorded order, as the SDK would have: the session ids, stream tokens,
transaction ids and acknowledged array ids (`AID`) of Hearth's answers replace the recorded
ones; a request waits until Hearth's back channel has delivered what the SDK had received
before it sent that request. So WebChannel and the REST calls of the web SDK stay tested on a
machine without the SDK or a browser.

What must agree with the recording:
  * every status (a recorded emulator 400 on a channel request, its documented race, may be a
    200 here: PROTOCOL.md section 8);
  * REST answers, as JSON, after normalization: timestamps, transaction ids and error messages
    (codes and statuses still compare);
  * the Write stream's payloads in order (stream tokens and times normalized; errors by status);
  * the Listen stream's snapshots: per target, the documents (names and fields) at each
    consistent point (CURRENT, or a global resume token), consecutive repeats folded; a removed
    target by its cause's code. The emulator often re-sends a target (RESET, every document,
    CURRENT) where Hearth sends one change: the snapshots the SDK builds are the same;
  * WebChannel framing: lengths in UTF-16 units, array ids increasing and never repeated, the
    handshake and forward answers' shapes.

Prints one line per transcript and `replay: N passed, M failed`; exits 1 on a failure.
"""

from __future__ import annotations

import argparse
import glob
import http.client
import json
import os
import re
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
TRANSCRIPTS = os.path.join(HERE, "transcripts")
WAIT_S = 5.0
TIME_IN_TEXT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
OPEN_RULES = "rules_version = '2';\nservice cloud.firestore {\n  match /{document=**} {\n    allow read, write: if true;\n  }\n}\n"


# ---------------------------------------------------------------------------- framing


def frames(text: str):
    """The JSON values of `<length>\\n<json>` frames (length in UTF-16 units), and the rest."""
    out, i = [], 0
    while True:
        newline = text.find("\n", i)
        if newline <= i:
            return out, text[i:]
        length = int(text[i:newline])
        units, j = 0, newline + 1
        while units < length and j < len(text):
            units += 2 if ord(text[j]) > 0xFFFF else 1
            j += 1
        if units < length:
            return out, text[i:]
        out.append(json.loads(text[newline + 1 : j]))
        i = j


# ---------------------------------------------------------------------------- normalizing


def canonical_time(text: str) -> str:
    """An RFC 3339 time without trailing zeros in its fraction (`…13.017894000Z` → `…13.017894Z`)."""
    if "." not in text:
        return text
    head, fraction = text[:-1].split(".")
    fraction = fraction.rstrip("0")
    return f"{head}.{fraction}Z" if fraction else f"{head}Z"


def normalize(value, volatile_keys=("streamToken", "resumeToken", "transaction", "streamId")):
    """`value` with what differs between servers replaced: times, tokens, error messages."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in volatile_keys:
                out[k] = "<token>"
            elif k == "error" and isinstance(v, dict):
                out[k] = {ek: ev for ek, ev in v.items() if ek != "message"}
            elif isinstance(v, str) and TIMESTAMP.match(v) and k in (
                "readTime", "updateTime", "createTime", "commitTime", "expireTime"
            ):
                out[k] = "<time>"
            else:
                out[k] = normalize(v, volatile_keys)
        return out
    if isinstance(value, list):
        return [normalize(v, volatile_keys) for v in value]
    if isinstance(value, float) and value == 0.0:
        # -0.0: Hearth keeps the sign, as production does (googleapis/nodejs-firestore#1638);
        # the emulator's JSON path stores +0.0 (Tests/Conformance skips.json).
        return 0.0
    return value


def _utc_day(offset_days: int) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(time.time() + offset_days * 86400))


# The days a server time Hearth sets during this run can fall on (a run may cross midnight UTC).
LIVE_DAYS = frozenset((_utc_day(-1), _utc_day(0), _utc_day(1)))


def server_times(value, recorded_day: str):
    """`value` with server-set timestamp values replaced: those of the recording's day (the
    recorded side) and those of today (Hearth's side, set while replaying)."""
    if isinstance(value, dict):
        return {
            k: ("<server time>" if k == "timestampValue" and isinstance(v, str)
                and (v.startswith(recorded_day) or v[:10] in LIVE_DAYS)
                else server_times(v, recorded_day))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [server_times(v, recorded_day) for v in value]
    return value


class ListenSnapshots:
    """The per-target document sets a Listen stream's payloads describe, at consistent points."""

    def __init__(self):
        self.docs: dict[int, dict[str, object]] = {}
        self.current: set[int] = set()
        self.snapshots: dict[int, list] = {}

    def _record(self, target):
        state = ("docs", sorted((n, json.dumps(f, sort_keys=True)) for n, f in self.docs.get(target, {}).items()))
        history = self.snapshots.setdefault(target, [])
        if not history or history[-1] != state:
            history.append(state)

    def apply(self, payload, recorded_day):
        message = payload[0]
        if "targetChange" in message:
            change = message["targetChange"]
            kind = change.get("targetChangeType", "NO_CHANGE")
            ids = change.get("targetIds", [])
            if kind == "ADD":
                for t in ids:
                    self.docs.setdefault(t, {})
            elif kind == "REMOVE":
                for t in ids:
                    self.docs.pop(t, None)
                    self.current.discard(t)
                    if "cause" not in change:
                        continue  # The client's own removeTarget: often unrecorded (it had left).
                    state = ("removed", change["cause"].get("code"))
                    history = self.snapshots.setdefault(t, [])
                    if not history or history[-1] != state:
                        history.append(state)
            elif kind == "RESET":
                for t in ids:
                    self.docs[t] = {}
            elif kind == "CURRENT":
                for t in ids:
                    self.current.add(t)
                    self._record(t)
            elif kind == "NO_CHANGE" and not ids and "readTime" in change:
                for t in sorted(self.current):
                    self._record(t)
        elif "documentChange" in message:
            change = message["documentChange"]
            document = change["document"]
            fields = normalize(server_times(document.get("fields", {}), recorded_day), volatile_keys=())
            for t in change.get("targetIds", []):
                self.docs.setdefault(t, {})[document["name"]] = fields
            for t in change.get("removedTargetIds", []):
                self.docs.get(t, {}).pop(document["name"], None)
        elif "documentDelete" in message or "documentRemove" in message:
            change = message.get("documentDelete") or message.get("documentRemove")
            for t in change.get("removedTargetIds", []):
                self.docs.get(t, {}).pop(change["document"], None)

    @property
    def snapshot_count(self) -> int:
        """How many distinct snapshots the targets went through: the stream's progress."""
        return sum(len(history) for history in self.snapshots.values())


def in_request_order(exchanges):
    """`exchanges` with each session's forward POSTs in RID order: the SDK numbers them as it
    sends them, and the proxy may log a terminate before the POST just ahead of it."""
    def key(e):
        query = urllib.parse.parse_qs(e["path"].partition("?")[2])
        rid = query.get("RID", [""])[0]
        return query.get("SID", [None])[0], int(rid) if rid.isdigit() else None
    out = list(exchanges)
    positions: dict[str, list[int]] = {}
    for i, e in enumerate(out):
        sid, rid = key(e)
        if sid is not None and rid is not None:
            positions.setdefault(sid, []).append(i)
    for indices in positions.values():
        ordered = sorted((out[i] for i in indices), key=lambda e: key(e)[1])
        for i, e in zip(indices, ordered):
            out[i] = e
    return out


# ---------------------------------------------------------------------------- a recorded session


class Session:
    """One WebChannel session, recorded and live: SIDs, arrays received, progress."""

    def __init__(self, kind: str, recorded_sid: str, recorded_day: str):
        self.kind = kind  # "Listen" or "Write"
        self.recorded_sid = recorded_sid
        self.live_sid: str | None = None
        self.recorded_day = recorded_day
        self.lock = threading.Condition()
        self.live_arrays: list = []  # (id, payload)
        self.live_progress = 0
        self.recorded_progress = 0
        self.live_tokens: list[str] = []
        self.recorded_tokens: list[str] = []
        self.live_view = ListenSnapshots()
        self.recorded_view = ListenSnapshots()
        self.live_writes: list = []
        self.recorded_writes: list = []
        self.errors: list[str] = []
        # The open back channel: (connection, reader thread). A client has one at a time.
        self.back_channel: tuple | None = None
        self.recorded_ids: set[int] = set()
        self.poller: threading.Thread | None = None
        self.terminated = False

    def _take(self, payload, live: bool):
        """Updates the live or recorded view; returns whether it counts as progress."""
        if payload == ["noop"] or not isinstance(payload, list) or not payload or not isinstance(payload[0], dict):
            return False
        if self.kind == "Write":
            token = payload[0].get("streamToken")
            if token is not None:
                (self.live_tokens if live else self.recorded_tokens).append(token)
            (self.live_writes if live else self.recorded_writes).append(
                normalize(server_times(payload[0], self.recorded_day)))
            return True
        view = self.live_view if live else self.recorded_view
        before = view.snapshot_count
        view.apply(payload, self.recorded_day)
        return view.snapshot_count > before

    def recorded_array(self, array_id, payload):
        # An array re-sent on a new back channel: the SDK had dropped the old one's copy.
        if array_id in self.recorded_ids:
            return
        self.recorded_ids.add(array_id)
        if self._take(payload, live=False):
            self.recorded_progress += 1

    def live_array(self, array_id, payload, acknowledged: int):
        """Takes one array from a back channel opened with `AID=acknowledged`."""
        with self.lock:
            if self.live_arrays and array_id <= self.live_arrays[-1][0]:
                # A new back channel re-sends what its AID did not acknowledge, as the emulator
                # does; the SDK drops the copy. Anything else repeated is a fault.
                earlier = dict(self.live_arrays).get(array_id)
                if array_id > acknowledged and earlier == payload:
                    return
                self.errors.append(f"array id {array_id} after {self.live_arrays[-1][0]}")
            self.live_arrays.append((array_id, payload))
            if self._take(payload, live=True):
                self.live_progress += 1
            self.lock.notify_all()

    def wait_for(self, progress: int):
        deadline = time.monotonic() + WAIT_S
        with self.lock:
            while self.live_progress < progress and time.monotonic() < deadline:
                self.lock.wait(deadline - time.monotonic())

    @property
    def last_live_id(self) -> int:
        with self.lock:
            return self.live_arrays[-1][0] if self.live_arrays else 0

    def comparison(self):
        if self.kind == "Write":
            return self.recorded_writes, self.live_writes
        return self.recorded_view.snapshots, self.live_view.snapshots


# ---------------------------------------------------------------------------- replaying


class Replay:
    def __init__(self, target: str, transcript: dict):
        self.target = target
        self.transcript = transcript
        self.failures: list[str] = []
        self.sessions: dict[str, Session] = {}
        self.threads: list[threading.Thread] = []
        self.transactions: dict[str, str] = {}
        self.times: dict[str, str] = {}
        day = ""
        for e in transcript["exchanges"]:
            date = e.get("response_headers", {}).get("date")
            if date:
                day = time.strftime("%Y-%m-%d", time.strptime(date, "%a, %d %b %Y %H:%M:%S GMT"))
                break
        self.recorded_day = day

    def fail(self, message: str):
        self.failures.append(message)

    # -- HTTP

    def send(self, method, path, body, headers):
        connection = http.client.HTTPConnection(self.target, timeout=30)
        sent = {k: v for k, v in headers.items() if k in ("content-type", "origin", "authorization")}
        for k, v in headers.items():
            if k.startswith("access-control-request-") or k in ("google-cloud-resource-prefix", "x-goog-request-params"):
                sent[k] = v
        connection.request(method, path, body=body.encode() if body else None, headers=sent)
        response = connection.getresponse()
        return connection, response

    # -- substitutions

    def live_path(self, exchange, session: Session | None):
        path = exchange["path"]
        if session is None:
            return path
        base, _, query = path.partition("?")
        items = urllib.parse.parse_qsl(query, keep_blank_values=True)
        out = []
        for k, v in items:
            if k == "SID":
                v = session.live_sid or v
            elif k == "AID":
                v = str(session.last_live_id)
            out.append((k, v))
        return base + "?" + urllib.parse.urlencode(out, safe="()")

    def live_form(self, body: str, session: Session) -> str:
        items = urllib.parse.parse_qsl(body, keep_blank_values=True)
        out = []
        for k, v in items:
            if k.endswith("___data__"):
                message = json.loads(v)
                token = message.get("streamToken")
                if token is not None and token in session.recorded_tokens:
                    index = session.recorded_tokens.index(token)
                    if index < len(session.live_tokens):
                        message["streamToken"] = session.live_tokens[index]
                target = message.get("addTarget")
                if isinstance(target, dict):
                    target.pop("resumeToken", None)  # Recorded tokens mean nothing here.
                    target.pop("readTime", None)
                    target.pop("expectedCount", None)
                v = json.dumps(message, separators=(",", ":"))
            out.append((k, v))
        return urllib.parse.urlencode(out)

    def live_rest_body(self, body: str) -> str:
        for recorded, live in self.transactions.items():
            body = body.replace(recorded, live)
        # Times the SDK echoes (a precondition's updateTime), in whatever precision it writes them.
        return TIME_IN_TEXT.sub(lambda m: self.times.get(canonical_time(m.group(0)), m.group(0)), body)

    # -- back channels

    def read_back_channel(self, session: Session, response, connection, label, path):
        acknowledged = int(urllib.parse.parse_qs(path.partition("?")[2]).get("AID", ["0"])[0])
        buffer = ""
        raw = b""
        try:
            while True:
                chunk = response.read1(65536)
                if not chunk:
                    break
                raw += chunk
                try:
                    buffer += raw.decode("utf-8")
                    raw = b""
                except UnicodeDecodeError:
                    continue
                got, buffer = frames(buffer)
                for frame in got:
                    for array_id, payload in frame:
                        session.live_array(array_id, payload, acknowledged)
        except (OSError, http.client.HTTPException, AttributeError, ValueError):
            pass  # Closed by the replay (a superseded back channel) or by Hearth.
        finally:
            connection.close()
        if buffer.strip():
            self.fail(f"{label}: back channel ended inside a frame: {buffer[:80]!r}")

    # -- the run

    def run(self):
        exchanges = in_request_order(sorted(self.transcript["exchanges"], key=lambda e: e["start"]))
        for project in sorted({m for e in exchanges for m in re.findall(r"projects(?:/|%2F)([^/%]+)", e["path"])}):
            status = self.put_rules(project, self.transcript.get("rules", {}).get(project, OPEN_RULES))
            if status != 200:
                self.fail(f"PUT rules for {project}: {status}")
            # A replay starts from the empty project the recording started from.
            connection = http.client.HTTPConnection(self.target, timeout=10)
            connection.request("DELETE", f"/emulator/v1/projects/{project}/databases/(default)/documents")
            status = connection.getresponse().status
            connection.close()
            if status != 200:
                self.fail(f"clearing {project}: {status}")
        # Progress the SDK had seen before each request: the recorded back channels' arrays
        # received before the request started.
        arrivals = []
        for e in exchanges:
            if "/channel" in e["path"] and e["method"] == "GET" and "RID=rpc" in e["path"]:
                sid = urllib.parse.parse_qs(e["path"].partition("?")[2]).get("SID", [""])[0]
                text = "".join(c["data"] for c in e["chunks"])
                done, _ = frames(text)
                t_of = [e["start"] + c["t"] for c in e["chunks"]]
                for index, frame in enumerate(done):
                    arrivals.append((t_of[min(index, len(t_of) - 1)], sid, frame))
        arrivals.sort(key=lambda a: a[0])
        progress_before = []
        for e in exchanges:
            progress_before.append([(sid, frame) for t, sid, frame in arrivals if t < e["start"]])

        consumed = 0
        for e, seen in zip(exchanges, progress_before):
            # Feed recorded arrays received before this request into the recorded views.
            for sid, frame in seen[consumed:]:
                session = self.sessions.get(sid)
                if session:
                    for array_id, payload in frame:
                        session.recorded_array(array_id, payload)
            consumed = len(seen)
            self.step(e)
        for sid, frame in [(sid, frame) for _, sid, frame in arrivals][consumed:]:
            session = self.sessions.get(sid)
            if session:
                for array_id, payload in frame:
                    session.recorded_array(array_id, payload)
        for thread in self.threads:
            thread.join(WAIT_S)
        for session in self.sessions.values():
            self.fail_on(session)

    def put_rules(self, project, text):
        body = json.dumps({"rules": {"files": [{"name": "firestore.rules", "content": text}]}})
        connection = http.client.HTTPConnection(self.target, timeout=10)
        connection.request("PUT", f"/emulator/v1/projects/{project}:securityRules", body=body,
                           headers={"content-type": "application/json"})
        status = connection.getresponse().status
        connection.close()
        return status

    def step(self, e):
        label = f"seq {e['seq']} {e['method']} {e['path'].split('?')[0]}"
        recorded_status = e["status"]
        if "/channel" not in e["path"]:
            return self.rest(e, label)
        query = urllib.parse.parse_qs(e["path"].partition("?")[2])
        kind = "Listen" if "/Listen/" in e["path"] else "Write"
        sid = query.get("SID", [None])[0]
        self.wait_for_all()
        if sid is None:  # The opening POST.
            recorded = frames("".join(c["data"] for c in e["chunks"]))[0]
            recorded_sid = recorded[0][0][1][1] if recorded else f"unknown-{e['seq']}"
            session = Session(kind, recorded_sid, self.recorded_day)
            self.sessions[recorded_sid] = session
            connection, response = self.send("POST", e["path"], e["request_body"], e["request_headers"])
            text = response.read().decode()
            connection.close()
            if response.status != recorded_status:
                return self.fail(f"{label}: status {response.status}, recorded {recorded_status}")
            live, _ = frames(text)
            try:
                [[array_id, handshake]] = live[0]
                assert array_id == 0 and handshake[0] == "c" and handshake[2:4] == ["", 8]
                session.live_sid = handshake[1]
            except (AssertionError, IndexError, ValueError, TypeError):
                self.fail(f"{label}: bad handshake {text[:100]!r}")
            return
        session = self.sessions.get(sid)
        if session is None or session.live_sid is None:
            return self.fail(f"{label}: a session the replay never opened")
        emulator_race = recorded_status == 400 and not "".join(c["data"] for c in e["chunks"]).strip()
        path = self.live_path(e, session)
        if e["method"] == "GET" and query.get("TYPE") != ["terminate"]:
            if query.get("CI") == ["1"]:
                # Long polling: as the SDK, poll again as soon as a poll ends, however Hearth
                # batched its arrays; the recorded polls after the first are the same loop.
                if session.poller is None:
                    session.poller = threading.Thread(
                        target=self.poll, args=(session, e, label, recorded_status, emulator_race), daemon=True)
                    session.poller.start()
                    self.threads.append(session.poller)
                return
            # A new streaming back channel replaces (cancels) the old one; AID is what the
            # client has processed.
            if session.back_channel:
                previous_connection, previous_thread = session.back_channel
                previous_connection.close()
                previous_thread.join(WAIT_S)
                path = self.live_path(e, session)
            connection, response = self.send("GET", path, None, e["request_headers"])
            if response.status != recorded_status and not (emulator_race and response.status == 200):
                response.read()
                connection.close()
                return self.fail(f"{label}: status {response.status}, recorded {recorded_status}")
            if response.status != 200:
                response.read()
                connection.close()
                return
            thread = threading.Thread(
                target=self.read_back_channel, args=(session, response, connection, label, path), daemon=True)
            thread.start()
            self.threads.append(thread)
            session.back_channel = (connection, thread)
            return
        body = e["request_body"] or ""
        if query.get("TYPE") == ["terminate"]:
            session.terminated = True
        else:
            body = self.live_form(body, session)
        connection, response = self.send(e["method"], path, body, e["request_headers"])
        text = response.read().decode(errors="replace")
        connection.close()
        if response.status != recorded_status and not (emulator_race and response.status == 200):
            return self.fail(f"{label}: status {response.status}, recorded {recorded_status}: {text[:120]}")
        if response.status == 200 and query.get("TYPE") != ["terminate"]:
            answer, rest = frames(text)
            if len(answer) != 1 or rest or not (
                isinstance(answer[0], list) and len(answer[0]) == 3 and answer[0][0] in (0, 1)
            ):
                self.fail(f"{label}: forward answer {text[:80]!r}")

    def wait_for_all(self):
        """Until every back channel has delivered what the SDK had seen when it sent this."""
        for other in self.sessions.values():
            other.wait_for(other.recorded_progress)

    def poll(self, session: Session, e, label, recorded_status, emulator_race):
        """Long polls for `session` until it is terminated or Hearth refuses one."""
        first = True
        while not session.terminated:
            path = self.live_path(e, session)
            connection, response = self.send("GET", path, None, e["request_headers"])
            if response.status != 200:
                response.read()
                connection.close()
                if first and response.status != recorded_status and not emulator_race:
                    self.fail(f"{label}: status {response.status}, recorded {recorded_status}")
                return
            first = False
            self.read_back_channel(session, response, connection, label, path)

    def rest(self, e, label):
        self.wait_for_all()
        body = self.live_rest_body(e["request_body"] or "")
        connection, response = self.send(e["method"], e["path"], body, e["request_headers"])
        text = response.read().decode(errors="replace")
        connection.close()
        if response.status != e["status"]:
            return self.fail(f"{label}: status {response.status}, recorded {e['status']}: {text[:160]}")
        recorded_text = "".join(c["data"] for c in e["chunks"])
        if not recorded_text.strip() and not text.strip():
            return
        try:
            recorded, live = json.loads(recorded_text), json.loads(text)
        except ValueError:
            return self.fail(f"{label}: not JSON: {text[:80]!r} (recorded {recorded_text[:80]!r})")
        self.learn_transactions(recorded, live)
        self.learn_times(recorded, live)
        if normalize(server_times(recorded, self.recorded_day)) != normalize(server_times(live, self.recorded_day)):
            self.fail(f"{label}: answer differs\n    recorded {json.dumps(normalize(recorded))[:400]}\n"
                      f"    hearth   {json.dumps(normalize(live))[:400]}")

    def learn_times(self, recorded, live):
        """Pairs the server times of a recorded answer with Hearth's at the same place, so later
        requests (a transaction's `updateTime` precondition) carry Hearth's."""
        if isinstance(recorded, dict) and isinstance(live, dict):
            for k, v in recorded.items():
                if k in live:
                    if k in ("updateTime", "createTime", "readTime", "commitTime") and isinstance(v, str):
                        self.times[canonical_time(v)] = live[k]
                    else:
                        self.learn_times(v, live[k])
        elif isinstance(recorded, list) and isinstance(live, list) and len(recorded) == len(live):
            for a, b in zip(recorded, live):
                self.learn_times(a, b)

    def learn_transactions(self, recorded, live):
        def collect(value, out):
            if isinstance(value, dict):
                for k, v in value.items():
                    if k == "transaction" and isinstance(v, str):
                        out.append(v)
                    else:
                        collect(v, out)
            elif isinstance(value, list):
                for v in value:
                    collect(v, out)
        r, l = [], []
        collect(recorded, r)
        collect(live, l)
        for a, b in zip(r, l):
            self.transactions[a] = b

    def fail_on(self, session: Session):
        for error in session.errors:
            self.fail(f"{session.kind} session: {error}")
        recorded, live = session.comparison()
        if session.kind == "Listen" and set(recorded) == set(live):
            # The recording ends when the SDK left; Hearth's back channel may already have said
            # more (a long poll the SDK never made): recorded snapshots must lead, in order.
            live = {t: history[: len(recorded[t])] for t, history in live.items()}
        if recorded != live:
            self.fail(f"{session.kind} session: payloads differ\n    recorded {json.dumps(recorded)[:600]}\n"
                      f"    hearth   {json.dumps(live)[:600]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--firestore", required=True, help="HOST:PORT of Hearth's Firestore port")
    parser.add_argument("--auth")
    parser.add_argument("--functions")
    parser.add_argument("--transport", help="only this transport's transcripts")
    parser.add_argument("--only", help="only this case")
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(TRANSCRIPTS, "*", "*.json")))
    if args.transport:
        files = [f for f in files if os.path.basename(os.path.dirname(f)) == args.transport]
    if args.only:
        files = [f for f in files if os.path.basename(f) == args.only + ".json"]
    if not files:
        print("replay: no transcripts found")
        return 1
    passed = failed = 0
    for path in files:
        with open(path) as f:
            transcript = json.load(f)
        name = f"{transcript.get('transport')}/{transcript.get('case')}"
        replay = Replay(args.firestore, transcript)
        started = time.monotonic()
        try:
            replay.run()
        except Exception as error:  # A broken transcript or a crashed request: a failure.
            replay.fail(f"replay error: {error!r}")
        if replay.failures:
            failed += 1
            print(f"FAIL {name}")
            for failure in replay.failures:
                print(f"    {failure}")
        else:
            passed += 1
            print(f"PASS {name} ({time.monotonic() - started:.1f}s)")
    print(f"replay: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
