"""``mafia-bot``: bots playing over TCP, one connection per seat, in one process.

    mafia-bot --connect HOST:PORT --create omerta --players N [--seed S] [--name X]
              [--server-bots M]
    mafia-bot --connect HOST:PORT --join TABLE [--players N]

Each connection is driven by a :class:`shared.bots.driver.BotDriver`, the same code the
server uses for its in-process bots. When the match ends the result is printed as one
JSON line on stdout (``{"game", "seed", "rounds", "scores", "winners", ...}``) and the
program exits 0; any failure (cannot connect, refused request, timeout) is one line on
stderr and a non-zero exit.

Deterministic bot races: a claim is stamped ``t_press = (update.t_server - offset_ms) +
delay_ms`` -- the bot "sees" the card when the server produced the update -- and
``t_shown`` the same base, so the arbiter orders bots by their drawn reaction times only.
This holds as long as each claim reaches the server within its connection's bound
(``timing.rtt_bound_floor_ms`` .. ``rtt_bound_cap_ms``); on a heavily loaded machine a
late claim is refused and the match may differ -- give that server a larger floor.
To make the bots' decisions independent of network timing, a connection that has sent an
action feeds its bot no new update until the reply says which update reflects the action
(``ack.step``); the updates in between are only observed (PROTOCOL.md "Playing").

``--server-bots M`` fills M seats of the new table with the server's own bots
(``add_bot``) before the TCP bots join: a match between a TCP bot and in-process bots.

``--level easy|normal|hard`` (default normal) is the level of every bot this program
seats, its own and the server's (``add_bot``'s ``level``); a level other than normal is
in the bots' names ("Bot 2 (hard)").

``--matches N`` plays N matches at the same table: after each ``match_over`` every seat
asks to play again (``rematch``, docs/PROTOCOL.md "Host, emotes, rematch"); each result
is printed as its own JSON line.

Reconnection (PROTOCOL.md "Reconnection"): when a connection drops during the match,
that seat's bot says so on stderr and re-opens it after 0.5 s, 1 s, 2 s ... (at most
10 s apart), waits for the first clock sync, and asks for its seat back with ``reconnect
{token, step}``; the resumed ``match_started`` feeds the bot the events it missed and the
new view (a claim in a window still open is stamped from ``window_shown``, as the
server's stand-in stamps it, so the race comes out the same), and play goes on. After
``server.reconnect_grace_s`` seconds (of this program's config) without getting the seat
back, or when the server says the seat is no longer held (``bad_token``) or was taken
over by another connection with its token (``taken_over``), it gives up with a line on
stderr and a non-zero exit.

The same holds from ``joined`` on, before the match has started for the bot (the server
was killed as the match log appeared, say): the seat is asked back with its token (step
0) and the resumed ``match_started`` starts the bot, with the events it missed. When the
server dropped the seat because the table was still waiting (``bad_token``), the bot
sits at the table again with ``join``; when the table is gone, it gives up.

Setup asks again (docs/PROTOCOL.md "Asking again"): each seat has a random key of its
own, sent with its ``join`` (and the first seat's with ``create_table``); a connection
that cannot be opened, a hello refused because the connection was lost, or a request
whose reply was lost with the connection (a server killed as the last ``join`` started
the match) is tried again after 0.5 s, 1 s, 2 s ... (at most 10 s apart, for at most
``server.reconnect_grace_s``, or ``--retry-s``), with the same key: the same table, the same seat and
token. ``add_bot`` asked again first counts the bots already seated.
"""
from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
from typing import Any

from twisted.internet import defer, task
from twisted.python import failure

from client.config import ConfigError, load_config
from client.net import ClientProtocol, ServerError, all_tables, connect, now_ms
from shared.bots import DEFAULT_LEVEL, LEVELS, make_bot
from shared.bots.driver import BotDriver
from shared.games import game_def, get_game



class HeadlessError(Exception):
    """A failure worth one line on stderr."""


#: Delay before the first reconnection try (s); each next one doubles, up to MAX_RETRY_S.
FIRST_RETRY_S = 0.5
MAX_RETRY_S = 10.0
#: How long a re-opened connection waits for its first clock sync before asking for
#: its seat (s): claims after the reconnection need the clock offset.
CLOCK_WAIT_S = 2.0


class _Link:
    """The listener of one connection of a :class:`SeatBot`: tells it which connection
    a message or a loss belongs to (an old, dead one is ignored)."""

    def __init__(self, bot: "SeatBot"):
        self.bot = bot

    def on_message(self, msg: dict[str, Any]) -> None:
        if self.bot.link is self:
            self.bot.on_message(msg)

    def on_disconnect(self, reason: failure.Failure) -> None:
        if self.bot.link is self:
            self.bot.on_disconnect(reason)


class SeatBot:
    """One seat played by a bot over TCP: its connection (re-opened when lost), its
    reconnect token and the last step its bot has seen."""

    def __init__(self, reactor: Any, settings: dict[str, Any], kind: str, seed_base: Any,
                 done: defer.Deferred, address: tuple[str, int] = ("127.0.0.1", 0),
                 name: str = "Bot", grace_s: float = 120.0, level: str = "normal"):
        self.reactor = reactor
        self.level = level
        self.settings = settings
        self.kind = kind
        self.seed_base = seed_base
        self.done = done
        self.address = address
        self.name = name
        self.grace_s = grace_s
        self.proto: ClientProtocol | None = None
        self.link = _Link(self)
        self.table: int | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.step = 0  # the step of the last update the bot has seen
        self.game: Any = None
        self.driver: BotDriver | None = None
        self._anchor_local = 0.0
        self._in_flight = False
        self._wait_step: int | None = None
        self._buffered: list[dict[str, Any]] = []
        self._lost_at: float | None = None  # reactor s when the connection dropped
        self._attempt = 0
        self._retry_call: Any = None
        self._clock_waiter: defer.Deferred | None = None
        self.closing = False
        self.verbose = False
        self.overs = 0  # match_over messages received (one per match played)
        self.wanted_overs = 1  # ``done`` fires at this one (--matches)
        #: this seat's own secret naming its join (asked again, the same seat and token)
        self.key = secrets.token_urlsafe(24)
        self.setup_s = grace_s  # how long setup keeps asking again (s)

    def say(self, text: str) -> None:
        who = f"seat {self.seat}" if self.seat is not None else self.name
        print(f"mafia-bot: {who}: {text}", file=sys.stderr, flush=True)

    # -- listener ---------------------------------------------------------------------
    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "clock" and self._clock_waiter is not None:
            waiter, self._clock_waiter = self._clock_waiter, None
            waiter.callback(None)
        if msg.get("table") != self.table and kind in ("match_started", "update", "match_over"):
            return
        if kind == "match_started":
            if msg.get("resumed") and self.driver is not None:
                self._resume(msg)
            else:
                self._start(msg)
        elif kind == "update" and self.driver is not None:
            if self._in_flight:
                self._buffered.append(msg)
                self._drain()
            else:
                self._feed(msg)
        elif kind == "match_over":
            if self.driver is not None:
                self.driver.stop()
            self.overs += 1
            if self.overs >= self.wanted_overs and not self.done.called:
                self.done.callback(msg["result"])
        elif kind == "taken_over" and msg.get("table") == self.table:
            # the seat's token was used elsewhere: asking for it back would take it from there
            self.token = None
            if self.driver is not None:
                self.driver.stop()
            if not self.done.called:
                self.done.errback(HeadlessError(f"seat {self.seat}: the seat was taken over by "
                                                "another connection with its token"))

    def on_disconnect(self, reason: failure.Failure) -> None:
        if self.closing or self.done.called:
            return
        if self._lost_at is not None:  # a try's connection dropped: the try notices
            self.proto = None
            if self._clock_waiter is not None:
                waiter, self._clock_waiter = self._clock_waiter, None
                waiter.callback(None)
            return
        if self.token is None:  # not seated yet: the setup asks again (ask)
            self.proto = None
            return
        self._lost()

    # -- setup, asked again until it is answered ----------------------------------------
    @defer.inlineCallbacks
    def open(self):
        """Open this seat's connection (hello), trying again with backoff while the
        server cannot be reached or drops it, for at most ``setup_s`` s. Raises
        :class:`HeadlessError` when it never works."""
        host, port = self.address
        started = self.reactor.seconds()
        attempt = 0
        while True:
            self.link = link = _Link(self)
            try:
                self.proto = yield connect(self.reactor, host, port, self.name, listener=link)
                return self.proto
            except Exception as e:
                if isinstance(e, ServerError) and e.code != "disconnected":
                    raise HeadlessError(f"{host}:{port} refused hello: {e.message}")
                why = e.message if isinstance(e, ServerError) else str(e)
                if self.reactor.seconds() - started >= self.setup_s or self.closing:
                    raise HeadlessError(f"cannot connect to {host}:{port}: {why}")
                attempt += 1
                wait = min(MAX_RETRY_S, FIRST_RETRY_S * 2 ** (attempt - 1))
                self.say(f"cannot connect ({why}); trying again in {wait:.1f} s")
                yield task.deferLater(self.reactor, wait, lambda: None)

    @defer.inlineCallbacks
    def ask(self, msg_type: str, **fields: Any):
        """``msg_type`` request on this seat's connection: when the connection is lost
        before the reply (or is down), it is opened again and the same request sent
        again (the key in ``fields`` makes that safe), with backoff, for at most
        ``setup_s`` s. Returns the reply; raises :class:`ServerError` for a refusal."""
        started = self.reactor.seconds()
        attempt = 0
        while True:
            if self.proto is None or self.proto.transport is None or not self.proto.transport.connected:
                yield self.open()
            try:
                reply = yield self.proto.request(msg_type, **fields)
                return reply
            except ServerError as e:
                if e.code != "disconnected" or self.closing:
                    raise
                self.proto = None
                if self.reactor.seconds() - started >= self.setup_s:
                    raise HeadlessError(f"{msg_type}: the connection kept dropping for "
                                        f"{self.setup_s:.0f} s; giving up")
                attempt += 1
                wait = min(MAX_RETRY_S, FIRST_RETRY_S * 2 ** (attempt - 1))
                self.say(f"{msg_type}: the connection was lost before the reply; asking again "
                         f"in {wait:.1f} s")
                yield task.deferLater(self.reactor, wait, lambda: None)

    # -- reconnection -----------------------------------------------------------------
    def _lost(self) -> None:
        """The connection dropped after ``joined`` (during the match, or before it
        started for us): keep what was received, stop the bot's plans, and start trying
        to get the seat back."""
        self.proto = None
        if self.driver is not None:
            self.driver.stop()
            for msg in self._buffered:  # received: the bot has seen them
                self.driver.bot.observe(msg.get("events", []), msg["view"])
                self.step = msg.get("step", self.step)
        self._in_flight, self._wait_step, self._buffered = False, None, []
        self._lost_at = self.reactor.seconds()
        self._attempt = 0
        when = f"at step {self.step}" if self.driver is not None else "before the match started"
        self.say(f"connection lost {when}; reconnecting")
        self._retry()

    def _retry(self) -> None:
        if self.done.called or self.closing:
            return
        assert self._lost_at is not None
        if self.reactor.seconds() - self._lost_at >= self.grace_s:
            self.done.errback(HeadlessError(
                f"seat {self.seat}: could not get the seat back within {self.grace_s:.0f} s; giving up"))
            return
        self._attempt += 1
        wait = min(MAX_RETRY_S, FIRST_RETRY_S * 2 ** (self._attempt - 1))
        self._retry_call = self.reactor.callLater(wait, self._try)

    @defer.inlineCallbacks
    def _try(self):
        self._retry_call = None
        if self.done.called or self.closing:
            return
        host, port = self.address
        self.link = link = _Link(self)
        try:
            proto = yield connect(self.reactor, host, port, self.name, listener=link, timeout=5.0)
        except Exception:
            if self.link is link:
                self._retry()
            return
        self.proto = proto
        if proto.offset_ms is None:
            self._clock_waiter = defer.Deferred()
            self._clock_waiter.addTimeout(CLOCK_WAIT_S, self.reactor, onTimeoutCancel=lambda *_: None)
            yield self._clock_waiter
            self._clock_waiter = None
        if self.link is not link or self.done.called:
            return
        if self.proto is not proto:  # it dropped already
            self._retry()
            return
        self._lost_at = None  # from here on, a drop is a new loss
        try:
            yield proto.request("reconnect", token=self.token, step=self.step)
        except ServerError as e:
            if e.code == "disconnected":
                return  # on_disconnect started over
            if e.code == "bad_token" and self.driver is None and self.table is not None:
                yield self._sit_again(proto)
                return
            self._lost_at = self.reactor.seconds()
            if not self.done.called:
                why = ("the server no longer holds the seat: its grace period is over, or it "
                       "restarted without this match (its log was lost or unreadable: see "
                       "the server's log)" if e.code == "bad_token" else f"{e.code}: {e.message}")
                self.done.errback(HeadlessError(f"seat {self.seat}: {why}"))

    @defer.inlineCallbacks
    def _sit_again(self, proto: ClientProtocol):
        """The seat was freed with the lost connection because the table still waited
        for players: sit at it again (a new token)."""
        try:
            joined = yield proto.request("join", table=self.table, key=self.key)
        except ServerError as e:
            if e.code == "disconnected":
                return  # on_disconnect started over
            self._lost_at = self.reactor.seconds()
            if not self.done.called:
                why = ("the table is gone (the server restarted before its match started)"
                       if e.code == "unknown_table" else f"cannot sit at table {self.table} again: "
                                                         f"{e.code}: {e.message}")
                self.done.errback(HeadlessError(f"{self.name}: {why}"))
            return
        self.token = joined.get("token") or self.token
        self.say(f"sitting at table {self.table} again (seat {joined.get('seat')})")

    def _resume(self, msg: dict[str, Any]) -> None:
        """Back in the match: the missed events and the new view, as one update (too
        many missed -- ``missed_truncated`` -- a fresh bot starts from the view)."""
        if msg.get("missed_truncated"):
            self.say(f"back at step {msg['step']} after step {self.step}: too much missed, starting afresh")
            return self._start(msg)
        missed = msg.get("missed", [])
        self.say(f"back at step {msg['step']} after step {self.step} ({len(missed)} missed events)")
        self._in_flight, self._wait_step, self._buffered = False, None, []
        shown = msg.get("window_shown")
        self._feed(msg, events=missed, anchor=shown if shown is not None else msg["t_server"])

    # -- bot --------------------------------------------------------------------------
    def _start(self, msg: dict[str, Any]) -> None:
        if msg.get("resumed"):  # back before our bot had started: what it missed first
            self.say(f"back at step {msg['step']} before the match started for us "
                     f"({len(msg.get('missed', []))} missed events)")
        self.seat = msg["seat"]
        self.game = get_game(msg["game"])
        self._in_flight, self._wait_step, self._buffered = False, None, []  # a new match
        seed = f"{self.seed_base}/{self.seat}"
        try:
            bot = make_bot(self.game.NAME, self.seat, seed=seed, settings=self.settings, kind=self.kind,
                           level=self.level)
        except (ImportError, KeyError):
            bot = make_bot(self.game.NAME, self.seat, seed=seed, settings=self.settings, kind="random")
        # a thinking bot waits for the screens to show each step, timed as its schedule
        # is: from the update's production time on this machine's clock
        shown = game_def(self.game.NAME).shown if float(self.settings.get("think_ms", 0)) > 0 else None
        # no think(): a hard bot's search runs here, synchronously (shared.bots.search.resolve);
        # mafia-bot is its own process, one bot each, so it blocks nobody else's table
        self.driver = BotDriver(bot, self._schedule, self._send, shown=shown,
                                now=lambda: self._anchor_local / 1000.0)
        if msg.get("resumed"):
            shown = msg.get("window_shown")
            self._feed(msg, events=msg.get("missed", []),
                       anchor=shown if shown is not None else msg["t_server"])
        else:
            self._feed(msg)

    def _feed(self, msg: dict[str, Any], events: list[dict[str, Any]] | None = None,
              anchor: float | None = None) -> None:
        """Give the bot an update; its decisions are timed from ``anchor`` (server ms,
        default the update's ``t_server``)."""
        assert self.driver is not None and self.proto is not None
        anchor = msg["t_server"] if anchor is None else anchor
        offset = self.proto.offset_ms
        self._anchor_local = anchor - offset if offset is not None else now_ms()
        legal = [self.game.ACTIONS.parse(a, from_client=False) for a in msg.get("legal", [])]
        self.step = msg.get("step", self.step)
        self.driver.on_update(msg.get("events", []) if events is None else events, msg["view"],
                              legal, anchor)

    def _schedule(self, delay_s: float, fn: Any) -> Any:
        """Fire at the update's production time + the delay (on this client's clock)."""
        due = self._anchor_local + delay_s * 1000.0
        return self.reactor.callLater(max(0.0, due - now_ms()) / 1000.0, fn)

    def _send(self, decision: Any, anchor: float) -> None:
        if self.proto is None:
            return  # the connection is down: the resumed match decides again
        assert self.table is not None
        offset = self.proto.offset_ms
        base = anchor - offset if offset is not None else self._anchor_local
        self._in_flight, self._wait_step = True, None
        d = self.proto.send_action(self.table, decision.action.to_dict(),
                                   t_press=base + float(decision.delay_ms), t_shown=base)
        d.addCallbacks(self._acked, self._refused)

    def _acked(self, reply: dict[str, Any]) -> None:
        self._wait_step = int(reply.get("step", 0))
        self._drain()

    def _drain(self) -> None:
        """Updates older than the acked step are only observed; the first one at or
        after it is fed to the driver."""
        if self._wait_step is None:
            return
        while self._buffered:
            msg = self._buffered.pop(0)
            if msg.get("step", 0) < self._wait_step:
                assert self.driver is not None
                self.driver.bot.observe(msg.get("events", []), msg["view"])
                self.step = msg.get("step", self.step)
                continue
            self._in_flight, self._wait_step = False, None
            rest, self._buffered = self._buffered, []
            self._feed(msg)
            for later in rest:
                self.on_message(later)
            return

    def _refused(self, f: failure.Failure) -> None:
        if not f.check(ServerError) or f.value.code == "disconnected":
            return  # lost with the connection: _lost() resets the bot
        if self.verbose:  # races lost to another seat are normal
            print(f"mafia-bot: seat {self.seat}: {f.value.code}: {f.value.message}", file=sys.stderr)
        # The state changed before the action arrived: the update that says how is
        # buffered or on its way. (A refused claim changes nothing; the window's
        # timeout closes it.)
        self._in_flight, self._wait_step = False, None
        pending, self._buffered = self._buffered, []
        for msg in pending:
            self._feed(msg)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="mafia-bot", description="Bots playing over TCP.")
    p.add_argument("--connect", required=True, metavar="HOST:PORT", help="server address")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--create", metavar="GAME", help="create a table of GAME and fill it")
    what.add_argument("--join", type=int, metavar="TABLE", help="fill the free seats of TABLE")
    p.add_argument("--players", type=int, help="seats (with --create; with --join at most this many)")
    p.add_argument("--seed", type=int, help="match seed (default: random)")
    p.add_argument("--server-bots", type=int, default=0, metavar="M",
                   help="with --create: fill M seats with the server's own bots (add_bot)")
    p.add_argument("--rounds", type=int, help="rounds to play (default: the game's)")
    p.add_argument("--matches", type=int, default=1, metavar="N",
                   help="matches to play at the table, asking to play again after each")
    p.add_argument("--name", default="Bot", help="base name of the bots' connections")
    p.add_argument("--think-ms", type=float, default=0.0, help="pause before turn actions (ms)")
    p.add_argument("--bot", choices=("smart", "random"), default="smart", help="kind of bot")
    p.add_argument("--level", choices=LEVELS, default=DEFAULT_LEVEL,
                   help="level of the smart bots, ours and the server's (default: normal)")
    p.add_argument("--config", help="configuration file (default: config.yaml of the repository)")
    p.add_argument("--timeout", type=float, default=600.0, help="give up after this many seconds")
    p.add_argument("--retry-s", type=float, metavar="S",
                   help="how long setup keeps trying to connect and asking again (s; default: "
                        "server.reconnect_grace_s)")
    p.add_argument("--verbose", action="store_true", help="report refused actions on stderr")
    args = p.parse_args(argv)
    if args.create and not args.players:
        p.error("--create needs --players")
    if args.server_bots and (not args.create or not 0 <= args.server_bots < args.players):
        p.error("--server-bots goes with --create and must be below --players")
    if args.matches < 1:
        p.error("--matches must be at least 1")
    return args


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise HeadlessError(f"bad address {text!r}: use HOST:PORT")
    return host, int(port)


@defer.inlineCallbacks
def play(reactor: Any, args: argparse.Namespace, on_result: Any = None):
    """Connect, create or join, play until ``match_over`` (``args.matches`` times, asking
    to play again in between); returns the last result dict. ``on_result(result)`` is
    called with each result."""
    config = load_config(args.config)
    host, port = _address(args.connect)
    settings = dict(config["bots"])
    settings["think_ms"] = args.think_ms
    seed_base = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    grace = float(config["server"]["reconnect_grace_s"])
    retry_s = getattr(args, "retry_s", None)
    done: defer.Deferred = defer.Deferred()
    seats: list[SeatBot] = []

    @defer.inlineCallbacks
    def open_seat(i: int):
        level = getattr(args, "level", DEFAULT_LEVEL)
        name = f"{args.name} {i + 1}" + ("" if level == DEFAULT_LEVEL else f" ({level})")
        bot = SeatBot(reactor, settings, args.bot, seed_base, done, (host, port), name, grace, level)
        bot.verbose = args.verbose
        if retry_s is not None:
            bot.setup_s = retry_s
        seats.append(bot)
        yield bot.open()
        return bot

    try:
        first = yield open_seat(0)
        if args.create:
            options: dict[str, Any] = {"bot_think_ms": int(args.think_ms)}
            if args.seed is not None:
                options["seed"] = args.seed
            if args.rounds is not None:
                options["rounds"] = args.rounds
            reply = yield first.ask("create_table", game=args.create, seats=args.players,
                                    options=options, key=first.key)
            table = reply["table"]
            while sum(1 for s in table["seats"] if s["bot"]) < args.server_bots:
                # add_bot has no key: asked again, it first counts the bots seated
                reply = yield all_tables(first.ask)
                table = next((t for t in reply["tables"] if t["id"] == table["id"]), table)
                if sum(1 for s in table["seats"] if s["bot"]) >= args.server_bots:
                    break
                table = (yield first.ask("add_bot", table=table["id"],
                                         level=getattr(args, "level", DEFAULT_LEVEL)))["table"]
            wanted = args.players - args.server_bots
        else:
            reply = yield first.ask("list_tables")
            table = next((t for t in reply["tables"] if t["id"] == args.join), None)
            if table is None:
                raise HeadlessError(f"there is no table {args.join}")
            free = sum(1 for s in table["seats"] if s["name"] is None and not s["bot"])
            wanted = min(free, args.players) if args.players else free
            if wanted == 0:
                raise HeadlessError(f"table {args.join} has no free seat")
        for i in range(1, wanted):
            yield open_seat(i)
        for bot in seats:
            bot.table = table["id"]
        for bot in seats:
            joined = yield bot.ask("join", table=table["id"], key=bot.key)
            bot.token = joined.get("token")
        result: Any = None
        for n in range(getattr(args, "matches", 1)):
            if n:  # play again: every seat asks, the last request starts the match
                done = defer.Deferred()
                for bot in seats:
                    bot.done, bot.wanted_overs = done, n + 1
                for bot in seats:
                    yield bot.proto.request("rematch", table=table["id"])
            timer = reactor.callLater(args.timeout, lambda d=done: d.called or d.errback(
                HeadlessError(f"no result after {args.timeout:.0f} s")))
            try:
                result = yield done
            finally:
                if timer.active():
                    timer.cancel()
            if on_result is not None:
                on_result(result)
        return result
    except ServerError as e:
        raise HeadlessError(f"the server refused: {e.code}: {e.message}")
    finally:
        for bot in seats:
            bot.closing = True
            if bot.driver is not None:
                bot.driver.stop()
            if bot._retry_call is not None and bot._retry_call.active():
                bot._retry_call.cancel()
            if bot.proto is not None and bot.proto.transport is not None:
                bot.proto.transport.loseConnection()


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``mafia-bot`` console script."""
    import time

    from shared.bots import search

    search.CPU_CLOCK = time.thread_time  # a hard bot's search here keeps to its CPU budget
    args = parse_args(argv)

    @defer.inlineCallbacks
    def run(reactor: Any):
        try:
            yield play(reactor, args, on_result=lambda result: print(
                json.dumps(result, sort_keys=True), flush=True))
        except (HeadlessError, ConfigError) as e:
            print(f"mafia-bot: {e}", file=sys.stderr)
            raise SystemExit(1)

    task.react(run)


if __name__ == "__main__":
    main()
