"""Who sits at a table and who plays each seat (docs/PROTOCOL.md "Lobby",
"Reconnection, spectators and the turn timer").

A seat is free, a player's (a connection, and a reconnect *token*), or a bot's for good.
When a player's connection drops during a match the seat is *held*: ``away``, token
still valid, for ``server.reconnect_grace_s`` seconds. Meanwhile, with the table option
``bot_takeover: "after_miss"``, a bot *stands in* from the first moment the match waits
for the seat; with ``"never"`` the match waits (a window gets a pass for the seat). A
bot also stands in for the rest of a turn when the turn timer runs out. ``reconnect``
with the token gives the seat back to a connection, from any machine.

A seat's token stays valid until the table closes (issue 13): when the grace period
ends, or when the player ``leave``s during the match, the seat is *left*: a bot plays it
(``stand_in`` ``"left"``) and the token still gives it back. Only the host moving a
player to the spectators (:meth:`server.host.HostMixin.move_to_spectators`) gives a
seat to a bot for good (the token expires).

Every bot that takes a seat during a match first learns the whole match so far, as its
seat saw it (the match is replayed: each step's events and view, :meth:`SeatsMixin._teach`),
so its memory is what it would be had it played from the start -- and since the bots
decide by the situation, it plays as that seat's bot would have.

:class:`SeatsMixin` is part of :class:`server.table.Table`.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from twisted.logger import Logger

from shared.bots import make_bot
from shared.bots.driver import BotDriver
from shared.protocol import ProtocolError
from shared.rules import events_for

log = Logger()


@dataclass
class Seat:
    """One seat: free, a player's connection, or a bot; ``driver`` is the bot playing it
    now (``stand_in`` says why, for a player's seat: ``"takeover"`` while it is held,
    ``"timer"`` for the rest of a turn whose time ran out, ``"left"`` while its player is
    gone -- left, or did not come back in time -- and may still come back with the
    token)."""

    index: int
    conn: Any = None
    name: str | None = None
    bot: bool = False  # a bot plays this seat for good
    token: str | None = None  # the player's reconnect token, while it is valid
    away: bool = False  # held for its player, who lost the connection
    left: bool = False  # its player is gone: a bot plays it, the token still gives it back
    driver: BotDriver | None = None
    stand_in: str | None = None
    grace_call: Any = None

    @property
    def free(self) -> bool:
        return self.conn is None and not self.bot and not self.away and not self.left

    def summary(self) -> dict[str, Any]:
        """The protocol's seat object (``Table.seats[i]``); a left seat shows as a bot's
        (``"<name> (bot)"``), as it did when leaving gave the seat away for good."""
        return {"seat": self.index, "name": f"{self.name} (bot)" if self.left else self.name,
                "bot": self.bot or self.left or (self.away and self.driver is not None),
                "connected": self.bot or self.left or self.conn is not None, "away": self.away}

    def record(self) -> dict[str, Any]:
        """The seat as the match log keeps it (with its token; ``left`` when its player
        is gone and a bot plays it for him)."""
        rec: dict[str, Any] = {"seat": self.index, "name": self.name, "bot": self.bot, "token": self.token}
        if self.left:
            rec["left"] = True
        return rec


class SeatsMixin:
    """Joining, leaving, losing and getting back a seat; bots and stand-ins."""

    seats: list[Seat]
    status: str
    spectators: Any
    config: dict[str, Any]

    # -- joining and leaving ------------------------------------------------------------
    def join(self, conn: Any, seat: int | None = None, spectate: bool = False) -> dict[str, Any]:
        """Seat ``conn`` (first free seat when ``seat`` is None) or add it as a spectator.

        Returns the ``joined`` reply fields ``{table, seat, token}``; starts the match
        when the last seat is filled (table option ``start: "auto"``). Raises
        :class:`ProtocolError` ``already_seated``, ``already_started``, ``match_over``,
        ``table_locked``, ``no_such_seat``, ``seat_taken``, ``table_full``.
        """
        if self.seat_of(conn) is not None or conn in self.spectators:
            raise ProtocolError("already_seated", "you are already at this table")
        if spectate:
            self.spectators.add(conn, self._spectator_start)
            self._push_summary()
            return {"table": self.id, "seat": None, "token": None}
        if self.status == "playing":
            raise ProtocolError("already_started", "the match has started: join as a spectator")
        if self.status == "over":
            raise ProtocolError("match_over", "the match is over")
        if self.locked:
            raise ProtocolError("table_locked", "the host locked this table: you may watch it")
        target = self._pick_seat(seat)
        target.conn, target.name = conn, conn.name
        target.token = secrets.token_urlsafe(16)
        self._host_sat(target)
        self._seats_changed()
        return {"table": self.id, "seat": target.index, "token": target.token}

    def _pick_seat(self, seat: int | None) -> Seat:
        if seat is None:
            for s in self.seats:
                if s.free:
                    return s
            raise ProtocolError("table_full", "every seat of this table is taken")
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("no_such_seat", f"this table has seats 0 to {len(self.seats) - 1}")
        if not self.seats[seat].free:
            raise ProtocolError("seat_taken", f"seat {seat} is taken")
        return self.seats[seat]

    def add_bot(self, seat: int | None = None) -> None:
        """Put a bot in ``seat`` (first free when None) before the match starts."""
        if self.status != "waiting":
            raise ProtocolError("already_started", "seats cannot change once the match runs")
        target = self._pick_seat(seat)
        target.bot, target.name = True, f"Bot {target.index + 1}"
        self._seats_changed()

    def remove_bot(self, seat: int) -> None:
        """Free a bot's seat before the match starts."""
        if self.status != "waiting":
            raise ProtocolError("already_started", "seats cannot change once the match runs")
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("no_such_seat", f"this table has seats 0 to {len(self.seats) - 1}")
        if not self.seats[seat].bot:
            raise ProtocolError("no_such_seat", f"seat {seat} holds no bot")
        self.seats[seat] = Seat(seat)
        self._push_summary()

    def leave(self, conn: Any) -> None:
        """``conn`` leaves on purpose: a spectator goes; before the match its seat is
        freed; during the match a bot plays the seat for the player, whose token still
        gives it back (the seat is *left*)."""
        self._part(conn, hold=False)

    def drop(self, conn: Any) -> None:
        """``conn``'s connection was lost: as :meth:`leave`, except that during the
        match its seat is held for the player (see the module docstring)."""
        self._part(conn, hold=True)

    def _part(self, conn: Any, hold: bool) -> None:
        self.spectators.remove(conn)
        index = self.seat_of(conn)
        if index is not None:
            seat = self.seats[index]
            if self.status == "waiting":
                self._host_stood_up(seat)
                self.seats[index] = Seat(index)
            elif self.status == "playing":
                conn.set_playing(False)
                seat.conn = None
                if hold:
                    self._hold(seat)
                else:
                    self._seat_left(seat, keep=True)
            else:
                seat.conn = None
                self.rematch_asked.discard(index)
                if self._check_rematch():
                    return
        if not self._maybe_close():
            self._push_summary()

    def held(self) -> bool:
        """True while a seat waits for its player to come back: held, or left on purpose
        less than ``server.reconnect_grace_s`` ago (a player alone with bots who left
        may still sit back down)."""
        return any(s.away or (s.left and s.grace_call is not None) for s in self.seats)

    def _maybe_close(self) -> bool:
        """Close the table when nobody is at it and no seat is held; True if closed."""
        if self.closed:
            return True
        if self.connections() or self.held():
            return False
        self.close()
        self.on_empty(self)
        return True

    # -- held seats -------------------------------------------------------------------
    def _hold(self, seat: Seat) -> None:
        grace = float(self.config["server"]["reconnect_grace_s"])
        seat.away = True
        if seat.grace_call is not None and seat.grace_call.active():
            seat.grace_call.cancel()
        seat.grace_call = self.clock.callLater(grace, self._grace_over, seat.index)
        log.info("table {id}: seat {seat} ({name}) held for {grace:.0f} s", id=self.id,
                 seat=seat.index, name=seat.name, grace=grace)
        self._refresh_arbiter()
        self._after_change()

    def _grace_over(self, index: int) -> None:
        seat = self.seats[index]
        seat.grace_call = None
        if not seat.away:
            return
        log.info("table {id}: seat {seat}: {name} did not come back", id=self.id, seat=index,
                 name=seat.name)
        seat.away = False
        if self.status == "playing":
            self._seat_left(seat)
        if not self._maybe_close():
            self._push_summary()

    def _seat_left(self, seat: Seat, write: bool = True, keep: bool = False) -> None:
        """The player is gone (left, or did not come back in time): a bot plays the seat
        for him (it learns the match first) and his token still gives it back. With
        ``keep`` (he left on purpose) the seat keeps the table open for
        ``server.reconnect_grace_s`` as a held seat does, even if nobody else is at it."""
        if seat.grace_call is not None and seat.grace_call.active():
            seat.grace_call.cancel()
        seat.grace_call = None
        if keep:
            grace = float(self.config["server"]["reconnect_grace_s"])
            seat.grace_call = self.clock.callLater(grace, self._left_grace_over, seat.index)
        seat.away, seat.conn, seat.left = False, None, True
        if seat.driver is None:
            self._start_drivers([seat], "left")
        seat.stand_in = "left"
        if write:
            self._write(dict(kind="seat", **seat.record()))
        self._refresh_arbiter()

    def _left_grace_over(self, index: int) -> None:
        """A left seat no longer keeps the table open (its token still works)."""
        self.seats[index].grace_call = None
        self._maybe_close()

    def _bot_for_good(self, seat: Seat) -> None:
        """A bot keeps the seat until the end; the player's token expires (the host
        moved the player to the spectators)."""
        if seat.grace_call is not None and seat.grace_call.active():
            seat.grace_call.cancel()
        seat.grace_call = None
        seat.away, seat.token, seat.conn, seat.left = False, None, None, False
        seat.bot, seat.name = True, f"{seat.name} (bot)"
        if self.status == "playing":
            if seat.driver is None:
                self._start_drivers([seat], None)
            seat.stand_in = None
            self._write(dict(kind="seat", **seat.record()))
            self._refresh_arbiter()
        else:
            self._stop_driver(seat)

    def reconnect(self, conn: Any, index: int, step: int | None) -> dict[str, Any]:
        """Give seat ``index`` (whose token ``conn`` showed) to ``conn``: the player is
        back. Pushes ``match_started`` with ``resumed`` and the ``missed`` events after
        ``step`` (and ``match_over`` when the match has ended). Returns the ``joined``
        fields. Raises ``already_seated`` when ``conn`` sits at another seat here. A left
        seat (its player left or did not come back in time) is taken back from its bot;
        a connection watching the table stops watching it; the host's seat makes ``conn``
        the host again."""
        seat = self.seats[index]
        if self.seat_of(conn) not in (None, index):
            raise ProtocolError("already_seated", "you already sit at another seat of this table")
        self.spectators.remove(conn)
        old = seat.conn
        if old is not None and old is not conn and self.status == "playing":
            old.set_playing(False)  # a half-open connection of the same player
        was_left = seat.left
        seat.conn, seat.away, seat.left = conn, False, False
        if seat.grace_call is not None and seat.grace_call.active():
            seat.grace_call.cancel()
        seat.grace_call = None
        if seat.stand_in in ("takeover", "left"):
            self._stop_driver(seat)
        if was_left and self.status == "playing":
            self._write(dict(kind="seat", **seat.record()))
        self._host_back(seat)
        if self.status == "playing" and old is not conn:
            conn.set_playing(True)
        log.info("table {id}: {name} is back at seat {seat}", id=self.id, name=seat.name, seat=index)
        if self.status == "waiting":  # the same player from another connection
            self._push_summary()
            return {"table": self.id, "seat": index, "token": seat.token}
        missed: list[dict[str, Any]] = []
        if step is not None and step >= 0:
            for events in self.history[step:]:
                missed += events_for(events, index)
        rewound = step if step is not None and step > len(self.log) else None
        if rewound is not None:
            log.warn("table {id}: seat {seat} had seen step {step}, the log restored step {n}",
                     id=self.id, seat=index, step=step, n=len(self.log))
        self._send_start(conn, index, resumed=True, missed=missed, rewound_from=rewound)
        if self.status == "over":
            conn.push("match_over", table=self.id, result=self.result,
                      scoreboard=self.scoreboard_rows())
        self._refresh_arbiter()
        self._push_summary()
        return {"table": self.id, "seat": index, "token": seat.token}

    # -- bots -------------------------------------------------------------------------
    def _refresh_stand_ins(self) -> None:
        """A held seat the match waits for gets its stand-in (``after_miss``) or, in a
        window, a pass (``never``)."""
        if self.status != "playing" or self.closed:
            return
        waiting = self.game.awaiting(self.state)
        started = False
        for seat in self.seats:
            if not seat.away or seat.driver is not None or seat.index not in waiting:
                continue
            if self.bot_takeover == "after_miss":
                self._start_drivers([seat], "takeover")
                started = True
            elif self._pass_for(seat.index):
                return  # that pass ran its own refresh
        if started:
            self._push_summary()

    def _start_drivers(self, seats: list[Seat], stand_in: str | None) -> None:
        """Give each of ``seats`` a bot that has learnt the match so far, and let it
        decide on the current view. In an open window it reacts from the moment the
        window was shown, as it would have had it been there."""
        bots = {seat.index: self._make_bot(seat.index) for seat in seats}
        self._teach(bots)
        anchor = self.window_shown if self.window is not None else self.now_ms()
        for seat in seats:
            seat.driver = self._driver(seat.index, bots[seat.index])
            seat.stand_in = stand_in
            self._feed_bot(seat, [], anchor)

    def _stop_driver(self, seat: Seat) -> None:
        if seat.driver is not None:
            seat.driver.stop()
        seat.driver, seat.stand_in = None, None

    def _make_bot(self, seat: int) -> Any:
        settings = dict(self.config["bots"])
        settings["think_ms"] = self.bot_think_ms
        seed = f"{self.seed}/{seat}"
        try:
            return make_bot(self.game.NAME, seat, seed=seed, settings=settings, kind=self.bot_kind)
        except (ImportError, KeyError):
            return make_bot(self.game.NAME, seat, seed=seed, settings=settings, kind="random")

    def _driver(self, seat: int, bot: Any) -> BotDriver:
        driver = BotDriver(bot, self.clock.callLater, lambda d, anchor: self._bot_send(seat, driver, d, anchor))
        return driver

    def _teach(self, bots: dict[int, Any]) -> None:
        """Replay the match so far into ``bots`` (seat -> bot): each observes every
        step's events and view as its seat received them."""
        if not bots:
            return
        state = self.game.new_match(self.engine_config, self.seed)
        for seat, bot in bots.items():
            bot.observe([], self.game.view(state, seat))
        for seat_acting, action in self.actions:
            state, events = self.game.apply(state, seat_acting, action)
            for seat, bot in bots.items():
                bot.observe(events_for(events, seat), self.game.view(state, seat))

    def _feed_bot(self, seat: Seat, events: list[dict[str, Any]], anchor: float) -> None:
        if seat.driver is None:
            return
        seat.driver.on_update(events, self.game.view(self.state, seat.index),
                              self._legal(seat.index), anchor)
