"""HTTP/1.1 attacks on the hand-written parser: request lines, limits, framing, slow and
vanishing clients, pipelining, connection floods, hostile paths.

Limits (HTTPServerConfiguration defaults): head ≤ 64 KiB → 431, body ≤ 16 MiB → 413,
request head within 10 s → 408. Every rejected request must get a response, and a
request whose framing cannot be trusted must close the connection.
"""

from __future__ import annotations

import socket
import struct
import threading
import time

import pytest

from hostile_support import (DOCS, PROJECT, assert_firestore_error, connect, doc_path, first_response, parse_responses,
                             raw_exchange, recv_until_close, Reply)

GET_ROOT = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"


def one_response(port: int, data: bytes, timeout: float = 5.0):
    """Sends raw bytes; returns (status, headers, body, closed) of the first response."""
    return first_response(port, data, timeout, close_wait=0.0)


def assert_rejected_and_closed(port: int, data: bytes, statuses: set[int]):
    status, _, body, closed = first_response(port, data, close_wait=3.0)
    assert status in statuses, f"{data[:120]!r} → {status} {body[:200]!r}, wanted {sorted(statuses)}"
    assert closed, f"connection stayed open after {status} for {data[:120]!r}"


# --- request lines ----------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    b"GARBAGE",
    b"GET",
    b"GET /",
    b"GET / HTTP/1.1 extra",
    b"GET  / HTTP/1.1",
    b" GET / HTTP/1.1",
    b"GET / HTTP/1.1 ",
    b"GET / HTTP/1.x",
    b"GET / HTTP/11",
    b"GET / HTTPS/1.1",
    b"GET / http/1.1",
    b"G\xffT / HTTP/1.1",
    b"GET /a b HTTP/1.1",
    b"GET /\x00 HTTP/1.1",
    b"GE\x00T / HTTP/1.1",
    b"GET / HTTP/1.1\rX",  # bare CR
    b"@@@ / HTTP/1.1",
])
def test_malformed_request_line_gets_400_and_close(hearth, line):
    assert_rejected_and_closed(hearth.port, line + b"\r\nHost: x\r\n\r\n", {400})


def test_tls_client_hello_is_closed_promptly(hearth):
    # A client left in TLS mode: no HTTP answer is possible, but the connection must not hang.
    hello = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(256)) * 2
    t0 = time.monotonic()
    _, closed = raw_exchange(hearth.port, hello, timeout=5)
    assert closed and time.monotonic() - t0 < 3


def test_raw_non_ascii_request_target_is_rejected(hearth):
    body = b'{"fields":{}}'
    for raw_id in (b"\xff\xfe", b"\xfe\xff"):
        path = b"/v1/" + DOCS.encode() + b"/rawbytes/" + raw_id
        data = (b"PATCH " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: "
                + str(len(body)).encode() + b"\r\n\r\n" + body)
        status, _, rbody, _ = one_response(hearth.port, data)
        assert status == 400, (raw_id, status, rbody[:300])


@pytest.mark.parametrize("version", [b"HTTP/2.0", b"HTTP/3.1", b"HTTP/0.9", b"HTTP/9.9"])
def test_other_http_major_versions_get_505(hearth, version):
    assert_rejected_and_closed(hearth.port, b"GET / " + version + b"\r\nHost: x\r\n\r\n", {505})


def test_request_line_over_header_limit_gets_431(hearth):
    target = b"/" + b"a" * 70_000
    assert_rejected_and_closed(hearth.port, b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n\r\n", {414, 431})


def test_endless_request_line_without_newline_is_cut_off(hearth):
    s = connect(hearth.port)
    try:
        try:
            s.sendall(b"GET /" + b"b" * 200_000)
        except (BrokenPipeError, ConnectionResetError):
            pass
        buf, closed = recv_until_close(s, 5)
    finally:
        s.close()
    rs = parse_responses(buf)
    assert rs and rs[0][0] in (414, 431), buf[:200]
    assert closed


@pytest.mark.parametrize("head", [
    b"GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-A : b\r\n\r\n",  # space before colon (RFC 9112 §5.1)
    b"GET / HTTP/1.1\r\nHost: x\r\nX-A: b\r\n c\r\n\r\n",  # obs-fold
    b"GET / HTTP/1.1\r\nHost: x\r\n: empty-name\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX(A): b\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-A: b\x00c\r\n\r\n",  # NUL in a value
    b"GET / HTTP/1.1\r\nHost: x\r\nX-\x00: b\r\n\r\n",  # NUL in a name
    b"GET / HTTP/1.1\r\nHost: x\r\nX-A: b\x7fc\r\n\r\n",
    b"GET / HTTP/1.1\r\n\r\n",  # HTTP/1.1 without Host
    b"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
])
def test_malformed_header_fields_get_400_and_close(hearth, head):
    assert_rejected_and_closed(hearth.port, head, {400})


def test_bare_lf_line_endings_are_tolerated(hearth):
    status, _, body, _ = one_response(hearth.port, b"GET / HTTP/1.1\nHost: x\n\n")
    assert (status, body.strip()) == (200, b"Ok")


def test_http10_without_host_is_served(hearth):
    status, _, body, closed = first_response(hearth.port, b"GET / HTTP/1.0\r\n\r\n", close_wait=2.0)
    assert (status, body.strip(), closed) == (200, b"Ok", True)


@pytest.mark.parametrize("target", [b"http://evil.example/", b"*", b"evil.example:443", b"//", b"/%"])
def test_odd_request_target_forms_do_not_crash(hearth, target):
    status, _, _, _ = one_response(hearth.port, b"OPTIONS " + target + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status < 500 or status == 501, status


@pytest.mark.parametrize("method", [b"TRACE", b"CONNECT", b"PROPFIND", b"BREW", b"M" * 300], ids=lambda m: m[:10].decode())
def test_unknown_methods_on_rest_path_get_json_error(hearth, method):
    path = doc_path("c", "d").encode()
    status, _, body, _ = one_response(hearth.port, method + b" " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status in (400, 404, 405, 501), (status, body[:200])


# --- header and body limits -------------------------------------------------------------------

def test_one_huge_header_gets_431(hearth):
    data = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"v" * 70_000 + b"\r\n\r\n"
    assert_rejected_and_closed(hearth.port, data, {431})


def test_many_headers_over_limit_get_431(hearth):
    fields = b"".join(b"X-H%05d: %s\r\n" % (i, b"v" * 30) for i in range(2_000))  # ~90 KiB
    assert_rejected_and_closed(hearth.port, b"GET / HTTP/1.1\r\nHost: x\r\n" + fields + b"\r\n", {431})


def test_headers_just_under_limit_are_served(hearth):
    data = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"v" * 60_000 + b"\r\n\r\n"
    status, _, body, _ = one_response(hearth.port, data)
    assert (status, body.strip()) == (200, b"Ok")


def test_declared_body_over_16mib_gets_413_before_the_body(hearth):
    path = ("/v1/" + DOCS + ":commit").encode()
    data = b"POST " + path + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 16777217\r\n\r\n"
    assert_rejected_and_closed(hearth.port, data, {413})


def test_declared_body_over_limit_with_expect_continue_gets_413_not_100(hearth):
    data = b"POST /v1/x HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 20000000\r\n\r\n"
    status, _, _, closed = first_response(hearth.port, data, close_wait=3.0)
    assert status == 413 and closed


def test_expect_continue_small_body_gets_100_then_answer(hearth):
    body = b'{"fields":{}}'
    path = doc_path("expect", "d1").encode()
    s = connect(hearth.port)
    try:
        s.sendall(b"PATCH " + path + b" HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: "
                  + str(len(body)).encode() + b"\r\n\r\n")
        s.settimeout(5)
        first = s.recv(4096)
        assert first.startswith(b"HTTP/1.1 100"), first
        s.sendall(body)
        buf = first
        deadline = time.monotonic() + 5
        while b"\r\n\r\n" not in buf.split(b"\r\n\r\n", 1)[1] and time.monotonic() < deadline:
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
            if b'"updateTime"' in buf:
                break
        assert b"HTTP/1.1 200" in buf, buf[:300]
    finally:
        s.close()


def test_chunked_body_over_16mib_gets_413(hearth):
    path = ("/v1/" + DOCS + ":commit").encode()
    s = connect(hearth.port, timeout=10)
    got = b""
    try:
        s.sendall(b"POST " + path + b" HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"%x\r\n" % (1 << 20) + b"a" * (1 << 20) + b"\r\n"
        for _ in range(18):
            try:
                s.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
        try:
            s.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        got, closed = recv_until_close(s, 10)
    finally:
        s.close()
    rs = parse_responses(got)
    assert rs and rs[0][0] == 413, got[:200]


@pytest.mark.parametrize("cl", [b"-1", b"-0", b"+5", b"0x10", b"1e3", b"abc", b"", b"5, 6", b"5 5", b" ", b"\xff"])
def test_invalid_content_length_gets_400(hearth, cl):
    data = b"POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: " + cl + b"\r\n\r\nhello"
    assert_rejected_and_closed(hearth.port, data, {400})


@pytest.mark.parametrize("cl", [b"99999999999999999999999999", b"9223372036854775807", b"9223372036854775808",
                                b"18446744073709551616", b"0000000000000000000000000000000017000000"])
def test_overflowing_content_length_gets_413(hearth, cl):
    data = b"POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: " + cl + b"\r\n\r\n"
    assert_rejected_and_closed(hearth.port, data, {413})


def test_leading_zero_content_length_is_a_number(hearth):
    path = doc_path("lz", "d").encode()
    body = b'{"fields":{}}'
    data = (b"PATCH " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 000"
            + str(len(body)).encode() + b"\r\n\r\n" + body)
    status, _, rbody, _ = one_response(hearth.port, data)
    assert status == 200, rbody


def test_equal_repeated_content_length_is_accepted(hearth):
    path = doc_path("rep", "d").encode()
    body = b'{"fields":{}}'
    n = str(len(body)).encode()
    data = (b"PATCH " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: " + n
            + b"\r\nContent-Length: " + n + b"\r\n\r\n" + body)
    status, _, rbody, _ = one_response(hearth.port, data)
    assert status == 200, rbody


@pytest.mark.parametrize("te", [b"chunked", b"gzip, chunked", b"chunked, gzip", b"identity"])
def test_content_length_with_transfer_encoding_gets_400(hearth, te):
    data = (b"POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: " + te
            + b"\r\n\r\n0\r\n\r\n")
    assert_rejected_and_closed(hearth.port, data, {400})


@pytest.mark.parametrize("te,statuses", [(b"gzip", {400}), (b"gzip, chunked", {501}), (b"chunked, chunked", {501}),
                                         (b"", {400}), (b"ch\xffunked", {400})])
def test_unsupported_transfer_encodings(hearth, te, statuses):
    data = b"POST /v1/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: " + te + b"\r\n\r\n0\r\n\r\n"
    assert_rejected_and_closed(hearth.port, data, statuses)


def test_transfer_encoding_in_http10_gets_400(hearth):
    data = b"POST /v1/x HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    assert_rejected_and_closed(hearth.port, data, {400})


@pytest.mark.parametrize("chunks", [
    b"zz\r\nabc\r\n0\r\n\r\n",
    b"-1\r\nabc\r\n0\r\n\r\n",
    b"ffffffffffffffffffff\r\nabc\r\n0\r\n\r\n",
    b"7fffffffffffffff\r\nabc\r\n0\r\n\r\n",
    b"\r\nabc\r\n0\r\n\r\n",
    b"3 x\r\nabc\r\n0\r\n\r\n",
    b"3\r\nabcdef\r\n0\r\n\r\n",  # data longer than declared
    b"3\r\nabcXY0\r\n\r\n",  # no CRLF after data
    b"0x3\r\nabc\r\n0\r\n\r\n",
])
def test_bad_chunked_framing_gets_400_and_close(hearth, chunks):
    data = b"POST /v1/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks
    assert_rejected_and_closed(hearth.port, data, {400})


def test_malformed_trailer_line_does_not_desync(hearth):
    # Trailer fields are discarded; a malformed one may be rejected (400) or ignored, but the
    # next pipelined request must still be parsed from the right place.
    data = (b"POST /v1/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n"
            b"Bad Trailer\r\n\r\n" + b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    buf, _ = raw_exchange(hearth.port, data, timeout=3)
    statuses = [r[0] for r in parse_responses(buf)]
    assert statuses in ([400], [404, 200]), statuses


def test_chunk_size_over_limit_gets_413(hearth):
    data = b"POST /v1/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffff\r\nabc"
    assert_rejected_and_closed(hearth.port, data, {400, 413})


def test_valid_chunked_body_with_extensions_and_trailers_is_served(hearth):
    body = b'{"fields":{"a":{"integerValue":"1"}}}'
    path = doc_path("chunked", "d").encode()
    chunks = b"".join(b"%x;ext=1\r\n%s\r\n" % (1, body[i:i + 1]) for i in range(len(body)))
    data = (b"PATCH " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
            + chunks + b"0\r\nX-Trailer: t\r\n\r\n")
    status, _, rbody, _ = one_response(hearth.port, data)
    assert status == 200, rbody
    assert b'"integerValue":"1"' in rbody.replace(b" ", b"")


def test_content_length_shorter_than_body_then_garbage_is_next_request(hearth):
    path = doc_path("short", "d").encode()
    data = (b"PATCH " + path + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
            + b"THIS IS NOT HTTP\r\n\r\n")
    buf, closed = raw_exchange(hearth.port, data)
    rs = parse_responses(buf)
    assert [r[0] for r in rs] == [200, 400], buf[:400]
    assert closed


def test_content_length_longer_than_body_and_client_closes(hearth):
    # The server waits for bytes that never come; the client half-closes. No crash, no leak.
    before = hearth.fd_count()
    for _ in range(50):
        s = connect(hearth.port)
        s.sendall(b"POST /v1/" + DOCS.encode() + b":commit HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"wr")
        s.shutdown(socket.SHUT_WR)
        buf, closed = recv_until_close(s, 3)
        s.close()
        assert closed, "server kept a half-closed connection with an incomplete body"
    time.sleep(0.3)
    assert hearth.fd_count() <= before + 5


# --- slow and vanishing clients -----------------------------------------------------------------

def test_slowloris_headers_trickled_get_408_and_close(hearth):
    """50 connections trickle a header line every second; the head timeout (10 s) must end
    them all, and the server keeps answering others meanwhile."""
    conns = []
    for _ in range(50):
        s = connect(hearth.port)
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        conns.append(s)
    start = time.monotonic()
    results: dict[int, tuple[bytes, float]] = {}
    finished = threading.Event()

    def trickle():
        i = 0
        while not finished.is_set() and time.monotonic() - start < 16:
            for s in conns:
                if s.fileno() in results:
                    continue
                try:
                    s.sendall(b"X-%d: %d\r\n" % (i, i))
                except OSError:
                    pass
            i += 1
            finished.wait(1.0)

    t = threading.Thread(target=trickle, daemon=True)
    t.start()
    try:
        # Meanwhile a well-behaved client is served promptly.
        t0 = time.monotonic()
        assert hearth.root_ok(timeout=3)
        assert time.monotonic() - t0 < 2.0
        for s in conns:
            s.settimeout(max(0.1, 16 - (time.monotonic() - start)))
            buf = b""
            try:
                while True:
                    c = s.recv(4096)
                    if not c:
                        break
                    buf += c
            except socket.timeout:
                buf += b"<timeout>"
            except ConnectionResetError:
                buf += b"<reset>"
            results[s.fileno()] = (buf, time.monotonic() - start)
    finally:
        finished.set()
        t.join()
        for s in conns:
            s.close()
    for buf, elapsed in results.values():
        assert b"<timeout>" not in buf, f"slowloris connection still open after {elapsed:.1f}s"
        assert buf.startswith(b"HTTP/1.1 408"), buf[:200]
        assert elapsed < 14, elapsed


def test_clients_vanishing_mid_request_and_mid_response_leak_nothing(hearth):
    # A large document so responses do not fit in one write.
    big = "x" * 900_000
    r = hearth.request("PATCH", doc_path("vanish", "big"), {"fields": {"s": {"stringValue": big}}})
    assert r.status == 200, r
    time.sleep(0.2)
    fds_before = hearth.fd_count()
    linger = struct.pack("ii", 1, 0)  # close() sends RST
    path = doc_path("vanish", "big").encode()
    for i in range(60):
        s = connect(hearth.port)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
        if i % 3 == 0:  # mid request head
            s.sendall(b"GET " + path + b" HTTP/1.1\r\nHo")
        elif i % 3 == 1:  # mid body
            s.sendall(b"PATCH " + path + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"fie")
        else:  # mid response: ask for 900 KB and reset after the first bytes
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n" * 4)
            s.recv(10)
        s.close()
    deadline = time.monotonic() + 5
    while hearth.fd_count() > fds_before + 5 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert hearth.fd_count() <= fds_before + 5, f"fds {fds_before} → {hearth.fd_count()}"
    # The document is intact.
    r = hearth.request("GET", doc_path("vanish", "big"))
    assert r.status == 200 and len(r.body) > 900_000


# --- pipelining ---------------------------------------------------------------------------------

def test_pipelined_requests_answered_in_order(hearth):
    reqs = []
    for i in range(100):
        if i % 2:
            reqs.append(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        else:
            reqs.append(b"GET " + doc_path("pipe", f"missing{i}").encode() + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    reqs.append(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    buf, closed = raw_exchange(hearth.port, b"".join(reqs), timeout=10)
    rs = parse_responses(buf)
    assert len(rs) == 101, len(rs)
    for i, (status, _, body) in enumerate(rs[:100]):
        if i % 2:
            assert (status, body.strip()) == (200, b"Ok")
        else:
            assert status == 404 and f"missing{i}".encode() in body, (i, status, body[:200])
    assert closed


def test_pipelined_garbage_after_valid_requests(hearth):
    data = GET_ROOT * 3 + b"\x00\x01\x02garbage\xff\xfe\r\n\r\n" + GET_ROOT
    buf, closed = raw_exchange(hearth.port, data)
    rs = parse_responses(buf)
    assert [r[0] for r in rs] == [200, 200, 200, 400], buf[:600]
    assert closed


def test_deep_pipeline_without_reading_is_backpressured(hearth):
    # 10,000 pipelined requests written without reading; the server must stop reading
    # (bounded pipeline) rather than buffer everything, and must still finish the work.
    s = connect(hearth.port, timeout=30)
    n = 10_000
    total = []

    def reader():
        buf = bytearray()
        s.settimeout(30)
        while buf.count(b"HTTP/1.1 200") < n:
            try:
                c = s.recv(1 << 20)
            except (socket.timeout, OSError):
                break
            if not c:
                break
            buf += c
        total.append(buf.count(b"HTTP/1.1 200"))

    rss0 = hearth.rss_kib()
    try:
        s.sendall(GET_ROOT * 2_000)
        time.sleep(0.5)
        rss1 = hearth.rss_kib()
        t = threading.Thread(target=reader)
        t.start()
        s.sendall(GET_ROOT * (n - 2_000))
        t.join(40)
    finally:
        s.close()
    assert total and total[0] == n, total
    assert rss1 - rss0 < 64 * 1024, f"RSS grew {rss1 - rss0} KiB for 2,000 unread pipelined requests"


# --- connection floods --------------------------------------------------------------------------

def test_1000_concurrent_keepalive_connections(hearth):
    threads_before = hearth.thread_count()
    conns = []
    try:
        for _ in range(1000):
            conns.append(connect(hearth.port, timeout=15))
        for rnd in range(2):  # two requests per connection: keep-alive must hold
            for s in conns:
                s.sendall(GET_ROOT)
            for idx, s in enumerate(conns):
                buf = b""
                while not buf.rstrip().endswith(b"Ok"):
                    c = s.recv(4096)
                    assert c, f"connection {idx} closed in round {rnd}"
                    buf += c
                assert buf.startswith(b"HTTP/1.1 200"), buf
        threads_during = hearth.thread_count()
    finally:
        for s in conns:
            s.close()
    assert threads_during <= threads_before + 16, f"threads {threads_before} → {threads_during}"


# --- hostile paths ------------------------------------------------------------------------------

@pytest.mark.parametrize("segment", [
    b"%FF", b"%C0%AF", b"%ED%A0%80", b"%F4%90%80%80", b"%E2%82", b"%FE%FF",  # invalid UTF-8
    b"%", b"%G1", b"%2", b"%%", b"%zz",  # broken escapes
    b"%00", b"a%00b",  # NUL
    b"%2E%2E", b"%2e", b".", b"..", b"%252E%252E",
    b"__x__", b"%5F%5Fx%5F%5F",
])
def test_hostile_document_id_in_path_gets_json_4xx(hearth, segment):
    path = b"/v1/" + DOCS.encode() + b"/coll/" + segment
    status, headers, body, _ = one_response(hearth.port, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert_firestore_error(Reply(status, headers, body), {400, 404})


@pytest.mark.parametrize("segment", [b"%FF", b"%", b"..", b"__x__", b"%2F"])
def test_hostile_collection_in_path_on_write_gets_json_400(hearth, segment):
    path = b"/v1/" + DOCS.encode() + b"/" + segment + b"/d"
    body = b'{"fields":{}}'
    data = (b"PATCH " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: "
            + str(len(body)).encode() + b"\r\n\r\n" + body)
    status, headers, rbody, _ = one_response(hearth.port, data)
    assert_firestore_error(Reply(status, headers, rbody), 400)


@pytest.mark.parametrize("path", [
    b"/v1/projects/%FF/databases/(default)/documents/c/d",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/%FF/documents/c/d",
    b"/v1/projects//databases/(default)/documents/c/d",
    b"/v1/projects/" + PROJECT.encode() + b"/databases//documents/c/d",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents//d",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents/c//d/e",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents/c/d/",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents/c/d?mask.fieldPaths=%FF",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents/c/d?mask.fieldPaths=`unterminated",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents/c/d?transaction=%%%",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents/c/d?readTime=yesterday",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents/c?pageSize=99999999999999999999",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents/c?pageToken=%FF%FE",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents/c?orderBy=%FF",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents/c?orderBy=a%20sideways",
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents/" + b"c/d/" * 101 + b"c",
    b"/v1/" + b"%2F" * 2000,
    b"/v1/projects/" + PROJECT.encode() + b"/databases/(default)/documents/c/" + b"%41" * 5000,
], ids=lambda p: p[:60].decode("latin-1"))
def test_hostile_rest_paths_get_json_4xx(hearth, path):
    status, headers, body, _ = one_response(hearth.port, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert_firestore_error(Reply(status, headers, body), {400, 404})


def test_percent_encoded_default_database_is_decoded(hearth):
    r = hearth.request("PATCH", doc_path("pct", "d"), {"fields": {"a": {"integerValue": "7"}}})
    assert r.status == 200, r
    path = f"/v1/projects/{PROJECT}/databases/%28default%29/documents/%70ct/%64"
    r = hearth.request("GET", path)
    assert r.status == 200 and b'"7"' in r.body, r


# --- protocol sniffing --------------------------------------------------------------------------

def trickle(port: int, parts: list[bytes], delay: float = 0.1) -> bytes:
    s = connect(port)
    try:
        for p in parts:
            s.sendall(p)
            time.sleep(delay)
        s.settimeout(5)
        buf = b""
        while not parse_responses(buf):
            c = s.recv(65536)
            if not c:
                break
            buf += c
        return buf
    finally:
        s.close()


def test_http1_methods_starting_like_the_h2_preface_are_not_misrouted(hearth):
    body = b'{"fields":{}}'
    patch = (b"PATCH " + doc_path("sniff", "d").encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Length: "
             + str(len(body)).encode() + b"\r\n\r\n" + body)
    rs = parse_responses(trickle(hearth.port, [patch[:1], patch[1:2], patch[2:3], patch[3:]]))
    assert rs and rs[0][0] == 200, rs
    rs = parse_responses(trickle(hearth.port, [b"P", b"R", b"I / HTTP/1.1\r\nHost: x\r\n\r\n"]))
    assert rs and rs[0][0] in (400, 404, 405, 501), rs


def test_h2c_upgrade_header_is_ignored_over_http1(hearth):
    data = (b"GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
            b"HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n")
    status, _, body, _ = one_response(hearth.port, data)
    assert (status, body.strip()) == (200, b"Ok")


def test_h2_preface_prefix_then_http1_garbage_is_rejected(hearth):
    status, _, _, _ = one_response(hearth.port, b"PRI * HTTP/2.0\r\n\r\nSMjunk\r\n\r\n")
    assert status in (400, 505), status
