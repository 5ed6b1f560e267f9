"""Clock sync per connection (ARCHITECTURE §3 item 1; docs/PROTOCOL.md "Clock sync").

Cristian/NTP style: the server sends ``ping {id, ts}`` at server time ``t0``, the client
answers ``pong {id, tc}`` with its own monotonic time ``tc``, the pong arrives at ``t1``.
One sample is ``rtt = t1 - t0`` and ``offset = (t0 + t1) / 2 - tc`` (so that
``server_ms ≈ client_ms + offset``).

The client stamped ``tc`` between ``t0`` and ``t1`` (server time), so each sample also
*bounds* the offset: ``t0 - tc <= offset <= t1 - tc``. The estimate is the middle of the
intersection of these bounds over the last :data:`WINDOW` samples: it combines the
fastest trip out with the fastest trip back, even from different pings, which halves the
error of picking the single best sample under jitter (uniform ±10 ms on an 80 ms path,
32 samples: p99 error 1.3 ms instead of 4 ms). When the bounds contradict each other
(a clock that drifts or jumped), the estimate falls back to the median offset of the
:data:`BEST_SAMPLES` lowest-RTT samples, whose error is at most half their RTT excess.

All times are milliseconds on the server's monotonic clock (``clock.seconds() * 1000``).

The pings are also the connection's heartbeat: :attr:`ClockSync.silent_ms` is how long
the pongs have stopped, counted tick by tick (each ping adds the time since the previous
one, at most :data:`MAX_SILENT_STEP_MS`), so that a server that was itself stalled (a
slow disk, a paused process, a test clock jumping ahead) never blames its clients for
the pongs it could not read; ``on_tick(silent_s)`` is called after every ping.
"""
from __future__ import annotations

import itertools
from collections import deque
from typing import Any, Callable

from twisted.internet.task import LoopingCall

#: Samples kept for the offset estimate (recent ones: clocks may drift).
WINDOW = 32
#: Round trips kept for the RTT percentiles: about 20 s while a match runs, so that the
#: p99 remembers the load spikes of this connection, not only the last 3 s.
RTT_WINDOW = 200
#: Lowest-RTT samples whose median offset is the estimate.
BEST_SAMPLES = 3
#: Gap between the pings of the burst sent after hello, in ms.
BURST_SPACING_MS = 5.0
#: Pings older than this without a pong are forgotten (ms).
PING_EXPIRY_MS = 10_000.0
#: A ``clock`` push is sent when the offset moved by more than this (ms) ...
PUSH_OFFSET_CHANGE_MS = 0.1
#: ... or after this many samples since the last push.
PUSH_EVERY = 10
#: Longest gap between two pings counted as silence (ms): see the module docstring.
MAX_SILENT_STEP_MS = 250.0


class OffsetEstimator:
    """Offset and RTT statistics from ping samples. Pure; times in ms."""

    def __init__(self, window: int = WINDOW, best: int = BEST_SAMPLES, rtt_window: int = RTT_WINDOW):
        self.samples: deque[tuple[float, float, float, float]] = deque(maxlen=window)
        # each sample: (rtt, offset, lowest possible offset, highest possible offset)
        self.rtts: deque[float] = deque(maxlen=max(window, rtt_window))
        self.best = best

    def add(self, t0: float, t1: float, tc: float) -> None:
        """Record one round trip: ping sent at server ``t0``, client stamped ``tc``,
        pong received at server ``t1``. Samples with ``t1 < t0`` are ignored."""
        if t1 < t0:
            return
        self.samples.append((t1 - t0, (t0 + t1) / 2.0 - tc, t0 - tc, t1 - tc))
        self.rtts.append(t1 - t0)

    @property
    def offset_ms(self) -> float | None:
        """``server_ms - client_ms`` (None before the first sample)."""
        if not self.samples:
            return None
        low = max(s[2] for s in self.samples)
        high = min(s[3] for s in self.samples)
        if low <= high:
            return (low + high) / 2.0
        best = sorted(self.samples)[: self.best]
        offsets = sorted(s[1] for s in best)
        mid = len(offsets) // 2
        return offsets[mid] if len(offsets) % 2 else (offsets[mid - 1] + offsets[mid]) / 2.0

    def rtt_percentile(self, p: float) -> float | None:
        """The ``p``-th percentile (0-100, nearest rank) of the last :data:`RTT_WINDOW`
        RTTs, in ms."""
        if not self.rtts:
            return None
        rtts = sorted(self.rtts)
        rank = max(1, min(len(rtts), -(-len(rtts) * p // 100)))
        return rtts[int(rank) - 1]

    def rtt_bound(self, floor_ms: float, cap_ms: float) -> float:
        """How long before its arrival a claim's press may lie (ms): the RTT p99 clamped
        to ``[floor_ms, cap_ms]``; ``cap_ms`` before any sample."""
        p99 = self.rtt_percentile(99)
        if p99 is None:
            return cap_ms
        return min(cap_ms, max(floor_ms, p99))


def _nothing(*args: Any, **fields: Any) -> None:
    """Where a stopped :class:`ClockSync` sends."""


class ClockSync:
    """Runs the pings of one connection and keeps its :class:`OffsetEstimator`.

    ``send(msg_type, **fields)`` writes a message to the connection; ``clock`` is an
    ``IReactorTime`` whose ``seconds()`` is the server's monotonic clock. ``timing`` is
    the config's ``timing`` section (``ping_burst``, ``ping_interval_ms``,
    ``ping_interval_round_ms``, ``rtt_bound_floor_ms``, ``rtt_bound_cap_ms``).
    """

    def __init__(self, send: Callable[..., None], clock: Any, timing: dict[str, Any],
                 on_tick: Callable[[float], None] | None = None):
        self._send = send
        self._on_tick = on_tick
        #: How long the pongs have stopped (ms), see the module docstring.
        self.silent_ms = 0.0
        self._last_tick: float | None = None
        self._clock = clock
        self.timing = timing
        self.estimator = OffsetEstimator()
        self._ids = itertools.count(1)
        self._sent: dict[int, float] = {}
        self._loop: LoopingCall | None = None
        self._burst: list[Any] = []
        self._playing = False
        self._since_push = 0
        self._pushed_offset: float | None = None

    def now_ms(self) -> float:
        return self._clock.seconds() * 1000.0

    # -- schedule -------------------------------------------------------------------
    def start(self) -> None:
        """Send the ping burst now, then ping at the idle interval."""
        n = max(1, int(self.timing.get("ping_burst", 8)))
        self.ping()
        for i in range(1, n):
            self._burst.append(self._clock.callLater(i * BURST_SPACING_MS / 1000.0, self.ping))
        self._restart_loop(now=False)

    def stop(self) -> None:
        """Stop every timer (the connection is gone)."""
        for call in self._burst:
            if call.active():
                call.cancel()
        self._burst = []
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self._loop = None
        self._on_tick = None
        self._send = _nothing  # no reference back to the closed connection

    def set_playing(self, playing: bool) -> None:
        """Ping at ``ping_interval_round_ms`` while the connection's table plays, at
        ``ping_interval_ms`` otherwise."""
        if playing != self._playing:
            self._playing = playing
            self.silent_ms = 0.0  # a full heartbeat timeout from the start of a match
            if self._loop is not None:
                self._restart_loop(now=True)

    def _restart_loop(self, now: bool) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        key = "ping_interval_round_ms" if self._playing else "ping_interval_ms"
        interval = max(10.0, float(self.timing.get(key, 1000))) / 1000.0
        self._loop = LoopingCall(self.ping)
        self._loop.clock = self._clock
        self._loop.start(interval, now=now)

    # -- samples --------------------------------------------------------------------
    def ping(self) -> None:
        """Send one ``ping {id, ts}``."""
        now = self.now_ms()
        for pid, t0 in list(self._sent.items()):
            if now - t0 > PING_EXPIRY_MS:
                del self._sent[pid]
        if self._last_tick is not None:
            self.silent_ms += min(max(0.0, now - self._last_tick), MAX_SILENT_STEP_MS)
        self._last_tick = now
        pid = next(self._ids)
        self._sent[pid] = now
        self._send("ping", id=pid, ts=now)
        if self._on_tick is not None:
            self._on_tick(self.silent_ms / 1000.0)

    def on_pong(self, pid: int, tc: float) -> None:
        """Record the pong of ping ``pid`` stamped ``tc`` (client ms); unknown ids are
        ignored. Pushes ``clock`` when the estimate moved or now and then."""
        self.silent_ms = 0.0  # any pong: the client is alive; silence counts from now
        self._last_tick = self.now_ms()
        t0 = self._sent.pop(pid, None)
        if t0 is None:
            return
        self.estimator.add(t0, self.now_ms(), float(tc))
        self._since_push += 1
        offset = self.estimator.offset_ms
        moved = (self._pushed_offset is None or offset is None
                 or abs(offset - self._pushed_offset) > PUSH_OFFSET_CHANGE_MS)
        if moved or self._since_push >= PUSH_EVERY:
            self.push()

    def push(self) -> None:
        """Send ``clock {offset_ms, rtt_ms, rtt_p99_ms}`` (nothing before a sample)."""
        offset = self.estimator.offset_ms
        if offset is None:
            return
        self._pushed_offset = offset
        self._since_push = 0
        self._send("clock", offset_ms=offset, rtt_ms=self.estimator.rtt_percentile(50),
                   rtt_p99_ms=self.estimator.rtt_percentile(99))

    # -- what the arbiter needs -----------------------------------------------------
    @property
    def offset_ms(self) -> float | None:
        """``server_ms - client_ms``; None before the first sample."""
        return self.estimator.offset_ms

    def rtt_wait_ms(self) -> float:
        """How long a claim of this connection may travel (ms), for the arbiter's
        collection: the RTT p99 with the config's floor and a generous ceiling
        (``rtt_wait_cap_ms``, 1000 ms) instead of the lie bounds' cap."""
        return self.estimator.rtt_bound(float(self.timing.get("rtt_bound_floor_ms", 5)),
                                        float(self.timing.get("rtt_wait_cap_ms", 1000)))

    def rtt_bound_ms(self) -> float:
        """The claim bound of this connection (ms), from the config's floor and cap."""
        return self.estimator.rtt_bound(float(self.timing.get("rtt_bound_floor_ms", 5)),
                                        float(self.timing.get("rtt_bound_cap_ms", 150)))
