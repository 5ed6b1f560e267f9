"""The turn timer (table option ``turn_timer_s``; docs/PROTOCOL.md "Turn timer").

A *turn* is the time the match waits for one seat alone, outside reaction windows
(those have their own timeout); it is identified by ``(seat, turn_id)`` with the
game's ``turn_id`` (:class:`shared.gamedef.GameDef`), so a window in the middle of a
turn (a counter against the active player's card) neither ends nor restarts it. When a
turn lasts longer than the limit the table lets the seat's bot play the rest of it; if a
window is open at that moment, as soon as it closes.
"""
from __future__ import annotations

import weakref
from typing import Any, Callable

TurnKey = tuple[int, Any]


def turn_key(awaiting: frozenset[int], window: Any, turn_id: Any,
             current: TurnKey | None) -> TurnKey | None:
    """The turn under way: ``current`` while a window is open, else the single awaited
    seat with the game's ``turn_id`` of the state; None when several seats (a
    simultaneous choice) or none are awaited."""
    if window is not None:
        return current
    if len(awaiting) != 1:
        return None
    (seat,) = awaiting
    return seat, turn_id


class TurnTimer:
    """Times turns on ``clock`` (an ``IReactorTime``); ``seconds`` 0 = off.
    ``on_expire(key)`` is called when a turn's time is up (a bound method is held
    weakly: its table, gone, is not called)."""

    def __init__(self, clock: Any, seconds: float, on_expire: Callable[[TurnKey], None]):
        self.clock = clock
        self.seconds = float(seconds)
        # a table's own method is held weakly: no reference cycle keeps a closed
        # table in memory until the garbage collector runs
        self._on_expire: Callable[[], Callable[[TurnKey], None] | None] = (
            weakref.WeakMethod(on_expire) if hasattr(on_expire, "__self__") else lambda: on_expire)
        self.key: TurnKey | None = None
        self.deadline: float | None = None  # server ms
        self.expired = False  # the time is up, the bot has not taken the turn yet
        self._call: Any = None

    def track(self, key: TurnKey | None, now_ms: float) -> bool:
        """The turn under way is ``key``: (re)start the clock when it changed. Returns
        True when the turn changed."""
        if self.seconds <= 0 or key == self.key:
            return False
        self._cancel()
        self.key, self.expired = key, False
        self.deadline = None if key is None else now_ms + self.seconds * 1000.0
        if key is not None:
            self._call = self.clock.callLater(self.seconds, self._fire)
        return True

    def hold(self) -> None:
        """The clock of the turn under way stops until :meth:`restart` (a restored match
        waiting for its players)."""
        self._cancel()

    def restart(self, now_ms: float) -> None:
        """The turn under way gets its whole time again from ``now_ms`` (a restored
        match goes on after waiting for its players)."""
        key, self.key = self.key, None
        self._cancel()
        self.track(key, now_ms)

    def _fire(self) -> None:
        self._call = None
        self.expired = True
        on_expire = self._on_expire()
        if self.key is not None and on_expire is not None:
            on_expire(self.key)

    def field(self) -> dict[str, Any] | None:
        """The protocol's ``timer`` field: ``{"seat", "deadline"}`` or None."""
        if self.key is None or self.deadline is None:
            return None
        return {"seat": self.key[0], "deadline": self.deadline}

    def _cancel(self) -> None:
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None

    def stop(self) -> None:
        self._cancel()
        self.key = self.deadline = None
        self.expired = False
