"""A recording reverse proxy for the browser suite (used by run_browser.py --record).

    proxy = RecordingProxy(("127.0.0.1", 8181))   # the upstream Firestore port
    proxy.start()                                  # listens on 127.0.0.1:proxy.port
    ... point the page at proxy.port ...
    proxy.exchanges_for(lambda ex: ...)            # recorded exchanges, in start order

Each request is forwarded as it came; each response is streamed back chunk by chunk as the
upstream produces it (the WebChannel back channel is one long streamed response), and recorded
with method, path+query, the request headers that matter, the request body as text, status,
response headers and the response chunks with their times (seconds since the request began).
"""
import http.client
import http.server
import threading
import time

# Request headers worth keeping in a transcript (lower case).
KEPT_REQUEST_HEADERS = (
    "origin", "content-type", "content-length", "access-control-request-method",
    "access-control-request-headers", "x-goog-api-client", "x-firebase-gmpid",
    "google-cloud-resource-prefix", "x-goog-request-params", "authorization",
    "x-http-session-id", "x-client-protocol", "x-goog-upload-protocol", "accept",
)
HOP_BY_HOP = ("connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
              "proxy-connection")


class RecordingProxy:
    def __init__(self, upstream, port=0):
        self.upstream = upstream
        self.lock = threading.Lock()
        self.exchanges = []
        self.seq = 0
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def handle_one(self):
                proxy.forward(self)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_HEAD = handle_one

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]

    def start(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def exchanges_for(self, predicate):
        with self.lock:
            return [ex for ex in self.exchanges if predicate(ex)]

    def forward(self, h):
        start = time.monotonic()
        length = int(h.headers.get("Content-Length") or 0)
        body = h.rfile.read(length) if length else b""
        with self.lock:
            self.seq += 1
            ex = {
                "seq": self.seq, "wall": time.time(), "method": h.command, "path": h.path,
                "request_headers": {k.lower(): v for k, v in h.headers.items()
                                    if k.lower() in KEPT_REQUEST_HEADERS},
                "request_body": body.decode("utf-8", "replace"),
                "status": None, "response_headers": {}, "chunks": [], "complete": False,
            }
            self.exchanges.append(ex)
        headers = {k: v for k, v in h.headers.items() if k.lower() not in HOP_BY_HOP}
        headers["Host"] = "%s:%d" % self.upstream
        conn = http.client.HTTPConnection(*self.upstream, timeout=600)
        try:
            conn.request(h.command, h.path, body=body or None, headers=headers)
            resp = conn.getresponse()
        except OSError as e:
            ex["error"] = str(e)
            h.send_error(502)
            return
        ex["status"] = resp.status
        ex["response_headers"] = {k.lower(): v for k, v in resp.getheaders()}
        known_length = resp.getheader("Content-Length")
        h.send_response_only(resp.status, resp.reason)
        for k, v in resp.getheaders():
            if k.lower() not in HOP_BY_HOP and k.lower() != "content-length":
                h.send_header(k, v)
        chunked = known_length is None and h.command != "HEAD" and resp.status not in (204, 304)
        if known_length is not None:
            h.send_header("Content-Length", known_length)
        elif chunked:
            h.send_header("Transfer-Encoding", "chunked")
        h.send_header("Connection", "close")
        h.end_headers()
        h.close_connection = True
        try:
            while True:
                data = resp.read1(65536)
                if not data:
                    break
                ex["chunks"].append({"t": round(time.monotonic() - start, 3),
                                     "data": data.decode("utf-8", "replace")})
                if chunked:
                    h.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                else:
                    h.wfile.write(data)
                h.wfile.flush()
            if chunked:
                h.wfile.write(b"0\r\n\r\n")
                h.wfile.flush()
            ex["complete"] = True
        except OSError as e:
            ex["error"] = "client went away: %s" % e
        finally:
            ex["end"] = round(time.monotonic() - start, 3)
            conn.close()
