"""A raw HTTP/2 client for malformed traffic: frames written by hand (RFC 9113 §4, §6), header
blocks encoded as HPACK literals without indexing or Huffman (RFC 7541 §6.2.2), and received
header blocks decoded with the `hpack` package when it is installed (it comes with the
pinned interop clients); facts: docs/reference/grpc-and-listen.md §2, §3, §4.
"""

from __future__ import annotations

import socket
import struct
import time

try:  # optional: only used to read response headers/trailers
    import hpack  # type: ignore
except ImportError:  # pragma: no cover
    hpack = None

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM, ACK, END_HEADERS, PADDED, PRIORITY_FLAG = 0x1, 0x1, 0x4, 0x8, 0x20

NO_ERROR, PROTOCOL_ERROR, INTERNAL_ERROR, FLOW_CONTROL_ERROR = 0, 1, 2, 3
FRAME_SIZE_ERROR, REFUSED_STREAM, CANCEL, COMPRESSION_ERROR, ENHANCE_YOUR_CALM = 6, 7, 8, 9, 0xB


def frame(ftype: int, flags: int, sid: int, payload: bytes = b"", length: int | None = None) -> bytes:
    n = len(payload) if length is None else length
    return struct.pack(">I", n)[1:] + bytes([ftype, flags]) + struct.pack(">I", sid & 0x7FFFFFFF) + payload


def settings(*pairs: tuple[int, int], ack: bool = False) -> bytes:
    return frame(SETTINGS, ACK if ack else 0, 0, b"".join(struct.pack(">HI", k, v) for k, v in pairs))


def ping(data: bytes = b"hostile!", ack: bool = False) -> bytes:
    return frame(PING, ACK if ack else 0, 0, data)


def window_update(sid: int, increment: int) -> bytes:
    return frame(WINDOW_UPDATE, 0, sid, struct.pack(">I", increment))


def rst(sid: int, code: int = CANCEL) -> bytes:
    return frame(RST_STREAM, 0, sid, struct.pack(">I", code))


def _hpack_int(value: int, prefix_bits: int, first: int = 0) -> bytes:
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes([first | value])
    out = bytearray([first | limit])
    value -= limit
    while value >= 128:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def header_block(headers: list[tuple[str, str]]) -> bytes:
    """Literal header fields without indexing, new names, no Huffman (RFC 7541 §6.2.2)."""
    out = bytearray()
    for name, value in headers:
        n, v = name.encode(), value.encode()
        out += b"\x00" + _hpack_int(len(n), 7) + n + _hpack_int(len(v), 7) + v
    return bytes(out)


def grpc_headers(method: str, extra: list[tuple[str, str]] | None = None) -> list[tuple[str, str]]:
    return [(":method", "POST"), (":scheme", "http"), (":path", f"/google.firestore.v1.Firestore/{method}"),
            (":authority", "localhost"), ("content-type", "application/grpc"), ("te", "trailers")] + (extra or [])


def grpc_message(payload: bytes, compressed: bool = False, length: int | None = None) -> bytes:
    return bytes([1 if compressed else 0]) + struct.pack(">I", len(payload) if length is None else length) + payload


# --- protobuf bits (docs/reference/grpc-and-listen.md §5, §6) -------------------------------------------------

def varint(n: int) -> bytes:
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def pb_bytes(field: int, data: bytes) -> bytes:
    return varint(field << 3 | 2) + varint(len(data)) + data


def pb_varint(field: int, n: int) -> bytes:
    return varint(field << 3) + varint(n)


def get_document_request(name: str) -> bytes:
    return pb_bytes(1, name.encode())


def listen_documents_request(database: str, doc_name: str, target_id: int) -> bytes:
    """ListenRequest{database=1, add_target=2 Target{documents=3 {documents=2}, target_id=5}}."""
    target = pb_bytes(3, pb_bytes(2, doc_name.encode())) + pb_varint(5, target_id)
    return pb_bytes(1, database.encode()) + pb_bytes(2, target)


class H2Conn:
    """One raw HTTP/2 connection; `events()` reads frames, decoding header blocks if it can."""

    def __init__(self, port: int, send_preface: bool = True, rcvbuf: int | None = None, timeout: float = 5.0):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = bytearray()
        self.closed = False
        self.decoder = hpack.Decoder() if hpack else None
        self.decoder_broken = False
        self.pending_block: tuple[int, int, bytearray] | None = None
        self.next_sid = 1
        if send_preface:
            self.send(PREFACE + settings())
            # Read and ACK the server's SETTINGS first: until they are acknowledged the server
            # still enforces the default 65,535-byte stream window (RFC 9113 §6.5.3).
            self.read_until(lambda e: e[0] == SETTINGS and not e[1] & ACK, timeout)

    def send(self, data: bytes) -> bool:
        try:
            self.sock.sendall(data)
            return True
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            self.closed = True
            return False

    def new_stream(self) -> int:
        sid = self.next_sid
        self.next_sid += 2
        return sid

    def request(self, method: str, body: bytes | None, end_stream: bool = True,
                extra_headers: list[tuple[str, str]] | None = None) -> int:
        sid = self.new_stream()
        block = header_block(grpc_headers(method, extra_headers))
        out = frame(HEADERS, END_HEADERS | (END_STREAM if body is None and end_stream else 0), sid, block)
        if body is not None:
            out += frame(DATA, END_STREAM if end_stream else 0, sid, body)
        self.send(out)
        return sid

    def _read_frame(self, deadline: float):
        while len(self.buf) < 9 or len(self.buf) < 9 + int.from_bytes(self.buf[:3], "big"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.closed:
                return None
            self.sock.settimeout(min(remaining, 0.5))
            try:
                chunk = self.sock.recv(1 << 20)
            except socket.timeout:
                continue
            except (ConnectionResetError, BrokenPipeError, OSError):
                self.closed = True
                return None
            if not chunk:
                self.closed = True
                return None
            self.buf += chunk
        n = int.from_bytes(self.buf[:3], "big")
        ftype, flags = self.buf[3], self.buf[4]
        sid = int.from_bytes(self.buf[5:9], "big") & 0x7FFFFFFF
        payload = bytes(self.buf[9:9 + n])
        del self.buf[:9 + n]
        return ftype, flags, sid, payload

    def _decode(self, block: bytes):
        if self.decoder is None or self.decoder_broken:
            return None
        try:
            return [(k.decode() if isinstance(k, bytes) else k, v.decode() if isinstance(v, bytes) else v)
                    for k, v in self.decoder.decode(block, raw=True)]
        except Exception:
            self.decoder_broken = True
            return None

    def read_until(self, predicate, timeout: float = 5.0) -> list[tuple]:
        """Reads frames until `predicate(event)` is true or the deadline; returns all events.
        Events: (type, flags, sid, payload, headers_or_None). SETTINGS and PING get ACKed."""
        events = []
        deadline = time.monotonic() + timeout
        while True:
            f = self._read_frame(deadline)
            if f is None:
                return events
            ftype, flags, sid, payload = f
            headers = None
            if ftype == SETTINGS and not flags & ACK:
                self.send(settings(ack=True))
            if ftype in (HEADERS, CONTINUATION):
                if ftype == HEADERS:
                    p = payload
                    if flags & PADDED:
                        p = p[1:len(p) - p[0]]
                    if flags & PRIORITY_FLAG:
                        p = p[5:]
                    self.pending_block = (sid, flags, bytearray(p))
                elif self.pending_block:
                    self.pending_block[2].extend(payload)
                if flags & END_HEADERS and self.pending_block:
                    psid, pflags, block = self.pending_block
                    self.pending_block = None
                    headers = self._decode(bytes(block))
                    ev = (HEADERS, pflags, psid, bytes(block), headers)
                    events.append(ev)
                    if predicate(ev):
                        return events
                continue
            ev = (ftype, flags, sid, payload, None)
            events.append(ev)
            if predicate(ev):
                return events

    def ping_roundtrip(self, timeout: float = 5.0) -> bool:
        """True when a PING is answered with a PING ACK carrying the same bytes."""
        data = struct.pack(">d", time.monotonic())
        if not self.send(ping(data)):
            return False
        evs = self.read_until(lambda e: e[0] == PING and e[1] & ACK and e[3] == data, timeout)
        return any(e[0] == PING and e[1] & ACK and e[3] == data for e in evs)

    def goaway(self, timeout: float = 5.0):
        """Reads until GOAWAY or close; returns (error_code or None, closed)."""
        evs = self.read_until(lambda e: e[0] == GOAWAY, timeout)
        for e in evs:
            if e[0] == GOAWAY:
                return struct.unpack(">I", e[3][4:8])[0], self.closed
        return None, self.closed

    def stream_end(self, sid: int, timeout: float = 5.0):
        """Reads until the stream ends; returns ('rst', code) or ('trailers', headers) or ('timeout', None)."""
        def done(e):
            return e[2] == sid and (e[0] == RST_STREAM or (e[0] in (HEADERS, DATA) and e[1] & END_STREAM)) \
                or e[0] == GOAWAY
        evs = self.read_until(done, timeout)
        for e in evs:
            if e[0] == RST_STREAM and e[2] == sid:
                return "rst", struct.unpack(">I", e[3])[0]
            if e[0] == HEADERS and e[2] == sid and e[1] & END_STREAM:
                return "trailers", dict(e[4]) if e[4] is not None else None
            if e[0] == DATA and e[2] == sid and e[1] & END_STREAM:
                return "data-end", None
            if e[0] == GOAWAY:
                return "goaway", struct.unpack(">I", e[3][4:8])[0]
        return ("closed" if self.closed else "timeout"), None

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass
