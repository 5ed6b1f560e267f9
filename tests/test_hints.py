"""Hints (docs/PROTOCOL.md "Hints", server.match.hints): what the hard bot would do for
the asking seat, worked out from that seat's side of the table only.

Per game (all four), on matches the bots played: a hint is one of the asking seat's legal
actions; everything the hint's bot is given names no card the seat could not see (a spy
on its inputs; a planted leak is caught); two matches that differ only in other seats'
hidden cards give the hint's bot the very same inputs and the same hint. Over the
protocol: the option, who may ask, the reply to the asker alone, the errors.
"""
from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest
from twisted.internet import task

from server.match import hints as hints_module
from server.match.hints import HINT_TRIES, HintDesk
from shared import games as registry
from shared.bots import make_bot
from shared.config import merge
from shared.rules import IllegalAction, events_for
from shared.sim import play_match
from tests.test_conformance import card_api
from tests.test_protocol import Client

#: each game at a small table, with its shortest match
GAMES = {
    "omerta": {"seats": 3, "rounds": 1},
    "famiglia": {"seats": 2},
    "family_business": {"seats": 3},
    "mafiosi": {"seats": 3, "rounds": 1},
}
#: where each game keeps cards (fields of its state); Omerta's ``games`` hold (slot, card)
ZONE_FIELDS = {
    "omerta": ("games", "draw_pile"),
    "famiglia": ("hands", "deck"),
    "family_business": ("hands", "draw_pile"),
    "mafiosi": ("hands", "aside"),
}


# -- a match at some step, as the hint desk reads its table ---------------------------------
class Conn:
    def __init__(self, seat):
        self.seat = seat
        self.pushed: list[tuple[str, dict]] = []

    def push(self, msg_type, **fields):
        self.pushed.append((msg_type, json.loads(json.dumps(fields))))


class MatchAt:
    """A table whose match is at the end of ``actions`` (the :class:`MatchTable` fields
    the hint desk reads); ``game``: the rules, or a stand-in for them."""

    def __init__(self, name, seed, actions, game=None):
        self.game = game or registry.DEFS[name].rules
        self.id, self.seed, self.engine_config = 1, seed, dict(GAMES[name])
        self.settings = {"hints": True}
        self.config = merge(None)
        self.clock = task.Clock()
        state = self.game.new_match(self.engine_config, seed)
        for seat, action in actions:
            state, _ = self.game.apply(state, seat, action)
        self.state, self.actions, self.log = state, list(actions), list(actions)
        self.status, self.closed, self.thinkers = "playing", False, None
        self.delivery = SimpleNamespace(released_step=len(actions))
        self.saving = SimpleNamespace(paused=False, when_saved=lambda call: False)
        self.claims = SimpleNamespace(window=self.game.reaction_window(state))

    def seat_of(self, conn):
        return conn.seat

    def legal(self, seat):
        if seat not in self.game.awaiting(self.state):
            return []
        return self.game.legal_actions(self.state, seat)


class Spy:
    """The hint's bot, every input it is given written down (as JSON)."""

    def __init__(self, inner):
        self.inner, self.seat = inner, inner.seat
        self.inputs: list[str] = []

    def observe(self, events, view):
        self.inputs.append(json.dumps(["observe", events, view], sort_keys=True))
        self.inner.observe(events, view)

    def decide(self, view, legal):
        self.inputs.append(json.dumps(["decide", view, [a.to_dict() for a in legal]], sort_keys=True))
        return self.inner.decide(view, legal)


def hint_at(table, seat) -> tuple[dict, Spy]:
    """The hint for ``seat`` of ``table`` (its reply's fields) and the spy on its bot."""
    desk = HintDesk(table)
    spies: list[Spy] = []
    made = desk.make_bot
    desk.make_bot = lambda s: spies.append(Spy(made(s))) or spies[-1]
    conn = Conn(seat)
    desk.ask(conn, 7)
    for _ in range(10_000):
        if conn.pushed:
            break
        table.clock.advance(0)
    ((kind, fields),) = conn.pushed
    assert kind == "hint", fields
    assert fields["re"] == 7 and fields["seat"] == seat and fields["step"] == len(table.actions)
    assert desk.busy == set()
    return fields, spies[0]


def bot_match(name, seed) -> list:
    """The log of a whole match of ``name`` between its bots."""
    rules = registry.DEFS[name].rules
    n = GAMES[name]["seats"]
    bots = [make_bot(name, s, seed=f"{seed}/{s}", settings={"think_ms": 0}) for s in range(n)]
    return play_match(rules, GAMES[name], seed, bots).log


def asking_points(name, log, seed, count=4, until=1.0) -> list[tuple[int, int]]:
    """``count`` (step, seat) where the seat has something to do, drawn from the first
    ``until`` (a share) of the match."""
    rules = registry.DEFS[name].rules
    state = rules.new_match(GAMES[name], seed)
    points = []
    for k, (seat, action) in enumerate(log):
        for s in sorted(rules.awaiting(state)):
            if rules.legal_actions(state, s):
                points.append((k, s))
        state, _ = rules.apply(state, seat, action)
    points = [(k, s) for k, s in points if k <= until * len(log)]
    rng = random.Random(f"points/{name}/{seed}")
    return sorted(rng.sample(points, min(count, len(points))))


def seen_by(name, seed, actions, seat) -> set:
    """Every card whose face ``seat`` could know at some step of ``actions``
    (the game's ``visible_cards``, step by step)."""
    rules = registry.DEFS[name].rules
    _, visible, _ = card_api(rules)
    state = rules.new_match(GAMES[name], seed)
    seen = set(visible(state, seat, []))
    for s, action in actions:
        state, events = rules.apply(state, s, action)
        seen |= visible(state, seat, events)
    return seen


def check_hint(name, seed, actions, seat, game=None) -> tuple[dict, Spy]:
    """Ask the hint for ``seat`` after ``actions``; check it is legal and that its bot
    was given no card the seat could not see."""
    rules = registry.DEFS[name].rules
    table = MatchAt(name, seed, actions, game)
    fields, spy = hint_at(table, seat)
    legal = table.legal(seat)
    assert rules.ACTIONS.parse(fields["action"]) in legal
    _, _, wire = card_api(rules)
    given = set()
    for line in spy.inputs:
        given |= wire(json.loads(line))
    hidden = given - seen_by(name, seed, actions, seat)
    assert not hidden, f"{name}: the hint's bot for seat {seat} was given hidden card(s) {sorted(hidden)}"
    return fields, spy


# -- per game -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_hint_is_a_legal_action_of_the_seat_worked_out_from_what_it_saw(name):
    seed = 11
    log = bot_match(name, seed)
    for k, seat in asking_points(name, log, seed):
        check_hint(name, seed, log[:k], seat)


class LeakyGame:
    """The rules, but the view of a seat is its neighbour's (a planted leak)."""

    def __init__(self, rules, n):
        self.rules, self.n = rules, n

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def view(self, state, seat):
        return self.rules.view(state, seat if seat is None else (seat + 1) % self.n)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_spy_catches_a_planted_leak(name, monkeypatch):
    """Two leaks planted in turn -- each seat's view is its neighbour's; its events are
    its neighbour's -- and the spy catches at least one in every game (a game whose views
    show no card, as Omerta's, leaks through its private events)."""
    seed = 11
    rules = registry.DEFS[name].rules
    n = GAMES[name]["seats"]
    log = bot_match(name, seed)
    points = asking_points(name, log, seed, count=6)
    with _maybe() as viewed:
        for k, seat in points:
            check_hint(name, seed, log[:k], seat, game=LeakyGame(rules, n))
    with monkeypatch.context() as m:
        m.setattr(hints_module, "events_for", lambda events, s: events_for(events, (s + 1) % n))
        with _maybe() as told:
            for k, seat in points:
                check_hint(name, seed, log[:k], seat)
    assert viewed.caught or told.caught, f"{name}: no planted leak caught"
    assert told.caught if name == "omerta" else viewed.caught  # Omerta's views show no card


class _Maybe:
    """A context that notes whether the spy caught a leak in it."""

    caught = False

    def __enter__(self):
        return self

    def __exit__(self, kind, error, tb):
        if kind is AssertionError and "hidden card" in str(error):
            self.caught = True
            return True
        return False


def _maybe() -> _Maybe:
    return _Maybe()


def swapped(name, state, a, b):
    """``state`` with cards ``a`` and ``b`` trading places (in the game's card fields)."""
    state = state.clone()

    def swap(x):
        if isinstance(x, list):
            return [swap(y) for y in x]
        if isinstance(x, tuple) and name == "omerta":  # (slot, card)
            return (x[0], swap(x[1]))
        return b if x == a else a if x == b else x

    for f in ZONE_FIELDS[name]:
        setattr(state, f, swap(getattr(state, f)))
    return state


class Dealt:
    """The rules, but every new match is ``state`` (another deal)."""

    def __init__(self, rules, state):
        self.rules, self.state = rules, state

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def new_match(self, config, seed):
        return self.state


def zone_of(name, state, card):
    zones, _, _ = card_api(registry.DEFS[name].rules)
    return next(z for z, cards in zones(state).items() if card in cards)


def seat_side(name, seed, actions, seat, game=None) -> list[str]:
    """What ``seat`` was sent at each step of ``actions``: its events and its view."""
    rules = game or registry.DEFS[name].rules
    state = rules.new_match(GAMES[name], seed)
    side = [json.dumps(rules.view(state, seat), sort_keys=True)]
    for s, action in actions:
        state, events = rules.apply(state, s, action)
        side.append(json.dumps([events_for(events, seat), rules.view(state, seat)], sort_keys=True))
    return side


@pytest.mark.parametrize("name", sorted(GAMES))
def test_other_seats_hidden_cards_do_not_change_the_hint(name):
    """Two deals that differ only in two cards the asking seat never saw, in two places
    (two other hands, or another hand and the deck), and look the same from that seat at
    every step: the hint's bot gets the very same inputs and gives the same hint."""
    seed = 11
    rules = registry.DEFS[name].rules
    zones = card_api(rules)[0]
    log = bot_match(name, seed)
    start = rules.new_match(GAMES[name], seed)
    compared = 0
    for k, seat in asking_points(name, log, seed, count=6, until=0.3):
        actions = log[:k]
        seen = seen_by(name, seed, actions, seat)
        never_seen = [c for c in sorted(set().union(*zones(start).values())) if c not in seen]
        pairs = [(a, b) for i, a in enumerate(never_seen) for b in never_seen[i + 1:]
                 if zone_of(name, start, a) != zone_of(name, start, b)]
        side = seat_side(name, seed, actions, seat)
        for a, b in random.Random(f"{name}/{k}").sample(pairs, min(40, len(pairs))):
            other = Dealt(rules, swapped(name, start, a, b))
            try:
                if seat_side(name, seed, actions, seat, other) != side:
                    continue  # the seat would have seen the difference (a public score...)
            except IllegalAction:
                continue  # the other deal makes a move of the match illegal
            assert zones(MatchAt(name, seed, actions).state) != zones(MatchAt(name, seed, actions, other).state)
            first, spy = check_hint(name, seed, actions, seat)
            second, spy2 = check_hint(name, seed, actions, seat, game=other)
            assert spy.inputs == spy2.inputs
            assert first == second
            compared += 1
            break
    assert compared >= 2, f"{name}: too few deals to compare"


# -- over the protocol ------------------------------------------------------------------------
def make_lobby():
    clock = task.Clock()
    clock.advance(1000)
    from server.lobby import Lobby
    return Lobby(merge({"server": {"name": "Test"}}), clock, testing=True)


def playing_table(lobby, hints=True, **options):
    """ann (seat 0) and bob (seat 1) at an Omerta table of 3 with a bot; the match runs."""
    ann = Client(lobby, "ann")
    tid = ann.request("create_table", game="omerta", seats=3, options={
        "hints": hints, "bot_think_ms": 0, "rounds": 1, **options})["table"]["id"]
    ann.request("join", table=tid)
    bob = Client(lobby, "bob")
    bob.request("join", table=tid)
    ann.request("add_bot", table=tid)
    lobby.clock.advance(0)
    assert lobby.tables[tid].status == "playing"
    return ann, bob, tid


def ask(client, lobby, **fields):
    """Send ``hint`` and let the server work it out; the reply (by ``re``)."""
    client.seq += 1
    client.send({"type": "hint", "seq": client.seq, **fields})
    for _ in range(1000):
        replies = [m for m in client.read() if m.get("re") == client.seq] or \
                  [m for m in client.inbox if m.get("re") == client.seq]
        if replies:
            return replies[0]
        lobby.clock.advance(0)
    raise AssertionError("no reply to hint")


def test_the_option_is_in_the_table_object_and_must_be_a_bool():
    lobby = make_lobby()
    ann = Client(lobby, "ann")
    off = ann.request("create_table", game="omerta", seats=3)["table"]
    assert off["hints"] is False
    on = ann.request("create_table", game="omerta", seats=3, options={"hints": True})["table"]
    assert on["hints"] is True and on["options"]["hints"] is True
    reply = ann.request("create_table", game="omerta", seats=3, options={"hints": "yes"})
    assert reply["type"] == "error" and reply["code"] == "bad_option" and "hints" in reply["message"]
    ann.request("join", table=off["id"])
    assert ann.request("set_options", table=off["id"], options={"hints": True})["table"]["hints"] is True


def test_a_seated_player_gets_a_legal_hint_and_nobody_else_hears_of_it():
    lobby = make_lobby()
    ann, bob, tid = playing_table(lobby)
    watcher = Client(lobby, "eve")
    watcher.request("join", table=tid, spectate=True)
    for c in (ann, bob, watcher):
        c.read()
        c.inbox.clear()
    table = lobby.tables[tid]
    reply = ask(ann, lobby, table=tid)
    assert reply["type"] == "hint", reply
    assert reply["table"] == tid and reply["seat"] == 0 and reply["step"] == len(table.log)
    assert table.game.ACTIONS.parse(reply["action"]) in table.legal(0)
    bob.read()
    watcher.read()
    assert [m for m in bob.inbox + watcher.inbox if m["type"] in ("hint", "error")] == []


def test_hints_off_spectators_and_bad_tables_are_refused_with_clear_errors():
    lobby = make_lobby()
    ann, _, tid = playing_table(lobby, hints=False)
    reply = ann.request("hint", table=tid)
    assert reply["code"] == "hints_off" and "hints" in reply["message"]
    lobby2 = make_lobby()
    _, _, tid2 = playing_table(lobby2)
    eve = Client(lobby2, "eve")
    eve.request("join", table=tid2, spectate=True)
    reply = eve.request("hint", table=tid2)
    assert reply["code"] == "not_seated" and "seated" in reply["message"]
    assert eve.request("hint", table=999)["code"] == "unknown_table"
    assert eve.request("hint", table="1")["code"] == "bad_message"
    assert eve.request("hint")["code"] == "bad_message"


def test_a_seat_with_nothing_to_do_and_a_waiting_table_get_no_hint():
    lobby = make_lobby()
    ann, bob, tid = playing_table(lobby)
    table = lobby.tables[tid]
    for client, seat in ((ann, 0), (bob, 1)):  # Omerta opens with both peeks: play one
        if table.legal(seat):
            action = table.legal(seat)[0]
            client.request("action", table=tid, action=action.to_dict())
            break
    idle = next(s for s in (0, 1) if not table.legal(s))
    reply = ask((ann, bob)[idle], lobby, table=tid)
    assert reply["code"] == "no_hint"
    carl = Client(lobby, "carl")
    waiting = carl.request("create_table", game="omerta", seats=3, options={"hints": True})["table"]["id"]
    carl.request("join", table=waiting)
    assert carl.request("hint", table=waiting)["code"] == "not_started"


def test_one_hint_at_a_time_per_seat_and_a_few_per_seconds():
    lobby = make_lobby()
    ann, _, tid = playing_table(lobby)
    ann.seq += 1
    ann.send({"type": "hint", "seq": ann.seq, "table": tid})  # worked out in slices: no reply yet
    assert [m for m in ann.read() if m.get("re") == ann.seq] == []
    again = ann.request("hint", table=tid)
    assert again["code"] == "too_many_hints" and "still" in again["message"]
    lobby.clock.advance(0.1)
    ann.read()
    assert [m["type"] for m in ann.inbox if m.get("re") == ann.seq - 1] == ["hint"]
    codes = [ask(ann, lobby, table=tid).get("code", "hint") for _ in range(HINT_TRIES)]
    assert codes[:HINT_TRIES - 1] == ["hint"] * (HINT_TRIES - 1) and codes[-1] == "too_many_hints"
    lobby.clock.advance(hints_module.HINT_REFILL_S)
    assert ask(ann, lobby, table=tid)["type"] == "hint"


def test_the_option_survives_a_restart_waiting_or_playing_and_the_rematch(tmp_path):
    from tests.test_join_key import lobby_at
    from tests.test_waiting_tables import half_full
    first = lobby_at(tmp_path / "waiting")
    _, tid = half_full(first, joined=1, hints=True)
    (table,) = lobby_at(tmp_path / "waiting", start=5000.0).restore()
    assert table.summary()["hints"] is True and table.hints_allowed
    playing = lobby_at(tmp_path / "playing")
    _, tid = half_full(playing, joined=3, hints=True)
    playing.clock.advance(0)
    assert playing.tables[tid].status == "playing"
    (table,) = lobby_at(tmp_path / "playing", start=5000.0).restore()
    assert table.status == "playing" and table.summary()["hints"] is True
    again = table.host.play_again()
    assert again.summary()["hints"] is True


class Searching:
    """A hint bot whose decision needs a search echoing ``answer`` (fallback: ``fallback``)."""

    def __init__(self, seat, answer, fallback):
        self.seat, self.answer, self.fallback = seat, answer, fallback

    def observe(self, events, view):
        pass

    def decide(self, view, legal):
        from shared.bots.base import Decision
        from shared.bots.search import ECHO, Think
        rules = registry.DEFS["omerta"].rules
        return Think({"game": ECHO, "answer": legal[self.answer].to_dict(), "budget_ms": 50},
                     Decision(legal[self.fallback], 0), lambda r: Decision(rules.ACTIONS.parse(r), 0))


@pytest.mark.parametrize("fails", [False, True])
def test_a_hint_whose_bot_searches_asks_the_pool_and_falls_back_when_it_fails(fails):
    from twisted.internet import defer

    from shared.bots.search import run
    log = bot_match("omerta", 11)
    k, seat = asking_points("omerta", log, 11)[0]
    table = MatchAt("omerta", 11, log[:k])
    legal = table.legal(seat)
    assert len(legal) >= 2
    asked: list = []
    table.thinkers = SimpleNamespace(think=lambda request: asked.append(defer.Deferred()) or asked[-1])
    desk = HintDesk(table)
    desk.make_bot = lambda s: Searching(s, answer=1, fallback=0)
    conn = Conn(seat)
    desk.ask(conn, 3)
    for _ in range(1000):
        table.clock.advance(0)
    assert len(asked) == 1 and conn.pushed == [] and desk.busy == {seat}
    if fails:
        asked[0].errback(RuntimeError("the worker died"))
    else:
        asked[0].callback(run({"game": "_echo", "answer": legal[1].to_dict()}))
    table.clock.advance(0)
    ((kind, fields),) = conn.pushed
    assert kind == "hint" and fields["action"] == legal[0 if fails else 1].to_dict()
    assert desk.busy == set()
