"""TCP relays for tests and benchmarks (not used by the server itself).

:class:`DelayRelay` adds latency (``benchmarks/fairness.py``): it makes a loopback client
look like a player far away, or on a jittery Wi-Fi. :class:`CutRelay` cuts connections
(``benchmarks/evening.py``, ``benchmarks/faults.py``): a Wi-Fi that goes away.

Each accepted connection is relayed to ``target``; every chunk is delivered after
``up_ms()`` (client -> server) or ``down_ms()`` (server -> client) milliseconds, never
before an earlier chunk of the same direction (TCP keeps order, so jitter cannot
reorder bytes).
"""
from __future__ import annotations

import socket
import threading
import time
from collections import deque
from typing import Any, Callable

from twisted.internet import protocol

DelayFn = Callable[[], float]


class _Pipe:
    """One direction: writes chunks to ``transport`` after their delay, in order.

    One queue and one timer: delayed calls due at the same instant are not guaranteed
    to run in the order they were scheduled, so each chunk is not scheduled alone."""

    def __init__(self, reactor: Any, delay_ms: DelayFn, observe: Callable[[bytes], None] | None = None,
                 late_ms: list[float] | None = None):
        self.reactor = reactor
        self.delay_ms = delay_ms
        self.observe = observe
        self.late_ms = late_ms  # how late each chunk went out after its due time (ms), if kept
        self.transport: Any = None
        self.queue: deque[tuple[float, bytes]] = deque()  # (due monotonic s, chunk)
        self.timer: Any = None
        self.last_due = 0.0
        self.close_when_empty = False

    def send(self, data: bytes) -> None:
        due = max(time.monotonic() + max(0.0, self.delay_ms()) / 1000.0, self.last_due)
        self.last_due = due
        self.queue.append((due, data))
        self._arm()

    def _arm(self) -> None:
        if self.timer is None and self.queue:
            wait = max(0.0, self.queue[0][0] - time.monotonic())
            self.timer = self.reactor.callLater(wait, self._deliver)

    def _deliver(self) -> None:
        self.timer = None
        now = time.monotonic()
        while self.queue and self.queue[0][0] <= now and self.transport is not None:
            due, data = self.queue.popleft()
            if self.late_ms is not None:
                self.late_ms.append((now - due) * 1000.0)
            self.transport.write(data)
            if self.observe is not None:
                self.observe(data)
        if not self.queue and self.close_when_empty and self.transport is not None:
            self.transport.loseConnection()
            return
        if self.transport is not None:
            self._arm()

    def attach(self, transport: Any) -> None:
        self.transport = transport
        self._arm()

    def close(self) -> None:
        """Close the far end once every chunk sent so far is delivered."""
        self.close_when_empty = True
        if not self.queue and self.transport is not None:
            self.transport.loseConnection()


class _Outbound(protocol.Protocol):
    def __init__(self, inbound: "_Inbound"):
        self.inbound = inbound

    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)
        self.inbound.up.attach(self.transport)

    def dataReceived(self, data: bytes) -> None:
        self.inbound.down.send(data)

    def connectionLost(self, reason: Any = None) -> None:
        self.inbound.down.close()


class _Inbound(protocol.Protocol):
    def connectionMade(self) -> None:
        relay: DelayRelay = self.factory
        self.transport.setTcpNoDelay(True)
        self.up = _Pipe(relay.reactor, relay.up_ms, relay.observe_up, relay.late_ms)
        self.down = _Pipe(relay.reactor, relay.down_ms, late_ms=relay.late_ms)
        self.down.attach(self.transport)
        creator = protocol.ClientCreator(relay.reactor, _Outbound, self)
        d = creator.connectTCP(relay.host, relay.port)
        d.addErrback(lambda _: self.transport.loseConnection())

    def dataReceived(self, data: bytes) -> None:
        self.up.send(data)

    def connectionLost(self, reason: Any = None) -> None:
        self.up.close()


class DelayRelay(protocol.ServerFactory):
    """Factory of a latency relay to ``host:port``; listen on it with ``listenTCP``.

    ``up_ms`` / ``down_ms``: callables returning the one-way delay in ms of the next
    chunk client -> server / server -> client (e.g. ``lambda: 40 + rng.uniform(-10, 10)``).
    ``observe_up(data)``, if given, is called as each client -> server chunk is handed to
    the server's socket (its arrival time, for benchmarks). With ``keep_late``,
    :attr:`late_ms` collects how late each chunk went out after its delay (ms): the relay
    runs in its caller's reactor, and a busy machine runs it late -- that lateness is the
    relay's, not the path's it imitates.
    """

    protocol = _Inbound

    def __init__(self, reactor: Any, host: str, port: int, up_ms: DelayFn, down_ms: DelayFn,
                 observe_up: Callable[[bytes], None] | None = None, keep_late: bool = False):
        self.observe_up = observe_up
        self.late_ms: list[float] | None = [] if keep_late else None
        self.reactor = reactor
        self.host = host
        self.port = port
        self.up_ms = up_ms
        self.down_ms = down_ms


class CutRelay:
    """Relays ``127.0.0.1:port`` to ``127.0.0.1:target`` with two threads per connection
    (no reactor needed). :meth:`cut` drops every relayed connection and refuses new ones
    for ``seconds``; :meth:`cut_one` drops the ``i``-th connection (accept order) alone.
    The clients reconnect through it."""

    def __init__(self, target: int):
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.blocked_until = 0.0  # time.monotonic() s
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        self.closing = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closing:
            try:
                inbound, _ = self.listener.accept()
            except OSError:
                return
            if time.monotonic() < self.blocked_until:
                inbound.close()
                continue
            try:
                outbound = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                inbound.close()
                continue
            outbound.settimeout(None)
            for sock in (inbound, outbound):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                self.pairs.append((inbound, outbound))
            for a, b in ((inbound, outbound), (outbound, inbound)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        _shut((a, b))

    def cut(self, seconds: float = 0.0) -> None:
        """Drop every relayed connection; refuse new ones for ``seconds``."""
        self.blocked_until = time.monotonic() + seconds
        with self.lock:
            pairs = list(self.pairs)
        for pair in pairs:
            _shut(pair)

    def cut_one(self, i: int) -> None:
        """Drop the ``i``-th relayed connection (accept order); IndexError if none."""
        with self.lock:
            pair = self.pairs[i]
        _shut(pair)

    def close(self) -> None:
        self.closing = True
        self.listener.close()
        with self.lock:
            pairs = list(self.pairs)
        for pair in pairs:
            for sock in pair:
                sock.close()


def _shut(socks: tuple[socket.socket, ...]) -> None:
    # shutdown, not close: it wakes the pump blocked in recv() and ends the TCP stream
    for sock in socks:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
