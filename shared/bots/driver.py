"""Runs one bot against a stream of updates: one piece of code for the server's
in-process bots and for ``mafia-bot``'s TCP bots.

The driver is pure: scheduling goes through a ``schedule(delay_s, fn) -> handle``
callable (``reactor.callLater`` in production, ``task.Clock.callLater`` in tests) whose
handle has ``cancel()`` and ``active()``; the pacing of turns reads the same clock
through ``now() -> seconds``.

A bot may answer with a :class:`shared.bots.search.Think` (a decision that needs a
search): with ``think`` given (``think(request) -> Deferred-like``, the server's worker
pool) the search runs elsewhere and the driver plans ``finish(result)`` when it comes
back; without it the search runs here, synchronously (:func:`shared.bots.search.resolve`).
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from shared.bots.base import Bot, Decision
from shared.bots.search import Think, resolve
from shared.rules import Action
from shared.showing import ShownOf, Stage


class _Handle(Protocol):
    def cancel(self) -> None: ...
    def active(self) -> bool: ...


Schedule = Callable[[float, Callable[[], None]], _Handle]
#: ``send(decision, anchor)``: deliver the decision; ``anchor`` is what the caller passed
#: with the update the decision was made on (e.g. its server time, to stamp a claim).
Send = Callable[[Decision, Any], None]
#: ``think(request)``: a Deferred-like (``addCallbacks(ok, failed)``) firing with
#: ``shared.bots.search.run(request)``'s result, or failing (error, time out).
AskThink = Callable[[dict[str, Any]], Any]


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

    **Searches** (``think``, with ``now``): when the bot answers with a
    :class:`shared.bots.search.Think`, its request goes to ``think`` and nothing is pending
    meanwhile. The result is used only if no newer update came in the meantime (an update
    makes the bot decide again, and the old search's answer is dropped); its decision --
    ``finish(result)``, or the Think's ``fallback`` when the search failed, timed out or
    ``finish`` raised -- is then planned with its delay shortened by the time the search
    took (the search is part of the bot's pacing, not added to it). A search whose answer
    can no longer be used is cancelled (``cancel()``, when the Deferred-like has one).
    """

    def __init__(self, bot: Bot, schedule: Schedule, send: Send, shown: ShownOf | None = None,
                 now: Callable[[], float] | None = None, think: AskThink | None = None):
        self.bot = bot
        self._schedule = schedule
        self._send = send
        self._pending: tuple[_Handle, Decision, Any, Any] | None = None
        self._stage = Stage(shown) if shown is not None and now is not None else None
        self._now = now
        self._paced_at: float | None = None  # when the pending turn action fires (ms), if paced
        self._planned_at = 0.0  # when it was planned (ms)
        self._think = think
        self._updates = 0  # updates seen: a search's answer is used only if none came since
        self._asking: Any = None  # the search under way (its Deferred-like), if any

    def on_update(self, events: list[dict[str, Any]], view: dict[str, Any],
                  legal: list[Action], anchor: Any = None) -> None:
        """Give the bot an update; schedule its next decision if it has one."""
        self._updates += 1
        if self._asking is not None:
            self._drop_search()
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
        if isinstance(decision, Think):
            if self._think is not None:
                self._ask(decision, anchor, window)
                return
            decision = resolve(decision)
        if decision is None:
            return
        self._plan(decision, anchor, window, max(0.0, decision.delay_ms))

    def _ask(self, think: Think, anchor: Any, window: Any) -> None:
        """Send ``think``'s search away; plan its decision when the answer comes, unless
        an update came first."""
        assert self._think is not None
        asked_at, update = self._clock_ms(), self._updates

        def answer(decision: Decision) -> None:
            if update != self._updates:
                return  # a newer update: the bot decided again on it
            self._asking = None
            took = self._clock_ms() - asked_at
            self._plan(decision, anchor, window, max(0.0, decision.delay_ms - took))

        def ok(result: Any) -> None:
            try:
                decision = think.finish(result)
            except Exception:  # a search that cannot be finished is a failed search
                decision = think.fallback
            answer(decision)

        def failed(_: Any) -> None:
            answer(think.fallback)

        try:
            pending = self._think(think.request)
        except Exception:
            failed(None)
            return
        self._asking = pending
        pending.addCallbacks(ok, failed)

    def _drop_search(self) -> None:
        """Cancel the search under way when its answer cannot be used any more (a newer
        update, the bot leaving): a worker pool drops it if it has not begun."""
        asking, self._asking = self._asking, None
        cancel = getattr(asking, "cancel", None)
        if cancel is not None:
            cancel()

    def _clock_ms(self) -> float:
        return self._now() * 1000.0 if self._now is not None else 0.0

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
        """Cancel any pending decision and drop a search under way (the bot leaves the
        seat)."""
        self._updates += 1
        if self._asking is not None:
            self._drop_search()
        if self._pending is not None and self._pending[0].active():
            self._pending[0].cancel()
        self._pending = None
        self._paced_at = None
