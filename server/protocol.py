"""One client connection: framing, decoding, validation, and delegation to the lobby
(ARCHITECTURE §4, §5; docs/PROTOCOL.md "Transport and framing", "Errors").

Thin on purpose, like Twisted's own examples: the :class:`ServerProtocol` turns lines
into validated messages, hands requests to :class:`server.lobby.Lobby`, and writes the
reply or an ``error``; it never lets an exception escape (``internal``). It also
protects the server from its clients: oversized lines, bad-message floods, message
floods, and clients that stop reading (the protocol is its transport's streaming
producer; a client that takes none of its output for :data:`SLOW_CLIENT_S` is dropped,
and so is one for which pushes would make more than ``server.max_output_buffer_kb``
bytes wait in the server: the bound is on what the server itself holds, the kernel's
socket buffer being kept small, :data:`SEND_BUFFER_BYTES`). Replies never count
against a client: its requests wait while their replies wait to be sent
(:data:`READ_PAUSE_BYTES`), so a burst of legal requests waits for its turn (its pongs
are read at once all the same).

Liveness (docs/PROTOCOL.md "Transport and framing"): a connection that has not said
``hello`` within ``server.hello_timeout_s`` gets ``error hello_timeout`` and is closed;
the factory (:class:`server.lobby.LobbyFactory`) limits the connections still waiting
for their hello per address, closing the oldest; and a connection seated at a running
match whose pongs stop for ``server.heartbeat_timeout_s`` is declared away: its
transport is aborted, which holds its seat like any lost connection (a stand-in plays
when the match needs it, the player comes back with the token).

While a request is handled, pushes to this connection wait until its reply is written,
so a client always sees ``joined`` before the ``match_started`` its join caused, and an
``ack`` before the ``update`` its action caused. The reply to a join that started a match
also waits until the match log (header, seats and their keys) is on disk.

Output to a real TCP connection is sent once per reactor turn (:class:`OutputFlush`):
what a turn wrote to a connection (an ``ack``, the updates of several actions, a ping)
leaves in one ``send`` straight to the socket when the transport holds nothing, the
rest through the transport as before. Twisted's own path costs two ``epoll_ctl`` and a
writable event per write.
"""
from __future__ import annotations

import ctypes
import socket
import weakref
from collections import deque
from typing import Any, Callable

import msgspec
from twisted.internet import tcp
from twisted.internet.interfaces import IPushProducer
from twisted.logger import Logger
from twisted.protocols.basic import LineReceiver
from zope.interface import implementer

from shared.protocol import (FEATURES, MAX_INT, MAX_LINE, MAX_TIME_MS, ProtocolError, check_fields,
                             decode, encode)
from shared.sentences import Sentence, say
from server.clocksync import ClockSync
from server.native import libc_function, per_clock
from server.persist import group_commit

log = Logger()

#: More than this many error replies within :data:`ERROR_WINDOW_S` -> rate_limited + close.
MAX_ERRORS = 50
ERROR_WINDOW_S = 10.0
#: More than this many messages within one second -> rate_limited + close.
MAX_MESSAGES_PER_S = 500
#: A client whose transport stays paused this long without taking any of what waits
#: for it (it stopped reading) is dropped (seconds).
SLOW_CLIENT_S = 10.0
#: Requests of a connection are not answered while more than this many bytes written
#: this reactor turn wait to be sent, or while its transport's buffer is full: a burst of
#: legal requests waits (beyond this many bytes of them, in the client's own socket)
#: until their replies drained, instead of piling replies up in the server (which would
#: count as not reading). Pongs never wait.
READ_PAUSE_BYTES = 64 * 1024
#: Default bound on the bytes waiting for one client in the server (its transport's
#: buffer plus what is written while paused); ``server.max_output_buffer_kb`` overrides.
MAX_QUEUED_BYTES = 256 * 1024
#: The kernel's send buffer of every connection (SO_SNDBUF): small, so that a client that
#: stops reading fills the server's own buffer (bounded above) within a few messages
#: instead of the kernel swallowing a whole match.
SEND_BUFFER_BYTES = 64 * 1024


class _Pong(msgspec.Struct, forbid_unknown_fields=True):
    """Exactly a valid ``pong {id, tc}`` (docs/PROTOCOL.md "Clock sync"), nothing else."""

    type: str
    id: int
    tc: float
    v: int = 1


#: How every client's pong line begins (``shared.protocol.encode``): such lines are
#: decoded straight into :class:`_Pong`; whatever fails that goes the general way.
_PONG_PREFIX = b'{"v":1,"type":"pong",'
_pong_decoder = msgspec.json.Decoder(_Pong)


def fast_pong(line: bytes) -> _Pong | None:
    """The pong ``line`` is, when it is one that the general path (``decode`` then
    ``check_fields``) would accept as it is, else None (that path then says what is
    wrong). Pongs are half of all the lines a server reads: a typed decode skips the
    generic dict, its value walk and the field table."""
    if not line.startswith(_PONG_PREFIX):
        return None
    try:
        pong = _pong_decoder.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
        return None
    if (pong.type != "pong" or type(pong.v) is not int or pong.v != 1 or not -MAX_INT <= pong.id <= MAX_INT
            or not -MAX_TIME_MS <= pong.tc <= MAX_TIME_MS):
        return None
    return pong


#: glibc's ``malloc_trim`` (None elsewhere).
_malloc_trim = libc_function("malloc_trim", [ctypes.c_size_t], ctypes.c_int)
_trim_call: Any = None
#: A closed connection that held at least this much output asks the C allocator to give
#: the freed memory back to the system (at most once per :data:`TRIM_DELAY_S`).
TRIM_AFTER_BYTES = 64 * 1024
TRIM_DELAY_S = 0.5


def _schedule_trim(clock: Any) -> None:
    """Soon, hand the heap's free pages back to the system: the buffers of dropped slow
    readers are many mid-sized blocks that the allocator would otherwise keep."""
    global _trim_call
    if _malloc_trim is None or (_trim_call is not None and _trim_call.active()):
        return

    def trim() -> None:
        global _trim_call
        _trim_call = None
        _malloc_trim(0)

    try:
        _trim_call = clock.callLater(TRIM_DELAY_S, trim)
    except Exception:
        _trim_call = None


class OutputFlush:
    """What the connections of one reactor wrote during a turn, sent at the start of the
    next (``callLater(0)``: after the poll that follows, before any timer): one ``send``
    per connection with the turn's messages joined, written straight to the socket
    when its transport buffers nothing (no writer registered, no writable event);
    what the kernel does not take at once goes through ``transport.write``, whose
    buffer and producer pause work as for any write. ``flushes``/``sends`` count the
    turns and the direct sends."""

    def __init__(self, clock: Any):
        self.clock = clock
        self._dirty: list["ServerProtocol"] = []
        self._call: Any = None
        self.flushes = 0
        self.sends = 0

    def add(self, proto: "ServerProtocol") -> None:
        """``proto`` has output waiting: flush it with the others this turn."""
        self._dirty.append(proto)
        if self._call is None:
            self._call = self.clock.callLater(0, self.flush)

    def flush(self) -> None:
        self._call = None
        dirty, self._dirty = self._dirty, []
        self.flushes += 1
        for proto in dirty:
            try:
                if proto._flush():
                    self.sends += 1
            except Exception:
                log.failure("sending to connection {id}", id=proto.conn_id)


_flushes: "weakref.WeakKeyDictionary[Any, OutputFlush]" = weakref.WeakKeyDictionary()


def output_flush(clock: Any) -> OutputFlush:
    """The :class:`OutputFlush` of ``clock`` (one per reactor)."""
    return per_clock(_flushes, clock, OutputFlush)


@implementer(IPushProducer)
class ServerProtocol(LineReceiver):
    """A client connection. ``lobby`` holds the shared state; its ``clock`` is the
    server's monotonic clock (``task.Clock`` in tests)."""

    delimiter = b"\n"
    MAX_LENGTH = MAX_LINE

    def __init__(self, lobby: Any, addr: Any = None):
        self.lobby = lobby
        self.clock = lobby.clock
        self.conn_id = lobby.next_conn_id()
        server = lobby.config["server"]
        self.peer_host: str | None = getattr(addr, "host", None)
        self.opened_at = self.clock.seconds()
        self.hello_timeout_s = float(server.get("hello_timeout_s", 10.0))
        self.heartbeat_timeout_s = float(server.get("heartbeat_timeout_s", 4.0))
        # at least one longest line fits, whatever the config says
        self.max_output_bytes = max(MAX_LINE + 1024,
                                    int(server.get("max_output_buffer_kb", MAX_QUEUED_BYTES // 1024)) * 1024)
        self._hello_call: Any = None
        self._abort_call: Any = None
        self._aborted = False
        self.away_declared = False  # the heartbeat stopped: this connection was aborted
        #: the error code this connection is being closed for (``too_long``,
        #: ``rate_limited``, ``hello_timeout``, ``taken_over``), None for a plain close:
        #: the WebSocket bridge turns it into a close code (server.web.bridge)
        self.close_reason: str | None = None
        self.name = ""
        self.greeted = False
        self.features: frozenset[str] = frozenset()  # granted in welcome (hello.features)
        self.clocksync: ClockSync | None = None
        self.factory: Any = None
        self._held: list[bytes] | None = None
        self._gated: list[bytes] | None = None  # output held for a group commit
        self._errors: deque[float] = deque()
        self._second = (0.0, 0)  # (start of the current second, messages in it)
        self._paused = False
        self._queued = 0
        self._slow_call: Any = None
        self._written = 0  # every byte ever handed to the output (sent or waiting)
        self._slow_mark = 0  # bytes taken by the client when the slow-reader clock started
        self._input_paused = False  # requests wait: replies are still on their way
        self._waiting: deque[bytes] = deque()  # the requests that wait meanwhile
        self._waiting_bytes = 0
        self._reading_paused = False  # so many wait that the socket is not read either
        self._closing = False
        self._matches = 0  # running matches this connection sits in
        self._out: list[bytes] = []  # written this reactor turn, not yet sent (OutputFlush)
        self._out_bytes = 0
        self._flusher: OutputFlush | None = None  # set for a real TCP transport
        #: Called (once) before the next message is pushed: a table holding a merged
        #: ``update`` for this connection sends it first (feature ``steps``,
        #: :meth:`server.match.delivery.Delivery.flush_merged`).
        self.before_push: Callable[[], None] | None = None

    # -- connection -----------------------------------------------------------------
    def connectionMade(self) -> None:
        transport: Any = self.transport  # TCP, or a phone's FrameTransport
        if self.peer_host is None and hasattr(transport, "getPeer"):
            try:
                self.peer_host = getattr(transport.getPeer(), "host", None)
            except Exception:
                self.peer_host = None
        if self.factory is not None:
            self.factory.opened(self)
        if hasattr(transport, "setTcpNoDelay"):
            try:
                transport.setTcpNoDelay(True)
            except OSError:
                pass
        handle = getattr(self.transport, "getHandle", None)
        if handle is not None:
            try:
                handle().setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
            except (OSError, AttributeError):
                pass
        transport.registerProducer(self, True)
        if (isinstance(self.transport, tcp.Connection)
                and hasattr(getattr(self.clock, "_reactor", self.clock), "callFromThread")):
            self._flusher = output_flush(self.clock)  # a real socket on a real reactor
        if self.hello_timeout_s > 0:
            self._hello_call = self.clock.callLater(self.hello_timeout_s, self._hello_timed_out)

    def connectionLost(self, reason: Any = None) -> None:
        if self.factory is not None:
            self.factory.closed(self)
        self._cancel_slow()
        self._cancel_hello()
        if self._abort_call is not None and self._abort_call.active():
            self._abort_call.cancel()
        self._abort_call = None
        self._held = None
        self._gated = None
        self._out, self._out_bytes = [], 0
        self._waiting.clear()
        if self.clocksync is not None:
            self.clocksync.stop()
        try:
            self.lobby.connection_lost(self)
        except Exception:
            log.failure("cleaning up connection {id}", id=self.conn_id)
        self._release()

    def _release(self) -> None:
        """Give back the memory of a closed connection at once: what still waited in
        its transport (a dropped slow reader's backlog) is freed, and the reference
        cycle between this protocol and its transport is broken, so that neither waits
        for the garbage collector."""
        transport: Any = self.transport  # a tcp.Connection: its buffers are freed here
        self.transport = None
        if transport is None:
            return
        if self._aborted and (self.pending_bytes_of(transport) >= TRIM_AFTER_BYTES or self._paused):
            _schedule_trim(self.clock)
        if isinstance(getattr(transport, "dataBuffer", None), bytes) and hasattr(transport, "_tempDataLen"):
            transport.dataBuffer = b""
            transport.offset = 0
            transport._tempDataBuffer = []
            transport._tempDataLen = 0
        if getattr(transport, "protocol", None) is self:
            transport.protocol = None

    def _cancel_hello(self) -> None:
        if self._hello_call is not None and self._hello_call.active():
            self._hello_call.cancel()
        self._hello_call = None

    def _hello_timed_out(self) -> None:
        self._hello_call = None
        if self.greeted or self._closing:
            return
        log.info("closing connection {id} from {host}: no hello within {s:.0f} s", id=self.conn_id,
                 host=self.peer_host, s=self.hello_timeout_s)
        self.refuse("hello_timeout", say("hello_late", s=round(self.hello_timeout_s, 3)))

    def refuse(self, code: str, why: Sentence) -> None:
        """Say why in one ``error`` line, then close (the connection waited for its
        hello too long, or made room for a newer one)."""
        self._say_and_close(encode("error", **ProtocolError(code, why).fields()), code)

    def seat_taken_over(self, table: int, seat: int) -> None:
        """Seat ``seat`` of table ``table`` went to another connection that showed its
        token (or its join key): pushed ``taken_over {table, seat, message}``, so that
        this device stops offering actions of a seat it lost and does not ask for it
        back by itself. A connection that then sits at and watches no table is closed
        after it (most often a half-open connection the player left behind)."""
        if self._closing or self.transport is None:
            return
        why = say("taken_over")
        data = encode("taken_over", table=table, seat=seat, message=why.english(), sentence=why.wire())
        if self.lobby.at_a_table(self):
            self.push_raw(data)
        else:
            self._say_and_close(data, "taken_over")

    def _say_and_close(self, data: bytes, why: str) -> None:
        """Write ``data`` (the last line), then close; a peer that does not read it is
        cut off after a second. ``why``: the error code the close is for
        (:attr:`close_reason`)."""
        if self._closing or self.transport is None:
            return
        self._cancel_hello()
        self.close_reason = why
        self._write(data)
        self._ungate()
        self._closing = True
        self._flush()
        self.transport.loseConnection()
        # a peer that never reads would keep a half-closed socket: abort it shortly
        self._abort_call = self.clock.callLater(1.0, self._abort)

    def _abort(self) -> None:
        """Close at once, dropping what waits to be written (its memory goes with the
        transport); ``connectionLost`` follows, as for any lost connection."""
        self._abort_call = None
        self._closing = True
        self._held = None
        self._gated = None
        self._out, self._out_bytes = [], 0
        if self._aborted or self.transport is None:
            return
        self._aborted = True
        transport: Any = self.transport
        transport.abortConnection()

    def close(self) -> None:
        """Close after the pending output is written."""
        self._ungate()
        self._closing = True
        if self.transport is not None:
            self._flush()
            self.transport.loseConnection()

    # -- what tables use ------------------------------------------------------------
    def push(self, msg_type: str, **fields: Any) -> None:
        """Send a pushed message (held back while this connection's request runs)."""
        self.push_raw(encode(msg_type, **fields))

    def push_raw(self, data: bytes) -> None:
        """Send a pushed message already encoded (``shared.protocol.encode``): the
        spectators of a table all get the same bytes, encoded once. Held like
        :meth:`push`."""
        hook = self.before_push
        if hook is not None:
            self.before_push = None
            hook()
        if self._held is not None:
            self._held.append(data)
        else:
            self._write(data)

    @property
    def clock_offset_ms(self) -> float | None:
        """server ms - client ms (None before clock sync)."""
        return self.clocksync.offset_ms if self.clocksync is not None else None

    def rtt_wait_ms(self) -> float:
        """How long a claim of this connection may travel (ms; uncapped RTT p99), for the
        arbiter's collection."""
        if self.clocksync is None:
            return float(self.lobby.config["timing"]["rtt_bound_cap_ms"])
        return self.clocksync.rtt_wait_ms()

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

    def set_window(self, open_: bool) -> None:
        """A reaction window opened (True) or closed (False) at a table of this
        connection's seat: clock sync pings faster meanwhile
        (:meth:`server.clocksync.ClockSync.set_window`)."""
        if self.clocksync is not None:
            self.clocksync.set_window(open_)

    # -- receiving ------------------------------------------------------------------
    def lineLengthExceeded(self, line: bytes) -> None:
        self._write(encode("error", **ProtocolError("too_long", say("too_long", n=MAX_LINE)).fields()))
        self.close_reason = "too_long"
        self.close()

    def lineReceived(self, line: bytes) -> None:
        if self._closing:
            return
        line = line.rstrip(b"\r")
        if not line.strip():
            return
        if self._flooding():
            return
        pong = fast_pong(line)
        if pong is not None:  # the general path would only do this
            if self.clocksync is not None:
                self.clocksync.on_pong(pong.id, pong.tc)
            return
        if self._input_paused:  # replies still wait to be sent: this request waits its turn
            self._hold(line)
            return
        self._request(line)

    def frameReceived(self, data: bytes) -> None:
        """One message of a transport that frames messages itself (a WebSocket text
        frame, :mod:`server.web.bridge`), read as a line."""
        if len(data) > MAX_LINE:
            self.lineLengthExceeded(data)
            return
        self.lineReceived(data)

    def _request(self, line: bytes) -> None:
        """Answer one request line (anything but a pong): its reply, or an ``error``."""
        seq = None
        self._held = []
        try:
            msg = decode(line)
            seq = msg.get("seq")
            seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
            check_fields(msg)
            reply = self._dispatch(msg)
            if msg["type"] in ("action", "join"):
                self._gate()  # a join that started a match: its joined waits for the log
            if reply is not None:
                self._write(encode(reply[0], **({"re": seq} if seq is not None else {}), **reply[1]),
                            reply=True)
        except ProtocolError as e:
            self._error(e, seq if seq is not None else e.seq)
        except Exception:
            log.failure("request failed on connection {id}: {line!r}", id=self.conn_id,
                        line=line[:200])
            self._error(ProtocolError("internal", say("internal")), seq)
        finally:
            held, self._held = self._held, None
            for data in held or ():
                self._write(data)
            self._check_input()

    # -- answering only as fast as the client takes the replies ---------------------------
    def _check_input(self) -> None:
        """After a request: while this turn's output is large or the transport's buffer
        is full (:data:`READ_PAUSE_BYTES`), the next requests wait (pongs are still
        read at once: the heartbeat and clock sync never wait behind replies)."""
        if self._input_paused or self.transport is None or self._closing:
            return
        if self._paused or self._out_bytes > READ_PAUSE_BYTES:
            self._input_paused = True

    def _hold(self, line: bytes) -> None:
        """Keep a request for when the replies drained. Past :data:`READ_PAUSE_BYTES`
        of them, the socket is not read either: the rest waits in the client's socket
        (``LineReceiver.paused`` keeps what was read already)."""
        self._waiting.append(line)
        self._waiting_bytes += len(line)
        if self._waiting_bytes > READ_PAUSE_BYTES and not self._reading_paused:
            self._reading_paused = True
            self.paused = True
            pause = getattr(self.transport, "pauseProducing", None)
            if pause is not None:
                pause()

    def _resume_input(self) -> None:
        """The output drained: answer the requests that waited, in order, then read
        the socket again."""
        if (not self._input_paused or self._paused or self._out_bytes > READ_PAUSE_BYTES
                or self.transport is None or self._closing):
            return
        self._input_paused = False
        while self._waiting and not self._input_paused and self.transport is not None and not self._closing:
            line = self._waiting.popleft()
            self._waiting_bytes -= len(line)
            self._request(line)
        if self._input_paused or not self._reading_paused or self.transport is None or self._closing:
            return
        self._reading_paused = False
        self.paused = False
        resume = getattr(self.transport, "resumeProducing", None)
        if resume is not None:
            resume()
        self.dataReceived(b"")

    def _dispatch(self, msg: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        kind = msg["type"]
        if kind == "pong":
            if self.clocksync is not None:
                self.clocksync.on_pong(msg["id"], msg["tc"])
            return None
        if not self.greeted:
            if kind != "hello":
                raise ProtocolError("hello_first", say("hello_first"))
            welcome = self.lobby.hello(self, msg["name"])
            if msg.get("features") is not None:  # optional features (shared.protocol.FEATURES)
                self.features = FEATURES.intersection(msg["features"])
                welcome = {**welcome, "features": sorted(self.features)}
            web_port = getattr(self.lobby, "web_port", None)  # the phone page (server.web)
            if web_port is not None:
                welcome["web_port"] = web_port
            self.name = welcome["name"]
            self.greeted = True
            self._cancel_hello()
            if self.factory is not None:
                self.factory.greeted(self)
            self.clocksync = ClockSync(self.push, self.clock, self.lobby.config["timing"],
                                       on_tick=self._heartbeat, send_raw=self.push_raw)
            if self._matches > 0:
                self.clocksync.set_playing(True)
            self.clocksync.start()  # the burst's pings are held until welcome is written
            return "welcome", welcome
        if kind == "resync":
            return "ack", self.lobby._table(msg["table"]).delivery.resync(self, msg.get("step"))
        return self.lobby.handle(self, msg)

    # -- heartbeat ------------------------------------------------------------------
    def _heartbeat(self, silent_s: float) -> None:
        """At each ping: ``silent_s`` is how long this connection's pongs have stopped
        (counted while the server itself runs, see :class:`ClockSync`). Seated at a
        running match and silent for ``server.heartbeat_timeout_s``: declared away."""
        if (self._matches <= 0 or self.heartbeat_timeout_s <= 0 or self._closing
                or silent_s < self.heartbeat_timeout_s):
            return
        log.warn("connection {id} ({name}) answered no ping for {s:.1f} s during a match: "
                 "declared away", id=self.conn_id, name=self.name, s=silent_s)
        self.away_declared = True
        self._abort()  # connectionLost holds the seat

    # -- errors and abuse -----------------------------------------------------------
    def _error(self, error: ProtocolError, seq: int | None) -> None:
        code = error.code
        fields = error.fields()
        if seq is not None:
            fields["re"] = seq
        self._write(encode("error", **fields), reply=True)
        if code == "too_long":
            self.close_reason = code
            self.close()
            return
        now = self.clock.seconds()
        self._errors.append(now)
        while self._errors and now - self._errors[0] > ERROR_WINDOW_S:
            self._errors.popleft()
        if len(self._errors) > MAX_ERRORS:
            self._abuse(say("too_many_errors", n=MAX_ERRORS, s=round(ERROR_WINDOW_S)))

    def _flooding(self) -> bool:
        now = self.clock.seconds()
        start, count = self._second
        if now - start >= 1.0:
            start, count = now, 0
        count += 1
        self._second = (start, count)
        if count > MAX_MESSAGES_PER_S:
            self._abuse(say("flooding", n=MAX_MESSAGES_PER_S))
            return True
        return False

    def _abuse(self, why: Sentence) -> None:
        log.warn("closing connection {id} ({name}): {why}", id=self.conn_id, name=self.name, why=why.english())
        self._write(encode("error", **ProtocolError("rate_limited", why).fields()))
        self.close_reason = "rate_limited"
        self.close()

    # -- output and slow readers (IPushProducer) ------------------------------------
    def pending_bytes(self) -> int:
        """Bytes written to this connection that the server still holds: the transport's
        buffer (a Twisted TCP transport), else what was written since it paused."""
        return self.pending_bytes_of(self.transport)

    def pending_bytes_of(self, t: Any) -> int:
        buffered = getattr(t, "dataBuffer", None)
        if isinstance(buffered, bytes) and hasattr(t, "_tempDataLen"):
            return len(buffered) - int(getattr(t, "offset", 0)) + int(t._tempDataLen) + self._out_bytes
        waiting = getattr(t, "pending_bytes", None)  # a transport that knows (a WebSocket's)
        if waiting is not None:
            return int(waiting()) + self._out_bytes
        return self._queued + self._out_bytes

    def _gate(self) -> None:
        """An action wrote its record: hold this connection's output (the ``ack``, then
        the ``update``) until the group commit has it on disk, so that both leave in
        one write (:meth:`server.persist.GroupCommit.after_commit`; a real reactor
        only: on a test clock the commit runs inline)."""
        if self._gated is not None:
            return
        gc = group_commit(self.clock)
        if gc.threads is None or not gc.pending:
            return
        self._gated = []
        gc.after_commit(self._ungate)

    def _ungate(self) -> None:
        held, self._gated = self._gated, None
        for data in held or ():
            self._write(data)

    def _write(self, data: bytes, reply: bool = False) -> None:
        """Hand ``data`` to the output. A push that would make more than
        ``max_output_bytes`` wait in the server drops the connection (it stopped
        reading); a ``reply`` never does: requests are not answered while replies wait
        (:meth:`_check_input`), so replies cannot pile up."""
        if self._gated is not None:
            self._gated.append(data)
            return
        t: Any = self.transport  # a tcp.Connection's buffers are read below
        if t is None or self._aborted:
            return
        if self._flusher is None:
            if not reply and self.pending_bytes() + len(data) > self.max_output_bytes:
                self._drop_slow()
                return
            if self._paused:
                self._queued += len(data)
            self._written += len(data)
            t.write(data)
            return
        # a TCP transport (pending_bytes_of, inline: every message passes here)
        if not reply and (len(t.dataBuffer) - t.offset + t._tempDataLen + self._out_bytes + len(data)
                          > self.max_output_bytes):
            self._drop_slow()
            return
        if self._paused:
            self._queued += len(data)
        if not self._out:
            self._flusher.add(self)
        self._out.append(data)
        self._out_bytes += len(data)
        self._written += len(data)

    def _flush(self) -> bool:
        """Send what this turn wrote (:class:`OutputFlush`); True when it went straight
        to the socket."""
        out, self._out, self._out_bytes = self._out, [], 0
        t: Any = self.transport  # a tcp.Connection: its buffers and socket are used below
        if not out or t is None or self._aborted:
            return False
        data = out[0] if len(out) == 1 else b"".join(out)
        if t.dataBuffer or t._tempDataBuffer or not t.connected or t.disconnecting:
            t.write(data)  # behind what the transport already holds, in order
            if self._input_paused:
                self._resume_input()  # unless that write filled the transport's buffer
            return False
        try:
            sent = t.socket.send(data)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            t.write(data)  # the transport's own write finds the error and closes
            return False
        if sent < len(data):
            t.write(data[sent:])  # the kernel's buffer is full: the transport waits for it
        if self._input_paused:
            self._resume_input()
        return True

    def pauseProducing(self) -> None:
        """The transport's buffer is full: the client is not reading fast enough (or
        a burst of replies is on its way): requests wait, and the slow-reader clock
        starts."""
        if not self._paused:
            self._paused = True
            self._queued = 0
            self._slow_mark = self._taken()
            self._slow_call = self.clock.callLater(SLOW_CLIENT_S, self._slow_check)
        self._check_input()

    def resumeProducing(self) -> None:
        """The transport's buffer drained."""
        self._paused = False
        self._queued = 0
        self._cancel_slow()
        self._resume_input()

    def _taken(self) -> int:
        """Bytes of the output the client (or the kernel for it) has taken so far."""
        return self._written - self.pending_bytes()

    def _slow_check(self) -> None:
        """:data:`SLOW_CLIENT_S` since the transport paused, or since the last check:
        a client that took nothing meanwhile stopped reading and is dropped; one whose
        output drains, however slowly, is given another period."""
        self._slow_call = None
        taken = self._taken()
        if self._paused and taken > self._slow_mark and not self._aborted:
            self._slow_mark = taken
            self._slow_call = self.clock.callLater(SLOW_CLIENT_S, self._slow_check)
            return
        self._drop_slow()

    def stopProducing(self) -> None:
        self._cancel_slow()

    def _cancel_slow(self) -> None:
        if self._slow_call is not None and self._slow_call.active():
            self._slow_call.cancel()
        self._slow_call = None

    def _drop_slow(self) -> None:
        self._cancel_slow()
        if self._aborted:
            return
        log.warn("dropping connection {id} ({name}): it stopped reading ({n} bytes waiting)",
                 id=self.conn_id, name=self.name, n=self.pending_bytes())
        self._abort()
