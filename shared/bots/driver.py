"""Runs one bot against a stream of updates: one piece of code for the server's
in-process bots and for ``mafia-bot``'s TCP bots.

The driver is pure: scheduling goes through a ``schedule(delay_s, fn) -> handle``
callable (``reactor.callLater`` in production, ``task.Clock.callLater`` in tests) whose
handle has ``cancel()`` and ``active()``.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

from shared.bots.base import Bot, Decision
from shared.rules import Action


class _Handle(Protocol):
    def cancel(self) -> None: ...
    def active(self) -> bool: ...


Schedule = Callable[[float, Callable[[], None]], _Handle]
#: ``send(decision, anchor)``: deliver the decision; ``anchor`` is what the caller passed
#: with the update the decision was made on (e.g. its server time, to stamp a claim).
Send = Callable[[Decision, Any], None]


def window_of(view: dict[str, Any]) -> Any:
    """The id of the reaction window open in ``view`` (its ``window`` object's
    ``"window"`` or ``"id"`` field), or None."""
    w = view.get("window")
    if isinstance(w, dict):
        return w.get("window", w.get("id"))
    return None


class BotDriver:
    """Feeds updates to ``bot`` and sends its decisions after their delay.

    At most one decision is pending. On a new update a pending decision is kept when its
    action is still legal *in the same reaction window* (a snap planned at the window's
    opening keeps its press time when another player's wrong snap arrives first);
    otherwise it is cancelled and the bot decides again. Actions compare by value, so
    without the window check a snap planned in one window would fire in the next one.
    """

    def __init__(self, bot: Bot, schedule: Schedule, send: Send):
        self.bot = bot
        self._schedule = schedule
        self._send = send
        self._pending: tuple[_Handle, Decision, Any, Any] | None = None

    def on_update(self, events: list[dict[str, Any]], view: dict[str, Any],
                  legal: list[Action], anchor: Any = None) -> None:
        """Give the bot an update; schedule its next decision if it has one."""
        self.bot.observe(events, view)
        pending = self._pending
        if pending is None and not legal:
            return  # the common case of a seat the game does not wait for
        window = window_of(view)
        if pending is not None:
            handle, planned, _, planned_in = pending
            if handle.active() and planned.action in legal and planned_in == window:
                return
            if handle.active():
                handle.cancel()
            self._pending = None
        if not legal:
            return
        decision = self.bot.decide(view, legal)
        if decision is None:
            return
        handle = self._schedule(max(0.0, decision.delay_ms) / 1000.0, self._fire)
        self._pending = (handle, decision, anchor, window)

    def _fire(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            _, decision, anchor, _ = pending
            self._send(decision, anchor)

    def stop(self) -> None:
        """Cancel any pending decision (the bot leaves the seat)."""
        if self._pending is not None and self._pending[0].active():
            self._pending[0].cancel()
        self._pending = None
