"""Tokens that stay valid for the whole match (issue 13, docs/PROTOCOL.md
"Reconnection"): a player who left on purpose or did not come back within the grace
period finds his seat played by a bot and takes it back with his token -- also from a
connection that watches the table, also after a server restart, also after the end.
The last test plays it over real TCP with host controls, an emote and a rematch."""
from __future__ import annotations

import pytest
import pytest_twisted
from twisted.internet import task

from client.net import ServerError, connect
from server.app import start_server
from tests.test_protocol import Client
from tests.test_protocol_schema import Inbox, Tap, check_lines, server_config, undocumented
from tests.test_rematch import make_lobby


def ann_bob_and_a_bot(lobby, **options):
    ann, bob = Client(lobby, "ann"), Client(lobby, "bob")
    tid = ann.request("create_table", game="omerta", seats=3, options={
        "bot_think_ms": 0, "rounds": 1, "seed": 8, **options})["table"]["id"]
    tokens = [ann.request("join", table=tid)["token"], bob.request("join", table=tid)["token"]]
    ann.request("add_bot", table=tid)
    assert lobby.tables[tid].status == "playing"
    return tid, ann, bob, tokens


def test_a_watching_connection_takes_its_seat_back_with_its_token():
    lobby = make_lobby()
    tid, ann, bob, tokens = ann_bob_and_a_bot(lobby)
    table = lobby.tables[tid]
    bob.request("leave", table=tid)
    assert table.seats[1].left and table.seats[1].driver is not None
    assert bob.request("join", table=tid, spectate=True)["seat"] is None
    assert bob.request("join", table=tid)["code"] == "already_seated"  # watching already
    reply = bob.request("reconnect", token=tokens[1], step=0)
    assert reply["type"] == "joined" and reply["seat"] == 1 and reply["token"] == tokens[1]
    assert bob.proto not in table.spectators and table.seat_of(bob.proto) == 1
    started = bob.of("match_started")[-1]
    assert started["seat"] == 1 and started["resumed"] is True
    assert not table.seats[1].left and table.seats[1].driver is None
    assert bob.proto._matches == 1  # playing again: fast pings


def test_a_player_who_left_gets_the_result_with_his_token_after_the_end():
    lobby = make_lobby()
    tid, ann, bob, tokens = ann_bob_and_a_bot(lobby)
    table = lobby.tables[tid]
    tv = Client(lobby, "tv")  # someone stays: a table nobody is at closes
    tv.request("join", table=tid, spectate=True)
    bob.request("leave", table=tid)
    ann.request("leave", table=tid)
    while table.status == "playing" and not table.closed:
        lobby.clock.advance(0.05)
    assert table.status == "over"
    back = Client(lobby, "bob")
    assert back.request("reconnect", token=tokens[1])["seat"] == 1
    over = back.of("match_over")[-1]
    assert over["result"] == table.result and isinstance(over["scoreboard"], list)


def test_left_and_held_seats_and_the_host_survive_a_server_restart(tmp_path):
    lobby = make_lobby(tmp_path)
    tid, ann, bob, tokens = ann_bob_and_a_bot(lobby, bot_takeover="never")
    bob.request("leave", table=tid)  # left: a bot plays for bob
    step = len(lobby.tables[tid].log)

    again = make_lobby(tmp_path)  # the server restarts on the same data directory
    (table,) = again.restore()
    assert table.id == tid and len(table.log) == step
    ann_seat, bob_seat = table.seats[0], table.seats[1]
    assert ann_seat.away and not ann_seat.left  # held for ann (grace from the restart)
    assert bob_seat.left and not bob_seat.away and bob_seat.driver is not None
    assert table.summary()["seats"][1]["name"] == "bob (bot)"
    assert table.summary()["host"] == 0 and table.summary()["host_name"] == "ann"
    ann2, bob2 = Client(again, "ann"), Client(again, "bob")
    assert bob2.request("reconnect", token=tokens[1])["seat"] == 1
    assert not bob_seat.left and bob_seat.driver is None
    assert bob2.request("lock", table=tid, locked=True)["code"] == "not_allowed"
    assert ann2.request("reconnect", token=tokens[0])["seat"] == 0
    assert ann2.request("lock", table=tid, locked=True)["type"] == "table"  # host again


def test_the_grace_period_ending_keeps_the_token(tmp_path):
    lobby = make_lobby(tmp_path)
    tid, ann, bob, tokens = ann_bob_and_a_bot(lobby)
    tv = Client(lobby, "tv")
    tv.request("join", table=tid, spectate=True)
    bob.proto.connectionLost(None)
    table = lobby.tables[tid]
    grace = float(lobby.config["server"]["reconnect_grace_s"])
    lobby.clock.advance(grace + 1)
    seat = table.seats[1]
    if table.status == "playing":
        assert seat.left and seat.driver is not None and not seat.away
    back = Client(lobby, "bob")
    assert back.request("reconnect", token=tokens[1])["seat"] == 1


@pytest_twisted.inlineCallbacks
def test_over_tcp_host_start_emote_leave_rejoin_rematch_and_scoreboard(tmp_path):
    """Real TCP through a recording tap: every line is valid against
    docs/protocol.schema.json and documented in PROTOCOL.md (the new requests and
    pushes included)."""
    from twisted.internet import reactor

    config = server_config(tmp_path)
    server = yield start_server(reactor, config, discovery=False)
    tap = Tap(reactor, server.port)
    listening = reactor.listenTCP(0, tap, interface="127.0.0.1")
    port = listening.getHost().port
    inbox, bob_in = Inbox(), Inbox()
    host = yield connect(reactor, "127.0.0.1", port, "Host", inbox)
    bob = yield connect(reactor, "127.0.0.1", port, "Bob", bob_in)
    try:
        created = yield host.request("create_table", game="omerta", seats=3, options={
            "start": "host", "seed": 4, "rounds": 2, "bot_think_ms": 0})
        tid = created["table"]["id"]
        assert created["table"]["options"]["start"] == "host"
        changed = yield host.request("set_options", table=tid, options={"rounds": 1})
        assert changed["table"]["options"]["rounds"] == 1
        token = (yield host.request("join", table=tid))["token"]
        yield bob.request("join", table=tid)
        passed = yield host.request("pass_host", table=tid, seat=1)
        assert passed["table"]["host"] == 1
        yield bob.request("pass_host", table=tid, seat=0)
        yield host.request("lock", table=tid, locked=True)
        moved = yield host.request("move_to_spectators", table=tid, seat=1)
        assert moved["table"]["seats"][1]["name"] is None
        yield bob_in.wait(lambda m: m["type"] == "moved")
        yield bob.request("leave", table=tid)  # he stops watching, and would sit again
        with pytest.raises(ServerError) as refused:
            yield bob.request("join", table=tid)
        assert refused.value.code == "table_locked"
        yield bob.request("join", table=tid, spectate=True)
        yield host.request("lock", table=tid, locked=False)
        yield host.request("add_bot", table=tid)
        summary = (yield host.request("add_bot", table=tid))["table"]
        assert summary["status"] == "waiting" and summary["host"] == 0
        host.send("emote", table=tid, emote="clap")  # no reply: the push is the success
        emote = yield inbox.wait(lambda m: m["type"] == "emote")
        assert (emote["seat"], emote["name"], emote["emote"]) == (0, "Host", "clap")
        yield bob_in.wait(lambda m: m["type"] == "emote")  # bob watches
        started = yield host.request("start", table=tid)
        assert started["table"]["status"] == "playing"
        yield inbox.wait(lambda m: m["type"] == "match_started")
        yield host.request("leave", table=tid)  # a bot plays for him
        yield host.request("join", table=tid, spectate=True)
        back = yield host.request("reconnect", token=token, step=0)  # from the watching link
        assert back["seat"] == 0
        yield inbox.wait(lambda m: m["type"] == "match_started" and m.get("resumed"))
        yield host.request("leave", table=tid)
        yield host.request("join", table=tid, spectate=True)
        over = yield inbox.wait(lambda m: m["type"] == "match_over", timeout=60)
        assert [(r["name"], r["played"]) for r in over["scoreboard"] if not r.get("bot")] == [("Host", 1)]
        yield host.request("reconnect", token=token)  # the seat back, after the end
        again = yield host.request("rematch", table=tid)
        assert again["table"]["status"] == "playing" and again["table"]["match_no"] == 2
        yield inbox.wait(lambda m: m["type"] == "match_started" and m["step"] == 0
                         and m["seat"] == 0 and not m.get("resumed"))
        tables = yield host.request("list_tables")
        assert tables["scoreboard"] == over["scoreboard"]
        yield task.deferLater(reactor, 0.05, lambda: None)
    finally:
        for c in (host, bob):
            c.transport.loseConnection()
        yield listening.stopListening()
        yield server.stop()
    seen = check_lines(tap.lines)
    assert seen.problems == [], seen.problems[:5]
    assert set(seen.client) >= {"start", "set_options", "move_to_spectators", "lock",
                                "pass_host", "emote", "rematch"}
    assert set(seen.server) >= {"emote", "moved", "tables", "match_over"}
    assert undocumented(seen) == []
    # a restarted server on the same data directory keeps the evening's scoreboard
    server = yield start_server(reactor, config, discovery=False)
    try:
        other = yield connect(reactor, "127.0.0.1", server.port, "Zed", Inbox())
        tables = yield other.request("list_tables")
        assert tables["scoreboard"] == over["scoreboard"]
        other.transport.loseConnection()
    finally:
        yield server.stop()
        yield task.deferLater(reactor, 0.05, lambda: None)
