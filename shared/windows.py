"""Reaction windows, written once for every game (RULES.md §0.2 item 5, ARCHITECTURE §3).

A reaction window is a short time in which several seats may *claim* (Omerta's snap and
Hitwoman, Family Business's counter cards) or *pass*. The server's arbiter orders the
claims by each claimant's reaction time, never by arrival, and hands them to the engine
one at a time; the first valid claim decides.

One representation serves the engine, the table and the wire: :class:`Window`, a frozen
value that a game keeps in its state. The game opens it with :func:`open_window`
(which also gives the public ``window_opened`` event), checks an answer with
:meth:`Window.check_answer`, records a pass or a wrong claim with :meth:`Window.answered`
and ends it with :func:`close_event`. When no seat is pending any more, or the table
applies :class:`WindowTimeout` after ``timeout_ms``, the window closes.

Invariants the conformance suite checks for every game: ``pending`` ⊆ ``eligible``;
window ids increase within a match.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Iterable, Mapping

from shared.rules import Action, Event, IllegalAction
from shared.sentences import say

__all__ = ["Window", "WindowTimeout", "close_event", "open_window", "pass_event"]


@dataclass(frozen=True)
class WindowTimeout(Action):
    """Applied by the table (seat None) when window ``window`` reaches its time limit."""

    TYPE: ClassVar[str] = "window_timeout"
    SYSTEM_ONLY: ClassVar[bool] = True
    window: int


@dataclass(frozen=True)
class Window:
    """An open reaction window.

    * ``id`` -- unique and increasing within a match.
    * ``kind`` -- the game's name for it: ``"snap"``, ``"hitwoman"``, ``"counter"``.
    * ``eligible`` -- seats that may answer it; ``pending`` -- those of them that have
      neither claimed nor passed yet (``pending`` ⊆ ``eligible``).
    * ``claim_types`` -- action types that are claims (ordered by reaction time by the
      server's arbiter); ``pass_type`` -- the action type that answers "no claim".
    * ``timeout_ms`` -- milliseconds after opening when the table applies
      :class:`WindowTimeout` (e.g. D-OM-6: 3000 ms by default).
    * ``data`` -- what the claims are about, public and JSON-ready (``{"value": 7}``);
      merged into the wire forms. Never put a hidden card here.
    """

    id: int
    kind: str
    eligible: frozenset[int]
    pending: frozenset[int]
    claim_types: tuple[str, ...]
    pass_type: str
    timeout_ms: int
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The form the table and the bots use: ``{"id", "kind", "eligible",
        "pending", "claim_types", "pass_type", "timeout_ms", **data}``, seats sorted."""
        return {"id": self.id, **self._common()}

    def public(self) -> dict[str, Any]:
        """The form of the ``window_opened`` event and of a view's ``window`` field
        (docs/PROTOCOL.md): as :meth:`to_dict` with the id under ``"window"``."""
        return {"window": self.id, **self._common()}

    def _common(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "claim_types": list(self.claim_types),
            "pass_type": self.pass_type,
            "eligible": sorted(self.eligible),
            "pending": sorted(self.pending),
            "timeout_ms": self.timeout_ms,
            **self.data,
        }

    def is_answer(self, action: Action) -> bool:
        """True when ``action`` is a claim or the pass of this window."""
        return action.TYPE == self.pass_type or action.TYPE in self.claim_types

    def check_answer(self, seat: int | None, action: Action) -> None:
        """Raise :class:`IllegalAction` unless ``seat`` may answer with ``action`` now:
        it must be a claim or the pass of this window, from an eligible seat that has
        not answered yet."""
        if not self.is_answer(action):
            raise IllegalAction(say("window_open", kind=self.kind))
        if seat is None or seat not in self.eligible:
            raise IllegalAction(say("window_not_eligible"))
        if seat not in self.pending:
            raise IllegalAction(say("window_answered"))

    def answered(self, seat: int) -> "Window":
        """This window once ``seat`` has passed (or claimed wrongly): no longer pending."""
        return replace(self, pending=self.pending - {seat})

    @property
    def done(self) -> bool:
        """True when every eligible seat has answered (the window closes)."""
        return not self.pending


def open_window(window_id: int, kind: str, eligible: Iterable[int], claim_types: Iterable[str],
                pass_type: str, timeout_ms: int,
                data: Mapping[str, Any] | None = None) -> tuple[Window, Event]:
    """A new window every seat of ``eligible`` may answer, and its public
    ``window_opened`` event. ``window_id`` must be larger than the match's previous one.
    Raises ``ValueError`` for an empty ``eligible`` (a game closes nothing it never
    opened: it skips the window instead)."""
    seats = frozenset(eligible)
    if not seats:
        raise ValueError("a reaction window needs at least one eligible seat")
    w = Window(window_id, kind, seats, seats, tuple(claim_types), pass_type, int(timeout_ms),
               dict(data or {}))
    return w, Event("window_opened", w.public())


def pass_event(window: Window, seat: int) -> Event:
    """The public ``pass`` event of ``seat`` answering ``window`` with no claim."""
    return Event("pass", {"seat": seat, "window": window.id})


def close_event(window: Window, reason: str) -> Event:
    """The public ``window_closed`` event; ``reason`` is e.g. ``"all_answered"``,
    ``"timeout"`` or the game's word for a successful claim (``"snapped"``)."""
    return Event("window_closed", {"window": window.id, "kind": window.kind, "reason": reason})


def check_timeout(window: Window | None, seat: int | None, action: WindowTimeout) -> Window:
    """Raise :class:`IllegalAction` unless the table (seat None) times out the open
    window ``action.window``; returns that window."""
    if seat is not None:
        raise IllegalAction(say("window_table_only"))
    if window is None or window.id != action.window:
        raise IllegalAction(say("window_gone"))
    return window
