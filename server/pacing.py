"""How far behind the reactor runs, and the garbage collector's pacing of a busy server.

A timer that closes a collection or a reaction window fires before the reactor reads
what arrived meanwhile, and a busy reactor reads a claim late: the claim bounds and
those timers widen by the reactor's recent lag (:func:`lag_ms`,
:func:`after_queued_input`), so an answer sent in time is never late because the server
was busy. :class:`CollectorPacing` keeps CPython's collections short for
``mafia-server``. Times in ms unless a name says ``_s``.
"""
from __future__ import annotations

import gc
import weakref
from collections import deque
from typing import Any, Callable

#: Longest reactor lag (ms) added to a claim's bounds and to the closing of a
#: collection or a window: beyond it the server is overloaded, not slow to read.
MAX_LAG_MS = 250.0


class ReactorLag:
    """How far behind the reactor runs: a timer every
    ``period_s`` notes how late it fired -- the time the reactor spent on other work
    (reading, deciding, writing) before it could run it, which is also how long a line
    that arrived meanwhile may have waited in the socket before the server read it.
    :meth:`lag_ms` is the largest of the last ``keep`` samples (2 s), in ms."""

    def __init__(self, clock: Any, period_s: float = 0.1, keep: int = 20):
        self.clock = clock
        self.period_s = period_s
        self.samples: deque[float] = deque(maxlen=keep)
        self._due = clock.seconds() + period_s
        self._call = clock.callLater(period_s, self._tick)

    def _tick(self) -> None:
        now = self.clock.seconds()
        self.samples.append(max(0.0, (now - self._due) * 1000.0))
        self._due = now + self.period_s
        self._call = self.clock.callLater(self.period_s, self._tick)

    def lag_ms(self) -> float:
        """The reactor's recent lag in ms (0 when it keeps up), at most :data:`MAX_LAG_MS`,
        plus how long the current reactor turn has run so far."""
        late = max(0.0, (self.clock.seconds() - self._due) * 1000.0)  # a tick overdue now
        return min(MAX_LAG_MS, max(max(self.samples, default=0.0), late))

    def stop(self) -> None:
        if self._call is not None and self._call.active():
            self._call.cancel()


_lags: "weakref.WeakKeyDictionary[Any, ReactorLag | None]" = weakref.WeakKeyDictionary()


def reactor_lag(clock: Any) -> ReactorLag | None:
    """The :class:`ReactorLag` of the reactor behind ``clock`` (one each), or None for a
    ``task.Clock`` (tests: timers run on time, lines are read at once)."""
    try:
        return _lags[clock]
    except KeyError:
        reactor = getattr(clock, "_reactor", None)
        lag = ReactorLag(clock) if reactor is not None and hasattr(reactor, "callInThread") else None
        _lags[clock] = lag
        return lag


def lag_ms(clock: Any) -> float:
    """:meth:`ReactorLag.lag_ms` of ``clock``'s reactor; 0.0 on a ``task.Clock``."""
    lag = reactor_lag(clock)
    return lag.lag_ms() if lag is not None else 0.0


def after_queued_input(clock: Any, fn: Callable[..., None], *args: Any) -> Any:
    """Call ``fn(*args)`` once the lines already waiting in the server's sockets have been
    read: a timer that closes a collection or a window fires before the reactor reads
    what arrived meanwhile, so on a real reactor the call goes one reactor turn later
    (plus the recent lag); on a ``task.Clock`` at once. Returns the DelayedCall, or
    None when ``fn`` ran."""
    lag = reactor_lag(clock)
    if lag is None:
        fn(*args)
        return None
    return clock.callLater(lag.lag_ms() / 1000.0, fn, *args)


class CollectorPacing:
    """Short garbage-collector pauses for a busy ``mafia-server``: the
    reactor's longest stalls at 200 tables were CPython's full collections (about
    0.3 s each for ~500,000 objects, every 10-30 s under load) and the gen-1
    collections that feed them; the round trip p99 of the whole server was theirs.

    * the young generation is collected every ``young`` allocations (CPython's
      default: 700), so far fewer short-lived objects (views, updates, timers) live
      long enough to be promoted and rescanned. Measured in ``mafia-server`` at 100
      saturated tables (``gc.callbacks``, thread CPU, one ``server_load.py --sizes 100``
      run): 10,000 spent 0.77 s collecting (178 young and 15 middle collections of
      2.9 and 16 ms), 50,000 spent 0.16 s (120 and 10, of 1.0 and 0.8 ms), 200,000
      0.13 s: 4 % of the server's CPU;
    * every ``freeze_s`` seconds the surviving objects are frozen (``gc.freeze``,
      O(1)): automatic collections never walk the long-lived match state again, so
      every automatic collection stays as small as what was created since;
    * every ``full_s`` seconds one full collection of everything (``gc.unfreeze``,
      ``gc.collect``, ``gc.freeze``) gives back the reference cycles that became
      garbage after being frozen: memory stays bounded, at the price of one pause of
      the old full-collection size per ``full_s`` instead of one per 10-30 s.

    ``clock`` is an ``IReactorTime``; ``collector`` the ``gc`` module (a fake in
    tests). :meth:`start` applies the thresholds and starts both timers;
    :meth:`stop` cancels them and puts back the thresholds and the frozen objects.
    Times in seconds. ``mafia-server`` installs it (:mod:`server.main`), and so does
    the client (:meth:`client.app.App.pace_collector`, its embedded server with it),
    which also calls :meth:`full` when it changes screens and whose timed full
    collection waits until ``calm()`` (no live table on screen): a pause there goes
    unseen, rather than in the middle of a race."""

    #: A full collection due while ``calm()`` says no is tried again this much later (s).
    CALM_RETRY_S = 5.0

    def __init__(self, clock: Any, young: int = 50_000, freeze_s: float = 10.0,
                 full_s: float | None = 900.0, collector: Any = gc, calm: Any = None):
        self.clock = clock
        #: None, or a callable saying whether a pause would go unseen now (the client:
        #: no live table on screen); a full collection waits for it.
        self.calm = calm
        self.young = young
        self.freeze_s = freeze_s
        self.full_s = full_s
        self.gc = collector
        self.full_collections = 0
        self._saved: tuple[int, ...] | None = None
        self._freeze_call: Any = None
        self._full_call: Any = None

    def start(self) -> None:
        self._saved = tuple(self.gc.get_threshold())
        self.gc.set_threshold(self.young, *self._saved[1:])
        self.gc.collect()  # what starting the server left behind, then ...
        self.gc.freeze()  # ... modules, config and restored matches: never rescanned
        self._freeze_call = self.clock.callLater(self.freeze_s, self._freeze)
        if self.full_s is not None:
            self._full_call = self.clock.callLater(self.full_s, self._full)

    def _freeze(self) -> None:
        self.gc.freeze()
        self._freeze_call = self.clock.callLater(self.freeze_s, self._freeze)

    def full(self) -> None:
        """One full collection of everything now, frozen objects included (then the
        survivors frozen again): the cycles that died while frozen are freed."""
        self.gc.unfreeze()
        self.gc.collect()
        self.gc.freeze()
        self.full_collections += 1

    def _full(self) -> None:
        if self.calm is not None and not self.calm():
            self._full_call = self.clock.callLater(self.CALM_RETRY_S, self._full)
            return
        self.full()
        if self.full_s is not None:
            self._full_call = self.clock.callLater(self.full_s, self._full)

    def stop(self) -> None:
        for call in (self._freeze_call, self._full_call):
            if call is not None and call.active():
                call.cancel()
        self._freeze_call = self._full_call = None
        if self._saved is not None:
            self.gc.set_threshold(*self._saved)
            self._saved = None
            self.gc.unfreeze()
