"""One table: its match (engine state, match log on disk, the history of every step),
and what it sends to whom (ARCHITECTURE §3, §5; docs/PROTOCOL.md).

A *connection* here is anything with ``conn_id``, ``name``, ``push(msg_type, **fields)``,
``clock_offset_ms`` (server ms - client ms, or None), ``rtt_bound_ms()`` and
``set_playing(bool)`` (called True when a match of this connection's seat starts or it
gets its seat back, False once when it ends or the seat is given up) --
:class:`server.protocol.ServerProtocol` in production, a fake in the tests. The seat
always comes from the connection, never from a message.

Secrets are filtered here, at the source: each seated connection gets ``view(state,
seat)``, ``events_for(events, seat)`` and its own legal actions; spectators get only
what :class:`server.spectators.SpectatorFeed` is handed: public views and events.

The table is split by concern: seats, held seats, bots and stand-ins in
:mod:`server.seats`; reaction windows and claims in :mod:`server.claims`; the turn timer
in :mod:`server.turns`; the spectator stream in :mod:`server.spectators`; files in
:mod:`server.persist`. What stays here is the match itself: start, every applied action
(logged and fsynced *before* anybody is told), updates, the end, and the restore of a
match from its log after a crash.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterable

from twisted.logger import Logger

from shared import matchlog
from shared.games import game_def
from shared.protocol import VERSION, ProtocolError, encode, encode_value, merge_objects
from shared.rules import Action, BadAction, Event, IllegalAction, events_for, private_seats
from shared.windows import Window
from server.arbiter import Arbiter
from server.claims import WindowsMixin
from server.host import HostMixin
from server.options import default_settings, parse_options
from server.persist import MatchFile, close_file, group_commit
from server.seats import Seat, SeatsMixin
from server.spectators import SpectatorFeed
from server.turns import TurnTimer, turn_key

__all__ = ["Seat", "Table", "parse_options", "view_delta"]

log = Logger()


def own_delta(seat_keys: Iterable[str], old: dict[str, Any], new: dict[str, Any]
              ) -> tuple[dict[str, Any], list[str]]:
    """:func:`view_delta` of a seat's view restricted to ``seat_keys`` (the keys that
    depend on the seat, :class:`shared.gamedef.GameDef`): the rest of the delta is the
    public view's, worked out once for every seat."""
    changed = {k: new[k] for k in seat_keys
               if k in new and (k not in old or (old[k] is not new[k] and old[k] != new[k]))}
    return changed, [k for k in seat_keys if k in old and k not in new]


def view_delta(old: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``(view_set, view_unset)``: the top-level keys of ``new`` whose value differs from
    ``old`` (or that ``old`` lacks), with their new values, and the keys of ``old`` that
    ``new`` lacks. Applying them to ``old`` gives ``new`` (docs/PROTOCOL.md ``update``).
    Values shared between two views (the same object) are not compared."""
    changed = {k: v for k, v in new.items() if k not in old or (old[k] is not v and old[k] != v)}
    gone = [k for k in old if k not in new]
    return changed, gone


class UpdateLines:
    """The ``update`` lines of one action for delta connections, from parts encoded
    once: the envelope, the events every seat shares, the public part of the deltas
    (``view_set`` keys and ``view_unset`` outside the game's ``seat_keys``), and
    ``[from_step]``/``t_server``/``step``/``timer``. Each seat adds only its own keys,
    events and legal actions; a seat with none of those gets the same bytes as the
    others. Every line is exactly what ``encode("update", table=..., events=...,
    view_set={**public, **own}, view_unset=..., legal=..., [from_step=...,] t_server=...,
    step=..., timer=...)`` writes (without ``view_unset``/``legal``/``from_step`` when
    there are none)."""

    def __init__(self, table_id: int, events: list[dict[str, Any]] | None,
                 view_set: dict[str, Any], view_unset: list[str], t_server: float, step: int,
                 timer: Any, from_step: int | None = None):
        self._fields = (table_id, events, view_set, t_server, step, timer, from_step)
        self.view_unset = view_unset
        self._parts: tuple[bytes, bytes | None, bytes, bytes] | None = None  # at the first line
        self._plain: bytes | None = None

    def _encoded(self) -> tuple[bytes, bytes | None, bytes, bytes]:
        """(envelope head, shared events, public view_set, tail), encoded once."""
        if self._parts is None:
            table_id, events, view_set, t_server, step, timer, from_step = self._fields
            tail = {} if from_step is None else {"from_step": from_step}
            self._parts = (
                encode_value({"v": VERSION, "type": "update", "table": table_id})[:-1] + b',"events":',
                encode_value(events) if events is not None else None,
                encode_value(view_set),
                b',' + encode_value({**tail, "t_server": t_server, "step": step, "timer": timer})[1:] + b"\n")
        return self._parts

    def line(self, events: list[dict[str, Any]] | None, own: dict[str, Any], own_gone: list[str],
             legal: list[dict[str, Any]] | None) -> bytes:
        """The line of one seat: ``events`` its own (None: the shared ones), ``own`` its
        keys that changed, ``own_gone`` those its view no longer has, ``legal`` its legal
        actions when they changed (None: unchanged, not sent)."""
        plain = events is None and not own and not own_gone and legal is None
        if plain and self._plain is not None:
            return self._plain
        head, shared, public, tail = self._encoded()
        view_set = merge_objects(public, encode_value(own)) if own else public
        out = [head, shared if events is None else encode_value(events), b',"view_set":', view_set]
        unset = self.view_unset + own_gone
        if unset:
            out += [b',"view_unset":', encode_value(unset)]
        if legal is not None:
            out += [b',"legal":', encode_value(legal)]
        out.append(tail)
        line = b"".join(out)
        if plain:
            self._plain = line
        return line


class Table(SeatsMixin, WindowsMixin, HostMixin):
    """One table and its match.

    ``game``: a registered rules module (its declaration is ``definition``); ``engine_config``/``settings`` from
    :func:`server.options.parse_options`; ``config``: the whole server config
    (``server``, ``timing``, ``bots``); ``clock``: ``IReactorTime`` on the server's
    monotonic clock; ``data_dir``: where the match log goes (None: no log); ``port``: the
    server's TCP port, written to the log (the port that restores it);
    ``on_empty(table)`` is called when the table closed because nobody is left at it;
    ``on_change(table)`` after seat or status changes; ``options``: the accepted
    ``create_table`` options (``Table.options``, :mod:`server.host`).
    """

    def __init__(self, table_id: int, game: Any, name: str, engine_config: dict[str, Any],
                 settings: dict[str, Any], config: dict[str, Any], clock: Any,
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
        self.data_dir = data_dir
        self.port = port
        self.matchfile: MatchFile | None = None
        self.seats = [Seat(i) for i in range(engine_config["seats"])]
        self.spectators = SpectatorFeed(clock, settings.get("spectator_delay_s", 0))
        self.status = "waiting"  # "waiting" | "playing" | "over"
        self.state: Any = None
        self.log: list[dict[str, Any]] = []  # [{"seat", "action", "t"}], t = ms since start
        self.actions: list[tuple[int | None, Action]] = []  # the same, parsed
        self.history: list[list[Event]] = []  # history[k] = the events of step k + 1
        self.result: dict[str, Any] | None = None
        self.started_at = 0.0
        self.arbiter = Arbiter(clock, float(config["timing"]["collection_margin_ms"]),
                               self._decide, salt=str(self.seed))
        self.window: Window | None = None  # the open reaction window
        self.window_shown = 0.0  # server ms when the window's update went out
        self._timeout_call: Any = None
        self._claimed: set[int] = set()  # seats whose claim waits in the arbiter
        self._claimants: set[int] = set()  # seats that claimed in the open window
        self._unsaved: list[dict[str, Any]] = []  # log records waiting for the disk (paused)
        self._held_out: list[Callable[[], None]] = []  # what they hold back from the clients
        self._after_resume: list[Callable[[], None]] = []  # time-outs and decisions due meanwhile
        self._pause_reason = ""
        self._retry_call: Any = None
        self._retry_delay = 0.5
        self._last_claimants: set[int] = set()  # ... in the window that closed last
        self.reactions: list[list[float]] = [[] for _ in range(engine_config["seats"])]  # ms, per seat
        self._last_window: tuple[Window, float, float | None] | None = None  # (w, shown, win press)
        self.turn_timer = TurnTimer(clock, settings.get("turn_timer_s", 0), self._turn_expired)
        self.closed = False
        self._replaced_by: "Table | None" = None  # the table in this one's place (server.host)
        self._init_host(options)

    # -- time -------------------------------------------------------------------------
    def now_ms(self) -> float:
        return self.clock.seconds() * 1000.0

    # -- summaries and pushes -----------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The ``Table`` object of the protocol."""
        return {"id": self.id, "name": self.name, "game": self.game.NAME,
                "status": self.status, "seats": [s.summary() for s in self.seats],
                "spectators": len(self.spectators),
                "fixed_deal": bool(self.settings.get("fixed_deal")), **self.host_summary()}

    def connections(self) -> list[Any]:
        """Every connection at the table: seated ones, then spectators."""
        return [s.conn for s in self.seats if s.conn is not None] + list(self.spectators.conns)

    def _push_summary(self) -> None:
        summary = self.summary()
        for s in self.seats:
            if s.conn is not None:
                s.conn.push("table", table=summary)
        self.spectators.send("table", table=summary)
        self.on_change(self)

    def seat_of(self, conn: Any) -> int | None:
        for s in self.seats:
            if s.conn is conn:
                return s.index
        return None

    # -- match lifecycle ------------------------------------------------------------
    def _seats_changed(self) -> None:
        """Start the match when every seat is filled (its summary goes out with status
        playing) unless the table waits for its host's ``start``, else push the new
        summary."""
        if (self.status == "waiting" and self.settings.get("start", "auto") == "auto"
                and all(not s.free for s in self.seats)):
            self._start()
        else:
            self._push_summary()

    def _start(self) -> None:
        self.status = "playing"
        self.players_at_start = {s.index: s.name for s in self.seats if not s.bot}
        self.state = self.game.new_match(self.engine_config, self.seed)
        self.started_at = self.now_ms()
        log.info("table {id}: {game} match started, seed {seed}", id=self.id,
                 game=self.game.NAME, seed=self.seed)
        self._open_log()
        self._track_window(self.started_at)
        self._track_turn(self.started_at, self.game.view(self.state, None))
        self._push_summary()
        # the deal goes out once its log's header is on disk (the group commit, which
        # syncs it on the writer thread: a slow disk stalls no other table meanwhile)
        self._commit_then(self._deal)

    def _deal(self) -> None:
        """``match_started`` to every seat and spectator, and the bots start."""
        if self.closed or self.status != "playing":
            return
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.set_playing(True)
                self._send_start(seat.conn, seat.index)
        self._send_spectators_start()
        self._start_drivers([seat for seat in self.seats if seat.bot], None)

    def _send_start(self, conn: Any, seat: int, resumed: bool = False,
                    missed: list[dict[str, Any]] | None = None,
                    rewound_from: int | None = None, missed_truncated: bool = False) -> None:
        """``match_started`` for a seated connection: its view, legal actions, the seats,
        the timer and, in a window, when the window was shown (bots stamp their claims
        from it); with ``resumed`` the events it missed (or ``missed_truncated``: too
        many, none sent), and ``rewound_from`` when the client had seen a later step
        than the server could restore (a crash lost them: the client must show it,
        never step back silently). A resumed seat's is sent by
        :meth:`server.seats.SeatsMixin._resume`, once no outcome is held for the disk."""
        legal = self._legal(seat)
        fields: dict[str, Any] = dict(
            table=self.id, game=self.game.NAME, seat=seat, view=self.game.view(self.state, seat),
            legal=[a.to_dict() for a in legal], t_server=self.now_ms(), step=len(self.log),
            seats=[s.summary() for s in self.seats], timer=self.turn_timer.field(),
            window_shown=self.window_shown if self.window is not None else None)
        if resumed:
            fields["resumed"] = True
            fields["missed"] = missed or []
            if missed_truncated:
                fields["missed_truncated"] = True
            if rewound_from is not None:
                fields["rewound_from"] = rewound_from
        self._remember_sent(seat, conn, fields["view"], legal)
        conn.push("match_started", **fields)

    def resync(self, conn: Any, step: int | None = None) -> dict[str, Any]:
        """``resync {table, step?}``: ``conn``'s seat is sent its whole view again, as
        ``match_started`` with ``resumed`` and the ``missed`` events after ``step`` (the
        last step the client applied; none without it), as after ``reconnect``; later
        deltas start from it. Returns the ``ack`` fields ``{table, step}``. Raises
        :class:`ProtocolError` ``not_seated``, ``not_started`` or ``bad_message``."""
        seat = self.seat_of(conn)
        if seat is None:
            raise ProtocolError("not_seated", "you have no seat at this table")
        if self.status == "waiting" or self.state is None:
            raise ProtocolError("not_started", "the match has not started yet")
        if step is not None and step < 0:
            raise ProtocolError("bad_message", "resync: 'step' must be a non-negative integer")
        self._resume(conn, seat, step)  # after the updates held for the disk, if any
        return {"table": self.id, "step": len(self.log)}

    def _remember_sent(self, seat: int, conn: Any, view: dict[str, Any], legal: list[Action]) -> None:
        """The last view and legal actions (:class:`Action` objects) ``conn`` was sent for
        ``seat``: the base of its next delta (docs/PROTOCOL.md ``update``, feature
        ``delta``)."""
        sent = self.__dict__.setdefault("_sent_views", {})
        sent[seat] = (conn, view, legal, None, False)  # no public view to start deltas from

    def _send_spectators_start(self) -> None:
        self.spectators.send("match_started", table=self.id, game=self.game.NAME, seat=None,
                             view=self.game.view(self.state, None), legal=[],
                             t_server=self.now_ms(), step=len(self.log),
                             seats=[s.summary() for s in self.seats], timer=self.turn_timer.field())

    def _spectator_start(self, snapshot: dict[str, Any]) -> dict[str, Any]:
        """A late spectator's ``match_started`` from what spectators see now."""
        return dict(table=self.id, game=self.game.NAME, seat=None, view=snapshot["view"], legal=[],
                    t_server=snapshot["t_server"], step=snapshot["step"],
                    seats=[s.summary() for s in self.seats], timer=snapshot.get("timer"))

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
        if not self._write({"kind": "over", "result": self.result,
                            "t": round(self.now_ms() - self.started_at, 3)}):
            self._held_out.append(self._announce_result)
            return
        self._commit_then(self._announce_result)

    def _announce_result(self) -> None:
        """``match_over`` to every seat and spectator (the result is on disk)."""
        if self.matchfile is not None and self.matchfile.appends:
            log.info("table {id}: {n} log records, fsync {ms:.3f} ms each on average", id=self.id,
                     n=self.matchfile.appends, ms=self.matchfile.fsync_ms / self.matchfile.appends)
        self._count_result()
        fields = {"table": self.id, "result": self.result, "reactions": self.reaction_medians(),
                  "scoreboard": self.scoreboard_rows()}
        data: bytes | None = None  # the same for every seat (the evening's scoreboard is long): encoded once
        for seat in self.seats:
            conn = seat.conn
            if conn is not None:
                conn.set_playing(False)
                raw = getattr(conn, "push_raw", None)
                if raw is None:
                    conn.push("match_over", **fields)
                    continue
                if data is None:
                    data = encode("match_over", **fields)
                raw(data)
        self.spectators.send("match_over", **fields)
        self._push_summary()

    def _stop_timers(self) -> None:
        self.arbiter.cancel()
        self._claimed.clear()
        self._cancel_timeout()
        self.turn_timer.stop()
        for seat in self.seats:
            if seat.driver is not None:
                seat.driver.stop()

    def close(self) -> None:
        """Stop every timer and bot; the table is gone. An unfinished match's log is
        marked abandoned: nobody is left to come back to it."""
        if self.closed:
            return
        self.closed = True
        self._stop_timers()
        if self._retry_call is not None and self._retry_call.active():
            self._retry_call.cancel()
        self.spectators.stop()
        for seat in self.seats:
            seat.driver = None
            if seat.grace_call is not None and seat.grace_call.active():
                seat.grace_call.cancel()
            seat.grace_call = None
        if self.matchfile is not None:  # synced and closed on the writer thread (a slow disk)
            if self.status == "playing":
                close_file(self.matchfile, self.clock, abandon=True)
            else:
                if self.status == "over":  # everybody had the result: never restore it again
                    self._write({"kind": "closed", "t": round(self.now_ms() - self.started_at, 3)})
                if self.matchfile is not None:
                    close_file(self.matchfile, self.clock)

    # -- the match log --------------------------------------------------------------
    def _open_log(self) -> None:
        if self.data_dir is None:
            return
        settings = {k: v for k, v in self.settings.items() if k != "seed"}
        header = matchlog.header(self.game.NAME, self.engine_config, self.seed, self.id, self.name,
                                 [s.record() for s in self.seats])
        header["settings"] = settings
        header.update(self.host_log_fields())
        if self.port is not None:
            header["port"] = self.port
        try:  # synced by the first group commit, not here: a slow disk stalls no other table
            self.matchfile = MatchFile.create(self.data_dir, self.id, self.seed, header, sync=False)
        except OSError as e:
            log.error("table {id}: cannot write the match log in {dir}: {e}", id=self.id,
                      dir=str(self.data_dir), e=e)
            return
        group_commit(self.clock).add(self)

    def _write(self, record: dict[str, Any]) -> bool:
        """Write ``record`` to the match log; True when it is written. It is on disk at
        the end of the reactor turn (group commit, :class:`server.persist.GroupCommit`:
        one fsync covers every record of the turn): what it causes goes through
        :meth:`_commit_then`, which holds it until then. When the disk fails (full, I/O
        error) the record waits in memory, the table **pauses** -- every seat and
        spectator is told ``table_paused`` with the reason, nothing that depends on an
        unsaved record reaches anybody, no action is taken -- and the write is retried
        with backoff (0.5 s doubling to 8 s) until it works; then the table resumes by
        itself (``table_resumed``). Returns False while paused."""
        if self.matchfile is None:
            return True
        if self._unsaved:
            self._unsaved.append(record)
            return False
        try:
            self.matchfile.write(record)
        except OSError as e:
            self._commit_failed(e)
            return False
        group_commit(self.clock).add(self)
        return True

    def _commit_then(self, call: Callable[[], None]) -> None:
        """Run ``call`` (it tells somebody the outcome of a written record) once every
        record written so far is on disk (:class:`server.persist.GroupCommit`), in
        order; at once when nothing waits for the disk."""
        waiting = self.__dict__.setdefault("_commit_waiting", [])
        mf = self.matchfile
        if waiting or (mf is not None and mf.dirty):
            waiting.append((mf.written if mf is not None else 0, call))
        else:
            call()

    def _committed(self) -> None:
        """The group commit synced records of this table: release, in order, what
        waited for them (what waits for later records stays)."""
        waiting = self.__dict__.get("_commit_waiting", [])
        synced = self.matchfile.synced if self.matchfile is not None else 0
        ready = []
        while waiting and waiting[0][0] <= synced:
            ready.append(waiting.pop(0)[1])
        releasing = self.__dict__.get("_releasing", False)
        self._releasing = True  # what they run is in order: never deferred again
        merging = len(ready) > 1 and self.__dict__.get("_merging") is None
        if merging:  # several steps go out at once: one update each for "steps" seats
            self._merging = {}
        try:
            for call in ready:
                if self.closed:
                    return
                if self.paused:  # a later write failed meanwhile: wait for the retry
                    self._held_out.append(call)
                    continue
                call()
        finally:
            self._releasing = releasing
            if merging:
                self._flush_merged()
                self._merging = self._merged_last = None

    def _flush_merged(self) -> None:
        """Send the ``update`` each ``steps`` seat was owed for the steps released since
        its last one (:meth:`_fan_out` collected their events while :meth:`_committed`
        released several steps at once): the events of those steps in order, its view
        and legal actions after the last of them as a delta, ``step`` that last step and
        ``from_step`` the first (docs/PROTOCOL.md ``update``, feature ``steps``). Runs
        at the end of the batch, or before anything else is pushed to one of those
        connections (``ServerProtocol.before_push``), so that nothing overtakes it."""
        merging = self.__dict__.get("_merging")
        last = self.__dict__.get("_merged_last")
        if not merging or last is None:
            return
        owed, self._merging = merging, {}
        for conn, _, _ in owed.values():
            if conn.before_push == self._flush_merged:
                conn.before_push = None
        if self.closed:
            return
        state, public, now, step, timer = last
        latest, self.state = self.state, state
        try:
            awaited = self.game.awaiting(state)
            sent = self._sent_views
            seat_keys = self.definition.seat_keys
            shared: dict[tuple[int, int], tuple[UpdateLines, list[Any], Any]] = {}  # (base, first) ->
            for index, (conn, first, events) in owed.items():
                base = sent.get(index)
                if base is None or base[0] is not conn:  # another connection took the seat
                    continue
                legal = self._legal(index, awaited)
                raw = getattr(conn, "push_raw", None)
                if seat_keys is not None and base[3] is not None and raw is not None:
                    view = self._send_base(index, conn, state, legal, public, own=True)
                    # the seats whose last update had the same public view share its delta
                    group = shared.get((id(base[3]), first))
                    if group is None:  # (keeps that view alive: its id stays its own)
                        group = shared[(id(base[3]), first)] = (self._public_lines(
                            base[3], public, events, now, step, timer,
                            first if first < step else None), events, base[3])
                    lines, their_events, _ = group
                    raw(lines.line(None if events == their_events else events,
                                   *own_delta(seat_keys, base[1], view),
                                   None if legal == base[2] else [a.wire() for a in legal]))
                    continue
                view = self._send_base(index, conn, state, legal, public)
                self._push_delta(conn, base, view, legal, events, now, step, timer,
                                 first if first < step else None)
        finally:
            self.state = latest

    def _push_delta(self, conn: Any, base: tuple[Any, ...], view: dict[str, Any], legal: list[Action],
                    events: list[dict[str, Any]], now: float, step: int, timer: Any,
                    from_step: int | None = None) -> None:
        """A delta ``update`` from the seat's last view and legal actions (``base``,
        its ``_sent_views`` entry) to ``view``/``legal``, encoded for this seat alone."""
        changed, gone = view_delta(self._sent_view(base), view)
        fields: dict[str, Any] = dict(table=self.id, events=events, view_set=changed)
        if gone:
            fields["view_unset"] = gone
        if legal != base[2]:
            fields["legal"] = [a.wire() for a in legal]
        if from_step is not None:
            fields["from_step"] = from_step
        conn.push("update", **fields, t_server=now, step=step, timer=timer)

    def _send_base(self, seat: int, conn: Any, state: Any, legal: list[Action],
                   public: dict[str, Any], own: bool = False) -> dict[str, Any]:
        """``seat``'s view of ``state`` -- with ``own``, only its own part when the game
        declares ``GameDef.own_view`` -- recorded with ``legal`` and ``public`` as the base
        of the seat's next delta (``_sent_views``, see :meth:`_sent_view`); returned."""
        own_view = self.definition.own_view if own else None
        view = own_view(state, seat) if own_view is not None else self.game.view(state, seat)
        self._sent_views[seat] = (conn, view, legal, public, own_view is not None)
        return view

    def _sent_view(self, base: tuple[Any, ...]) -> dict[str, Any]:
        """The whole view a ``_sent_views`` entry ``(conn, view, legal, public, own)``
        stands for: ``view``, or when ``own`` (it holds only the seat's part,
        ``GameDef.own_view``) that part over the rest of ``public``."""
        if not base[4]:
            return base[1]
        seat_keys = self.definition.seat_keys
        return {**{k: v for k, v in base[3].items() if k not in seat_keys}, **base[1]}

    def _public_lines(self, old_public: dict[str, Any], public: dict[str, Any],
                      events: list[dict[str, Any]] | None, now: float, step: int, timer: Any,
                      from_step: int | None = None) -> UpdateLines:
        """The :class:`UpdateLines` of the seats whose last update had ``old_public`` as
        its public view: the delta to ``public`` outside the game's ``seat_keys``."""
        seat_keys = self.definition.seat_keys
        changed, gone = view_delta(old_public, public)
        return UpdateLines(self.id, events, {k: v for k, v in changed.items() if k not in seat_keys},
                           [k for k in gone if k not in seat_keys], now, step, timer, from_step)

    def _commit_failed(self, error: OSError) -> None:
        """Writing or syncing failed: the records not yet synced wait in memory, and
        what they held back waits for the retry; the table pauses."""
        if self.matchfile is not None:
            self._unsaved = self.matchfile.unsynced() + self._unsaved
        waiting, self._commit_waiting = self.__dict__.get("_commit_waiting", []), []
        self._held_out = [call for _, call in waiting] + self._held_out
        if self._retry_call is None:
            self._pause(error)

    @property
    def paused(self) -> bool:
        """True while records wait for the disk (see :meth:`_write`)."""
        return bool(self._unsaved)

    def _pause(self, error: OSError) -> None:
        reason = os.strerror(error.errno) if error.errno else str(error)
        self._pause_reason = f"the server cannot save this match: {reason.lower()}"
        log.error("table {id}: {r}; the table pauses and retries", id=self.id, r=self._pause_reason)
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.push("table_paused", table=self.id, message=self._pause_reason)
        self.spectators.send("table_paused", table=self.id, message=self._pause_reason)
        self._retry_delay = 0.5
        self._retry_call = self.clock.callLater(self._retry_delay, self._retry_write)

    def _retry_write(self) -> None:
        self._retry_call = None
        if self.closed or self.matchfile is None:
            return
        try:
            self.matchfile.repair()
            while self._unsaved:
                self.matchfile.append(self._unsaved[0])
                self._unsaved.pop(0)
        except OSError as e:
            log.warn("table {id}: the match log still cannot be written: {e}", id=self.id, e=e)
            self._retry_delay = min(8.0, self._retry_delay * 2)
            self._retry_call = self.clock.callLater(self._retry_delay, self._retry_write)
            return
        log.info("table {id}: the match log is written again; the table resumes", id=self.id)
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.push("table_resumed", table=self.id)
        self.spectators.send("table_resumed", table=self.id)
        held, self._held_out = self._held_out, []
        for release in held:
            release()
        waiting, self._after_resume = self._after_resume, []
        for call in waiting:  # time-outs and decisions that came due meanwhile
            if not self.paused and not self.closed:
                call()

    def _when_saved(self, call: Callable[[], None]) -> bool:
        """While paused, keep ``call`` for when the table resumes and return True (the
        caller stops); else return False."""
        if not self.paused:
            waiting = self.__dict__.get("_commit_waiting")
            if not waiting or self.__dict__.get("_releasing"):
                return False
            waiting.append((waiting[-1][0], call))  # after the outcomes held back
            return True
        self._after_resume.append(call)
        return True

    # -- legal actions and updates ----------------------------------------------------
    def _legal(self, seat: int | None, awaited: Any = None) -> list[Action]:
        """``seat``'s legal actions now: [] unless the match awaits it (every game's
        ``legal_actions`` is empty for a seat outside ``awaiting``: only awaited seats
        cost anything). ``awaited``: ``game.awaiting(state)`` when the caller has it."""
        if seat is None or self.state is None or self.status != "playing":
            return []
        if seat not in (self.game.awaiting(self.state) if awaited is None else awaited):
            return []
        legal = self.game.legal_actions(self.state, seat)
        if seat in self._claimed and self.window is not None:
            hidden = set(self.window.claim_types) | {self.window.pass_type}
            legal = [a for a in legal if a.TYPE not in hidden]
        return legal

    def _legal_dicts(self, seat: int | None, awaited: Any = None) -> list[dict[str, Any]]:
        return [a.to_dict() for a in self._legal(seat, awaited)]

    def _apply(self, seat: int | None, action: Action) -> list[Event]:
        """Apply one action (raises IllegalAction, nothing changed), write it to the log,
        then send the updates, track the window and the turn, end the match when it is
        over."""
        if self.paused:
            raise IllegalAction(self._pause_reason + "; the match resumes by itself")
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
        if not self._write(record):
            self._held_out.append(lambda: self._release(events))
            return events
        step = len(self.log)
        self._commit_then(lambda: self._release(events, now, state, step, public))
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
            self._track_window(now)
            self._track_turn(now, public)
            self._fan_out(events, now, public, step)
        finally:
            self.state = latest
        if self.game.is_over(self.state if state is None else state):
            self._finish()
        else:
            self._refresh_arbiter()
            self._after_change()

    def _fan_out(self, events: list[Event], now: float, public: dict[str, Any],
                 step: int | None = None) -> None:
        """One ``update`` per seated connection and one (encoded once) for the
        spectators. Legal actions are computed only for the seats the match awaits
        (:meth:`_legal`); a connection that asked for the ``delta`` feature gets only the
        top-level keys of its view that changed (``view_set``/``view_unset``) and
        ``legal`` only when it changed (docs/PROTOCOL.md ``update``).

        When the game declares its ``seat_keys`` (:class:`shared.gamedef.GameDef`), the
        public part of the deltas is worked out once against the last update's public
        view, each seat compares only its own keys, and the seats for whom nothing of
        their own changed (keys, legal actions, private events) get the same bytes,
        encoded once. Only the seats an event is private to or holds a secret for
        (:func:`shared.rules.private_seats`) get events of their own; the others share
        the spectators' events and their encoding.

        While :meth:`_committed` releases several steps at once, a connection granted
        ``steps`` gets nothing here: its events are collected and :meth:`_flush_merged`
        sends it one update for all of them."""
        step = len(self.log) if step is None else step
        self._released_step = max(self._released_step, step)  # bots learn up to here (server.seats)
        timer = self.turn_timer.field()
        sent = self.__dict__.setdefault("_sent_views", {})
        resuming = self.__dict__.get("_resuming") or {}  # their match_started follows (server.seats)
        awaited = self.game.awaiting(self.state) if self.state is not None else ()
        shared = events_for(events, None)  # what spectators and most seats see
        private = private_seats(events)  # the seats that see more (a peek shows its card)
        seat_keys = self.definition.seat_keys
        last_public = self.__dict__.get("_last_public")
        self._last_public = public
        lines: UpdateLines | None = None  # the public part of the deltas (at the first seat)
        merging = self.__dict__.get("_merging")  # several steps released at once (_committed)
        if merging is not None:
            self._merged_last = (self.state, public, now, step, timer)
        for seat in self.seats:
            mine = events_for(events, seat.index) if seat.index in private else shared
            conn = seat.conn
            if (merging is not None and conn is not None and resuming.get(seat.index) is not conn
                    and "steps" in getattr(conn, "features", ()) and "delta" in conn.features
                    and seat.index in sent and sent[seat.index][0] is conn):
                owed = merging.get(seat.index)  # one update for these steps: _flush_merged
                if owed is None or owed[0] is not conn:
                    owed = merging[seat.index] = (conn, step, [])
                    conn.before_push = self._flush_merged
                owed[2].extend(mine)
            elif conn is not None and resuming.get(seat.index) is not conn:
                legal = self._legal(seat.index, awaited)  # the engines reuse their action objects:
                base = sent.get(seat.index)  # comparing two lists of them is mostly identity
                raw = getattr(conn, "push_raw", None)
                if base is None or base[0] is not conn or "delta" not in getattr(conn, "features", ()):
                    view = self._send_base(seat.index, conn, self.state, legal, public)
                    conn.push("update", table=self.id, events=mine, view=view,
                              legal=[a.wire() for a in legal], t_server=now, step=step, timer=timer)
                elif (seat_keys is not None and last_public is not None and base[3] is last_public
                      and raw is not None):
                    # the public part is the spectators': the seat's own part is enough
                    view = self._send_base(seat.index, conn, self.state, legal, public, own=True)
                    if lines is None:
                        lines = self._public_lines(last_public, public, shared, now, step, timer)
                    raw(lines.line(mine if seat.index in private else None, *own_delta(seat_keys, base[1], view),
                                   None if legal == base[2] else [a.wire() for a in legal]))
                else:
                    view = self._send_base(seat.index, conn, self.state, legal, public)
                    self._push_delta(conn, base, view, legal, mine, now, step, timer)
            if seat.driver is not None:
                self._feed_bot(seat, mine, now)
        self.spectators.send("update", table=self.id, events=shared, view=public, legal=[],
                             t_server=now, step=step, timer=timer)

    def _after_change(self) -> None:
        """After the state or a seat changed: stand-ins for held seats, and the bot of a
        turn whose time ran out during a window."""
        if self.status != "playing" or self.closed:
            return
        self._refresh_stand_ins()
        if self.turn_timer.expired and self.window is None and self.status == "playing":
            self._turn_expired(self.turn_timer.key)

    # -- the turn timer ---------------------------------------------------------------
    def _track_turn(self, now: float, public: dict[str, Any]) -> None:
        old = self.turn_timer.key
        key = turn_key(self.game.awaiting(self.state), self.window,
                       self.definition.turn_id(self.state), old)
        if not self.turn_timer.track(key, now) or old is None:
            return
        seat = self.seats[old[0]]
        if seat.stand_in == "timer":  # its turn is over: the player plays again
            if seat.away and self.bot_takeover == "after_miss":
                seat.stand_in = "takeover"
            else:
                self._stop_driver(seat)

    def _turn_expired(self, key: Any) -> None:
        if self.closed or self.status != "playing" or key != self.turn_timer.key:
            return
        if self._when_saved(lambda: self._turn_expired(key)):
            return
        if self.window is not None:
            return  # the window has its own timeout; the bot takes the turn after it
        self.turn_timer.expired = False
        seat = self.seats[key[0]]
        if seat.driver is None:
            log.info("table {id}: seat {seat} ran out of time; its bot plays the turn",
                     id=self.id, seat=seat.index)
            self._start_drivers([seat], "timer")

    # -- actions from connections and bots -------------------------------------------
    def act(self, conn: Any, data: dict[str, Any], t_press: float | None = None,
            t_shown: float | None = None) -> dict[str, Any]:
        """A connection's ``action`` request; returns the ``ack`` fields ``{table, step}``.

        ``t_press``/``t_shown`` are client ms. ``step`` is the step of the first
        ``update`` that reflects the action (see PROTOCOL.md). Raises
        :class:`ProtocolError` ``not_seated``, ``not_started``, ``match_over``,
        ``bad_action``, ``illegal_action`` (with the engine's sentence) or
        ``claim_refused``.
        """
        seat = self.seat_of(conn)
        if seat is None:
            raise ProtocolError("not_seated", "you have no seat at this table"
                                + (" (spectators cannot act)" if conn in self.spectators else ""))
        if self.status == "waiting":
            raise ProtocolError("not_started", "the match has not started yet")
        if self.paused:
            raise ProtocolError("paused", self._pause_reason + "; the match resumes by itself")
        if self.status == "over":
            raise ProtocolError("match_over", "the match is over")
        try:
            action = self.game.ACTIONS.parse(data)
        except BadAction as e:
            raise ProtocolError("bad_action", str(e)) from None
        if self._is_claim(action):
            return self._human_claim(conn, seat, action, t_press, t_shown)
        w = self.window
        if w is not None and action.TYPE == w.pass_type and seat in self._claimed:
            raise ProtocolError("illegal_action", "you have already claimed in this window")
        try:
            self._apply(seat, action)
        except IllegalAction as e:
            raise ProtocolError("illegal_action", e.reason) from None
        return {"table": self.id, "step": len(self.log)}

    def _bot_send(self, seat: int, driver: Any, decision: Any, anchor: float) -> None:
        """A bot's decision fires (if that bot still plays the seat): claims go through
        the arbiter with press = ``anchor`` + the bot's reaction delay."""
        if self.closed or self.status != "playing" or self.seats[seat].driver is not driver:
            return
        if self.paused:
            return  # the bot decides again on the update the pause holds back
        action = decision.action
        try:
            if self.window is not None and action.TYPE in self.window.claim_types:
                self._bot_claim(seat, action, decision.delay_ms, anchor)
            else:
                self._apply(seat, action)
        except IllegalAction as e:
            log.warn("table {id}: bot at seat {seat} tried {a}: {r}", id=self.id, seat=seat,
                     a=action.to_dict(), r=e.reason)

    # -- restore after a crash --------------------------------------------------------
    @classmethod
    def restore(cls, path: Path, mlog: matchlog.MatchLog, game: Any, config: dict[str, Any],
                clock: Any, data_dir: Path | None = None,
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

    def _restore(self, path: Path, mlog: matchlog.MatchLog) -> None:
        state = None
        try:
            for state, seat, action, events in matchlog.replay(self.game, mlog):
                if action is not None:
                    self.actions.append((seat, action))
                    self.history.append(events)
        except matchlog.LogError as e:  # a refused record: restore what came before it
            if state is None:
                raise
            mlog.cut(len(self.actions), str(e))
            log.warn("table {id}: {w}", id=self.id, w=mlog.warnings[-1])
        self.state = state
        self._released_step = len(self.actions)  # restored: nothing held back
        self.log = [{"seat": r["seat"], "action": r["action"], "t": float(r["t"])} for r in mlog.actions]
        now = self.now_ms()
        self.started_at = now - (self.log[-1]["t"] if self.log else 0.0)
        self.status = "playing"
        if self.data_dir is not None:
            self.matchfile = MatchFile.reopen(path, mlog.good_bytes)
        info = {s["seat"]: s for s in mlog.header["seats"]}
        for rec in mlog.seats:
            info[rec["seat"]] = rec
        bots = []
        for seat in self.seats:
            entry = info.get(seat.index, {})
            seat.name = entry.get("name")
            seat.token = entry.get("token")
            if entry.get("bot") or not seat.token:
                seat.bot, seat.token = True, None
                bots.append(seat)
        log.info("table {id}: {game} match restored at step {step} from {path}", id=self.id,
                 game=self.game.NAME, step=len(self.log), path=str(path))
        if mlog.finished:  # over on disk, but not every player had the result
            self.status = "over"
            self.result = mlog.result
            self._send_spectators_start()
            for seat in self.seats:
                if not seat.bot:
                    self._hold(seat)
            self._maybe_close()
            return
        self._track_window(now)
        self._track_turn(now, self.game.view(self.state, None))
        self._send_spectators_start()
        if self.game.is_over(self.state):  # the crash came between the last action and its end
            self._finish()
        else:
            self._start_drivers(bots, None)
        for seat in self.seats:
            if not seat.bot:
                self._hold(seat)
        self._maybe_close()
