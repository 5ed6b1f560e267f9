"""Reaction windows at a table: their timeouts, and the claims made in them, ordered by
the arbiter (ARCHITECTURE §3; docs/PROTOCOL.md "Clock sync and reaction windows").

A claim (a snap, a counter) is judged by the claimant's reaction time, within the bounds
of :func:`server.match.arbiter.bound_claim`; the :class:`~server.match.arbiter.Arbiter`
collects the claims of a window and hands them back in order, and the desk applies them
and tells every claimant its outcome and everybody the photo finish.
"""
from __future__ import annotations

from typing import Any

from twisted.logger import Logger

from shared.protocol import ProtocolError
from shared.sentences import Sentence, say
from shared.rules import Action, IllegalAction
from shared.windows import Window
from server.match.arbiter import TOLERANCE_MS, Arbiter, Claim, bound_claim
from server.match.contracts import MatchTable
from server.pacing import after_queued_input, lag_ms, reactor_lag

log = Logger()


class ClaimDesk:
    """The reaction windows of ``table`` (a :class:`MatchTable`) and the claims made in
    them.

    ``window``: the open :class:`shared.windows.Window` (None: none); ``window_shown``:
    server ms when its update went out (or when the table was restored); ``claimed``:
    seats whose claim waits in the arbiter; ``claimants``: seats that claimed in the
    open window; ``last_window``: ``(window, shown, winner's reaction ms)`` of the window
    that closed last, and ``last_claimants`` its claimants (to answer late claims);
    ``reactions``: each seat's reaction times (ms) this match."""

    def __init__(self, table: MatchTable, margin_ms: float):
        self.table = table
        self.arbiter = Arbiter(table.clock, margin_ms, self._decide, salt=str(table.seed))
        self.window: Window | None = None
        self.window_shown = 0.0
        self.timeout_call: Any = None
        self.claimed: set[int] = set()
        self.claimants: set[int] = set()
        self.last_claimants: set[int] = set()
        self.last_window: tuple[Window, float, float | None] | None = None
        self.reactions: list[list[float]] = [[] for _ in range(len(table.seats))]

    def stop(self) -> None:
        """The match ended or the table closes: no claim is decided any more."""
        self.arbiter.cancel()
        self.claimed.clear()
        self.cancel_timeout()

    # -- opening and closing -----------------------------------------------------------
    def track_window(self, now: float) -> None:
        """Note a window opening (its update goes out ``now``; start its timeout) or
        closing (cancel the timeout)."""
        t = self.table
        w = t.game.reaction_window(t.state)
        old = self.window
        if old is not None and (w is None or w.id != old.id):
            self.last_window = (old, self.window_shown, None)
            self.last_claimants, self.claimants = self.claimants, set()
            self.cancel_timeout()
            self.claimed.clear()
        if w is not None and (old is None or w.id != old.id):
            reactor_lag(t.clock)  # measured from the first window on
            self.window_shown = now
            self.timeout_call = t.clock.callLater(w.timeout_ms / 1000.0, self._on_timeout, w.id)
        self.window = w
        if (old is None) != (w is None):
            self._window_pings(w is not None)

    def restart_window(self, now: float) -> None:
        """The open window (if any) counts as shown ``now`` (server ms) and gets its
        whole time again: a restored match goes on after waiting for its players."""
        w = self.window
        if w is None:
            return
        self.cancel_timeout()
        self.window_shown = now
        self.timeout_call = self.table.clock.callLater(w.timeout_ms / 1000.0, self._on_timeout, w.id)

    def _window_pings(self, open_: bool) -> None:
        """Clock sync pings the seated connections faster while a window is open
        (``ping_interval_window_ms``): their claims are judged by their RTT."""
        t = self.table
        for seat in t.seats:
            conn = seat.conn
            if conn is not None:
                faster = getattr(conn, "set_window", None)
                if faster is not None:
                    faster(open_)

    def cancel_timeout(self) -> None:
        if self.timeout_call is not None and self.timeout_call.active():
            self.timeout_call.cancel()
        self.timeout_call = None

    def _on_timeout(self, window_id: int, queued_read: bool = False) -> None:
        """The window's time is up: once the answers already waiting in the server's
        sockets are read (:func:`server.pacing.after_queued_input`: an answer sent in
        time is never late because the server was busy), the table applies the
        window's timeout action."""
        t = self.table
        try:
            if t.closed:
                return
        except ReferenceError:  # the table was freed meanwhile: nothing to time out
            return
        if not queued_read:
            self.timeout_call = after_queued_input(t.clock, self._on_timeout, window_id, True)
            return
        self.timeout_call = None
        if t.saving.when_saved(lambda: self._on_timeout(window_id)):
            return
        if self.arbiter.collecting:
            self.arbiter.flush()
        w = self.window
        if t.status == "playing" and w is not None and w.id == window_id:
            try:
                t.apply(None, t.game.timeout_action(w))
            except IllegalAction as e:  # pragma: no cover - engine and table disagree
                log.error("table {id}: timeout refused: {r}", id=t.id, r=e.reason)

    def pending_bounds(self) -> dict[int, float]:
        """Eligible seats that could still claim -> how long after its press a claim of
        theirs may still arrive (ms): the connection's RTT p99 (not capped as the lie
        bounds are: a far player's honest claim must not miss the collection) plus the
        frame allowance; 0 for bots and held seats."""
        t = self.table
        w = self.window
        if w is None:
            return {}
        out = {}
        # the server's own queueing: a claim may wait that long in its socket
        allowance = float(t.config["timing"]["frame_allowance_ms"]) + lag_ms(t.clock)
        for s in w.pending - self.claimed:
            conn = t.seats[s].conn
            if conn is None:
                out[s] = 0.0
                continue
            wait = getattr(conn, "rtt_wait_ms", None)  # uncapped: how long a claim may travel
            out[s] = (wait() if wait is not None else conn.rtt_bound_ms()) + allowance
        return out

    def refresh_arbiter(self) -> None:
        """The pending seats or their bounds changed (a pass, a seat held or back)."""
        if self.arbiter.collecting:
            self.arbiter.update(self.pending_bounds())

    # -- decisions --------------------------------------------------------------------
    def _decide(self, window_id: int, ordered: list[Claim], first_receive: float) -> None:
        """Apply the collected claims in arbiter order; tell each claimant its outcome."""
        t = self.table
        try:
            if t.closed:
                return
        except ReferenceError:  # the table was freed while its collection was closing
            return
        if t.saving.when_saved(lambda: self._decide(window_id, ordered, first_receive)):
            return
        latency = t.now_ms() - first_receive
        outcomes: list[tuple[Claim, str, Sentence | None]] = []
        winner: Claim | None = None
        for claim in ordered:
            self.claimed.discard(claim.seat)
            w = t.game.reaction_window(t.state) if t.status == "playing" else None
            if w is None or w.id != window_id:
                outcomes.append((claim, "too_slow", None))
                continue
            try:
                events = t.apply(claim.seat, claim.action)
            except IllegalAction as e:
                outcomes.append((claim, "refused", e.sentence or say("claim_refused")))
                continue
            success = t.definition.claim_outcome(events, claim.seat)
            if success is None:
                w2 = t.game.reaction_window(t.state) if t.status == "playing" else None
                success = w2 is None or w2.id != window_id
            if success:
                winner = claim
            outcomes.append((claim, "won" if success else "wrong", None))
        last = self.last_window
        if last is not None and last[0].id == window_id:
            self.last_window = (last[0], last[1], winner.reaction if winner else None)
        for claim, outcome, reason in outcomes:
            if outcome in ("won", "wrong", "too_slow"):
                self.reactions[claim.seat].append(claim.reaction)
            if claim.origin is None:
                continue
            margin, message = self._describe(claim, outcome, reason, winner, ordered)
            claim.origin.push("claim_result", table=t.id, window=window_id, outcome=outcome,
                              margin_ms=margin, message=message.english(), sentence=message.wire(),
                              latency_ms=latency, reaction_ms=round(claim.reaction, 1))
        self._photo_finish(window_id, outcomes, winner)

    def _photo_finish(self, window_id: int, outcomes: list[tuple[Claim, str, Sentence | None]],
                      winner: Claim | None) -> None:
        """Tell every seat and spectator the race's reaction times side by side
        (docs/PROTOCOL.md ``race``). A claim that was never applied (too slow, refused)
        is listed only when the game's late claims reveal nothing hidden
        (``GameDef.late_claims_public``): a late Family Business counter would show who
        holds a counter card."""
        t = self.table
        shown = [(c, o) for c, o, _ in outcomes
                 if o in ("won", "wrong") or (o == "too_slow" and t.definition.late_claims_public)]
        if not shown:
            return
        runners = sorted((c for c, _ in shown), key=lambda c: c.reaction)
        margin = None
        if winner is not None:
            others = [c.reaction - winner.reaction for c in runners if c is not winner]
            margin = round(min(others), 1) if others else None
        claims = [{"seat": c.seat, "reaction_ms": round(c.reaction, 1), "outcome": o}
                  for c, o in sorted(shown, key=lambda co: co[0].reaction)]
        fields = dict(table=t.id, window=window_id, claims=claims,
                      winner=winner.seat if winner is not None else None, margin_ms=margin)
        t.delivery.to_everyone("race", **fields)

    def reaction_medians(self) -> list[float | None]:
        """Each seat's median reaction time (ms) over its claims this match, or None."""
        out: list[float | None] = []
        for times in self.reactions:
            ordered = sorted(times)
            n = len(ordered)
            out.append(None if n == 0 else round(
                ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2, 1))
        return out

    @staticmethod
    def _describe(claim: Claim, outcome: str, reason: Sentence | None, winner: Claim | None,
                  ordered: list[Claim]) -> tuple[float | None, Sentence]:
        """``(margin_ms, sentence)`` of a decided claim's ``claim_result``."""
        if outcome == "won":
            later = [c.reaction - claim.reaction for c in ordered
                     if c is not claim and c.reaction >= claim.reaction]
            if later:
                gap = min(later)
                return gap, say("first_by", ms=round(gap))
            return None, say("first")
        if outcome == "wrong":
            return None, say("wrong_card")
        if outcome == "too_slow":
            if winner is not None:
                gap = claim.reaction - winner.reaction
                return gap, say("too_slow", ms=round(max(0.0, gap)))
            return None, say("window_closed")
        return None, reason or say("claim_refused")

    # -- claims -----------------------------------------------------------------------
    def is_claim(self, action: Action) -> bool:
        """A claim of the open window, or of the window that closed last (a late one)."""
        w = self.window
        late = self.last_window[0] if self.last_window else None
        return ((w is not None and action.TYPE in w.claim_types)
                or (late is not None and action.TYPE in late.claim_types))

    def human_claim(self, conn: Any, seat: int, action: Action, t_press: float | None,
                     t_shown: float | None) -> dict[str, Any]:
        """A person's claim, judged by reaction time ``t_press - t_shown`` (both on the
        client's clock, ms) within the bounds of :func:`server.pacing.bound_claim`.
        Without a clock offset yet, the press is the arrival; without ``t_shown``, the
        card counts as shown when its update was sent."""
        t = self.table
        now = t.now_ms()
        offset = conn.clock_offset_ms
        press = now if t_press is None or offset is None else t_press + offset
        w = self.window
        if w is None or action.TYPE not in w.claim_types or press < self.window_shown - TOLERANCE_MS:
            return self._late_claim(conn, seat, action, press, t_shown, offset)
        if seat in self.claimed:
            raise ProtocolError("illegal_action", say("already_claimed"))
        try:
            t.game.apply(t.state, seat, action)  # dry run: the engine's own checks
        except IllegalAction as e:
            raise ProtocolError("illegal_action", e.sentence or e.reason) from None
        shown = self.window_shown if t_shown is None or offset is None else t_shown + offset
        press, shown, reason = self._bound(conn, press, shown, now, self.window_shown,
                                           stamped=t_press is not None and offset is not None)
        if reason is not None:
            conn.push("claim_result", table=t.id, window=w.id, outcome="refused",
                      margin_ms=None, message=reason.english(), sentence=reason.wire(), latency_ms=0.0)
            raise ProtocolError("claim_refused", reason)
        step = len(t.log) + 1
        self.claimed.add(seat)
        self.claimants.add(seat)
        self.arbiter.submit(w.id, Claim(seat, action, press, now, origin=conn, shown=shown),
                            self.pending_bounds(), self.window_shown)
        return {"table": t.id, "step": step}

    def _bound(self, conn: Any, press: float, shown: float, now: float, sent: float,
               stamped: bool = True) -> tuple[float, float, Sentence | None]:
        """:func:`server.pacing.bound_claim` with this connection's bound and the
        config's ``frame_allowance_ms`` and ``human_floor_ms`` (the floor judges stamped
        presses only: an unstamped one counts at its arrival, later than it was)."""
        t = self.table
        timing = t.config["timing"]
        # the bounds cover the server's own queueing too (a busy reactor reads a claim
        # late, and writes the window's update late): its recent lag widens them
        return bound_claim(press, shown, now, conn.rtt_bound_ms() + lag_ms(t.clock), sent,
                           float(timing["frame_allowance_ms"]),
                           float(timing["human_floor_ms"]) if stamped else 0.0)

    def _late_claim(self, conn: Any, seat: int, action: Action, press: float,
                    t_shown: float | None = None, offset: float | None = None) -> dict[str, Any]:
        """A claim pressed before the open window was shown, or sent when no window is
        open: ``too_slow`` when it belongs to the window that closed last and the seat
        could still claim in it (outcome pushed, reply ``ack``), else ``illegal_action``
        or ``claim_refused``."""
        t = self.table
        last = self.last_window
        if last is not None and action.TYPE in last[0].claim_types and seat in self.last_claimants:
            raise ProtocolError("illegal_action", say("already_claimed"))
        if (last is not None and action.TYPE in last[0].claim_types and seat in last[0].pending
                and press >= last[1] - TOLERANCE_MS):
            window, sent, win_reaction = last
            shown = sent if t_shown is None or offset is None else t_shown + offset
            _, shown, _ = self._bound(conn, press, shown, max(press, shown), sent)  # for the message only
            gap = press - shown - win_reaction if win_reaction is not None else None
            message = say("too_slow", ms=round(max(0.0, gap))) if gap is not None else say("window_closed")
            conn.push("claim_result", table=t.id, window=window.id, outcome="too_slow",
                      margin_ms=gap, message=message.english(), sentence=message.wire(), latency_ms=0.0)
            return {"table": t.id, "step": len(t.log)}
        if self.window is None:
            try:
                t.game.apply(t.state, seat, action)
            except IllegalAction as e:
                raise ProtocolError("illegal_action", e.sentence or e.reason) from None
        reason = say("pressed_early")
        conn.push("claim_result", table=t.id, window=self.window.id if self.window else None,
                  outcome="refused", margin_ms=None, message=reason.english(), sentence=reason.wire(),
                  latency_ms=0.0)
        raise ProtocolError("claim_refused", reason)

    def bot_claim(self, seat: int, action: Action, delay_ms: float, anchor: float) -> None:
        """An in-process bot's claim: pressed ``delay_ms`` after ``anchor`` (the server
        time its window's update was handed to it, its ``t_shown``), through the same
        arbiter as a human press: its reaction time is ``delay_ms``.
        Raises IllegalAction when the engine refuses it."""
        t = self.table
        w = self.window
        now = t.now_ms()
        press = min(now, float(anchor) + float(delay_ms))
        if w is None or seat in self.claimed or press < self.window_shown:
            return
        t.game.apply(t.state, seat, action)  # dry run
        self.claimed.add(seat)
        self.claimants.add(seat)
        self.arbiter.submit(w.id, Claim(seat, action, press, now, shown=float(anchor)),
                            self.pending_bounds(), self.window_shown)

    def pass_for(self, seat: int) -> bool:
        """Answer the open window with a pass for ``seat`` (a held seat nobody plays);
        True when one was applied."""
        t = self.table
        w = self.window
        if w is None or seat not in w.pending or seat in self.claimed:
            return False
        passes = [a for a in t.game.legal_actions(t.state, seat) if a.TYPE == w.pass_type]
        if not passes:
            return False
        t.apply(seat, passes[0])
        return True
