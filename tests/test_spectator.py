"""Spectators (PROTOCOL.md "Reconnection, spectators and the turn timer"): over whole
random matches no message a spectator receives names a card that is not public at that
step -- from the start, late, delayed or not -- and a spectator can never act; the
spectator delay holds every message back and gives a late spectator the view of that
many seconds ago; players see how many watch."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twisted.internet import task

from server.lobby import Lobby
from server.match.table import Table
from server.options import parse_options
from shared.config import merge
from shared.games import get_game
from shared.protocol import ProtocolError
from tests.test_omerta_properties import public_ids as omerta_public
from tests.test_protocol import Client
from tests.test_table import FakeConn


class Watcher(FakeConn):
    """A spectator connection that notes the clock time of every message."""

    def __init__(self, clock, name="w"):
        super().__init__(name)
        self.clock = clock
        self.at: list[float] = []

    def push(self, msg_type: str, **fields: Any) -> None:
        super().push(msg_type, **fields)
        self.at.append(self.clock.seconds() * 1000.0)


def card_ids(obj: Any) -> set[int]:
    """Ids of every card object in a JSON value: Omerta cards have ``kind``, Famiglia
    cards ``family``."""
    out: set[int] = set()
    if isinstance(obj, dict):
        if "id" in obj and ("kind" in obj or "family" in obj):
            out.add(obj["id"])
        for v in obj.values():
            out |= card_ids(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= card_ids(v)
    return out


def public_cards(game: Any, state: Any, events: list) -> set[int]:
    """Cards everybody may see at this step, from the engine's state and the public part
    of the step's events (never a private event or a secret field)."""
    ids = card_ids([dict(e.data) for e in events if e.to is None])
    if game.NAME == "omerta":
        return ids | omerta_public(state, events)
    zones = game.zones(state)
    ids |= set(zones["street"]) | set(zones["discard"]) | set(zones["gang_0"]) | set(zones["gang_1"])
    if game.is_over(state):
        ids |= set(zones["hand_0"]) | set(zones["hand_1"])
    return ids


def make_table(game_name: str, seats: int, options: dict[str, Any], clock) -> Table:
    config = merge(None)
    game = get_game(game_name)
    engine, s = parse_options(game, seats, options, config, testing=True)
    return Table(1, game, "t", engine, s, config, clock)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), game=st.sampled_from(["omerta", "omerta", "famiglia"]),
       seats=st.integers(3, 5), delay=st.sampled_from([0, 0, 3]), late_step=st.integers(1, 60),
       kind=st.sampled_from(["smart", "random"]))
def test_a_spectator_never_receives_a_hidden_card(seed, game, seats, delay, late_step, kind):
    clock = task.Clock()
    n = 2 if game == "famiglia" else seats
    table = make_table(game, n, {"seed": seed, "rounds": 1, "bot_think_ms": 0, "bot_kind": kind,
                                 "spectator_delay_s": delay, "turn_timer_s": 5}, clock)
    early, late = Watcher(clock, "early"), Watcher(clock, "late")
    table.join(early, spectate=True)
    player = FakeConn("player")  # a seated player whose seat a bot plays once its time runs out
    table.join(player)
    for _ in range(n - 1):
        table.add_bot()
    while table.status == "playing" and clock.seconds() < 3600:
        clock.advance(0.05)
        if late not in table.spectators and len(table.log) >= late_step:
            table.join(late, spectate=True)
    assert table.status == "over"
    clock.advance(delay + 1)
    if late not in table.spectators:
        table.join(late, spectate=True)
    # the public cards of every step, replayed from the table's own log
    game_mod = table.game
    state = game_mod.new_match(table.engine_config, table.seed)
    allowed = [public_cards(game_mod, state, [])]
    for (seat, action), events in zip(table.actions, table.history):
        state, _ = game_mod.apply(state, seat, action)
        allowed.append(public_cards(game_mod, state, events))
    checked = 0
    for watcher in (early, late):
        kinds = {m["type"] for m in watcher.msgs}
        assert kinds <= {"table", "match_started", "update", "match_over", "race"}, kinds
        assert watcher.of("match_over") and watcher.of("match_over")[-1]["result"] == table.result
        for msg in watcher.msgs:
            step = msg.get("step", len(table.log))
            leaked = card_ids(msg) - allowed[step]
            assert not leaked, (watcher.name, msg["type"], step, leaked)
            assert msg.get("legal", []) == [] and msg.get("seat") is None
            checked += 1
        steps = [m["step"] for m in watcher.msgs if m["type"] == "update"]
        assert steps == sorted(steps)
    assert checked > 5


def test_a_spectator_cannot_act_even_on_a_delayed_table():
    clock = task.Clock()
    lobby = Lobby(merge(None), clock, testing=True)
    ann = Client(lobby, "ann")
    tid = ann.request("create_table", game="omerta", seats=3,
                      options={"spectator_delay_s": 10, "seed": 3})["table"]["id"]
    watcher = Client(lobby, "w")
    assert watcher.request("join", table=tid, spectate=True) == {
        "v": 1, "type": "joined", "re": 2, "table": tid, "seat": None, "token": None}
    for c in (ann, Client(lobby, "bob"), Client(lobby, "cy")):
        c.request("join", table=tid)
    peek = ann.of("match_started")[-1]["legal"][0]
    reply = watcher.request("action", table=tid, action=peek)
    assert reply["code"] == "not_seated" and "spectators cannot act" in reply["message"]
    assert watcher.request("join", table=tid)["code"] == "already_seated"
    assert ann.of("table")[-1]["table"]["spectators"] == 1  # players see it at once


def test_the_spectator_delay_holds_every_message_back_and_late_spectators_see_the_past():
    clock = task.Clock()
    clock.advance(500)
    table = make_table("omerta", 3, {"seed": 9, "bot_think_ms": 400, "spectator_delay_s": 5,
                                     "turn_timer_s": 2}, clock)
    early = Watcher(clock, "early")
    table.join(early, spectate=True)
    player = FakeConn("ann")
    table.join(player)
    assert player.of("table")[-1]["table"]["spectators"] == 1
    table.add_bot()
    table.add_bot()
    started_at = clock.seconds() * 1000.0
    assert not early.of("match_started")
    clock.advance(4.99)
    assert not early.of("match_started")
    clock.advance(0.02)
    first = early.of("match_started")[-1]
    assert first["step"] == 0 and first["t_server"] == started_at
    assert first["timer"] is None  # the first look is simultaneous: no turn on the clock yet
    player_view = player.of("match_started")[-1]
    assert first["view"] == table.game.view(table.game.new_match(table.engine_config, 9), None)
    assert player_view["seat"] == 0
    # the player looks; the bots play on for a while (and for her when her time runs out)
    table.act(player, {"type": "peek", "slots": [0, 1]})
    for _ in range(300):
        clock.advance(0.05)
    updates = [(m, at) for m, at in zip(early.msgs, early.at) if m["type"] == "update"]
    # (task.Clock jumps by whole 50 ms steps: a message due inside one goes out at its end)
    assert updates and all(5000 - 1e-6 <= at - m["t_server"] <= 5050 for m, at in updates)
    now = clock.seconds() * 1000.0
    behind = [u for u in player.of("update") if u["t_server"] <= now - 5000]
    assert updates[-1][0]["step"] == behind[-1]["step"] < player.of("update")[-1]["step"]
    timed = [m for m, _ in updates if m["timer"] is not None]
    mine = {u["step"]: u for u in player.of("update")}
    assert timed and all(m["timer"]["deadline"] == mine[m["step"]]["timer"]["deadline"] + 5000
                         for m in timed)
    # a late spectator gets what the early one sees: the public view of 5 s ago
    late = Watcher(clock, "late")
    table.join(late, spectate=True)
    snapshot = late.of("match_started")[-1]
    assert snapshot["step"] == updates[-1][0]["step"] and snapshot["view"] == updates[-1][0]["view"]
    assert snapshot["t_server"] == updates[-1][0]["t_server"]
    clock.advance(2)
    assert [m["step"] for m in late.of("update")] == [m["step"] for m in early.of("update")
                                                      if m["step"] > snapshot["step"]]
    assert player.of("table")[-1]["table"]["spectators"] == 2


def test_spectators_never_get_claim_results_or_private_events():
    from tests.test_table import snap_window_table

    clock, table, (a, b, c) = snap_window_table()
    watcher = FakeConn("w")
    table.join(watcher, spectate=True)
    start = watcher.of("match_started")[-1]
    assert start["seat"] is None and start["legal"] == [] and start["view"]["seat"] is None
    opened = clock.seconds() * 1000
    table.act(b, {"type": "snap_pass"})
    table.act(c, {"type": "snap_pass"})
    clock.advance(0.1)
    table.act(a, {"type": "snap", "slot": 0}, t_press=opened + 100)
    assert a.of("claim_result") and not watcher.of("claim_result")
    assert watcher.of("update")[-1]["step"] == len(table.log)
    with pytest.raises(ProtocolError) as e:
        table.act(watcher, {"type": "draw_deck"})
    assert e.value.code == "not_seated"
