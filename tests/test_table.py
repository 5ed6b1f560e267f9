"""A table over fake connections and a task.Clock: lifecycle, windows, arbiter, bots,
disconnects, and no hidden card reaching the wrong seat."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twisted.internet import task

from server.match.table import Table
from server.options import parse_options
from shared.bots import make_bot
from shared.bots.driver import BotDriver
from shared.config import merge
from shared.games import get_game
from shared.protocol import ProtocolError
from shared.rules import events_for

OMERTA = get_game("omerta")
# seat 0: 7 1 2 3 (slots 0-3), seat 1: 7 4 5 6 (4-7), seat 2: 8 9 10 1 (8-11),
# safe 2 3 4 5, then the draw pile: 7 first.
DECK = ["7", "1", "2", "3", "7", "4", "5", "6", "8", "9", "10", "1", "2", "3", "4", "5", "7"]


class FakeConn:
    """What a table needs from a connection; records every pushed message."""

    _ids = iter(range(1, 10_000))

    def __init__(self, name: str = "p", offset: float | None = 0.0, bound: float = 5.0):
        self.conn_id = next(self._ids)
        self.name = name
        self.clock_offset_ms = offset
        self.bound = bound
        self.msgs: list[dict[str, Any]] = []
        self.playing = False

    def push(self, msg_type: str, **fields: Any) -> None:
        self.msgs.append({"type": msg_type, **fields})

    def rtt_bound_ms(self) -> float:
        return self.bound

    def set_playing(self, playing: bool) -> None:
        self.playing = playing

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.msgs if m["type"] == kind]


def make_table(seats=3, options=None, clock=None, timing=None, testing=True):
    config = merge({"timing": timing or {}})
    engine, settings_ = parse_options(OMERTA, seats, dict(options or {}), config, testing)
    return Table(1, OMERTA, "test", engine, settings_, config, clock or task.Clock())


def snap_window_table(timing=None, bounds=(5.0, 5.0, 5.0)):
    """Three seated connections; every seat has peeked; seat 2 discarded a 7: a snap
    window for 7 is open and seats 0 and 1 hold a 7 in their first slot."""
    clock = task.Clock()
    clock.advance(100.0)
    table = make_table(options={"deck": DECK, "first_player": 2, "seed": 1}, clock=clock,
                       timing=timing)
    conns = [FakeConn(f"p{i}", bound=b) for i, b in enumerate(bounds)]
    for c in conns:
        table.join(c)
    assert table.status == "playing"
    for seat, c in enumerate(conns):
        table.act(c, {"type": "peek", "slots": [4 * seat, 4 * seat + 1]})
    table.act(conns[2], {"type": "draw_deck"})
    table.act(conns[2], {"type": "discard_drawn"})
    assert table.window is not None and table.window.kind == "snap"
    return clock, table, conns


def test_join_fills_seats_and_starts_with_filtered_views():
    table = make_table(options={"seed": 4})
    a, b, spectator = FakeConn("a"), FakeConn("b"), FakeConn("s")
    assert table.join(a)["seat"] == 0
    table.join(spectator, spectate=True)
    assert table.join(b, seat=2)["seat"] == 2
    with pytest.raises(ProtocolError) as e:
        table.join(FakeConn(), seat=2)
    assert e.value.code == "seat_taken"
    table.add_bot()
    assert table.status == "playing"
    start = {m["seat"]: m for c in (a, b, spectator) for m in c.of("match_started")}
    assert set(start) == {0, 2, None}
    assert start[None]["legal"] == [] and start[0]["legal"]
    assert start[0]["view"]["seat"] == 0 and start[None]["view"]["seat"] is None
    assert a.playing and b.playing
    summary = spectator.of("table")[-1]["table"]
    assert summary["status"] == "playing" and summary["seats"][1]["bot"]
    with pytest.raises(ProtocolError) as e:
        table.join(FakeConn())
    assert e.value.code == "already_started"


def test_leaving_before_the_start_frees_the_seat():
    table = make_table()
    a, b = FakeConn("a"), FakeConn("b")
    table.join(a)
    table.join(b)
    table.leave(a)
    assert table.seats[0].free and table.seats[1].conn is b
    assert b.of("table")[-1]["table"]["seats"][0]["name"] is None


def test_window_timeout_applies_the_timeout_action():
    clock, table, conns = snap_window_table()
    window = table.window.id
    clock.advance(2.9)
    assert table.log[-1]["action"]["type"] == "discard_drawn"
    clock.advance(0.2)
    assert table.log[-1]["seat"] is None
    assert table.log[-1]["action"] == {"type": "window_timeout", "window": window}
    assert table.window is None
    last = conns[0].of("update")[-1]
    assert any(e["type"] == "window_closed" and e["reason"] == "timeout" for e in last["events"])


def test_the_quicker_reaction_wins_though_its_press_was_later():
    """Issue "fair races": the far player saw the card 29 ms later, pressed 24 ms later
    in absolute time and arrived 40 ms later, but reacted 5 ms faster: he wins."""
    clock, table, (far, near, other) = snap_window_table(bounds=(60.0, 5.0, 5.0))
    opened = clock.seconds() * 1000
    table.act(other, {"type": "snap_pass"})
    clock.advance(0.100)
    ack = table.act(near, {"type": "snap", "slot": 4}, t_press=opened + 100, t_shown=opened + 1)
    assert ack["step"] == len(table.log) + 1
    assert table.arbiter.collecting
    clock.advance(0.040)
    table.act(far, {"type": "snap", "slot": 0}, t_press=opened + 124, t_shown=opened + 30)
    assert not table.arbiter.collecting
    won = far.of("claim_result")[-1]
    slow = near.of("claim_result")[-1]
    assert won["outcome"] == "won" and won["margin_ms"] == pytest.approx(5)
    assert won["reaction_ms"] == pytest.approx(94) and slow["reaction_ms"] == pytest.approx(99)
    assert slow["outcome"] == "too_slow" and slow["margin_ms"] == pytest.approx(5)
    assert slow["message"] == "too slow by 5 ms"
    assert slow["sentence"] == {"code": "too_slow", "params": {"ms": 5}}  # what clients translate
    assert won["sentence"] == {"code": "first_by", "params": {"ms": 5}}
    snaps = [e for e in far.of("update")[-1]["events"] if e["type"] == "snap"]
    assert snaps and snaps[0]["seat"] == 0 and snaps[0]["success"]
    # the photo finish goes to every seat: both reaction times side by side
    for conn in (far, near, other):
        race = conn.of("race")[-1]
        assert [(c["seat"], c["reaction_ms"], c["outcome"]) for c in race["claims"]] == [
            (0, 94.0, "won"), (1, 99.0, "too_slow")]
        assert race["winner"] == 0 and race["margin_ms"] == pytest.approx(5)


def test_claim_collection_waits_for_pending_seats_then_decides():
    clock, table, (a, b, c) = snap_window_table(bounds=(5.0, 30.0, 5.0))
    opened = clock.seconds() * 1000
    clock.advance(0.2)
    table.act(a, {"type": "snap", "slot": 0}, t_press=opened + 199)
    assert table.arbiter.collecting
    table.act(c, {"type": "snap_pass"})
    assert a.of("update")[-1]["legal"] == []  # a's claim waits: no second snap, no pass
    assert {x["type"] for x in b.of("update")[-1]["legal"]} == {"snap", "snap_pass"}
    # b (RTT 30 ms, plus the 40 ms frame allowance) could still send a quicker claim: the
    # collection closes 199 + 30 + 40 + 15 = 284 ms after the opening
    clock.advance(0.083)
    assert table.arbiter.collecting
    clock.advance(0.002)
    assert not table.arbiter.collecting and a.of("claim_result")[-1]["outcome"] == "won"
    assert a.of("claim_result")[-1]["latency_ms"] == pytest.approx(84, abs=1.01)


def test_single_remaining_eligible_player_decides_without_waiting():
    clock, table, (a, b, c) = snap_window_table(bounds=(5.0, 150.0, 150.0))
    table.act(b, {"type": "snap_pass"})
    table.act(c, {"type": "snap_pass"})
    table.act(a, {"type": "snap", "slot": 1})  # a 1, not a 7: wrong
    result = a.of("claim_result")[-1]
    assert result["outcome"] == "wrong" and result["message"] == "wrong card: penalty"
    assert table.window is None  # everybody answered


def test_impossible_reactions_are_refused_and_late_presses_clamped():
    clock, table, (a, b, c) = snap_window_table()  # bounds 5 ms (+ 40 ms frame allowance)
    opened = clock.seconds() * 1000
    clock.advance(0.3)
    with pytest.raises(ProtocolError) as e:  # 30 ms after the card appeared: nobody is that quick
        table.act(a, {"type": "snap", "slot": 0}, t_press=opened + 280, t_shown=opened + 250)
    assert e.value.code == "claim_refused" and "faster than anyone" in e.value.message
    assert a.of("claim_result")[-1]["outcome"] == "refused"
    with pytest.raises(ProtocolError) as e:
        table.act(b, {"type": "snap", "slot": 4}, t_press=opened - 10)  # before it was sent
    assert e.value.code == "claim_refused"
    assert not table.arbiter.collecting and table.window is not None
    # an honest press that arrives 200 ms after it (a busy frame, a slow link) counts at
    # its bound: 300 - 5 - 40 = 255 ms after the opening, never refused
    table.act(b, {"type": "snap", "slot": 4}, t_press=opened + 100)
    clock.advance(1.0)
    assert b.of("claim_result")[-1]["reaction_ms"] == pytest.approx(255)
    # a press stamped after its own arrival (a clock off by a few ms) is clamped too
    clock2, table2, (a2, _, _) = snap_window_table()
    opened2 = clock2.seconds() * 1000
    clock2.advance(0.3)
    table2.act(a2, {"type": "snap", "slot": 0}, t_press=opened2 + 320)
    clock2.advance(1.0)
    assert a2.of("claim_result")[-1]["reaction_ms"] == pytest.approx(300)


def test_claim_after_the_window_was_won_is_too_slow():
    clock, table, (a, b, c) = snap_window_table()
    opened = clock.seconds() * 1000
    table.act(b, {"type": "snap_pass"})
    table.act(c, {"type": "snap_pass"})
    clock.advance(0.1)
    table.act(a, {"type": "snap", "slot": 0}, t_press=opened + 100)
    assert table.window is None
    clock.advance(0.01)
    with pytest.raises(ProtocolError) as e:
        table.act(b, {"type": "snap", "slot": 4}, t_press=opened + 109)
    assert e.value.code == "illegal_action"  # b had passed: the engine says no
    # a claim from a seat still able to press arrives after the decision
    clock2, table2, (a2, b2, c2) = snap_window_table(bounds=(5.0, 5.0, 5.0))
    opened = clock2.seconds() * 1000
    table2.act(c2, {"type": "snap_pass"})
    clock2.advance(0.1)
    table2.act(a2, {"type": "snap", "slot": 0}, t_press=opened + 100)
    clock2.advance(0.1)  # a2's claim decided (b2's bound is 5 ms)
    assert table2.window is None
    ack = table2.act(b2, {"type": "snap", "slot": 4}, t_press=opened + 112)
    assert ack["step"] == len(table2.log)
    slow = b2.of("claim_result")[-1]
    assert slow["outcome"] == "too_slow" and slow["margin_ms"] == pytest.approx(12)


def test_actions_need_a_seat_and_a_running_match():
    table = make_table()
    a, spectator = FakeConn("a"), FakeConn("s")
    table.join(a)
    table.join(spectator, spectate=True)
    with pytest.raises(ProtocolError) as e:
        table.act(a, {"type": "draw_deck"})
    assert e.value.code == "not_started"
    table.add_bot()
    table.add_bot()
    for conn, code in ((spectator, "not_seated"), (FakeConn(), "not_seated")):
        with pytest.raises(ProtocolError) as e:
            table.act(conn, {"type": "draw_deck"})
        assert e.value.code == code
    with pytest.raises(ProtocolError) as e:
        table.act(a, {"type": "fly"})
    assert e.value.code == "bad_action"
    with pytest.raises(ProtocolError) as e:
        table.act(a, {"type": "window_timeout", "window": 1})
    assert e.value.code == "bad_action"
    with pytest.raises(ProtocolError) as e:
        table.act(a, {"type": "draw_deck"})
    assert e.value.code == "illegal_action" and e.value.message == "first look at two of your cards"


def run_until_over(clock, table, limit_s=3600.0):
    waited = 0.0
    while table.status == "playing" and waited < limit_s:
        clock.advance(0.05)
        waited += 0.05
    assert table.status == "over", f"match still running after {limit_s} s"


def test_bot_seats_play_a_whole_match_and_the_log_replays_it():
    clock = task.Clock()
    table = make_table(options={"seed": 11, "bot_think_ms": 0, "rounds": 2}, clock=clock)
    watcher = FakeConn("w")
    table.join(watcher, spectate=True)
    for _ in range(3):
        table.add_bot()
    run_until_over(clock, table)
    result = watcher.of("match_over")[-1]["result"]
    assert result["rounds"] == 2 and len(result["scores"]) == 3 and result["winners"]
    assert result["seed"] == 11 and result["game"] == "omerta"
    state = OMERTA.new_match(table.engine_config, 11)
    for entry in table.log:
        state, _ = OMERTA.apply(state, entry["seat"], OMERTA.ACTIONS.parse(entry["action"], from_client=False))
    assert OMERTA.scores(state)["scores"] == result["scores"]
    assert not clock.getDelayedCalls()


def test_same_seed_same_bot_match():
    results = []
    for _ in range(2):
        clock = task.Clock()
        table = make_table(options={"seed": 5, "bot_think_ms": 0, "rounds": 1}, clock=clock)
        w = FakeConn("w")
        table.join(w, spectate=True)
        for _ in range(3):
            table.add_bot()
        run_until_over(clock, table)
        results.append((table.result, [e["action"] for e in table.log]))
    assert results[0] == results[1]


def test_leaving_during_a_match_gives_the_seat_to_a_bot_and_keeps_the_token():
    clock = task.Clock()
    table = make_table(options={"seed": 2, "bot_think_ms": 0, "rounds": 1}, clock=clock)
    player, watcher = FakeConn("ann"), FakeConn("w")
    table.join(player)
    table.join(watcher, spectate=True)
    table.add_bot()
    table.add_bot()
    assert table.status == "playing"
    token = table.seats[0].token
    table.leave(player)  # on purpose: a bot plays for her, her token still works (issue 13)
    seat = table.seats[0]
    assert seat.left and not seat.bot and seat.conn is None and not seat.away and seat.token == token
    assert seat.driver is not None and seat.stand_in == "left"
    assert watcher.of("table")[-1]["table"]["seats"][0] == {
        "seat": 0, "name": "ann (bot)", "bot": True, "connected": True, "away": False}
    assert not player.playing
    run_until_over(clock, table)
    assert watcher.of("match_over")
    assert any(e["seat"] == 0 for e in table.log)


def test_last_connection_leaving_closes_the_table_once_its_match_is_over():
    clock = task.Clock()
    closed = []
    config = merge(None)
    engine, s = parse_options(OMERTA, 3, {"bot_think_ms": 0}, config, False)
    table = Table(1, OMERTA, "t", engine, s, config, clock, on_empty=closed.append)
    a = FakeConn()
    table.join(a)
    table.add_bot()
    table.add_bot()
    clock.advance(0.5)
    table.leave(a)  # a bot plays for him; he may sit back down within the grace period
    assert closed == [] and not table.closed and table.seats[0].left
    clock.advance(float(config["server"]["reconnect_grace_s"]) + 1)
    assert closed == [] and table.status == "playing"  # his stand-in and the bots finish the match
    while table.status == "playing":
        clock.advance(1.0)
    assert closed == [table] and table.closed  # then nobody is at it: closed
    assert not clock.getDelayedCalls()


def test_options_are_checked():
    config = merge(None)
    for options, code in (({"deck": ["7"]}, "testing_only"), ({"first_player": 0}, "testing_only"),
                          ({"colour": 1}, "bad_option"), ({"rounds": 0}, "bad_option"),
                          ({"snap_timeout_ms": 10}, "bad_option"), ({"seed": "x"}, "bad_option")):
        with pytest.raises(ProtocolError) as e:
            parse_options(OMERTA, 3, options, config, testing=False)
        assert e.value.code == code, options
    with pytest.raises(ProtocolError) as e:
        parse_options(OMERTA, 6, {}, config, testing=False)
    assert e.value.code == "bad_seats"
    with pytest.raises(ProtocolError) as e:
        parse_options(OMERTA, 3, {"deck": ["joker"]}, config, testing=True)
    assert e.value.code == "bad_option" and "joker" in e.value.message
    engine, s = parse_options(OMERTA, 4, {"seed": 9, "rounds": 2, "snap_timeout_ms": 1500}, config, False)
    assert engine == {"seats": 4, "rounds": 2, "snap_timeout_ms": 1500, "counter_timeout_ms": 1500}
    assert s["seed"] == 9


# -- no hidden card reaches another seat ----------------------------------------------

class RecordingGame:
    """The engine, recording the events of every applied action."""

    def __init__(self, game):
        self._game = game
        self.applied: list[list] = []

    def __getattr__(self, name):
        return getattr(self._game, name)

    def apply(self, state, seat, action):
        state, events = self._game.apply(state, seat, action)
        self.applied.append(events)
        return state, events


class BotConn(FakeConn):
    """A seated connection played by a bot through ``Table.act``, like ``mafia-bot``."""

    def __init__(self, table, clock, seed):
        super().__init__("bot")
        self.table, self.clock, self.seed = table, clock, seed
        self.driver = None

    def push(self, msg_type, **fields):
        super().push(msg_type, **fields)
        if msg_type in ("match_started", "update"):
            if self.driver is None:
                bot = make_bot("omerta", fields["seat"] if msg_type == "match_started" else 0,
                               seed=self.seed, settings={"think_ms": 0})
                self.driver = BotDriver(bot, self.clock.callLater, self._send)
            legal = [OMERTA.ACTIONS.parse(a) for a in fields["legal"]]
            self.driver.on_update(fields.get("events", []), fields["view"], legal, fields["t_server"])

    def _send(self, decision, anchor):
        try:
            self.table.act(self, decision.action.to_dict(), t_press=anchor + decision.delay_ms,
                           t_shown=anchor)
        except ProtocolError:
            pass


def _cards(obj, skip=("last_round",)):
    """Ids of every card object inside a JSON value."""
    out = set()
    if isinstance(obj, dict):
        if {"id", "kind", "name", "value", "points"} <= set(obj):
            out.add(obj["id"])
        for k, v in obj.items():
            if k not in skip:
                out |= _cards(v, skip)
    elif isinstance(obj, list):
        for v in obj:
            out |= _cards(v, skip)
    return out


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), seats=st.integers(3, 5))
def test_no_hidden_card_reaches_another_seat(seed, seats):
    """Every card a connection receives (view or events) was disclosed by the engine
    to everybody or to that very seat, earlier in the same round."""
    clock = task.Clock()
    table = make_table(seats=seats, options={"seed": seed, "rounds": 1, "bot_think_ms": 0}, clock=clock)
    game = RecordingGame(OMERTA)
    table.game = game
    conns = [BotConn(table, clock, f"{seed}/{i}") for i in range(seats)]
    watcher = FakeConn("w")
    table.join(watcher, spectate=True)
    for c in conns:
        table.join(c)
    known: dict[Any, set[int]] = {s: set() for s in [*range(seats), None]}
    seen = {id(c): 0 for c in [*conns, watcher]}
    checked = 0
    while table.status == "playing" and clock.seconds() < 3600:
        before = len(game.applied)
        clock.advance(0.05)
        for events in game.applied[before:]:
            new_round = any(e.type == "round_started" for e in events)
            public = set().union(*[_cards(dict(e.data), ()) for e in events if e.to is None])
            for seat in known:
                own = _cards(events_for(events, seat), ())
                known[seat] |= public | own
            assert not new_round  # one round: card ids are never reused
        for conn, seat in [*((c, i) for i, c in enumerate(conns)), (watcher, None)]:
            for msg in conn.msgs[seen[id(conn)]:]:
                if msg["type"] == "update":
                    leaked = _cards(msg) - known[seat]
                    assert not leaked, (seat, leaked, msg)
                    checked += 1
            seen[id(conn)] = len(conn.msgs)
    assert table.status == "over" and checked > 100
