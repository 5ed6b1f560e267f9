"""``mafia-bot``: bots playing over TCP, one connection per seat, in one process.

    mafia-bot --connect HOST:PORT --create omerta --players N [--seed S] [--name X]
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
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import yaml
from twisted.internet import defer, task
from twisted.python import failure

from client.net import ClientProtocol, ServerError, connect, now_ms
from shared.bots import make_bot
from shared.bots.driver import BotDriver
from shared.config import merge
from shared.games import get_game

ROOT = Path(__file__).resolve().parent.parent


class HeadlessError(Exception):
    """A failure worth one line on stderr."""


class SeatBot:
    """One TCP connection whose seat is played by a bot (the connection's listener)."""

    def __init__(self, reactor: Any, settings: dict[str, Any], kind: str, seed_base: Any,
                 done: defer.Deferred):
        self.reactor = reactor
        self.settings = settings
        self.kind = kind
        self.seed_base = seed_base
        self.done = done
        self.proto: ClientProtocol | None = None
        self.table: int | None = None
        self.seat: int | None = None
        self.game: Any = None
        self.driver: BotDriver | None = None
        self._anchor_local = 0.0
        self._in_flight = False
        self._wait_step: int | None = None
        self._buffered: list[dict[str, Any]] = []
        self.closing = False
        self.verbose = False

    # -- listener ---------------------------------------------------------------------
    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if msg.get("table") != self.table and kind in ("match_started", "update", "match_over"):
            return
        if kind == "match_started":
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
            if not self.done.called:
                self.done.callback(msg["result"])

    def on_disconnect(self, reason: failure.Failure) -> None:
        if not self.closing and not self.done.called:
            self.done.errback(HeadlessError("the server closed the connection"))

    # -- bot --------------------------------------------------------------------------
    def _start(self, msg: dict[str, Any]) -> None:
        self.seat = msg["seat"]
        self.game = get_game(msg["game"])
        seed = f"{self.seed_base}/{self.seat}"
        try:
            bot = make_bot(self.game.NAME, self.seat, seed=seed, settings=self.settings, kind=self.kind)
        except (ImportError, KeyError):
            bot = make_bot(self.game.NAME, self.seat, seed=seed, settings=self.settings, kind="random")
        self.driver = BotDriver(bot, self._schedule, self._send)
        self._feed(msg)

    def _feed(self, msg: dict[str, Any]) -> None:
        assert self.driver is not None and self.proto is not None
        offset = self.proto.offset_ms
        self._anchor_local = msg["t_server"] - offset if offset is not None else now_ms()
        legal = [self.game.ACTIONS.parse(a, from_client=False) for a in msg.get("legal", [])]
        self.driver.on_update(msg.get("events", []), msg["view"], legal, msg["t_server"])

    def _schedule(self, delay_s: float, fn: Any) -> Any:
        """Fire at the update's production time + the delay (on this client's clock)."""
        due = self._anchor_local + delay_s * 1000.0
        return self.reactor.callLater(max(0.0, due - now_ms()) / 1000.0, fn)

    def _send(self, decision: Any, anchor: float) -> None:
        assert self.proto is not None and self.table is not None
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
                continue
            self._in_flight, self._wait_step = False, None
            rest, self._buffered = self._buffered, []
            self._feed(msg)
            for later in rest:
                self.on_message(later)
            return

    def _refused(self, f: failure.Failure) -> None:
        if not f.check(ServerError) or f.value.code == "disconnected":
            return
        if self.verbose:  # races lost to another seat are normal
            print(f"mafia-bot: seat {self.seat}: {f.value.code}: {f.value.message}", file=sys.stderr)
        # The state changed before the action arrived: the update that says how is
        # buffered or on its way. (A refused claim changes nothing; the window's
        # timeout closes it.)
        self._in_flight, self._wait_step = False, None
        pending, self._buffered = self._buffered, []
        for msg in pending:
            self._feed(msg)


def load_config(path: str | None) -> dict[str, Any]:
    """The merged config (``config.yaml`` at the repository root by default)."""
    file = Path(path) if path else ROOT / "config.yaml"
    if path is None and not file.exists():
        return merge(None)
    with open(file, encoding="utf-8") as f:
        return merge(yaml.safe_load(f))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="mafia-bot", description="Bots playing over TCP.")
    p.add_argument("--connect", required=True, metavar="HOST:PORT", help="server address")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--create", metavar="GAME", help="create a table of GAME and fill it")
    what.add_argument("--join", type=int, metavar="TABLE", help="fill the free seats of TABLE")
    p.add_argument("--players", type=int, help="seats (with --create; with --join at most this many)")
    p.add_argument("--seed", type=int, help="match seed (default: random)")
    p.add_argument("--rounds", type=int, help="rounds to play (default: the game's)")
    p.add_argument("--name", default="Bot", help="base name of the bots' connections")
    p.add_argument("--think-ms", type=float, default=0.0, help="pause before turn actions (ms)")
    p.add_argument("--bot", choices=("smart", "random"), default="smart", help="kind of bot")
    p.add_argument("--config", help="configuration file (default: config.yaml of the repository)")
    p.add_argument("--timeout", type=float, default=600.0, help="give up after this many seconds")
    p.add_argument("--verbose", action="store_true", help="report refused actions on stderr")
    args = p.parse_args(argv)
    if args.create and not args.players:
        p.error("--create needs --players")
    return args


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise HeadlessError(f"bad address {text!r}: use HOST:PORT")
    return host, int(port)


@defer.inlineCallbacks
def play(reactor: Any, args: argparse.Namespace):
    """Connect, create or join, play until ``match_over``; returns the result dict."""
    config = load_config(args.config)
    host, port = _address(args.connect)
    settings = dict(config["bots"])
    settings["think_ms"] = args.think_ms
    seed_base = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    done: defer.Deferred = defer.Deferred()
    seats: list[SeatBot] = []

    @defer.inlineCallbacks
    def open_seat(i: int):
        bot = SeatBot(reactor, settings, args.bot, seed_base, done)
        bot.verbose = args.verbose
        try:
            bot.proto = yield connect(reactor, host, port, f"{args.name} {i + 1}", listener=bot)
        except ServerError as e:
            raise HeadlessError(f"{host}:{port} refused hello: {e.message}")
        except Exception as e:
            raise HeadlessError(f"cannot connect to {host}:{port}: {e}")
        seats.append(bot)
        return bot

    try:
        first = yield open_seat(0)
        if args.create:
            options: dict[str, Any] = {"bot_think_ms": int(args.think_ms)}
            if args.seed is not None:
                options["seed"] = args.seed
            if args.rounds is not None:
                options["rounds"] = args.rounds
            reply = yield first.proto.request("create_table", game=args.create,
                                              seats=args.players, options=options)
            table = reply["table"]
            wanted = args.players
        else:
            reply = yield first.proto.request("list_tables")
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
            yield bot.proto.request("join", table=table["id"])
        timer = reactor.callLater(args.timeout, lambda: done.called or done.errback(
            HeadlessError(f"no result after {args.timeout:.0f} s")))
        try:
            result = yield done
        finally:
            if timer.active():
                timer.cancel()
        return result
    except ServerError as e:
        raise HeadlessError(f"the server refused: {e.code}: {e.message}")
    finally:
        for bot in seats:
            bot.closing = True
            if bot.driver is not None:
                bot.driver.stop()
            if bot.proto is not None and bot.proto.transport is not None:
                bot.proto.transport.loseConnection()


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``mafia-bot`` console script."""
    args = parse_args(argv)

    @defer.inlineCallbacks
    def run(reactor: Any):
        try:
            result = yield play(reactor, args)
        except HeadlessError as e:
            print(f"mafia-bot: {e}", file=sys.stderr)
            raise SystemExit(1)
        print(json.dumps(result, sort_keys=True), flush=True)

    task.react(run)


if __name__ == "__main__":
    main()
