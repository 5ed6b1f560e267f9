"""A web surface nobody on the Wi-Fi can abuse (docs/PROTOCOL.md "Private tables", "Web
controller"): private tables refused without their room code over TCP and the WebSocket
and joined with it, random codes listed nowhere, wrong codes slowed per address (HTTP
429, shared with ``join``), the WebSocket refused to foreign pages (``Origin``), a cap of
connections per address that also holds after hello, the HTTP security headers and 404s
for malformed paths, and names cleaned of control and format characters.

Real TCP, WebSocket and HTTP connections to an in-process server where the behaviour is
about the wire; ``task.Clock`` and ``StringTransport`` for the timing and the door.
"""
from __future__ import annotations

import json
import socket
from typing import Any

import pytest_twisted
from twisted.internet import defer, task

from client.net import ServerError, connect
from server.app import start_server
from shared.config import merge
from shared.protocol import clean_name
from tests.test_loopback import Inbox


# -- helpers: a real server, TCP clients, WebSocket clients, raw HTTP ---------------------------
def _config(tmp_path: Any, host: str = "127.0.0.1", **server: Any) -> dict[str, Any]:
    web = server.pop("web", {})
    return merge({"server": {"host": host, "port": 0, "data_dir": str(tmp_path), **server},
                  "web": {"port": 0, **web}})


@defer.inlineCallbacks
def _tcp(reactor: Any, running: Any, name: str):
    inbox = Inbox()
    conn = yield connect(reactor, "127.0.0.1", running.port, name, inbox)
    return conn


def _refused(d: defer.Deferred) -> defer.Deferred:
    """The ``ServerError`` code a request failed with (the test fails if it succeeded)."""
    def ok(reply: Any) -> None:
        raise AssertionError(f"expected an error, got {reply}")

    return d.addCallbacks(ok, lambda f: f.trap(ServerError) and f.value.code)


class WSClient:
    """An autobahn WebSocket client that keeps every frame and answers pings; ``origin``:
    the ``Origin`` header it sends (None: none, as a program); ``bind``: its own address."""

    def __init__(self, port: int, host: str = "127.0.0.1", origin: str | None = None,
                 bind: str | None = None):
        from autobahn.twisted.websocket import WebSocketClientFactory, WebSocketClientProtocol
        from twisted.internet import reactor

        self.frames: list[dict[str, Any]] = []
        self.opened: defer.Deferred = defer.Deferred()
        self.closed: defer.Deferred = defer.Deferred()
        self.seq = 0
        outer = self

        class P(WebSocketClientProtocol):
            def onOpen(self) -> None:
                outer.proto = self
                outer.opened.callback(self)

            def onMessage(self, payload: bytes, is_binary: bool) -> None:
                msg = json.loads(payload)
                outer.frames.append(msg)
                if msg.get("type") == "ping" and self.state == self.STATE_OPEN:
                    self.sendMessage(json.dumps({"type": "pong", "id": msg["id"], "tc": 1.0}).encode())

            def onClose(self, clean: bool, code: Any, reason: Any) -> None:
                if not outer.opened.called:
                    outer.opened.errback(ConnectionError(f"closed before open ({code})"))
                if not outer.closed.called:
                    outer.closed.callback((code, reason))

        self.opened.addTimeout(5, reactor)
        self.closed.addTimeout(10, reactor)
        f = WebSocketClientFactory(f"ws://{host}:{port}/ws", origin=origin)
        f.protocol = P
        reactor.connectTCP(host, port, f, bindAddress=(bind, 0) if bind else None)

    def send(self, msg_type: str, **fields: Any) -> int:
        self.seq += 1
        self.proto.sendMessage(json.dumps({"type": msg_type, "seq": self.seq, **fields}).encode())
        return self.seq

    def wait_for(self, pred: Any, timeout: float = 5.0) -> defer.Deferred:
        from twisted.internet import reactor

        @defer.inlineCallbacks
        def poll():
            for _ in range(int(timeout / 0.01)):
                hit = next((m for m in self.frames if pred(m)), None)
                if hit is not None:
                    return hit
                yield task.deferLater(reactor, 0.01, lambda: None)
            raise AssertionError(f"no such frame among {self.frames[-5:]}")

        return poll()

    @defer.inlineCallbacks
    def request(self, msg_type: str, **fields: Any):
        seq = self.send(msg_type, **fields)
        reply = yield self.wait_for(lambda m: m.get("re") == seq)
        return reply


def http_get(port: int, path: bytes, host: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    """A raw ``GET path`` (bytes sent as they are): ``(status, headers lower-cased, body)``."""
    with socket.create_connection((host, port), timeout=5) as s:
        s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: " + f"{host}:{port}".encode() +
                  b"\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding") == "chunked":
        out, rest = b"", body
        while rest:
            size, _, rest = rest.partition(b"\r\n")
            n = int(size, 16)
            if n == 0:
                break
            out, rest = out + rest[:n], rest[n + 2:]
        body = out
    return int(lines[0].split()[1]), headers, body


def lan_address() -> str | None:
    """This machine's address on its LAN (not loopback), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


# -- names ---------------------------------------------------------------------------------------
def test_names_lose_control_and_format_characters():
    assert clean_name("A\x00n\x07n\x1b[31m\x7f", 40) == "Ann[31m"
    assert clean_name("\u202eevil\u202c \u2066Bob\u2069", 40) == "evil Bob"
    assert clean_name("Z\u200bo\u200ce\u200d\u2060\ufeff\u00ad", 40) == "Zoe"
    assert clean_name("  Lena\t\n\u2028 la\u00a0Rossa ", 40) == "Lena la Rossa"
    assert clean_name("Léa 🎲", 40) == "Léa 🎲"  # letters and emoji of every script stay
    assert clean_name("\x00\u202e\u200b", 40) == ""
    assert clean_name("x" * 50 + "\u200b", 40) == "x" * 40


@pytest_twisted.inlineCallbacks
def test_names_are_cleaned_over_the_wire(tmp_path):
    from twisted.internet import reactor

    running = yield start_server(reactor, _config(tmp_path), discovery=False)
    try:
        inbox = Inbox()
        ann = yield connect(reactor, "127.0.0.1", running.port, "\u202eA\x00n\x1bn\u200b", inbox)
        assert ann.welcome["name"] == "Ann"
        ghost = yield connect(reactor, "127.0.0.1", running.port, "\u200b\u202e\x07", Inbox())
        assert ghost.welcome["name"] == "Player"  # nothing visible left: the default name
        made = yield ann.request("create_table", game="famiglia", seats=2, name="\u2066Friday\x00\u2069 night")
        assert made["table"]["name"] == "Friday night"
        for c in (ann, ghost):
            c.transport.loseConnection()
    finally:
        yield running.stop()
