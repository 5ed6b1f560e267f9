"""Who gets which bytes of a table (docs/PROTOCOL.md ``match_started``, ``update``,
features ``delta`` and ``steps``): each seat's view, events and legal actions, the
spectators' public stream, resyncs, and messages to everybody at the table.

Secrets are filtered here, at the source: each seated connection gets ``view(state,
seat)``, ``events_for(events, seat)`` and its own legal actions; spectators get only
what :class:`server.match.spectators.SpectatorFeed` is handed: public views and events.

The speed of a saturated server lives here too, and only here: a seat whose connection
asked for ``delta`` gets only the top-level keys of its view that changed; when the game
declares its ``seat_keys`` the public part of the deltas is encoded once per action
(:class:`UpdateLines`) and the seats for whom nothing of their own changed share the same
bytes; and when the group commit releases several steps at once, a connection granted
``steps`` gets one update for all of them.
"""
from __future__ import annotations

from typing import Any, Iterable

from shared.protocol import VERSION, ProtocolError, encode, encode_value, merge_objects
from shared.sentences import say
from shared.rules import Action, Event, events_for, private_seats
from server.match.contracts import MatchTable

#: A ``sent_views`` entry: ``(conn, view, legal, public, own)`` -- the connection, the
#: view it was last sent (only the seat's own part when ``own``), its legal actions, and
#: the public view that went with it (None: no shared delta can start from it).
SentView = tuple[Any, dict[str, Any], list[Action], "dict[str, Any] | None", bool]


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
        mine = shared if events is None else encode_value(events)
        assert mine is not None, "a seat without events of its own shares the lines' events"
        out = [head, mine, b',"view_set":', view_set]
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


class Delivery:
    """Sends a table's messages. ``table``: the :class:`MatchTable` it serves.

    ``sent_views``: seat -> :data:`SentView`, the base of the seat's next delta;
    ``last_public``: the public view of the last update; ``released_step``: how many of
    ``table.actions`` have had their outcome sent (the group commit holds the latest back
    until they are on disk; bots learn up to here); ``merging``: while several steps are
    released at once, seat -> ``(conn, first step, events)`` owed to ``steps`` seats, and
    ``merged_last`` the match after the last of them."""

    def __init__(self, table: MatchTable):
        self.table = table
        self.sent_views: dict[int, SentView] = {}
        self.last_public: dict[str, Any] | None = None
        self.released_step = 0
        self.merging: dict[int, tuple[Any, int, list[dict[str, Any]]]] | None = None
        self.merged_last: tuple[Any, dict[str, Any], float, int, Any] | None = None

    # -- to everybody -----------------------------------------------------------------
    def to_everyone(self, msg_type: str, but: Any = None, **fields: Any) -> None:
        """``msg_type`` to every seated connection but ``but`` (the one it answers, when
        it is a reply) and (after their delay) the spectators."""
        for seat in self.table.seats:
            if seat.conn is not None and seat.conn is not but:
                seat.conn.push(msg_type, **fields)
        self.table.spectators.send(msg_type, **fields)

    def to_seats_once(self, msg_type: str, **fields: Any) -> None:
        """As :meth:`to_everyone`, the line encoded once for every seat that takes raw
        bytes (a long message: the evening's scoreboard)."""
        data: bytes | None = None
        for seat in self.table.seats:
            conn = seat.conn
            if conn is None:
                continue
            raw = getattr(conn, "push_raw", None)
            if raw is None:
                conn.push(msg_type, **fields)
                continue
            if data is None:
                data = encode(msg_type, **fields)
            raw(data)
        self.table.spectators.send(msg_type, **fields)

    # -- the start of a match ---------------------------------------------------------
    def send_start(self, conn: Any, seat: int, resumed: bool = False,
                   missed: list[dict[str, Any]] | None = None,
                   rewound_from: int | None = None, missed_truncated: bool = False) -> None:
        """``match_started`` for a seated connection: its view, legal actions, the seats,
        the timer and, in a window, when the window was shown (bots stamp their claims
        from it); with ``resumed`` the events it missed (or ``missed_truncated``: too
        many, none sent), and ``rewound_from`` when the client had seen a later step
        than the server could restore (a crash lost them: the client must show it,
        never step back silently). A resumed seat's is sent by
        :meth:`server.match.seats.SeatRoster.resume`, once no outcome is held for the disk."""
        t = self.table
        legal = t.legal(seat)
        window = t.claims.window
        fields: dict[str, Any] = dict(
            table=t.id, game=t.game.NAME, seat=seat, view=t.game.view(t.state, seat),
            legal=[a.to_dict() for a in legal], t_server=t.now_ms(), step=len(t.log),
            seats=[s.summary() for s in t.seats], timer=t.turn_timer.field(),
            window_shown=t.claims.window_shown if window is not None else None)
        if resumed:
            fields["resumed"] = True
            fields["missed"] = missed or []
            if missed_truncated:
                fields["missed_truncated"] = True
            if rewound_from is not None:
                fields["rewound_from"] = rewound_from
        self.remember_sent(seat, conn, fields["view"], legal)
        conn.push("match_started", **fields)

    def resync(self, conn: Any, step: int | None = None) -> dict[str, Any]:
        """``resync {table, step?}``: ``conn``'s seat is sent its whole view again, as
        ``match_started`` with ``resumed`` and the ``missed`` events after ``step`` (the
        last step the client applied; none without it), as after ``reconnect``; later
        deltas start from it. Returns the ``ack`` fields ``{table, step}``. Raises
        :class:`ProtocolError` ``not_seated``, ``not_started`` or ``bad_message``."""
        t = self.table
        seat = t.seat_of(conn)
        if seat is None:
            raise ProtocolError("not_seated", say("no_seat"))
        if t.status == "waiting" or t.state is None:
            raise ProtocolError("not_started", say("not_started"))
        if step is not None and step < 0:
            raise ProtocolError("bad_message", say("step_negative", request="resync"))
        t.roster.resume(conn, seat, step)  # after the updates held for the disk, if any
        return {"table": t.id, "step": len(t.log)}

    def remember_sent(self, seat: int, conn: Any, view: dict[str, Any], legal: list[Action]) -> None:
        """The last view and legal actions (:class:`Action` objects) ``conn`` was sent for
        ``seat``: the base of its next delta (docs/PROTOCOL.md ``update``, feature
        ``delta``)."""
        self.sent_views[seat] = (conn, view, legal, None, False)  # no public view to start deltas from

    def send_spectators_start(self) -> None:
        t = self.table
        t.spectators.send("match_started", table=t.id, game=t.game.NAME, seat=None,
                          view=t.game.view(t.state, None), legal=[],
                          t_server=t.now_ms(), step=len(t.log),
                          seats=[s.summary() for s in t.seats], timer=t.turn_timer.field())

    def spectator_start(self, snapshot: dict[str, Any]) -> dict[str, Any]:
        """A late spectator's ``match_started`` from what spectators see now."""
        t = self.table
        return dict(table=t.id, game=t.game.NAME, seat=None, view=snapshot["view"], legal=[],
                    t_server=snapshot["t_server"], step=snapshot["step"],
                    seats=[s.summary() for s in t.seats], timer=snapshot.get("timer"))

    # -- updates ----------------------------------------------------------------------
    def fan_out(self, events: list[Event], now: float, public: dict[str, Any],
                step: int | None = None) -> None:
        """One ``update`` per seated connection and one (encoded once) for the
        spectators. Legal actions are computed only for the seats the match awaits
        (``table.legal``); a connection that asked for the ``delta`` feature gets only the
        top-level keys of its view that changed (``view_set``/``view_unset``) and
        ``legal`` only when it changed (docs/PROTOCOL.md ``update``).

        When the game declares its ``seat_keys`` (:class:`shared.gamedef.GameDef`), the
        public part of the deltas is worked out once against the last update's public
        view, each seat compares only its own keys, and the seats for whom nothing of
        their own changed (keys, legal actions, private events) get the same bytes,
        encoded once. Only the seats an event is private to or holds a secret for
        (:func:`shared.rules.private_seats`) get events of their own; the others share
        the spectators' events and their encoding.

        While :meth:`release_batch` releases several steps at once, a connection granted
        ``steps`` gets nothing here: its events are collected and :meth:`flush_merged`
        sends it one update for all of them."""
        t = self.table
        step = len(t.log) if step is None else step
        self.released_step = max(self.released_step, step)
        timer = t.turn_timer.field()
        sent = self.sent_views
        resuming = t.roster.resuming  # their match_started follows
        awaited = t.game.awaiting(t.state) if t.state is not None else ()
        shared = events_for(events, None)  # what spectators and most seats see
        private = private_seats(events)  # the seats that see more (a peek shows its card)
        seat_keys = t.definition.seat_keys
        last_public = self.last_public
        self.last_public = public
        lines: UpdateLines | None = None  # the public part of the deltas (at the first seat)
        merging = self.merging
        if merging is not None:
            self.merged_last = (t.state, public, now, step, timer)
        for seat in t.seats:
            mine = events_for(events, seat.index) if seat.index in private else shared
            conn = seat.conn
            if (merging is not None and conn is not None and resuming.get(seat.index) is not conn
                    and "steps" in getattr(conn, "features", ()) and "delta" in conn.features
                    and seat.index in sent and sent[seat.index][0] is conn):
                owed = merging.get(seat.index)  # one update for these steps: flush_merged
                if owed is None or owed[0] is not conn:
                    owed = merging[seat.index] = (conn, step, [])
                    conn.before_push = self.flush_merged
                owed[2].extend(mine)
            elif conn is not None and resuming.get(seat.index) is not conn:
                legal = t.legal(seat.index, awaited)  # the engines reuse their action objects:
                base = sent.get(seat.index)  # comparing two lists of them is mostly identity
                raw = getattr(conn, "push_raw", None)
                if base is None or base[0] is not conn or "delta" not in getattr(conn, "features", ()):
                    view = self.send_base(seat.index, conn, t.state, legal, public)
                    conn.push("update", table=t.id, events=mine, view=view,
                              legal=[a.wire() for a in legal], t_server=now, step=step, timer=timer)
                elif (seat_keys is not None and last_public is not None and base[3] is last_public
                      and raw is not None):
                    # the public part is the spectators': the seat's own part is enough
                    view = self.send_base(seat.index, conn, t.state, legal, public, own=True)
                    if lines is None:
                        lines = self.public_lines(last_public, public, shared, now, step, timer)
                    raw(lines.line(mine if seat.index in private else None, *own_delta(seat_keys, base[1], view),
                                   None if legal == base[2] else [a.wire() for a in legal]))
                else:
                    view = self.send_base(seat.index, conn, t.state, legal, public)
                    self.push_delta(conn, base, view, legal, mine, now, step, timer)
            if seat.driver is not None:
                t.stand_ins.feed(seat, mine, now)
        t.spectators.send("update", table=t.id, events=shared, view=public, legal=[],
                          t_server=now, step=step, timer=timer)

    def begin_batch(self) -> bool:
        """Several steps are about to be released at once: collect the updates of
        ``steps`` seats (:meth:`fan_out`) until :meth:`end_batch`. False when a batch is
        already open (the caller must not end it)."""
        if self.merging is not None:
            return False
        self.merging = {}
        return True

    def end_batch(self) -> None:
        """Send what the batch collected (:meth:`flush_merged`) and close it."""
        self.flush_merged()
        self.merging = self.merged_last = None

    def flush_merged(self) -> None:
        """Send the ``update`` each ``steps`` seat was owed for the steps released since
        its last one (:meth:`fan_out` collected their events while a batch of steps was
        released): the events of those steps in order, its view
        and legal actions after the last of them as a delta, ``step`` that last step and
        ``from_step`` the first (docs/PROTOCOL.md ``update``, feature ``steps``). Runs
        at the end of the batch, or before anything else is pushed to one of those
        connections (``ServerProtocol.before_push``), so that nothing overtakes it."""
        merging = self.merging
        last = self.merged_last
        if not merging or last is None:
            return
        owed, self.merging = merging, {}
        for conn, _, _ in owed.values():
            if conn.before_push == self.flush_merged:
                conn.before_push = None
        t = self.table
        if t.closed:
            return
        state, public, now, step, timer = last
        latest, t.state = t.state, state
        try:
            awaited = t.game.awaiting(state)
            sent = self.sent_views
            seat_keys = t.definition.seat_keys
            shared: dict[tuple[int, int], tuple[UpdateLines, list[Any], Any]] = {}  # (base, first) ->
            for index, (conn, first, events) in owed.items():
                base = sent.get(index)
                if base is None or base[0] is not conn:  # another connection took the seat
                    continue
                legal = t.legal(index, awaited)
                raw = getattr(conn, "push_raw", None)
                if seat_keys is not None and base[3] is not None and raw is not None:
                    view = self.send_base(index, conn, state, legal, public, own=True)
                    # the seats whose last update had the same public view share its delta
                    group = shared.get((id(base[3]), first))
                    if group is None:  # (keeps that view alive: its id stays its own)
                        group = shared[(id(base[3]), first)] = (self.public_lines(
                            base[3], public, events, now, step, timer,
                            first if first < step else None), events, base[3])
                    lines, their_events, _ = group
                    raw(lines.line(None if events == their_events else events,
                                   *own_delta(seat_keys, base[1], view),
                                   None if legal == base[2] else [a.wire() for a in legal]))
                    continue
                view = self.send_base(index, conn, state, legal, public)
                self.push_delta(conn, base, view, legal, events, now, step, timer,
                                first if first < step else None)
        finally:
            t.state = latest

    def push_delta(self, conn: Any, base: SentView, view: dict[str, Any], legal: list[Action],
                   events: list[dict[str, Any]], now: float, step: int, timer: Any,
                   from_step: int | None = None) -> None:
        """A delta ``update`` from the seat's last view and legal actions (``base``,
        its ``sent_views`` entry) to ``view``/``legal``, encoded for this seat alone."""
        changed, gone = view_delta(self.sent_view(base), view)
        fields: dict[str, Any] = dict(table=self.table.id, events=events, view_set=changed)
        if gone:
            fields["view_unset"] = gone
        if legal != base[2]:
            fields["legal"] = [a.wire() for a in legal]
        if from_step is not None:
            fields["from_step"] = from_step
        conn.push("update", **fields, t_server=now, step=step, timer=timer)

    def send_base(self, seat: int, conn: Any, state: Any, legal: list[Action],
                  public: dict[str, Any], own: bool = False) -> dict[str, Any]:
        """``seat``'s view of ``state`` -- with ``own``, only its own part when the game
        declares ``GameDef.own_view`` -- recorded with ``legal`` and ``public`` as the base
        of the seat's next delta (``sent_views``, see :meth:`sent_view`); returned."""
        t = self.table
        own_view = t.definition.own_view if own else None
        view = own_view(state, seat) if own_view is not None else t.game.view(state, seat)
        self.sent_views[seat] = (conn, view, legal, public, own_view is not None)
        return view

    def sent_view(self, base: SentView) -> dict[str, Any]:
        """The whole view a ``sent_views`` entry ``(conn, view, legal, public, own)``
        stands for: ``view``, or when ``own`` (it holds only the seat's part,
        ``GameDef.own_view``) that part over the rest of ``public``."""
        if not base[4]:
            return base[1]
        seat_keys = self.table.definition.seat_keys
        public = base[3] or {}
        return {**{k: v for k, v in public.items() if k not in seat_keys}, **base[1]}

    def public_lines(self, old_public: dict[str, Any], public: dict[str, Any],
                     events: list[dict[str, Any]] | None, now: float, step: int, timer: Any,
                     from_step: int | None = None) -> UpdateLines:
        """The :class:`UpdateLines` of the seats whose last update had ``old_public`` as
        its public view: the delta to ``public`` outside the game's ``seat_keys``."""
        seat_keys = self.table.definition.seat_keys
        changed, gone = view_delta(old_public, public)
        return UpdateLines(self.table.id, events, {k: v for k, v in changed.items() if k not in seat_keys},
                           [k for k in gone if k not in seat_keys], now, step, timer, from_step)
