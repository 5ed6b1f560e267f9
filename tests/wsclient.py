"""A WebSocket test client of the phone bridge (autobahn, on the real reactor): it keeps
every frame it receives and answers the server's pings while its socket is open."""
from __future__ import annotations

import json
from typing import Any

from twisted.internet import defer, task


class WSClient:
    """A client of ``ws://host:port/ws``. ``origin``: the ``Origin`` header it sends
    (None: none, as a program does); ``bind``: its own address. ``opened`` fires once
    the socket is open (fails if it closes first, or after 5 s); ``closed`` fires with
    the close code (the reason in :attr:`close_reason`), and fails after 30 s rather than
    let a test hang."""

    def __init__(self, port: int, host: str = "127.0.0.1", origin: str | None = None,
                 bind: str | None = None):
        from autobahn.twisted.websocket import WebSocketClientFactory, WebSocketClientProtocol
        from twisted.internet import reactor

        self.frames: list[dict[str, Any]] = []
        self.opened: defer.Deferred = defer.Deferred()
        self.closed: defer.Deferred = defer.Deferred()
        self.close_reason: Any = None
        self.seq = 0
        self.proto: Any = None
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
                    outer.close_reason = reason
                    outer.closed.callback(code)

        self.opened.addTimeout(5, reactor)
        self.closed.addTimeout(30, reactor)
        f = WebSocketClientFactory(f"ws://{host}:{port}/ws", origin=origin)
        f.protocol = P
        reactor.connectTCP(host, port, f, bindAddress=(bind, 0) if bind else None)

    def send(self, obj: Any) -> None:
        """One frame: ``obj`` as JSON, or as it is when it is bytes (a malformed frame)."""
        self.proto.sendMessage(obj if isinstance(obj, bytes) else json.dumps(obj).encode())

    def message(self, msg_type: str, **fields: Any) -> int:
        """A protocol message with the next ``seq``; returns that seq."""
        self.seq += 1
        self.send({"type": msg_type, "seq": self.seq, **fields})
        return self.seq

    def wait_for(self, pred: Any, timeout: float = 10.0) -> defer.Deferred:
        """The first frame received (before or after the call) for which ``pred`` is
        true; fails with the last frames after ``timeout`` s."""
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
        """Send a message and wait for its reply (``re``)."""
        seq = self.message(msg_type, **fields)
        reply = yield self.wait_for(lambda m: m.get("re") == seq)
        return reply

    def close(self) -> defer.Deferred:
        """Close from this side; fires once the socket is closed."""
        if not self.closed.called:
            self.proto.sendClose(1000)
        return self.closed
