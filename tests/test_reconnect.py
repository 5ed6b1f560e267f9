"""Held seats and coming back (PROTOCOL.md "Reconnection, spectators and the turn
timer"), through the real protocol over StringTransport and a task.Clock: a lost
connection's seat is held, a bot stands in from the first moment the match waits for it,
the token gives it back with the full view and the missed events; bad and expired tokens
are refused; ``bot_takeover: never``; tables whose players are all away."""
from __future__ import annotations

import pytest
from twisted.internet import task

from server.lobby import Lobby
from shared import matchlog
from shared.config import merge
from shared.rules import events_for
from tests.test_protocol import DECK, Client

GRACE = 120


def make_lobby(tmp_path=None, grace=GRACE, drop_grace=5.0):
    clock = task.Clock()
    clock.advance(1000)
    config = merge({"server": {"name": "Test", "reconnect_grace_s": grace, "drop_grace_s": drop_grace}})
    return Lobby(config, clock, testing=True, data_dir=tmp_path)


def ann_and_two_bots(lobby, **options):
    """ann at seat 0 of a 3-seat Omerta table, bots at seats 1 and 2; seat 1 plays first."""
    ann = Client(lobby, "ann")
    tid = ann.request("create_table", game="omerta", seats=3,
                      options={"seed": 4, "bot_think_ms": 0, "rounds": 1, "first_player": 1, **options})["table"]["id"]
    joined = ann.request("join", table=tid)
    ann.request("add_bot", table=tid)
    ann.request("add_bot", table=tid)
    return ann, tid, joined["token"], lobby.tables[tid]


def seats_of(client):
    return client.of("table")[-1]["table"]["seats"]


def test_a_dropped_seat_is_held_played_by_a_bot_once_missed_and_given_back_with_its_token():
    lobby = make_lobby()
    ann, tid, token, table = ann_and_two_bots(lobby)
    assert ann.request("action", table=tid, action={"type": "peek", "slots": [0, 1]})["type"] == "ack"
    step = ann.of("update")[-1]["step"]
    ann.proto.connectionLost(None)
    held = table.seats[0]
    # held for ann; the match does not wait for her yet (the bots still look at their cards)
    assert held.away and held.token == token and held.conn is None and held.driver is None
    dropped = lobby.clock.seconds()
    assert table.summary()["seats"][0] == {"seat": 0, "name": "ann", "bot": False,
                                           "connected": False, "away": True,
                                           "stand_in_at": (dropped + 5.0) * 1000}
    dropped_at = len(table.log)
    for _ in range(400):
        lobby.clock.advance(0.05)
        if [e for e in table.log[dropped_at:] if e["seat"] == 0]:
            break
    else:
        pytest.fail("a bot should have played the held seat once the match waited for it")
    # not before the drop grace (server.drop_grace_s) was over: a blip lets no bot play her card
    assert lobby.clock.seconds() >= dropped + 5.0
    assert held.stand_in == "takeover" and table.summary()["seats"][0]["bot"]
    assert table.status == "playing"

    back = Client(lobby, "ann")
    reply = back.request("reconnect", token=token, step=step)
    assert reply["type"] == "joined" and reply == {**reply, "table": tid, "seat": 0, "token": token}
    started = back.of("match_started")[-1]
    assert started["resumed"] is True and started["seat"] == 0 and started["step"] == len(table.log)
    expected = [e for events in table.history[step:] for e in events_for(events, 0)]
    assert started["missed"] == expected and len(expected) > 5
    assert started["view"] == table.game.view(table.state, 0)  # her own cards, face up where known
    assert started["legal"] == [a.to_dict() for a in table.legal(0)]
    assert {s["seat"]: s["name"] for s in started["seats"]} == {0: "ann", 1: "Bot 2", 2: "Bot 3"}
    assert "window_shown" in started and "timer" in started
    assert held.driver is None and not held.away and held.conn is back.proto
    assert seats_of(back)[0] == {"seat": 0, "name": "ann", "bot": False, "connected": True, "away": False}
    assert back.proto.clocksync._playing
    # from now on the match waits for ann: nobody plays her seat any more
    back_at = len(table.log)
    for _ in range(200):
        lobby.clock.advance(0.05)
    assert not [e for e in table.log[back_at:] if e["seat"] == 0]
    assert 0 in table.game.awaiting(table.state)


def test_bad_tokens_are_refused_and_after_the_grace_a_bot_plays_until_the_token_comes_back(tmp_path):
    """Issue 13: the token no longer expires with the grace period; the seat is *left*
    (a bot plays it, shown as "<name> (bot)") and the token takes it back."""
    lobby = make_lobby(tmp_path)
    ann, tid, token, table = ann_and_two_bots(lobby)
    other = Client(lobby, "zed")
    assert other.request("reconnect", token="not-a-token")["code"] == "bad_token"
    assert other.request("reconnect", token=token, step=-1)["code"] == "bad_message"
    assert other.request("reconnect", token=token, step="3")["code"] == "bad_message"
    ann.proto.connectionLost(None)
    watcher = Client(lobby, "w")
    watcher.request("join", table=tid, spectate=True)
    lobby.clock.advance(GRACE - 1)
    assert table.seats[0].away
    lobby.clock.advance(1.5)
    seat = table.seats[0]
    assert not seat.away and seat.left and seat.token == token and seat.name == "ann"
    assert seat.driver is not None and seat.stand_in == "left"
    assert seats_of(watcher)[0] == {"seat": 0, "name": "ann (bot)", "bot": True,
                                    "connected": True, "away": False}
    log = matchlog.parse(table.matchfile.path.read_bytes())
    assert log.seats[-1] == {"kind": "seat", "seat": 0, "name": "ann", "bot": False,
                             "token": token, "left": True}
    step = len(table.log)
    while len(table.log) <= step and table.status == "playing":
        lobby.clock.advance(0.05)
    assert len(table.log) > step and table.status == "playing"  # the bot plays on
    back = Client(lobby, "ann")
    assert back.request("reconnect", token=token, step=0)["seat"] == 0
    assert not seat.left and seat.driver is None and seat.conn is back.proto
    assert seats_of(watcher)[0] == {"seat": 0, "name": "ann", "bot": False,
                                    "connected": True, "away": False}
    log = matchlog.parse(table.matchfile.path.read_bytes())
    assert log.seats[-1] == {"kind": "seat", "seat": 0, "name": "ann", "bot": False, "token": token}
    back.proto.connectionLost(None)
    while table.status == "playing":
        lobby.clock.advance(0.1)
    assert watcher.of("match_over")


def test_never_takeover_waits_for_the_player_and_passes_windows_for_her():
    lobby = make_lobby(drop_grace=0.0)
    ann = Client(lobby, "ann")
    tid = ann.request("create_table", game="omerta", seats=3, options={
        "deck": DECK, "first_player": 2, "seed": 1, "bot_takeover": "never"})["table"]["id"]
    bob, cy = Client(lobby, "bob"), Client(lobby, "cy")
    tokens = [c.request("join", table=tid)["token"] for c in (ann, bob, cy)]
    table = lobby.tables[tid]
    for seat, c in enumerate((ann, bob, cy)):
        c.request("action", table=tid, action={"type": "peek", "slots": [4 * seat, 4 * seat + 1]})
    cy.request("action", table=tid, action={"type": "draw_deck"})
    cy.request("action", table=tid, action={"type": "discard_drawn"})  # a 7: a snap window
    assert table.window is not None and 0 in table.window.pending
    ann.proto.connectionLost(None)
    assert table.log[-1] == {"seat": 0, "action": {"type": "snap_pass"}, "t": table.log[-1]["t"]}
    assert table.seats[0].driver is None and not seats_of(bob)[0]["bot"]
    bob.request("action", table=tid, action={"type": "snap_pass"})
    cy.request("action", table=tid, action={"type": "snap_pass"})
    assert table.window is None and table.game.awaiting(table.state) == {0}  # ann's turn
    lobby.clock.advance(GRACE - 5)
    assert table.game.awaiting(table.state) == {0} and table.seats[0].driver is None
    back = Client(lobby, "ann")
    assert back.request("reconnect", token=tokens[0], step=0)["seat"] == 0
    assert back.request("action", table=tid, action={"type": "draw_deck"})["type"] == "ack"


def test_a_table_whose_players_are_all_away_waits_for_them_then_stand_ins_finish_it(tmp_path):
    lobby = make_lobby(tmp_path)
    ann = Client(lobby, "ann")
    tid = ann.request("create_table", game="omerta", seats=3,
                      options={"seed": 6, "bot_takeover": "never"})["table"]["id"]
    clients = [ann, Client(lobby, "bob"), Client(lobby, "cy")]
    for c in clients:
        c.request("join", table=tid)
    table = lobby.tables[tid]
    for c in clients:
        c.proto.connectionLost(None)
    assert tid in lobby.tables and not table.closed  # the seats are held
    lobby.clock.advance(GRACE + 1)
    assert tid in lobby.tables and not table.closed  # nobody came back: stand-ins play on
    assert all(s.left and s.driver is not None for s in table.seats)
    while table.status == "playing":
        lobby.clock.advance(1.0)
    assert tid not in lobby.tables and table.closed  # over, and nobody is at it: gone
    assert not table.matchfile.path.name.endswith(".abandoned.jsonl")  # finished, not abandoned


def test_a_second_connection_with_the_token_takes_the_seat_over_and_the_first_is_told_and_closed():
    lobby = make_lobby()
    ann, tid, token, table = ann_and_two_bots(lobby)
    ann.read()
    laptop = Client(lobby, "ann on the laptop")
    assert laptop.request("reconnect", token=token)["seat"] == 0  # the old one is half open
    assert table.seats[0].conn is laptop.proto and laptop.of("match_started")[-1]["missed"] == []
    told = ann.read()
    assert [m["type"] for m in told] == ["taken_over"]  # its last line: nothing after it
    assert told[0]["table"] == tid and told[0]["seat"] == 0 and "another device" in told[0]["message"]
    assert ann.closed and ann.proto.close_reason == "taken_over"  # it sits nowhere else
    lobby.clock.advance(1.0)
    assert ann.proto._aborted  # a half-open peer that never takes its last line is cut off
    assert laptop.request("action", table=tid, action={"type": "peek", "slots": [0, 1]})["type"] == "ack"
    ann.proto.connectionLost(None)  # the old connection finally goes: nothing happens
    assert table.seats[0].conn is laptop.proto and not table.seats[0].away


def test_a_seat_taken_over_leaves_the_connection_open_for_its_other_tables():
    lobby = make_lobby()
    ann, tid, token, table = ann_and_two_bots(lobby)
    other = ann.request("create_table", game="omerta", seats=3)["table"]["id"]
    ann.request("join", table=other, spectate=True)
    ann.read()
    laptop = Client(lobby, "ann on the laptop")
    laptop.request("reconnect", token=token)
    assert [m["type"] for m in ann.read()] == ["taken_over"] and not ann.closed
    assert ann.request("action", table=tid, action={"type": "peek", "slots": [0, 1]})["code"] == "not_seated"
    # a join asked again with the seat's key moves it the same way, and says so
    key = "k" * 20
    seated = Client(lobby, "bob").request("join", table=other, seat=0, key=key)
    assert seated["seat"] == 0
    phone = Client(lobby, "bob's phone")
    assert phone.request("join", table=other, seat=0, key=key)["seat"] == 0
    assert lobby.tables[other].seats[0].conn is phone.proto


def test_a_token_before_the_match_moves_the_seat_and_starts_nothing():
    lobby = make_lobby()
    ann = Client(lobby, "ann")
    tid = ann.request("create_table", game="omerta", seats=3)["table"]["id"]
    token = ann.request("join", table=tid)["token"]
    laptop = Client(lobby, "ann")
    assert laptop.request("reconnect", token=token)["seat"] == 0
    assert not laptop.of("match_started") and lobby.tables[tid].seats[0].conn is laptop.proto


def test_coming_back_after_the_match_ended_shows_the_result():
    lobby = make_lobby()
    ann, tid, token, table = ann_and_two_bots(lobby)
    ann.proto.connectionLost(None)
    while table.status == "playing":
        lobby.clock.advance(0.1)
    assert tid in lobby.tables  # ann may still come back to see the end
    back = Client(lobby, "ann")
    assert back.request("reconnect", token=token, step=0)["seat"] == 0
    assert back.of("match_started")[-1]["resumed"]
    assert back.of("match_over")[-1]["result"] == table.result
    back.proto.connectionLost(None)
    assert tid not in lobby.tables


def test_a_spectator_switches_to_its_seat_when_it_reconnects():
    lobby = make_lobby()
    ann, tid, token, table = ann_and_two_bots(lobby)
    ann.proto.connectionLost(None)
    back = Client(lobby, "ann")
    back.request("join", table=tid, spectate=True)
    assert back.request("reconnect", token=token)["seat"] == 0
    assert back.proto not in table.spectators and table.summary()["spectators"] == 0


@pytest.mark.parametrize("mode", ["after_miss", "never"])
def test_the_claim_of_a_held_seat_is_not_lost(mode):
    """A seat whose claim waits in the arbiter when its connection drops: the claim
    stays and is decided."""
    lobby = make_lobby()
    ann = Client(lobby, "ann")
    tid = ann.request("create_table", game="omerta", seats=3, options={
        "deck": DECK, "first_player": 2, "seed": 1, "bot_takeover": mode})["table"]["id"]
    bob, cy = Client(lobby, "bob"), Client(lobby, "cy")
    for c in (ann, bob, cy):
        c.request("join", table=tid)
    table = lobby.tables[tid]
    for seat, c in enumerate((ann, bob, cy)):
        c.request("action", table=tid, action={"type": "peek", "slots": [4 * seat, 4 * seat + 1]})
    cy.request("action", table=tid, action={"type": "draw_deck"})
    cy.request("action", table=tid, action={"type": "discard_drawn"})
    cy.request("action", table=tid, action={"type": "snap_pass"})
    assert ann.request("action", table=tid, action={"type": "snap", "slot": 0})["type"] == "ack"
    assert table.arbiter.collecting
    ann.proto.connectionLost(None)
    lobby.clock.advance(0.5)
    assert any(e["type"] == "snap" and e["seat"] == 0 and e["success"]
               for e in bob.of("update")[-1]["events"])
