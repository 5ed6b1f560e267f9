"""Reaction windows at a table: their timeouts, and the claims made in them, ordered by
the arbiter (ARCHITECTURE §3; docs/PROTOCOL.md "Clock sync and reaction windows").

:class:`WindowsMixin` is part of :class:`server.table.Table`; it uses the table's
``game``, ``state``, ``status``, ``seats``, ``clock``, ``arbiter``, ``_apply`` and
``_legal`` and keeps the window state: ``window`` (the open one), ``window_shown``
(server ms when its update went out -- or when the table was restored), ``_claimed``
(seats whose claim waits in the arbiter) and ``_last_window`` (to answer late claims).
"""
from __future__ import annotations

from typing import Any

from twisted.logger import Logger

from shared.protocol import ProtocolError
from shared.rules import Action, IllegalAction
from server.arbiter import (TOLERANCE_MS, Claim, after_queued_input, bound_claim, lag_ms,
                            reactor_lag)

log = Logger()


class WindowsMixin:
    """Window timeouts, human and bot claims, and the arbiter's decisions."""

    game: Any
    definition: Any
    state: Any
    status: str
    seats: list[Any]
    clock: Any
    arbiter: Any
    window: Any
    window_shown: float
    _timeout_call: Any
    _claimed: set[int]
    _claimants: set[int]
    _last_claimants: set[int]
    _last_window: Any
    reactions: list[list[float]]
    config: dict[str, Any]

    # -- opening and closing -----------------------------------------------------------
    def _track_window(self, now: float) -> None:
        """Note a window opening (its update goes out ``now``; start its timeout) or
        closing (cancel the timeout)."""
        w = self.game.reaction_window(self.state)
        old = self.window
        if old is not None and (w is None or w.id != old.id):
            self._last_window = (old, self.window_shown, None)
            self._last_claimants, self._claimants = self._claimants, set()
            self._cancel_timeout()
            self._claimed.clear()
        if w is not None and (old is None or w.id != old.id):
            reactor_lag(self.clock)  # measured from the first window on
            self.window_shown = now
            self._timeout_call = self.clock.callLater(w.timeout_ms / 1000.0, self._on_timeout, w.id)
        self.window = w
        if (old is None) != (w is None):
            self._window_pings(w is not None)

    def _window_pings(self, open_: bool) -> None:
        """Clock sync pings the seated connections faster while a window is open
        (``ping_interval_window_ms``): their claims are judged by their RTT."""
        for seat in self.seats:
            conn = seat.conn
            if conn is not None:
                faster = getattr(conn, "set_window", None)
                if faster is not None:
                    faster(open_)

    def _cancel_timeout(self) -> None:
        if self._timeout_call is not None and self._timeout_call.active():
            self._timeout_call.cancel()
        self._timeout_call = None

    def _on_timeout(self, window_id: int, queued_read: bool = False) -> None:
        """The window's time is up: once the answers already waiting in the server's
        sockets are read (:func:`server.arbiter.after_queued_input`: an answer sent in
        time is never late because the server was busy), the table applies the
        window's timeout action."""
        if not queued_read:
            self._timeout_call = after_queued_input(self.clock, self._on_timeout, window_id, True)
            return
        self._timeout_call = None
        if self._when_saved(lambda: self._on_timeout(window_id)):
            return
        if self.arbiter.collecting:
            self.arbiter.flush()
        w = self.window
        if self.status == "playing" and w is not None and w.id == window_id:
            try:
                self._apply(None, self.game.timeout_action(w))
            except IllegalAction as e:  # pragma: no cover - engine and table disagree
                log.error("table {id}: timeout refused: {r}", id=self.id, r=e.reason)

    def _pending_bounds(self) -> dict[int, float]:
        """Eligible seats that could still claim -> how long after its press a claim of
        theirs may still arrive (ms): the connection's RTT p99 (not capped as the lie
        bounds are: a far player's honest claim must not miss the collection) plus the
        frame allowance; 0 for bots and held seats."""
        w = self.window
        if w is None:
            return {}
        out = {}
        # the server's own queueing: a claim may wait that long in its socket
        allowance = float(self.config["timing"]["frame_allowance_ms"]) + lag_ms(self.clock)
        for s in w.pending - self._claimed:
            conn = self.seats[s].conn
            if conn is None:
                out[s] = 0.0
                continue
            wait = getattr(conn, "rtt_wait_ms", None)  # uncapped: how long a claim may travel
            out[s] = (wait() if wait is not None else conn.rtt_bound_ms()) + allowance
        return out

    def _refresh_arbiter(self) -> None:
        """The pending seats or their bounds changed (a pass, a seat held or back)."""
        if self.arbiter.collecting:
            self.arbiter.update(self._pending_bounds())

    # -- decisions --------------------------------------------------------------------
    def _decide(self, window_id: int, ordered: list[Claim], first_receive: float) -> None:
        """Apply the collected claims in arbiter order; tell each claimant its outcome."""
        if self._when_saved(lambda: self._decide(window_id, ordered, first_receive)):
            return
        latency = self.now_ms() - first_receive
        outcomes: list[tuple[Claim, str, str | None]] = []
        winner: Claim | None = None
        for claim in ordered:
            self._claimed.discard(claim.seat)
            w = self.game.reaction_window(self.state) if self.status == "playing" else None
            if w is None or w.id != window_id:
                outcomes.append((claim, "too_slow", None))
                continue
            try:
                events = self._apply(claim.seat, claim.action)
            except IllegalAction as e:
                outcomes.append((claim, "refused", e.reason))
                continue
            success = self.definition.claim_outcome(events, claim.seat)
            if success is None:
                w2 = self.game.reaction_window(self.state) if self.status == "playing" else None
                success = w2 is None or w2.id != window_id
            if success:
                winner = claim
            outcomes.append((claim, "won" if success else "wrong", None))
        last = self._last_window
        if last is not None and last[0].id == window_id:
            self._last_window = (last[0], last[1], winner.reaction if winner else None)
        for claim, outcome, reason in outcomes:
            if outcome in ("won", "wrong", "too_slow"):
                self.reactions[claim.seat].append(claim.reaction)
            if claim.origin is None:
                continue
            margin, message = self._describe(claim, outcome, reason, winner, ordered)
            claim.origin.push("claim_result", table=self.id, window=window_id, outcome=outcome,
                              margin_ms=margin, message=message, latency_ms=latency,
                              reaction_ms=round(claim.reaction, 1))
        self._photo_finish(window_id, outcomes, winner)

    def _photo_finish(self, window_id: int, outcomes: list[tuple[Claim, str, str | None]],
                      winner: Claim | None) -> None:
        """Tell every seat and spectator the race's reaction times side by side
        (docs/PROTOCOL.md ``race``). A claim that was never applied (too slow, refused)
        is listed only when the game's late claims reveal nothing hidden
        (``GameDef.late_claims_public``): a late Family Business counter would show who
        holds a counter card."""
        shown = [(c, o) for c, o, _ in outcomes
                 if o in ("won", "wrong") or (o == "too_slow" and self.definition.late_claims_public)]
        if not shown:
            return
        runners = sorted((c for c, _ in shown), key=lambda c: c.reaction)
        margin = None
        if winner is not None:
            others = [c.reaction - winner.reaction for c in runners if c is not winner]
            margin = round(min(others), 1) if others else None
        claims = [{"seat": c.seat, "reaction_ms": round(c.reaction, 1), "outcome": o}
                  for c, o in sorted(shown, key=lambda co: co[0].reaction)]
        fields = dict(table=self.id, window=window_id, claims=claims,
                      winner=winner.seat if winner is not None else None, margin_ms=margin)
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.push("race", **fields)
        self.spectators.send("race", **fields)

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
    def _describe(claim: Claim, outcome: str, reason: str | None, winner: Claim | None,
                  ordered: list[Claim]) -> tuple[float | None, str]:
        if outcome == "won":
            later = [c.reaction - claim.reaction for c in ordered
                     if c is not claim and c.reaction >= claim.reaction]
            if later:
                gap = min(later)
                return gap, f"first by {gap:.0f} ms"
            return None, "first"
        if outcome == "wrong":
            return None, "wrong card: penalty"
        if outcome == "too_slow":
            if winner is not None:
                gap = claim.reaction - winner.reaction
                return gap, f"too slow by {max(0.0, gap):.0f} ms"
            return None, "too late: the window had closed"
        return None, reason or "refused"

    # -- claims -----------------------------------------------------------------------
    def _is_claim(self, action: Action) -> bool:
        """A claim of the open window, or of the window that closed last (a late one)."""
        w = self.window
        late = self._last_window[0] if self._last_window else None
        return ((w is not None and action.TYPE in w.claim_types)
                or (late is not None and action.TYPE in late.claim_types))

    def _human_claim(self, conn: Any, seat: int, action: Action, t_press: float | None,
                     t_shown: float | None) -> dict[str, Any]:
        """A person's claim, judged by reaction time ``t_press - t_shown`` (both on the
        client's clock, ms) within the bounds of :func:`server.arbiter.bound_claim`.
        Without a clock offset yet, the press is the arrival; without ``t_shown``, the
        card counts as shown when its update was sent."""
        now = self.now_ms()
        offset = conn.clock_offset_ms
        press = now if t_press is None or offset is None else t_press + offset
        w = self.window
        if w is None or action.TYPE not in w.claim_types or press < self.window_shown - TOLERANCE_MS:
            return self._late_claim(conn, seat, action, press, t_shown, offset)
        if seat in self._claimed:
            raise ProtocolError("illegal_action", "you have already claimed in this window")
        try:
            self.game.apply(self.state, seat, action)  # dry run: the engine's own checks
        except IllegalAction as e:
            raise ProtocolError("illegal_action", e.reason) from None
        shown = self.window_shown if t_shown is None or offset is None else t_shown + offset
        press, shown, reason = self._bound(conn, press, shown, now, self.window_shown,
                                           stamped=t_press is not None and offset is not None)
        if reason is not None:
            conn.push("claim_result", table=self.id, window=w.id, outcome="refused",
                      margin_ms=None, message=reason, latency_ms=0.0)
            raise ProtocolError("claim_refused", reason)
        step = len(self.log) + 1
        self._claimed.add(seat)
        self._claimants.add(seat)
        self.arbiter.submit(w.id, Claim(seat, action, press, now, origin=conn, shown=shown),
                            self._pending_bounds(), self.window_shown)
        return {"table": self.id, "step": step}

    def _bound(self, conn: Any, press: float, shown: float, now: float, sent: float,
               stamped: bool = True) -> tuple[float, float, str | None]:
        """:func:`server.arbiter.bound_claim` with this connection's bound and the
        config's ``frame_allowance_ms`` and ``human_floor_ms`` (the floor judges stamped
        presses only: an unstamped one counts at its arrival, later than it was)."""
        timing = self.config["timing"]
        # the bounds cover the server's own queueing too (a busy reactor reads a claim
        # late, and writes the window's update late): its recent lag widens them
        return bound_claim(press, shown, now, conn.rtt_bound_ms() + lag_ms(self.clock), sent,
                           float(timing["frame_allowance_ms"]),
                           float(timing["human_floor_ms"]) if stamped else 0.0)

    def _late_claim(self, conn: Any, seat: int, action: Action, press: float,
                    t_shown: float | None = None, offset: float | None = None) -> dict[str, Any]:
        """A claim pressed before the open window was shown, or sent when no window is
        open: ``too_slow`` when it belongs to the window that closed last and the seat
        could still claim in it (outcome pushed, reply ``ack``), else ``illegal_action``
        or ``claim_refused``."""
        last = self._last_window
        if last is not None and action.TYPE in last[0].claim_types and seat in self._last_claimants:
            raise ProtocolError("illegal_action", "you have already claimed in this window")
        if (last is not None and action.TYPE in last[0].claim_types and seat in last[0].pending
                and press >= last[1] - TOLERANCE_MS):
            window, sent, win_reaction = last
            shown = sent if t_shown is None or offset is None else t_shown + offset
            _, shown, _ = self._bound(conn, press, shown, max(press, shown), sent)  # for the message only
            gap = press - shown - win_reaction if win_reaction is not None else None
            message = f"too slow by {max(0.0, gap):.0f} ms" if gap is not None else "too late: the window had closed"
            conn.push("claim_result", table=self.id, window=window.id, outcome="too_slow",
                      margin_ms=gap, message=message, latency_ms=0.0)
            return {"table": self.id, "step": len(self.log)}
        if self.window is None:
            try:
                self.game.apply(self.state, seat, action)
            except IllegalAction as e:
                raise ProtocolError("illegal_action", e.reason) from None
        reason = "you pressed before the card was sent to you"
        conn.push("claim_result", table=self.id, window=self.window.id if self.window else None,
                  outcome="refused", margin_ms=None, message=reason, latency_ms=0.0)
        raise ProtocolError("claim_refused", reason)

    def _bot_claim(self, seat: int, action: Action, delay_ms: float, anchor: float) -> None:
        """An in-process bot's claim: pressed ``delay_ms`` after ``anchor`` (the server
        time its window's update was handed to it, its ``t_shown``), through the same
        arbiter as a human press: its reaction time is ``delay_ms``.
        Raises IllegalAction when the engine refuses it."""
        w = self.window
        now = self.now_ms()
        press = min(now, float(anchor) + float(delay_ms))
        if seat in self._claimed or press < self.window_shown:
            return
        self.game.apply(self.state, seat, action)  # dry run
        self._claimed.add(seat)
        self._claimants.add(seat)
        self.arbiter.submit(w.id, Claim(seat, action, press, now, shown=float(anchor)),
                            self._pending_bounds(), self.window_shown)

    def _pass_for(self, seat: int) -> bool:
        """Answer the open window with a pass for ``seat`` (a held seat nobody plays);
        True when one was applied."""
        w = self.window
        if w is None or seat not in w.pending or seat in self._claimed:
            return False
        passes = [a for a in self.game.legal_actions(self.state, seat) if a.TYPE == w.pass_type]
        if not passes:
            return False
        self._apply(seat, passes[0])
        return True
