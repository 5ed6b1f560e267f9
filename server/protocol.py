"""One client connection: framing, decoding, validation, and delegation to the lobby
(ARCHITECTURE §4, §5; docs/PROTOCOL.md "Transport and framing", "Errors").

Thin on purpose, like Twisted's own examples: the :class:`ServerProtocol` turns lines
into validated messages, hands requests to :class:`server.lobby.Lobby`, and writes the
reply or an ``error``; it never lets an exception escape (``internal``). It also
protects the server from its clients: oversized lines, bad-message floods, message
floods, and clients that stop reading (the protocol is its transport's streaming
producer; a client paused longer than :data:`SLOW_CLIENT_S` or with more than
:data:`MAX_QUEUED_BYTES` queued on top of the transport's buffer is dropped).

While a request is handled, pushes to this connection wait until its reply is written,
so a client always sees ``joined`` before the ``match_started`` its join caused, and an
``ack`` before the ``update`` its action caused.
"""
from __future__ import annotations

from collections import deque
from typing import Any

from twisted.internet.interfaces import IPushProducer
from twisted.logger import Logger
from twisted.protocols.basic import LineReceiver
from zope.interface import implementer

from shared.protocol import MAX_LINE, ProtocolError, check_fields, decode, encode
from server.clocksync import ClockSync

log = Logger()

#: More than this many error replies within :data:`ERROR_WINDOW_S` -> rate_limited + close.
MAX_ERRORS = 50
ERROR_WINDOW_S = 10.0
#: More than this many messages within one second -> rate_limited + close.
MAX_MESSAGES_PER_S = 500
#: A client whose transport stays paused (not reading) this long is dropped (seconds).
SLOW_CLIENT_S = 10.0
#: ... or as soon as this many bytes wait for it beyond the transport's own buffer.
MAX_QUEUED_BYTES = 1 << 20


@implementer(IPushProducer)
class ServerProtocol(LineReceiver):
    """A client connection. ``lobby`` holds the shared state; its ``clock`` is the
    server's monotonic clock (``task.Clock`` in tests)."""

    delimiter = b"\n"
    MAX_LENGTH = MAX_LINE

    def __init__(self, lobby: Any):
        self.lobby = lobby
        self.clock = lobby.clock
        self.conn_id = lobby.next_conn_id()
        self.name = ""
        self.greeted = False
        self.clocksync: ClockSync | None = None
        self.factory: Any = None
        self._held: list[bytes] | None = None
        self._errors: deque[float] = deque()
        self._second = (0.0, 0)  # (start of the current second, messages in it)
        self._paused = False
        self._queued = 0
        self._slow_call: Any = None
        self._closing = False
        self._matches = 0  # running matches this connection sits in

    # -- connection -----------------------------------------------------------------
    def connectionMade(self) -> None:
        if self.factory is not None:
            self.factory.open_connections += 1
        if hasattr(self.transport, "setTcpNoDelay"):
            try:
                self.transport.setTcpNoDelay(True)
            except OSError:
                pass
        self.transport.registerProducer(self, True)

    def connectionLost(self, reason: Any = None) -> None:
        if self.factory is not None:
            self.factory.open_connections -= 1
        self._cancel_slow()
        if self.clocksync is not None:
            self.clocksync.stop()
        try:
            self.lobby.connection_lost(self)
        except Exception:
            log.failure("cleaning up connection {id}", id=self.conn_id)

    def close(self) -> None:
        """Close after the pending output is written."""
        self._closing = True
        self.transport.loseConnection()

    # -- what tables use ------------------------------------------------------------
    def push(self, msg_type: str, **fields: Any) -> None:
        """Send a pushed message (held back while this connection's request runs)."""
        data = encode(msg_type, **fields)
        if self._held is not None:
            self._held.append(data)
        else:
            self._write(data)

    @property
    def clock_offset_ms(self) -> float | None:
        """server ms - client ms (None before clock sync)."""
        return self.clocksync.offset_ms if self.clocksync is not None else None

    def rtt_bound_ms(self) -> float:
        """How long before its arrival this connection's claim may have been pressed."""
        if self.clocksync is None:
            return float(self.lobby.config["timing"]["rtt_bound_cap_ms"])
        return self.clocksync.rtt_bound_ms()

    def set_playing(self, playing: bool) -> None:
        """A match of this connection started (True) or ended for it (False): ping
        faster while at least one runs."""
        self._matches = max(0, self._matches + (1 if playing else -1))
        if self.clocksync is not None:
            self.clocksync.set_playing(self._matches > 0)

    # -- receiving ------------------------------------------------------------------
    def lineLengthExceeded(self, line: bytes) -> None:
        self._write(encode("error", code="too_long",
                           message=f"a line may be at most {MAX_LINE} bytes; closing"))
        self.close()

    def lineReceived(self, line: bytes) -> None:
        if self._closing:
            return
        line = line.rstrip(b"\r")
        if not line.strip():
            return
        if self._flooding():
            return
        seq = None
        self._held = []
        try:
            msg = decode(line)
            seq = msg.get("seq") if isinstance(msg.get("seq"), int) else None
            check_fields(msg)
            reply = self._dispatch(msg)
            if reply is not None:
                self._write(encode(reply[0], **({"re": seq} if seq is not None else {}), **reply[1]))
        except ProtocolError as e:
            self._error(e.code, e.message, seq)
        except Exception:
            log.failure("request failed on connection {id}: {line!r}", id=self.conn_id,
                        line=line[:200])
            self._error("internal", "the server failed on this request; it goes on", seq)
        finally:
            held, self._held = self._held, None
            for data in held or ():
                self._write(data)

    def _dispatch(self, msg: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        kind = msg["type"]
        if kind == "pong":
            if self.clocksync is not None:
                self.clocksync.on_pong(msg["id"], msg["tc"])
            return None
        if not self.greeted:
            if kind != "hello":
                raise ProtocolError("hello_first", "send hello before anything else")
            welcome = self.lobby.hello(self, msg["name"])
            self.name = welcome["name"]
            self.greeted = True
            self.clocksync = ClockSync(self.push, self.clock, self.lobby.config["timing"])
            self.clocksync.start()  # the burst's pings are held until welcome is written
            return "welcome", welcome
        return self.lobby.handle(self, msg)

    # -- errors and abuse -----------------------------------------------------------
    def _error(self, code: str, message: str, seq: int | None) -> None:
        fields: dict[str, Any] = {"code": code, "message": message}
        if seq is not None:
            fields["re"] = seq
        self._write(encode("error", **fields))
        if code == "too_long":
            self.close()
            return
        now = self.clock.seconds()
        self._errors.append(now)
        while self._errors and now - self._errors[0] > ERROR_WINDOW_S:
            self._errors.popleft()
        if len(self._errors) > MAX_ERRORS:
            self._abuse(f"more than {MAX_ERRORS} bad messages in {ERROR_WINDOW_S:.0f} s")

    def _flooding(self) -> bool:
        now = self.clock.seconds()
        start, count = self._second
        if now - start >= 1.0:
            start, count = now, 0
        count += 1
        self._second = (start, count)
        if count > MAX_MESSAGES_PER_S:
            self._abuse(f"more than {MAX_MESSAGES_PER_S} messages in a second")
            return True
        return False

    def _abuse(self, why: str) -> None:
        log.warn("closing connection {id} ({name}): {why}", id=self.conn_id, name=self.name, why=why)
        self._write(encode("error", code="rate_limited", message=f"{why}; closing the connection"))
        self.close()

    # -- output and slow readers (IPushProducer) ------------------------------------
    def _write(self, data: bytes) -> None:
        if self.transport is None:
            return
        if self._paused:
            self._queued += len(data)
            if self._queued > MAX_QUEUED_BYTES:
                self._drop_slow()
                return
        self.transport.write(data)

    def pauseProducing(self) -> None:
        """The transport's buffer is full: the client is not reading fast enough."""
        if not self._paused:
            self._paused = True
            self._queued = 0
            self._slow_call = self.clock.callLater(SLOW_CLIENT_S, self._drop_slow)

    def resumeProducing(self) -> None:
        self._paused = False
        self._queued = 0
        self._cancel_slow()

    def stopProducing(self) -> None:
        self._cancel_slow()

    def _cancel_slow(self) -> None:
        if self._slow_call is not None and self._slow_call.active():
            self._slow_call.cancel()
        self._slow_call = None

    def _drop_slow(self) -> None:
        self._slow_call = None
        if self._closing:
            return
        log.warn("dropping connection {id} ({name}): it stopped reading", id=self.conn_id,
                 name=self.name)
        self._closing = True
        self.transport.abortConnection()
