"""Hints (docs/PROTOCOL.md "Hints"): a seated player asks what the hard bot would do in
his place, at a table whose host allowed it (table option ``hints``).

The hint is computed from that seat's side of the table only: a new hard bot for the seat
(seeded from the match seed) learns the match as the seat saw it -- the match replayed
from its seed, the bot given at each step only ``events_for(events, seat)`` and
``view(state, seat)``, as a stand-in learns it (:mod:`server.match.standins`) -- then
decides on the seat's view and legal actions now. A search it asks for runs in the
server's worker pool (:mod:`server.thinkers`). The replay runs in slices on the teaching
cooperator, so a hint never blocks the reactor; the answer goes to the asking connection
only.
"""
from __future__ import annotations

from typing import Any, Iterator

from twisted.internet import defer
from twisted.logger import Logger

from shared.bots import make_bot
from shared.bots.search import Think, resolve
from shared.protocol import ProtocolError
from shared.rules import Action, events_for
from shared.sentences import say
from server.match.contracts import MatchTable
from server.match.standins import saved_or_later, teaching_cooperator
from server.ratelimit import AddressAllowance

log = Logger()

#: Hints one seat may ask for at once; one more comes back every :data:`HINT_REFILL_S`
#: seconds (and only one is worked out at a time per seat).
HINT_TRIES = 5
HINT_REFILL_S = 3.0


class HintDesk:
    """The hints of ``table`` (a :class:`MatchTable`): who may ask, one at a time per
    seat, within an allowance per seat, and the answer to the asking connection.

    ``busy``: seats whose hint is being worked out; ``allowance``: hints per seat
    (:class:`server.ratelimit.AddressAllowance` keyed by seat)."""

    def __init__(self, table: MatchTable):
        self.table = table
        self.busy: set[int] = set()
        self.allowance = AddressAllowance(table.clock, HINT_TRIES, HINT_REFILL_S)

    def ask(self, conn: Any, seq: int | None) -> None:
        """``hint {table}``: start working out the hint for ``conn``'s seat; the reply
        ``hint {table, seat, step, action}`` (with ``re: seq``) is pushed to ``conn`` alone
        when it is ready. Raises :class:`ProtocolError` ``hints_off``, ``not_seated``
        (a spectator, or not at the table), ``not_started``, ``match_over``,
        ``no_hint`` (the seat has nothing to do now), ``too_many_hints`` (one is being
        worked out for the seat, or the seat asked too often)."""
        t = self.table
        if not t.settings.get("hints"):
            raise ProtocolError("hints_off", say("hints_off"))
        seat = t.seat_of(conn)
        if seat is None:
            raise ProtocolError("not_seated", say("hint_not_seated"))
        if t.status == "waiting" or t.state is None:
            raise ProtocolError("not_started", say("not_started"))
        if t.status != "playing":
            raise ProtocolError("match_over", say("match_over"))
        if not t.legal(seat):
            raise ProtocolError("no_hint", say("hint_nothing"))
        if seat in self.busy:
            raise ProtocolError("too_many_hints", say("hint_busy"))
        if not self.allowance.allowed(seat):
            raise ProtocolError("too_many_hints", say("too_many_hints",
                                                      s=max(1, round(self.allowance.retry_after_s(seat)))))
        self.allowance.spend(seat)
        self.busy.add(seat)
        work = teaching_cooperator(t.clock).cooperate(self._work(conn, seat, seq))
        work.whenDone().addErrback(self._failed, conn, seat, seq)

    def make_bot(self, seat: int) -> Any:
        """The hard bot that works out ``seat``'s hint, seeded from the match seed, the
        seat and the step (asked again at the same step, the same hint)."""
        t = self.table
        settings = dict(t.config["bots"])
        settings["think_ms"] = 0
        seed = f"{t.seed}/hint/{seat}/{len(t.actions)}"
        try:
            return make_bot(t.game.NAME, seat, seed=seed, settings=settings, level="hard")
        except (ImportError, KeyError):  # a game without a bot of its own
            return make_bot(t.game.NAME, seat, seed=seed, settings=settings, kind="random")

    def _work(self, conn: Any, seat: int, seq: int | None) -> Iterator[Any]:
        """The bot learns the match as ``seat`` saw it, one action per ``next`` (a
        Deferred while outcomes are held back for the disk), then decides."""
        try:
            t = self.table
            game = t.game
            bot = self.make_bot(seat)
            state = game.new_match(t.engine_config, t.seed)
            bot.observe([], game.view(state, seat))
            replayed = 0
            while True:
                if t.closed or t.status != "playing":
                    return
                if replayed < t.delivery.released_step:
                    seat_acting, action = t.actions[replayed]
                    state, events = game.apply(state, seat_acting, action)
                    bot.observe(events_for(events, seat), game.view(state, seat))
                    replayed += 1
                    yield None
                    continue
                if replayed >= len(t.actions) and not t.saving.paused:
                    break  # the bot saw every step the seat was sent
                yield self._wait()
            if t.seat_of(conn) != seat:
                return  # the asker left the seat meanwhile: nobody to answer
            legal = t.legal(seat)
            if not legal:
                self._error(conn, seq, ProtocolError("no_hint", say("hint_nothing")))
                return
            step = len(t.log)
            decided = bot.decide(game.view(state, seat), legal)
            if isinstance(decided, Think):
                yield self._search(decided).addCallback(self._answer, conn, seat, seq, step, legal)
                return
            self._answer(decided, conn, seat, seq, step, legal)
        finally:
            self.busy.discard(seat)

    def _search(self, think: Think) -> defer.Deferred:
        """``think``'s decision: its search in the worker pool (in-process without one),
        its fallback when the search fails."""
        thinkers = self.table.thinkers
        if thinkers is None:
            try:
                return defer.succeed(resolve(think))
            except Exception:
                log.failure("a hint's search failed: its fallback is the hint")
                return defer.succeed(think.fallback)

        def finish(result: Any) -> Any:
            try:
                return think.finish(result)
            except Exception:
                return think.fallback

        return thinkers.think(think.request).addCallbacks(finish, lambda _: think.fallback)

    def _answer(self, decision: Any, conn: Any, seat: int, seq: int | None, step: int,
                legal: list[Action]) -> None:
        """Push the hint to ``conn``: the decision's action, one of ``legal`` (a bot that
        would wait is hinted the window's pass when it has one, else its first action)."""
        t = self.table
        if t.closed or t.seat_of(conn) != seat:
            return
        action = getattr(decision, "action", None)
        if action not in legal:
            w = t.claims.window
            passes = [a for a in legal if w is not None and a.TYPE == w.pass_type]
            action = (passes or legal)[0]
        fields: dict[str, Any] = {"table": t.id, "seat": seat, "step": step, "action": action.to_dict()}
        if seq is not None:
            fields["re"] = seq
        conn.push("hint", **fields)

    def _error(self, conn: Any, seq: int | None, error: ProtocolError) -> None:
        fields = error.fields()
        if seq is not None:
            fields["re"] = seq
        conn.push("error", **fields)

    def _wait(self) -> defer.Deferred:
        return saved_or_later(self.table)

    def _failed(self, failure: Any, conn: Any, seat: int, seq: int | None) -> None:
        """Working out the hint failed (a bug): logged, and the asker told."""
        self.busy.discard(seat)
        if failure.check(ReferenceError):  # the table was freed meanwhile
            return
        log.failure("table {id}: a hint for seat {seat} failed", failure, id=self.table.id, seat=seat)
        try:
            self._error(conn, seq, ProtocolError("internal", say("internal")))
        except Exception:
            pass
