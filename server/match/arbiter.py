"""Fair ordering of the claims of a reaction window, judged as at a real table
(ARCHITECTURE §3, RULES.md §0.2 item 5 and D-OM-30; docs/PROTOCOL.md "Clock sync and
reaction windows").

At a real table everybody sees the card at the same moment and the quickest hand wins.
Over a network a player far away sees it later, so the arbiter judges each claim by its
**reaction time** ``t_press - t_shown``: both stamped on the claimant's own monotonic
clock (when the frame that first showed the card was flipped, and when the key went
down), so the clock offset cancels out and a Wi-Fi player is not handicapped (the model
is DBO, SIGCOMM 2023: judge each participant from its own delivery time).

1. **Bounds** (:func:`bound_claim`), so a lying client gains at most its own slack:
   converted to server time with the connection's clock offset, ``shown`` is clamped
   into ``[sent, sent + rtt_bound + frame_allowance]`` (``sent``: when the window's update
   went to that connection) and ``press`` into
   ``[receive - rtt_bound - frame_allowance, receive]`` and not before ``shown``. An
   honest press that arrives late is clamped, never refused; only a reaction faster
   than a human can react (``human_floor_ms``) is refused as impossible.
2. **Collection** (:class:`Arbiter`): it opens at the first valid claim and closes once
   no pending eligible seat could still deliver a smaller reaction time: seat ``s`` saw
   the card at the latest ``rtt_bound(s)`` after ``sent``, so its better claim would
   arrive before ``sent + best_reaction + rtt_bound(s)``; the collection closes at the
   latest of those plus a margin -- never later than ``first_receive + max rtt_bound +
   margin``, and at once when no eligible seat is pending any more.
3. **Order** (:func:`order_claims`): by reaction time; reactions within :data:`TIE_MS`
   of each other are a tie, broken by a hash of ``(table salt, window id, seat)`` --
   deterministic for a given match and window, and favouring no seat across windows.

All times are milliseconds on the server's monotonic clock.
"""
from __future__ import annotations

import hashlib
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable

from shared.rules import Action
from shared.sentences import Sentence, say
from server.pacing import after_queued_input
from server.timers import reschedule

#: Slack for the error of the clock-offset estimate (ms): a press up to this far outside
#: its bounds is clamped onto them instead of being refused.
TOLERANCE_MS = 1.0
#: Presses closer than this (ms) are simultaneous: below the stamping error of ~1 ms and
#: far below what people can perceive (20-60 ms); the tie rule decides.
TIE_MS = 0.5


@dataclass
class Claim:
    """One claim waiting for its window's decision.

    ``press``, ``shown`` and ``receive`` are server ms (``press`` and ``shown`` already
    bounded); ``origin`` is the connection to tell the outcome to (None for an in-process
    bot). Its :attr:`reaction` (ms) decides the race.
    """

    seat: int
    action: Action
    press: float
    receive: float
    origin: Any = None
    extra: dict[str, Any] = field(default_factory=dict)
    shown: float = 0.0

    @property
    def reaction(self) -> float:
        """The reaction time in ms: press minus the moment the card was on screen."""
        return self.press - self.shown


def bound_claim(press: float, shown: float, receive: float, rtt_bound: float, sent: float,
                frame_allowance: float = 0.0,
                human_floor: float = 0.0) -> tuple[float, float, Sentence | None]:
    """Bound a claim's stamps to what is physically possible.

    ``press`` / ``shown``: the client's ``t_press`` / ``t_shown`` converted to server ms;
    ``receive``: when the claim arrived; ``rtt_bound``: the connection's bound (ms);
    ``sent``: server ms when the window's update was sent to that connection;
    ``frame_allowance``: the client's own delay (ms) between a frame and the next send
    or flip. Returns ``(press, shown, None)`` clamped into their bounds (an honest press
    that arrives late counts at the bound, it is never refused), or ``(press, shown,
    reason)`` when the reaction ``press - shown``, as stamped or as bounded, is below
    ``human_floor`` ms: no person reacts that fast, so the claim is refused (a ``t_shown``
    moved 200 ms later than the truth is caught here).
    """
    slack = rtt_bound + frame_allowance
    shown_b = min(max(shown, sent), sent + slack)
    press_b = min(max(press, receive - slack, shown_b), receive)
    shown_b = min(shown_b, press_b)
    reaction = min(press_b - shown_b, press - shown)  # as stamped, or as bounded
    if reaction < human_floor:
        return press_b, shown_b, say("too_fast", ms=round(reaction), floor=round(human_floor))
    return press_b, shown_b, None


def tie_key(salt: str, window: int, seat: int) -> bytes:
    """The tie-break key of ``seat`` in window ``window``: lower wins an exact tie."""
    return hashlib.sha256(f"{salt}/{window}/{seat}".encode()).digest()


def order_claims(claims: list[Claim], salt: str, window: int) -> list[Claim]:
    """Claims in decision order: smallest reaction time first; among the remaining claims
    whose reaction lies within :data:`TIE_MS` of the smallest one, the lowest
    :func:`tie_key` goes first."""
    rest = sorted(claims, key=lambda c: c.reaction)
    out: list[Claim] = []
    while rest:
        first = rest[0].reaction
        tied = [c for c in rest if c.reaction - first <= TIE_MS]
        pick = min(tied, key=lambda c: tie_key(salt, window, c.seat))
        out.append(pick)
        rest.remove(pick)
    return out


#: ``decide(window_id, ordered_claims, first_receive_ms)``
Decide = Callable[[int, list[Claim], float], None]


class Arbiter:
    """Collects the claims of one table's open window and decides when to apply them.

    ``clock`` is an ``IReactorTime`` (server monotonic seconds); ``margin_ms`` the
    config's ``timing.collection_margin_ms``; ``decide`` is called with the ordered claims
    once the collection closes (the collection is cleared first); a bound method is held
    weakly (its table, gone, decides nothing). ``salt`` feeds the tie rule (the table
    passes its match seed).
    """

    def __init__(self, clock: Any, margin_ms: float, decide: Decide, salt: str = ""):
        self._clock = clock
        self.margin_ms = margin_ms
        # a table's own method is held weakly: the table and its arbiter form no
        # reference cycle, so a closed table is freed at once, without the collector
        self._decide: Callable[[], Decide | None] = (
            weakref.WeakMethod(decide) if hasattr(decide, "__self__") else lambda: decide)
        self.salt = salt
        self.window: int | None = None
        self.claims: list[Claim] = []
        self.first_receive = 0.0
        self.sent = 0.0
        self._timer: Any = None
        self.deadline: float | None = None

    def now_ms(self) -> float:
        return self._clock.seconds() * 1000.0

    @property
    def collecting(self) -> bool:
        """True while claims wait for their decision."""
        return bool(self.claims)

    def submit(self, window: int, claim: Claim, pending_bounds: dict[int, float],
               sent: float = 0.0) -> None:
        """Add a bounded claim of ``window``. ``pending_bounds`` maps every eligible seat
        still able to claim (pending and without a claim here) to its ``rtt_bound`` in ms
        (0 for an in-process bot); ``sent`` is the server ms when the window's update was
        sent. May decide at once (synchronously)."""
        if self.claims and self.window != window:
            self.flush()
        if not self.claims:
            self.window = window
            self.sent = sent
            self.first_receive = claim.receive
        self.claims.append(claim)
        self.update(pending_bounds)

    def update(self, pending_bounds: dict[int, float]) -> None:
        """Recompute the closing time after the pending seats changed (a pass, a new
        claim, a bot taking a seat); decide at once when it has passed."""
        if not self.claims:
            return
        if not pending_bounds:
            self.flush()
            return
        best = min(c.reaction for c in self.claims)
        longest = max(pending_bounds.values())
        deadline = min(self.sent + best + longest, self.first_receive + longest) + self.margin_ms
        delay = deadline - self.now_ms()
        if delay <= 0:
            self.flush()
            return
        self.deadline = deadline
        self._timer = reschedule(self._clock, self._timer, delay / 1000.0, self._closing)

    def _closing(self) -> None:
        """The collection's time is up: decide once the claims already waiting in the
        server's sockets are read (:func:`after_queued_input`)."""
        self._timer = after_queued_input(self._clock, self.flush)

    def flush(self) -> None:
        """Decide now (collection closed, window timeout)."""
        self._cancel_timer()
        if not self.claims:
            return
        claims, self.claims = self.claims, []
        window, self.window = self.window, None
        self.deadline = None
        assert window is not None
        decide = self._decide()
        if decide is not None:  # else the table is gone
            decide(window, order_claims(claims, self.salt, window), self.first_receive)

    def cancel(self) -> None:
        """Drop every claim without deciding (the table closes)."""
        self._cancel_timer()
        self.claims = []
        self.window = None

    def _cancel_timer(self) -> None:
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._timer = None
