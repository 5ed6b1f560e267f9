"""One table and its match (ARCHITECTURE §3, §5; docs/PROTOCOL.md): the match's start,
every applied action (logged and synced *before* anybody is told), its release to the
players, the end, the close, and the restore of a match from its log after a crash.

The table holds its collaborators by name and hands each the table itself (they see it
as a :class:`server.match.contracts.MatchTable`):

- ``roster`` (:class:`~server.match.seats.SeatRoster`): joining, leaving, held seats,
  reconnect tokens and resumes;
- ``stand_ins`` (:class:`~server.match.standins.StandIns`): the bots that play seats,
  and the lessons that teach them the match so far;
- ``claims`` (:class:`~server.match.claims.ClaimDesk`): reaction windows and the claims
  made in them, ordered by the arbiter;
- ``delivery`` (:class:`~server.match.delivery.Delivery`): who gets which bytes;
- ``saving`` (:class:`~server.match.saving.Saving`): the match log on disk, the group
  commit, pausing while the disk fails;
- ``host`` (:class:`~server.match.host.HostControls`): host, lock, options, emotes,
  rematch;
- ``turn_timer`` (:class:`~server.match.turns.TurnTimer`) and ``spectators``
  (:class:`~server.match.spectators.SpectatorFeed`).

A *connection* is a :class:`server.match.contracts.Connection`. The seat always comes
from the connection, never from a message.
"""
from __future__ import annotations

import weakref
from pathlib import Path
from typing import Any, Callable

from twisted.logger import Logger

from shared import matchlog
from shared.bots import DEFAULT_LEVEL, LEVELS
from shared.games import game_def
from shared.protocol import ProtocolError
from shared.sentences import say
from shared.rules import Action, BadAction, Event, IllegalAction
from shared.windows import Window
from server.match.claims import ClaimDesk
from server.match.contracts import Clock
from server.match.delivery import Delivery
from server.match.hints import HintDesk
from server.match.host import HostControls
from server.match.saving import Saving
from server.match.seat import Seat
from server.match.seats import SeatRoster
from server.match.spectators import SpectatorFeed
from server.match.standins import StandIns
from server.match.turns import TurnTimer, turn_key
from server.options import default_settings

log = Logger()


class Table:
    """One table and its match.

    ``game``: a registered rules module (its declaration is ``definition``);
    ``engine_config``/``settings`` from :func:`server.options.parse_options`; ``config``:
    the whole server config (``server``, ``timing``, ``bots``); ``clock``:
    ``IReactorTime`` on the server's monotonic clock; ``data_dir``: where the match log
    goes (None: no log); ``port``: the server's TCP port, written to the log (the port
    that restores it); ``on_empty(table)`` is called when the table closed because
    nobody is left at it; ``on_change(table)`` after seat or status changes;
    ``options``: the accepted ``create_table`` options (:mod:`server.match.host`).

    ``log``: ``[{"seat", "action", "t"}]`` (``t``: ms since the start), ``actions`` the
    same parsed, ``history[k]``: the events of step ``k + 1``; ``match_no``: the
    table's match number this evening; ``scoreboard``: the lobby's
    :class:`server.scoreboard.Scoreboard` (None: none); ``thinkers``: the lobby's worker
    pool for the bots' searches (None: they run in-process); ``on_replace(old, new)``: the
    lobby puts ``new`` in the place of ``old`` (a rematch, new options);
    ``replaced_by``: that new table, once there is one; ``create_key``: the sha256 hex
    digest of the key its ``create_table`` was named with (None: none).
    """

    def __init__(self, table_id: int, game: Any, name: str, engine_config: dict[str, Any],
                 settings: dict[str, Any], config: dict[str, Any], clock: Clock,
                 on_empty: Callable[["Table"], None] = lambda t: None,
                 on_change: Callable[["Table"], None] = lambda t: None,
                 data_dir: Path | None = None, port: int | None = None,
                 options: dict[str, Any] | None = None):
        self.id = table_id
        self.game = game
        self.definition = game_def(game.NAME)
        self.name = name
        self.engine_config = engine_config
        self.settings = dict(settings)
        self.seed: int = settings["seed"]
        self.bot_think_ms: float = settings["bot_think_ms"]
        self.bot_kind: str = settings["bot_kind"]
        self.bot_takeover: str = settings.get("bot_takeover", "after_miss")
        self.config = config
        self.clock = clock
        self.on_empty = on_empty
        self.on_change = on_change
        self.seats = [Seat(i) for i in range(engine_config["seats"])]
        self.spectators = SpectatorFeed(clock, settings.get("spectator_delay_s", 0))
        self.status = "waiting"  # "waiting" | "playing" | "over"
        self.state: Any = None
        self.log: list[dict[str, Any]] = []
        self.actions: list[tuple[int | None, Action]] = []
        self.history: list[list[Event]] = []
        self.result: dict[str, Any] | None = None
        self.started_at = 0.0
        self.closed = False
        self.match_no = 1
        self.players_at_start: dict[int, str] = {}  # seat -> name of the people at the start
        self.finished_by_stand_in: list[int] = []  # players' seats a stand-in bot ended the match for
        self.scoreboard: Any = None
        #: the server's worker pool for the bots' searches (:class:`server.thinkers.Thinkers`;
        #: None: searches run in-process, as in tests)
        self.thinkers: Any = None
        self.on_replace: Callable[[Any, Any], None] = lambda old, new: None
        self.replaced_by: Table | None = None
        #: sha256 hex digest of the ``create_table`` key, kept with a waiting table on disk
        self.create_key: str | None = None
        self.turn_timer = TurnTimer(clock, settings.get("turn_timer_s", 0), self._turn_expired)
        # the collaborators hold the table weakly: a closed table (a whole match history,
        # thousands of objects) is freed at once by reference counting, not by the
        # collector; what they call back after that finds it gone (ReferenceError)
        me = weakref.proxy(self)
        self.roster = SeatRoster(me)
        self.stand_ins = StandIns(me)
        self.claims = ClaimDesk(me, float(config["timing"]["collection_margin_ms"]))
        self.delivery = Delivery(me)
        self.saving = Saving(me, data_dir, port)
        self.host = HostControls(me, options)
        self.hints = HintDesk(me)

    # -- what the lobby and the tests read ----------------------------------------------
    def now_ms(self) -> float:
        return self.clock.seconds() * 1000.0

    @property
    def matchfile(self) -> Any:
        """The open match log (:class:`server.persist.MatchFile`), or None."""
        return self.saving.matchfile

    @property
    def paused(self) -> bool:
        """True while the match waits for the disk (:class:`server.match.saving.Saving`)."""
        return self.saving.paused

    @property
    def arbiter(self) -> Any:
        return self.claims.arbiter

    @property
    def window(self) -> Window | None:
        """The open reaction window, or None."""
        return self.claims.window

    @property
    def window_shown(self) -> float:
        """Server ms when the open window's update went out."""
        return self.claims.window_shown

    @property
    def room(self) -> str | None:
        """The table's room code (:mod:`server.web.rooms`; kept in its settings, so in its
        match log), or None for a table made outside a lobby."""
        code = self.settings.get("room")
        return code if isinstance(code, str) else None

    @property
    def hints_allowed(self) -> bool:
        """Seated players may ask for a hint (table option ``hints``)."""
        return bool(self.settings.get("hints"))

    @property
    def private(self) -> bool:
        """Joining or watching needs the room code (table option ``private``)."""
        return bool(self.settings.get("private"))

    def summary(self) -> dict[str, Any]:
        """The ``Table`` object of the protocol as the table's own people get it (in
        ``table`` messages): with its ``room`` code."""
        out = self.listing()
        if self.room is not None:
            out["room"] = self.room
        return out

    def listing(self) -> dict[str, Any]:
        """The ``Table`` object as anybody may see it (``list_tables``, LAN discovery):
        without the room code."""
        return {"id": self.id, "name": self.name, "game": self.game.NAME,
                "status": self.status, "seats": [s.summary() for s in self.seats],
                "spectators": len(self.spectators),
                "fixed_deal": bool(self.settings.get("fixed_deal")), "private": self.private,
                "hints": self.hints_allowed,
                **self.host.summary()}

    def connections(self) -> list[Any]:
        """Every connection at the table: seated ones, then spectators."""
        return [s.conn for s in self.seats if s.conn is not None] + list(self.spectators.conns)

    def seat_of(self, conn: Any) -> int | None:
        for s in self.seats:
            if s.conn is conn:
                return s.index
        return None

    def push_summary(self) -> None:
        """The table's summary to everybody at it; the lobby hears of the change. A
        waiting table is kept on disk first (:meth:`server.match.saving.Saving.save_waiting`),
        so whoever hears of a seat taken finds it there after a crash."""
        if self.status == "waiting":
            self.saving.save_waiting()
        self.delivery.to_everyone("table", table=self.summary())
        self.on_change(self)

    def scoreboard_rows(self) -> list[dict[str, Any]]:
        """The evening's scoreboard (``match_over.scoreboard``); [] without one."""
        return self.scoreboard.rows() if self.scoreboard is not None else []

    # -- seats (the lobby's requests; the host's go to ``host``, ``resync`` to ``delivery``)
    def join(self, conn: Any, seat: int | None = None, spectate: bool = False,
             key: str | None = None) -> dict[str, Any]:
        return self.roster.join(conn, seat, spectate, key)

    def leave(self, conn: Any) -> None:
        self.roster.leave(conn)

    def drop(self, conn: Any) -> None:
        self.roster.drop(conn)

    def reconnect(self, conn: Any, index: int, step: int | None) -> dict[str, Any]:
        return self.roster.reconnect(conn, index, step)

    def held(self) -> bool:
        return self.roster.held()

    def add_bot(self, seat: int | None = None, level: str = DEFAULT_LEVEL) -> None:
        self.roster.add_bot(seat, level)

    def new_table(self, engine_config: dict[str, Any], settings: dict[str, Any],
                  options: dict[str, Any]) -> "Table":
        """A new waiting table for this one's place, with the same id, name, game,
        callbacks, log folder, match number and scoreboard
        (:meth:`server.match.host.HostControls.play_again`)."""
        new = Table(self.id, self.game, self.name, engine_config, settings, self.config, self.clock,
                    on_empty=self.on_empty, on_change=self.on_change, data_dir=self.saving.data_dir,
                    port=self.saving.port, options=options)
        new.match_no, new.scoreboard, new.on_replace = self.match_no, self.scoreboard, self.on_replace
        new.thinkers = self.thinkers
        return new

    def replace_with(self, new: "Table") -> None:
        """``new`` takes this table's place in the lobby (a rematch, new options)."""
        self.replaced_by = new
        self.on_replace(self, new)

    def host_lost(self, conn: Any) -> None:
        self.host.lost(conn)

    # -- the match's start -------------------------------------------------------------
    def seats_changed(self) -> None:
        """Start the match when every seat is filled and no seat waits for its player
        to come back after a restart (its summary goes out with status playing) unless
        the table waits for its host's ``start``, else push the new summary."""
        if (self.status == "waiting" and self.settings.get("start", "auto") == "auto"
                and all(not s.free and not s.away for s in self.seats)):
            self.start_match()
        else:
            self.push_summary()

    def start_match(self) -> None:
        """The match starts: a new engine state from the seed, its log's header written;
        the deal goes out once that header is on disk (the group commit, which syncs it
        on the writer thread: a slow disk stalls no other table meanwhile)."""
        self.status = "playing"
        self.players_at_start = {s.index: s.name or "" for s in self.seats if not s.bot}
        self.state = self.game.new_match(self.engine_config, self.seed)
        self.started_at = self.now_ms()
        log.info("table {id}: {game} match started, seed {seed}", id=self.id,
                 game=self.game.NAME, seed=self.seed)
        self.saving.open_log(self.host.log_fields())
        self.claims.track_window(self.started_at)
        self._track_turn(self.started_at, self.game.view(self.state, None))
        self.push_summary()
        self.saving.commit_then(self._deal)

    def _deal(self) -> None:
        """``match_started`` to every seat and spectator, and the bots start."""
        if self.closed or self.status != "playing":
            return
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.set_playing(True)
                self.delivery.send_start(seat.conn, seat.index)
        self.delivery.send_spectators_start()
        self.stand_ins.start([seat for seat in self.seats if seat.bot], None)

    # -- actions from connections and bots -------------------------------------------
    def act(self, conn: Any, data: dict[str, Any], t_press: float | None = None,
            t_shown: float | None = None) -> dict[str, Any]:
        """A connection's ``action`` request; returns the ``ack`` fields ``{table, step}``.

        ``t_press``/``t_shown`` are client ms. ``step`` is the step of the first
        ``update`` that reflects the action (see PROTOCOL.md). Raises
        :class:`ProtocolError` ``not_seated``, ``not_started``, ``paused``,
        ``match_over``, ``bad_action``, ``illegal_action`` (with the engine's sentence)
        or ``claim_refused``.
        """
        seat = self.seat_of(conn)
        if seat is None:
            raise ProtocolError("not_seated", say("no_seat_spectator" if conn in self.spectators else "no_seat"))
        if self.status == "waiting":
            raise ProtocolError("not_started", say("not_started"))
        if self.saving.paused:
            raise ProtocolError("paused", say("paused", reason=self.saving.why_paused()))
        if self.status == "over":
            raise ProtocolError("match_over", say("match_over"))
        try:
            action = self.game.ACTIONS.parse(data)
        except BadAction as e:
            raise ProtocolError("bad_action", str(e)) from None
        claims = self.claims
        if claims.is_claim(action):
            return claims.human_claim(conn, seat, action, t_press, t_shown)
        w = claims.window
        if w is not None and action.TYPE == w.pass_type and seat in claims.claimed:
            raise ProtocolError("illegal_action", say("already_claimed"))
        try:
            self.apply(seat, action)
        except IllegalAction as e:
            raise ProtocolError("illegal_action", e.sentence or e.reason) from None
        return {"table": self.id, "step": len(self.log)}

    def bot_send(self, seat: int, driver: Any, decision: Any, anchor: float) -> None:
        """A bot's decision fires (if that bot still plays the seat): claims go through
        the arbiter with press = ``anchor`` + the bot's reaction delay (ms)."""
        if self.closed or self.status != "playing" or self.seats[seat].driver is not driver:
            return
        if self.saving.paused:
            return  # the bot decides again on the update the pause holds back
        action = decision.action
        w = self.claims.window
        try:
            if w is not None and action.TYPE in w.claim_types:
                self.claims.bot_claim(seat, action, decision.delay_ms, anchor)
            else:
                self.apply(seat, action)
        except IllegalAction as e:
            log.warn("table {id}: bot at seat {seat} tried {a}: {r}", id=self.id, seat=seat,
                     a=action.to_dict(), r=e.reason)

    def legal(self, seat: int | None, awaited: Any = None) -> list[Action]:
        """``seat``'s legal actions now: [] unless the match awaits it (every game's
        ``legal_actions`` is empty for a seat outside ``awaiting``: only awaited seats
        cost anything); a seat whose claim waits in the arbiter may not claim or pass
        again. ``awaited``: ``game.awaiting(state)`` when the caller has it."""
        if seat is None or self.state is None or self.status != "playing":
            return []
        if seat not in (self.game.awaiting(self.state) if awaited is None else awaited):
            return []
        legal = self.game.legal_actions(self.state, seat)
        w = self.claims.window
        if w is not None and seat in self.claims.claimed:
            hidden = set(w.claim_types) | {w.pass_type}
            legal = [a for a in legal if a.TYPE not in hidden]
        return legal

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        """Apply one action (raises IllegalAction, nothing changed), write it to the log,
        then -- once it is on disk -- send the updates, track the window and the turn,
        end the match when it is over. Returns the action's events."""
        if self.saving.paused:
            raise IllegalAction(say("paused", reason=self.saving.why_paused()))
        state, events = self.game.apply(self.state, seat, action)
        # its public view now, not at the release: the group commit may apply the table's
        # next action first, and a game's view may reuse what the previous state's view
        # built (Omerta's views reuse its lists when the state they were cloned from had one)
        public = self.game.view(state, None)
        now = self.now_ms()
        self.state = state
        t = now - self.started_at
        record = matchlog.action_record(len(self.log) + 1, seat, action, t)
        self.log.append({"seat": seat, "action": record["action"], "t": t})  # one to_dict: read only
        self.actions.append((seat, action))
        self.history.append(events)
        if not self.saving.write(record):
            self.saving.held_out.append(lambda: self._release(events))
            return events
        step = len(self.log)
        self.saving.commit_then(lambda: self._release(events, now, state, step, public))
        return events

    def _release(self, events: list[Event], now: float | None = None, state: Any = None,
                 step: int | None = None, public: dict[str, Any] | None = None) -> None:
        """Tell everybody what an action did (it is on disk): updates, the window and
        the turn, the end of the match. ``state``/``step``: the match right after that
        action (the group commit may release it after later actions of the same reactor
        turn were applied), ``public`` its spectator view; the latest when None."""
        now = self.now_ms() if now is None else now
        latest = self.state
        if state is not None:
            self.state = state  # the updates, window and turn of that action, in order
        try:
            if public is None:
                public = self.game.view(self.state, None)
            self.claims.track_window(now)
            self._track_turn(now, public)
            self.delivery.fan_out(events, now, public, step)
        finally:
            self.state = latest
        if self.game.is_over(self.state if state is None else state):
            self._finish()
        else:
            self.claims.refresh_arbiter()
            self.after_change()

    def after_change(self) -> None:
        """After the state or a seat changed: stand-ins for held seats, and the bot of a
        turn whose time ran out during a window."""
        if self.status != "playing" or self.closed:
            return
        self.stand_ins.refresh()
        if self.turn_timer.expired and self.claims.window is None and self.status == "playing":
            self._turn_expired(self.turn_timer.key)

    # -- the turn timer ---------------------------------------------------------------
    def _track_turn(self, now: float, public: dict[str, Any]) -> None:
        old = self.turn_timer.key
        key = turn_key(self.game.awaiting(self.state), self.claims.window,
                       self.definition.turn_id(self.state), old)
        if not self.turn_timer.track(key, now) or old is None:
            return
        seat = self.seats[old[0]]
        if seat.stand_in == "timer":  # its turn is over: the player plays again
            if seat.away and self.bot_takeover == "after_miss":
                seat.stand_in = "takeover"
            else:
                self.stand_ins.stop(seat)

    def _turn_expired(self, key: Any) -> None:
        if self.closed or self.status != "playing" or key != self.turn_timer.key:
            return
        if self.saving.when_saved(lambda: self._turn_expired(key)):
            return
        if self.claims.window is not None:
            return  # the window has its own timeout; the bot takes the turn after it
        self.turn_timer.expired = False
        seat = self.seats[key[0]]
        if seat.driver is None:
            log.info("table {id}: seat {seat} ran out of time; its bot plays the turn",
                     id=self.id, seat=seat.index)
            self.stand_ins.start([seat], "timer")

    # -- the end ----------------------------------------------------------------------
    def _finish(self) -> None:
        self.status = "over"
        self._stop_timers()
        scores = self.game.scores(self.state)
        self.result = {"game": self.game.NAME, "seed": self.seed, **scores}
        if self.settings.get("fixed_deal"):
            self.result["fixed_deal"] = True  # the seed was chosen by a client
        self.result.setdefault("rounds", 1)  # a game without rounds is one round
        log.info("table {id}: match over, scores {scores}", id=self.id,
                 scores=self.result.get("scores"))
        self.finished_by_stand_in = [s.index for s in self.seats
                                     if s.index in self.players_at_start and (s.left or s.away or s.bot)]
        over: dict[str, Any] = {"kind": "over", "result": self.result}
        if self.finished_by_stand_in:
            over["stand_ins"] = self.finished_by_stand_in
        over["t"] = round(self.now_ms() - self.started_at, 3)
        if not self.saving.write(over):
            self.saving.held_out.append(self._announce_result)
            return
        self.saving.commit_then(self._announce_result)

    def _announce_result(self) -> None:
        """``match_over`` to every seat and spectator (the result is on disk); the
        result counts on the evening's scoreboard."""
        mf = self.saving.matchfile
        if mf is not None and mf.appends:
            log.info("table {id}: {n} log records, fsync {ms:.3f} ms each on average", id=self.id,
                     n=mf.appends, ms=mf.fsync_ms / mf.appends)
        self.host.announced = True
        if self.scoreboard is not None:
            self.scoreboard.record_table(self)
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.set_playing(False)
        self.delivery.to_seats_once("match_over", table=self.id, result=self.result,
                                    reactions=self.claims.reaction_medians(),
                                    scoreboard=self.scoreboard_rows())
        if not self.maybe_close():  # stand-ins alone finished it: nobody to wait for
            self.push_summary()

    def _stop_timers(self) -> None:
        self.claims.stop()
        self.turn_timer.stop()
        for seat in self.seats:
            if seat.driver is not None:
                seat.driver.stop()

    def maybe_close(self) -> bool:
        """Close the table when nobody is at it and no seat is held; True if closed. A
        match in play is never closed: once its players are gone their stand-ins finish
        it, so that its result reaches the scoreboard (marked won by a stand-in) and the
        players may still sit back down with their tokens until it ends."""
        if self.closed:
            return True
        if self.connections() or self.roster.held() or self.status == "playing":
            return False
        self.close()
        self.on_empty(self)
        return True

    def close(self) -> None:
        """Stop every timer and bot; the table is gone. An unfinished match's log is
        marked abandoned: nobody is left to come back to it."""
        if self.closed:
            return
        self.closed = True
        self._stop_timers()
        self.spectators.stop()
        for seat in self.seats:
            seat.driver = None
            for call in (seat.grace_call, seat.stand_in_call):
                if call is not None and call.active():
                    call.cancel()
            seat.grace_call = seat.stand_in_call = None
        if self.roster.gather_call is not None and self.roster.gather_call.active():
            self.roster.gather_call.cancel()
        self.roster.gathering = self.roster.gather_call = None
        self.saving.close(self.status, self.now_ms() - self.started_at)

    # -- restore after a crash --------------------------------------------------------
    @classmethod
    def restore(cls, path: Path, mlog: matchlog.MatchLog, game: Any, config: dict[str, Any],
                clock: Clock, data_dir: Path | None = None,
                on_empty: Callable[["Table"], None] = lambda t: None,
                on_change: Callable[["Table"], None] = lambda t: None,
                port: int | None = None) -> "Table":
        """The table of an unfinished match log (already parsed and cut to its good part),
        playing again: every action re-applied, each player's seat held for them (the
        grace period counts from now), bots back with the whole match in memory, the
        open window's timeout and the turn timer restarted. Raises
        :class:`shared.matchlog.LogError` when the log does not replay, ``KeyError`` /
        ``TypeError`` / ``ValueError`` when its header is malformed."""
        head = mlog.header
        settings = {**default_settings(config), **(head.get("settings") or {}), "seed": head["seed"]}
        table = cls(int(head["table"]), game, str(head["name"]), dict(head["config"]), settings,
                    config, clock, on_empty=on_empty, on_change=on_change, data_dir=data_dir,
                    port=port)
        table._restore(path, mlog)
        return table

    @classmethod
    def restore_waiting(cls, record: dict[str, Any], game: Any, config: dict[str, Any], clock: Clock,
                        data_dir: Path | None = None,
                        on_empty: Callable[["Table"], None] = lambda t: None,
                        port: int | None = None) -> "Table":
        """The waiting table of a record (:mod:`server.waiting_tables`, already checked
        for its fields): its options, seed, host, lock and bots as they were, each
        player's seat held for ``server.restart_grace_s`` s for a ``reconnect`` with its
        token or a ``join`` asked again with its key (then freed); the table closes when
        nobody came back by then. Raises ``KeyError`` / ``TypeError`` / ``ValueError``
        for a malformed record."""
        settings = {**default_settings(config), **record["settings"]}
        settings["seed"] = int(settings["seed"])
        table = cls(record["table"], game, record["name"], dict(record["config"]), settings, config,
                    clock, on_empty=on_empty, data_dir=data_dir, port=port,
                    options=dict(record.get("options") or {}))
        no = record.get("match_no")
        table.match_no = no if isinstance(no, int) and no > 0 else 1
        key = record.get("create_key")
        table.create_key = key if isinstance(key, str) else None
        table.host.locked = bool(record.get("locked"))
        for rec in record["seats"]:
            index = int(rec["seat"])
            if not 0 <= index < len(table.seats):
                raise ValueError(f"seat {index} of a table of {len(table.seats)}")
            seat = table.seats[index]
            seat.name = str(rec.get("name") or "")
            if rec.get("bot"):
                seat.bot = True
                seat.level = rec["level"] if rec.get("level") in LEVELS else DEFAULT_LEVEL
            elif isinstance(rec.get("token"), str):
                seat.token = rec["token"]
                seat.key = rec["key"] if isinstance(rec.get("key"), str) else None
        host = record.get("host")
        if isinstance(host, int) and 0 <= host < len(table.seats) and table.seats[host].token:
            table.host.token = table.seats[host].token
        log.info("table {id}: waiting {game} table restored ({n} players' seats held)", id=table.id,
                 game=game.NAME, n=sum(1 for s in table.seats if s.token))
        table.roster.hold_restored(float(config["server"].get("restart_grace_s", 0.0)))
        return table

    def _restore(self, path: Path, mlog: matchlog.MatchLog) -> None:
        self.saving.replay(path, mlog)
        now = self.now_ms()
        self.started_at = now - (self.log[-1]["t"] if self.log else 0.0)
        self.status = "playing"
        info = {s["seat"]: s for s in mlog.header["seats"]}
        for rec in mlog.seats:
            info[rec["seat"]] = rec
        bots = []
        for seat in self.seats:
            entry = info.get(seat.index, {})
            seat.name = entry.get("name")
            seat.token = entry.get("token")
            key = entry.get("key")
            seat.key = key if isinstance(key, str) else None
            if entry.get("bot") or not seat.token:
                seat.bot, seat.token = True, None
                seat.level = entry["level"] if entry.get("level") in LEVELS else DEFAULT_LEVEL
                bots.append(seat)
        log.info("table {id}: {game} match restored at step {step} from {path}", id=self.id,
                 game=self.game.NAME, step=len(self.log), path=str(path))
        if mlog.finished:  # over on disk, but not every player had the result
            self.status = "over"
            self.result = mlog.result
            self.finished_by_stand_in = list(mlog.stand_ins)
            self.delivery.send_spectators_start()
            self._hold_players()
            return
        self.claims.track_window(now)
        self._track_turn(now, self.game.view(self.state, None))
        self.delivery.send_spectators_start()
        if self.game.is_over(self.state):  # the crash came between the last action and its end
            self._finish()
            self._hold_players()
            return
        grace = float(self.config["server"].get("restart_grace_s", 0.0))
        if grace > 0:  # no clock runs while the table waits for its players (_go_live)
            self.claims.cancel_timeout()
            self.turn_timer.hold()
        self._hold_players(wait_s=grace)
        if not self.closed:
            self.roster.gather(grace, lambda: self._go_live(bots))

    def _go_live(self, bots: list[Seat]) -> None:
        """A restored match goes on (its players are back, or the wait for them is
        over): the open window and the turn under way get their whole time again from
        now, and the bot seats' bots (having learnt the match) play."""
        now = self.now_ms()
        self.claims.restart_window(now)
        self.turn_timer.restart(now)
        self.stand_ins.start(bots, None)

    def _hold_players(self, wait_s: float | None = None) -> None:
        """Restored: every player's seat is held for him (no stand-in for ``wait_s`` s,
        default ``server.drop_grace_s``); the table closes when nobody comes back."""
        for seat in self.seats:
            if not seat.bot:
                self.roster.hold(seat, wait_s)
        self.maybe_close()
