"""Runs one bot against a stream of updates: one piece of code for the server's
in-process bots and for ``mafia-bot``'s TCP bots.

The driver is pure: scheduling goes through a ``schedule(delay_s, fn) -> handle``
callable (``reactor.callLater`` in production, ``task.Clock.callLater`` in tests) whose
handle has ``cancel()`` and ``active()``; the pacing of turns reads the same clock
through ``now() -> seconds``.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

from shared.bots.base import Bot, Decision
from shared.rules import Action
from shared.showing import ShownOf, Stage


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

    **Paced turns** (``shown``, the game's :data:`shared.showing.ShownOf`, and ``now``,
    the scheduler's clock in seconds): a turn action -- any decision made while no
    reaction window is open, claims and passes excepted -- waits at least until the
    screens at the table have shown every event so far (:class:`shared.showing.Stage`),
    so a turn is never shorter than what it shows. Steps released together (in the same
    instant) all count; a step that comes while a kept turn action waits does not delay
    it (the others' simultaneous choices -- an Omerta peek, a Mafiosi bouncer -- are not
    taken in turn). Reaction windows are races and stay unpaced. Without
    ``shown`` (a table whose bots do not think: tests, benchmarks) decisions fire after
    their own delay only.
    """

    def __init__(self, bot: Bot, schedule: Schedule, send: Send, shown: ShownOf | None = None,
                 now: Callable[[], float] | None = None):
        self.bot = bot
        self._schedule = schedule
        self._send = send
        self._pending: tuple[_Handle, Decision, Any, Any] | None = None
        self._stage = Stage(shown) if shown is not None and now is not None else None
        self._now = now
        self._paced_at: float | None = None  # when the pending turn action fires (ms), if paced
        self._planned_at = 0.0  # when it was planned (ms)

    def on_update(self, events: list[dict[str, Any]], view: dict[str, Any],
                  legal: list[Action], anchor: Any = None) -> None:
        """Give the bot an update; schedule its next decision if it has one."""
        stage = self._stage
        if stage is not None and events:
            stage.show(events, self._now_ms())
        self.bot.observe(events, view)
        pending = self._pending
        if pending is None and not legal:
            return  # the common case of a seat the game does not wait for
        window = window_of(view)
        if pending is not None:
            handle, planned, planned_anchor, planned_in = pending
            if handle.active() and planned.action in legal and planned_in == window:
                if (stage is not None and self._paced_at is not None and stage.end > self._paced_at
                        and self._now_ms() == self._planned_at):
                    handle.cancel()  # a step released with the one it was planned on: wait for it too
                    self._plan(planned, planned_anchor, window, self._paced_at - self._planned_at)
                return
            if handle.active():
                handle.cancel()
            self._pending = None
        if not legal:
            return
        decision = self.bot.decide(view, legal)
        if decision is None:
            return
        self._plan(decision, anchor, window, max(0.0, decision.delay_ms))

    def _plan(self, decision: Decision, anchor: Any, window: Any, delay_ms: float) -> None:
        """Schedule ``decision`` ``delay_ms`` from now, or later for a paced turn action."""
        self._paced_at = None
        stage = self._stage
        if stage is not None and window is None and not decision.claim:
            now = self._planned_at = self._now_ms()
            self._paced_at = max(now + delay_ms, stage.end)
            delay_ms = self._paced_at - now
        handle = self._schedule(delay_ms / 1000.0, self._fire)
        self._pending = (handle, decision, anchor, window)

    def _now_ms(self) -> float:
        assert self._now is not None  # only called with a stage, which needs the clock
        return self._now() * 1000.0

    def _fire(self) -> None:
        pending, self._pending = self._pending, None
        self._paced_at = None
        if pending is not None:
            _, decision, anchor, _ = pending
            self._send(decision, anchor)

    def stop(self) -> None:
        """Cancel any pending decision (the bot leaves the seat)."""
        if self._pending is not None and self._pending[0].active():
            self._pending[0].cancel()
        self._pending = None
        self._paced_at = None
