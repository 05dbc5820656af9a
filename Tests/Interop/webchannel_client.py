"""A minimal WebChannel (VER=8) client speaking to the Firestore port as the Firebase JS SDK
does in a browser, for tests that need no browser: the opening POST, forward POSTs, the back
channel (streamed `CI=0` or long-polled `CI=1`) and terminate.

Source: Tests/WebClients/PROTOCOL.md (the SDK's traffic observed against the emulator).
"""

from __future__ import annotations

import http.client
import json
import urllib.parse


def utf16_length(text: str) -> int:
    """The length the client measures a frame in: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


class FrameReader:
    """Reads `<length>\\n<json>` frames from a (possibly still open) response."""

    def __init__(self, response: http.client.HTTPResponse):
        self.response = response
        self.buffer = ""
        self.decoder_bytes = b""

    def _fill(self) -> bool:
        chunk = self.response.read1(65536)
        if not chunk:
            return False
        self.decoder_bytes += chunk
        try:
            text = self.decoder_bytes.decode("utf-8")
            self.decoder_bytes = b""
        except UnicodeDecodeError:
            return True  # A scalar split across reads: wait for the rest.
        self.buffer += text
        return True

    def next_frame(self):
        """The next frame's JSON value, or None when the response ended."""
        while (frame := self._take()) is None:
            if not self._fill():
                assert self.buffer == "", f"trailing bytes: {self.buffer!r}"
                return None
        return frame

    def _take(self):
        newline = self.buffer.find("\n")
        if newline <= 0:
            return None
        length = int(self.buffer[:newline])
        units, i = 0, newline + 1
        while units < length and i < len(self.buffer):
            units += 2 if ord(self.buffer[i]) > 0xFFFF else 1  # UTF-16 units, as the JS client counts
            i += 1
        if units < length:
            return None
        text, self.buffer = self.buffer[newline + 1 : i], self.buffer[i:]
        return json.loads(text)

    def arrays(self):
        """Every array of every frame until the response ends: (id, payload) pairs."""
        while (frame := self.next_frame()) is not None:
            for array_id, payload in frame:
                yield array_id, payload


class WebChannel:
    """One session on `host` (`127.0.0.1:port`) for `method` (`Listen` or `Write`)."""

    def __init__(self, host: str, project: str, method: str, origin: str | None = None):
        self.host = host
        self.database = f"projects/{project}/databases/(default)"
        self.path = f"/google.firestore.v1.Firestore/{method}/channel"
        self.origin = origin
        self.sid: str | None = None
        self.rid = 1000
        self.sent_maps = 0

    def _url(self, **params) -> str:
        query = {"VER": "8", "database": self.database}
        query.update({k: str(v) for k, v in params.items()})
        return self.path + "?" + urllib.parse.urlencode(query)

    def request(self, method: str, url: str, body: str | None = None, timeout: float = 10):
        """(status, headers, connection, response) — the response left unread."""
        connection = http.client.HTTPConnection(self.host, timeout=timeout)
        headers = {"content-type": "application/x-www-form-urlencoded"}
        if self.origin:
            headers["origin"] = self.origin
        connection.request(method, url, body=body.encode() if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, response.headers, connection, response

    @staticmethod
    def form(maps, offset: int, headers: dict | None = None) -> str:
        fields = []
        if headers is not None:
            fields.append(("headers", "".join(f"{k}:{v}\r\n" for k, v in headers.items())))
        fields += [("count", str(len(maps))), ("ofs", str(offset))]
        fields += [(f"req{i}___data__", json.dumps(m)) for i, m in enumerate(maps)]
        return urllib.parse.urlencode(fields)

    def open(self, maps, headers: dict | None = None):
        """The opening POST; returns the handshake array and sets `sid`."""
        self.rid += 1
        hdrs = {"X-Goog-Api-Client": "gl-js/ fire/10.11.1", "Content-Type": "text/plain"}
        hdrs.update(headers or {})
        status, response_headers, connection, response = self.request(
            "POST", self._url(RID=self.rid, CVER=22), self.form(maps, 0, hdrs)
        )
        assert status == 200, response.read()
        frame = FrameReader(response).next_frame()
        connection.close()
        [[array_id, handshake]] = frame
        assert array_id == 0 and handshake[0] == "c", frame
        self.sid = handshake[1]
        self.sent_maps = len(maps)
        self.open_headers = response_headers
        return handshake

    def post(self, maps, offset: int | None = None, aid: int = 0):
        """A forward POST; returns (status, answer JSON or text)."""
        self.rid += 1
        offset = self.sent_maps if offset is None else offset
        status, _, connection, response = self.request(
            "POST", self._url(SID=self.sid, RID=self.rid, AID=aid), self.form(maps, offset)
        )
        if status != 200:
            text = response.read().decode()
            connection.close()
            return status, text
        answer = FrameReader(response).next_frame()
        connection.close()
        self.sent_maps = max(self.sent_maps, offset + len(maps))
        return status, answer

    def back_channel(self, aid: int, long_polling: bool = False, timeout: float = 10):
        """A back-channel GET: (status, FrameReader or body text, connection)."""
        status, headers, connection, response = self.request(
            "GET", self._url(RID="rpc", SID=self.sid, AID=aid, CI=1 if long_polling else 0, TYPE="xmlhttp"),
            timeout=timeout,
        )
        if status != 200:
            return status, response.read().decode(), connection
        return status, FrameReader(response), connection

    def terminate(self) -> int:
        self.rid += 1
        status, _, connection, response = self.request(
            "POST", self._url(SID=self.sid, RID=self.rid, TYPE="terminate")
        )
        response.read()
        connection.close()
        return status
