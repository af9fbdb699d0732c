"""A small real HTTP/1.1 server on 127.0.0.1 for download tests.

Each path serves a :class:`Resource`: bytes with ETag / Last-Modified, ``Range`` requests
(206 + Content-Range, 416, ``If-Range``), or a fixed error status. Faults are real socket
behaviour, not mocks:

* ``cut_after`` bytes into the body of the first ``cut_times`` requests the server stops:
  ``cut_mode="reset"`` aborts the TCP connection (RST, the client sees "connection reset"),
  ``cut_mode="close"`` closes it cleanly although Content-Length promised more (a truncated
  body; the client sees an incomplete read).
* ``ranges=False``: a server that ignores Range and always answers 200 with the whole file.
* ``chunk_delay``: a slow server, pausing between 64 KiB chunks (with ``chunk`` smaller, a
  server that drips).
* ``announce``: the Content-Length a 200 claims instead of the true one (a server that lies
  about the size: more than it sends is a truncation, less cuts the file short unnoticed).
* ``stall``: seconds of silence before the status line (a server that accepted the
  connection but does not answer).
* ``content_type``: e.g. ``text/html`` for an error page served with status 200.

``LoopbackServer(tls=context)`` serves HTTPS with that server context (tests make a CA and a
certificate for 127.0.0.1 with ``trustme`` and hand the CA to the client).

Every request is recorded as a :class:`Hit` (method, path, headers, status, body bytes sent).
"""

from __future__ import annotations

import socket
import ssl
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Literal

CHUNK = 64 * 1024


@dataclass
class Resource:
    data: bytes = b""
    etag: str | None = '"v1"'
    last_modified: str | None = "Wed, 21 Oct 2015 07:28:00 GMT"
    ranges: bool = True
    status: int = 200  # anything else: answer with this status and a short text body
    cut_after: int = 0
    cut_times: int = 0  # how many requests (the first ones) are cut after cut_after bytes
    cut_mode: Literal["reset", "close"] = "close"
    chunk_delay: float = 0.0
    chunk: int = CHUNK  # bytes per write (and per chunk_delay)
    announce: int | None = None  # the Content-Length a 200 claims; None: the true one
    stall: float = 0.0  # silence before the status line
    content_type: str = "application/octet-stream"
    served: int = 0  # requests seen so far (set by the server)


@dataclass
class Hit:
    method: str
    path: str
    headers: dict[str, str]
    status: int = 0
    body_bytes: int = 0  # counted before each write, so it is final once the client has it

    def header(self, name: str) -> str | None:
        for key, value in self.headers.items():
            if key.lower() == name.lower():
                return value
        return None


@dataclass
class LoopbackServer:
    resources: dict[str, Resource] = field(default_factory=dict)
    hits: list[Hit] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    tls: ssl.SSLContext | None = None  # set: HTTPS with this server context
    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    def start(self) -> LoopbackServer:
        server = self

        class Handler(_Handler):
            owner = server

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        httpd.daemon_threads = True
        if self.tls is not None:  # the handshake happens in the handler's thread (setup)
            httpd.socket = self.tls.wrap_socket(
                httpd.socket, server_side=True, do_handshake_on_connect=False
            )
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def port(self) -> int:
        assert self._httpd is not None
        return int(self._httpd.server_address[1])

    def url(self, path: str) -> str:
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://127.0.0.1:{self.port}{path}"

    def add(self, path: str, resource: Resource) -> str:
        """Serve ``resource`` at ``path``; returns its URL."""
        with self.lock:
            self.resources[path] = resource
        return self.url(path)

    def hits_for(self, path: str) -> list[Hit]:
        with self.lock:
            return [h for h in self.hits if h.path == path]

    def body_bytes(self, path: str) -> int:
        return sum(h.body_bytes for h in self.hits_for(path))


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    owner: LoopbackServer

    def setup(self) -> None:
        self.failed_handshake = False
        if isinstance(self.request, ssl.SSLSocket):
            self.request.settimeout(10)
            try:
                self.request.do_handshake()
            except OSError:  # a client that does not trust the certificate hangs up
                self.failed_handshake = True
        super().setup()

    def handle(self) -> None:
        if self.failed_handshake:
            return
        try:
            super().handle()
        except ConnectionError:  # the client dropped a kept-alive connection: not news
            pass

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        pass

    def do_GET(self) -> None:
        owner = self.owner
        path = self.path.split("?", 1)[0]
        hit = Hit("GET", path, {k: v for k, v in self.headers.items()})
        with owner.lock:
            owner.hits.append(hit)
            res = owner.resources.get(path)
            index = res.served if res is not None else 0
            if res is not None:
                res.served += 1
        if res is not None and res.stall:
            time.sleep(res.stall)
        if res is None or res.status != 200:
            status = 404 if res is None else res.status
            self._send_text(hit, status, f"error {status}\n".encode())
            return

        data = res.data
        size = len(data)
        start, end, status = 0, size - 1, 200
        wanted = self.headers.get("Range")
        if wanted and res.ranges:
            if_range = self.headers.get("If-Range")
            if if_range is None or if_range in (res.etag, res.last_modified):
                spec = wanted.strip().removeprefix("bytes=")
                first, _, last = spec.partition("-")
                start = int(first)
                if start >= size:
                    hit.status = 416
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{size}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                end = min(int(last), size - 1) if last else size - 1
                status = 206
        body = data[start : end + 1]
        hit.status = status
        self.send_response(status)
        self.send_header("Content-Type", res.content_type)
        announced = res.announce if res.announce is not None and status == 200 else len(body)
        self.send_header("Content-Length", str(announced))
        if res.ranges:
            self.send_header("Accept-Ranges", "bytes")
        if res.etag:
            self.send_header("ETag", res.etag)
        if res.last_modified:
            self.send_header("Last-Modified", res.last_modified)
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.end_headers()

        cut = index < res.cut_times or len(body) < announced
        if index < res.cut_times:
            body = body[: res.cut_after]
        try:
            for offset in range(0, len(body), res.chunk):
                piece = body[offset : offset + res.chunk]
                hit.body_bytes += len(piece)
                self.wfile.write(piece)
                if res.chunk_delay:
                    time.sleep(res.chunk_delay)
        except OSError:  # the client went away (cancel): fine
            self.close_connection = True
            return
        if cut:
            self._cut(res.cut_mode)
        elif announced != len(body):
            self.close_connection = True  # what is left on the wire belongs to no answer

    def _send_text(self, hit: Hit, status: int, body: bytes) -> None:
        hit.status = status
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        hit.body_bytes += len(body)
        self.wfile.write(body)

    def _cut(self, mode: str) -> None:
        self.close_connection = True
        sock = self.connection
        if mode == "reset":
            time.sleep(0.1)  # let the client read what was sent before the reset hits
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()  # SO_LINGER 0: close() sends RST, an aborted connection
        else:
            sock.shutdown(socket.SHUT_RDWR)  # FIN although Content-Length promised more


def refused_port() -> tuple[socket.socket, int]:
    """A port that refuses connections: bound but not listening (keep the socket open)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    return sock, int(sock.getsockname()[1])
