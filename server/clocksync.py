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
one, at most the ping period plus :data:`MAX_SILENT_STEP_MS`), so that a server that was itself stalled (a
slow disk, a paused process, a test clock jumping ahead) never blames its clients for
the pongs it could not read; ``on_tick(silent_s)`` is called after every ping.
"""
from __future__ import annotations

import bisect
import itertools
import math
import weakref
from collections import deque
from typing import Any, Callable

from server.native import per_clock



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
PUSH_OFFSET_CHANGE_MS = 0.5
#: ... or after this many samples since the last push.
PUSH_EVERY = 10
#: Longest gap between two pings counted as silence: the ping period plus this (ms); see
#: the module docstring.
MAX_SILENT_STEP_MS = 250.0
#: Pings come due on this grid (ms): see :meth:`ClockSync._schedule`.
PING_GRID_MS = 50.0


class OffsetEstimator:
    """Offset and RTT statistics from ping samples. Pure; times in ms.

    Kept incrementally: the offset is recomputed once per sample, from the window's
    extreme bounds kept as sliding-window maximum and minimum (O(1) per sample; a sort
    of the window only when the bounds contradict each other), the RTTs are kept sorted
    as they come and go (a percentile is one index), so the arbiter's questions cost
    nothing however often it asks."""

    def __init__(self, window: int = WINDOW, best: int = BEST_SAMPLES, rtt_window: int = RTT_WINDOW):
        self.samples: deque[tuple[float, float, float, float]] = deque(maxlen=window)
        # each sample: (rtt, offset, lowest possible offset, highest possible offset)
        self._window = window
        self._added = 0  # samples added so far: the index of the next one
        # (index, bound) of the samples that may still become the highest low bound
        # (lows decreasing) and the lowest high bound (highs increasing) of the window:
        # the sliding-window maximum and minimum in O(1) per sample
        self._lows: deque[tuple[int, float]] = deque()
        self._highs: deque[tuple[int, float]] = deque()
        self.rtts: deque[float] = deque(maxlen=max(window, rtt_window))
        self._sorted: list[float] = []  # the same RTTs, sorted
        self.best = best
        self._offset: float | None = None

    def add(self, t0: float, t1: float, tc: float) -> None:
        """Record one round trip: ping sent at server ``t0``, client stamped ``tc``,
        pong received at server ``t1``. Samples with ``t1 < t0`` are ignored."""
        if t1 < t0:
            return
        rtt = t1 - t0
        low, high = t0 - tc, t1 - tc
        self.samples.append((rtt, (t0 + t1) / 2.0 - tc, low, high))
        i = self._added
        self._added = i + 1
        lows, highs, gone = self._lows, self._highs, i - self._window
        while lows and lows[-1][1] <= low:
            lows.pop()
        lows.append((i, low))
        if lows[0][0] <= gone:
            lows.popleft()
        while highs and highs[-1][1] >= high:
            highs.pop()
        highs.append((i, high))
        if highs[0][0] <= gone:
            highs.popleft()
        if len(self.rtts) == self.rtts.maxlen:
            del self._sorted[bisect.bisect_left(self._sorted, self.rtts[0])]
        self.rtts.append(rtt)
        bisect.insort(self._sorted, rtt)
        self._offset = self._estimate()

    def _estimate(self) -> float:
        low, high = self._lows[0][1], self._highs[0][1]  # max and min over the window
        if low <= high:
            return (low + high) / 2.0
        best = sorted(self.samples)[: self.best]
        offsets = sorted(s[1] for s in best)
        mid = len(offsets) // 2
        return offsets[mid] if len(offsets) % 2 else (offsets[mid - 1] + offsets[mid]) / 2.0

    @property
    def offset_ms(self) -> float | None:
        """``server_ms - client_ms`` (None before the first sample): the middle of the
        intersection of the samples' bounds, else the median offset of the
        :data:`BEST_SAMPLES` lowest-RTT samples."""
        return self._offset

    def rtt_percentile(self, p: float) -> float | None:
        """The ``p``-th percentile (0-100, nearest rank) of the last :data:`RTT_WINDOW`
        RTTs, in ms."""
        rtts = self._sorted
        if not rtts:
            return None
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


class PingWheel:
    """The ping timers of every connection of one clock: one reactor timer per
    :data:`PING_GRID_MS` slot that has pings due, each slot a set of :class:`ClockSync`.
    Moving a connection's next ping is a set operation, not a reactor timer created,
    pushed on Twisted's heap and popped again (with a Python comparison per level of a
    heap of ~1,000 timers): pings are most of what a quiet server does."""

    def __init__(self, clock: Any):
        self._clock = clock
        self._slots: dict[int, dict["ClockSync", None]] = {}  # slot -> due syncs, in order
        self._calls: dict[int, Any] = {}  # slot -> its reactor timer

    def add(self, sync: "ClockSync", slot: int, now_ms: float) -> None:
        """``sync._tick()`` at ``slot * PING_GRID_MS`` ms (at once when that is past)."""
        due = self._slots.get(slot)
        if due is None:
            due = self._slots[slot] = {}
            delay = max(0.0, slot * PING_GRID_MS - now_ms) / 1000.0
            self._calls[slot] = self._clock.callLater(delay, self._fire, slot)
        due[sync] = None

    def remove(self, sync: "ClockSync", slot: int) -> None:
        due = self._slots.get(slot)
        if due is None:
            return
        due.pop(sync, None)
        if not due:  # nobody left in that slot: no timer either
            del self._slots[slot]
            call = self._calls.pop(slot)
            if call.active():
                call.cancel()

    def _fire(self, slot: int) -> None:
        self._calls.pop(slot, None)
        for sync in self._slots.pop(slot, ()):
            sync._tick()

    def __len__(self) -> int:
        """Connections with a ping scheduled."""
        return sum(len(d) for d in self._slots.values())


_wheels: "weakref.WeakKeyDictionary[Any, PingWheel]" = weakref.WeakKeyDictionary()


def ping_wheel(clock: Any) -> PingWheel:
    """The :class:`PingWheel` of ``clock`` (one per reactor or test clock)."""
    return per_clock(_wheels, clock, PingWheel)


class ClockSync:
    """Runs the pings of one connection and keeps its :class:`OffsetEstimator`.

    ``send(msg_type, **fields)`` writes a message to the connection; ``clock`` is an
    ``IReactorTime`` whose ``seconds()`` is the server's monotonic clock. ``timing`` is
    the config's ``timing`` section (``ping_burst``, ``ping_interval_ms``,
    ``ping_interval_round_ms``, ``ping_interval_window_ms``, ``rtt_bound_floor_ms``,
    ``rtt_bound_cap_ms``). ``send_raw(bytes)``, when given, writes a line already
    encoded (the pings skip the JSON encoder).

    Cadence: a burst of ``ping_burst`` pings at hello, then one ping per
    ``ping_interval_ms`` (1 s) outside matches and ``ping_interval_round_ms`` (1 s)
    during one, and every ``ping_interval_window_ms`` (250 ms) while a reaction window
    is open at the connection's table (:meth:`set_window`). A ``clock`` message goes
    out when the offset moved by more than :data:`PUSH_OFFSET_CHANGE_MS` or every
    :data:`PUSH_EVERY` samples.
    """

    def __init__(self, send: Callable[..., None], clock: Any, timing: dict[str, Any],
                 on_tick: Callable[[float], None] | None = None,
                 send_raw: Callable[[bytes], None] | None = None):
        self._send = send
        self._send_raw = send_raw
        self._on_tick = on_tick
        #: How long the pongs have stopped (ms), see the module docstring.
        self.silent_ms = 0.0
        self._last_tick: float | None = None
        self._clock = clock
        self.timing = timing
        self.estimator = OffsetEstimator()
        self._ids = itertools.count(1)
        self._sent: dict[int, float] = {}
        self._next: int | None = None  # the grid slot of the next ping (PingWheel)
        self._wheel = ping_wheel(clock)
        self._started = False
        self._last_ping: float | None = None
        self._burst: list[Any] = []
        self._playing = False
        self._window = False
        self._since_push = 0
        self._pushed_offset: float | None = None

    def now_ms(self) -> float:
        return self._clock.seconds() * 1000.0

    # -- schedule -------------------------------------------------------------------
    def interval_ms(self) -> float:
        """The ping period now (ms): ``ping_interval_window_ms`` while a reaction window
        is open at this connection's table (claims are judged by this connection's RTT
        and offset: fresh samples under the current load), else
        ``ping_interval_round_ms`` during a match, else ``ping_interval_ms``."""
        if self._window and self._playing:
            key, default = "ping_interval_window_ms", 250
        elif self._playing:
            key, default = "ping_interval_round_ms", 1000
        else:
            key, default = "ping_interval_ms", 1000
        return max(10.0, float(self.timing.get(key, default)))

    def start(self) -> None:
        """Send the ping burst now, then ping at :meth:`interval_ms`."""
        n = max(1, int(self.timing.get("ping_burst", 8)))
        self.ping()
        for i in range(1, n):
            self._burst.append(self._clock.callLater(i * BURST_SPACING_MS / 1000.0, self.ping))
        self._started = True
        self._schedule()

    def stop(self) -> None:
        """Stop every timer (the connection is gone)."""
        for call in self._burst:
            if call.active():
                call.cancel()
        self._burst = []
        self._cancel_next()
        self._started = False
        self._on_tick = None
        self._send = _nothing  # no reference back to the closed connection
        self._send_raw = None

    def set_playing(self, playing: bool) -> None:
        """Ping at ``ping_interval_round_ms`` while the connection's table plays, at
        ``ping_interval_ms`` otherwise; a match starting pings at once."""
        if playing != self._playing:
            self._playing = playing
            self.silent_ms = 0.0  # a full heartbeat timeout from the start of a match
            if not playing:
                self._window = False
            if self._started:
                self._cancel_next()
                self.ping()
                self._schedule()

    def set_window(self, open_: bool) -> None:
        """A reaction window opened (True) or closed (False) at this connection's table:
        ping at ``ping_interval_window_ms`` meanwhile (at once if the last ping is older
        than that), back to the match's period after."""
        if open_ == self._window:
            return
        self._window = open_
        if not self._started:
            return
        if open_ and self._playing and (self._last_ping is None
                                        or self.now_ms() - self._last_ping >= self.interval_ms()):
            self.ping()
        self._schedule()

    def _cancel_next(self) -> None:
        if self._next is not None:
            self._wheel.remove(self, self._next)
        self._next = None

    def _schedule(self) -> None:
        """The next ping, one period after the last one, on a :data:`PING_GRID_MS` grid:
        the pings of many connections come due in the same reactor turn instead of
        waking the reactor once each."""
        now = self.now_ms()
        due = (self._last_ping if self._last_ping is not None else now) + self.interval_ms()
        slot = math.ceil(due / PING_GRID_MS - 1e-6)
        if slot == self._next:
            return  # already there (a window that opened and closed within a period)
        self._cancel_next()
        self._wheel.add(self, slot, now)
        self._next = slot

    def _tick(self) -> None:
        self._next = None
        self.ping()
        if self._started:
            self._schedule()

    # -- samples --------------------------------------------------------------------
    def ping(self) -> None:
        """Send one ``ping {id, ts}``."""
        now = self.now_ms()
        self._last_ping = now
        if len(self._sent) > 4:
            for pid, t0 in list(self._sent.items()):
                if now - t0 > PING_EXPIRY_MS:
                    del self._sent[pid]
        if self._last_tick is not None:
            step_cap = self.interval_ms() + MAX_SILENT_STEP_MS
            self.silent_ms += min(max(0.0, now - self._last_tick), step_cap)
        self._last_tick = now
        pid = next(self._ids)
        self._sent[pid] = now
        if self._send_raw is not None:  # the same line encode() would make, without json
            self._send_raw(b'{"v":1,"type":"ping","id":%d,"ts":%s}\n' % (pid, repr(now).encode()))
        else:
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
