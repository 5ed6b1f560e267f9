"""The server's protocol over StringTransport: framing, validation, errors, abuse,
ordering of replies and pushes, isolation between tables."""
from __future__ import annotations

import json
from typing import Any

import pytest
from twisted.internet import task
from twisted.internet.testing import StringTransport

from server import protocol as sp
from server.lobby import Lobby, LobbyFactory
from server.protocol import ServerProtocol
from shared.config import merge
from shared.protocol import ERROR_CODES, MAX_LINE

DECK = ["7", "1", "2", "3", "7", "4", "5", "6", "8", "9", "10", "1", "2", "3", "4", "5", "7"]


class Client:
    """A ServerProtocol on a StringTransport, with a little client logic."""

    def __init__(self, lobby: Lobby, name: str | None = "ann"):
        self.proto = ServerProtocol(lobby)
        self.transport = StringTransport()
        self.proto.makeConnection(self.transport)
        self.seq = 0
        self.inbox: list[dict[str, Any]] = []
        if name is not None:
            self.request("hello", name=name)

    def send_raw(self, data: bytes) -> None:
        self.proto.dataReceived(data)

    def send(self, msg: dict[str, Any]) -> None:
        self.send_raw(json.dumps(msg).encode() + b"\n")

    def read(self) -> list[dict[str, Any]]:
        lines = self.transport.value().split(b"\n")
        self.transport.clear()
        msgs = [json.loads(line) for line in lines if line]
        for m in msgs:
            if m["type"] == "ping":  # answer clock sync like a real client (tc = server time)
                self.send({"type": "pong", "id": m["id"], "tc": m["ts"]})
        msgs = [m for m in msgs if m["type"] not in ("ping", "clock")]
        self.inbox += msgs
        return msgs

    def request(self, msg_type: str, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        self.send({"type": msg_type, "seq": self.seq, **fields})
        msgs = self.read()
        replies = [m for m in msgs if m.get("re") == self.seq]
        assert len(replies) == 1, msgs
        return replies[0]

    def of(self, kind: str) -> list[dict[str, Any]]:
        self.read()
        return [m for m in self.inbox if m["type"] == kind]

    @property
    def closed(self) -> bool:
        return self.transport.disconnecting or self.transport.disconnected


def make_lobby() -> Lobby:
    """A testing lobby on a fake clock (at 1000 s)."""
    clock = task.Clock()
    clock.advance(1000)
    return Lobby(merge({"server": {"name": "Test"}}), clock, testing=True)


@pytest.fixture
def lobby() -> Lobby:
    return make_lobby()


def three_at_a_table(lobby, options=None):
    ann = Client(lobby, "ann")
    table = ann.request("create_table", game="omerta", seats=3, options=options or {})["table"]["id"]
    clients = [ann, Client(lobby, "bob"), Client(lobby, "cy")]
    for c in clients:
        assert c.request("join", table=table)["type"] == "joined"
    return table, clients


def test_hello_welcome_and_unique_names(lobby):
    a = Client(lobby, None)
    welcome = a.request("hello", name="ann")
    assert welcome["type"] == "welcome" and welcome["name"] == "ann" and welcome["version"] == 1
    assert {"name": "omerta", "min_seats": 3, "max_seats": 5} in welcome["games"]
    assert Client(lobby, None).request("hello", name="ann")["name"] == "ann (2)"
    assert a.request("hello", name="x")["code"] == "bad_message"


def test_clock_sync_starts_after_welcome(lobby):
    a = Client(lobby, None)
    a.send({"type": "hello", "seq": 1, "name": "ann"})
    lines = [json.loads(x) for x in a.transport.value().split(b"\n") if x]
    assert lines[0]["type"] == "welcome" and lines[1]["type"] == "ping"
    a.read()  # answers the ping
    lobby.clock.advance(0.05)
    a.read()
    assert a.proto.clocksync.offset_ms == pytest.approx(0.0, abs=1e-6)
    assert a.proto.clocksync.estimator.samples


@pytest.mark.parametrize("line, code", [
    (b"{not json", "bad_json"),
    (b"[1, 2]", "bad_json"),
    (b'{"type": 3}', "bad_json"),
    (b'{"v": 2, "type": "list_tables"}', "bad_version"),
    (b'{"type": "dance", "seq": 4}', "unknown_type"),
    (b'{"type": "create_table", "seq": 5, "game": "omerta", "seats": "three"}', "bad_message"),
    (b'{"type": "join", "seq": 6, "table": true}', "bad_message"),
    (b'{"type": "join", "seq": 7, "table": 99}', "unknown_table"),
    (b'{"type": "create_table", "seq": 8, "game": "chess", "seats": 2}', "unknown_game"),
    (b'{"type": "create_table", "seq": 9, "game": "omerta", "seats": 9}', "bad_seats"),
    (b'{"type": "list_tables", "seq": "x"}', "bad_message"),
])
def test_bad_messages_get_an_error_and_the_connection_stays(lobby, line, code):
    a = Client(lobby)
    a.send_raw(line + b"\n")
    errors = [m for m in a.read() if m["type"] == "error"]
    assert [e["code"] for e in errors] == [code]
    assert code in ERROR_CODES and errors[0]["message"]
    seq = json.loads(line).get("seq") if code not in ("bad_json",) else None
    if isinstance(seq, int):
        assert errors[0]["re"] == seq
    assert not a.closed
    assert a.request("list_tables")["type"] == "tables"


def test_oversized_line_is_refused_and_closes(lobby):
    a = Client(lobby)
    a.send_raw(b'{"type": "list_tables", "pad": "' + b"x" * MAX_LINE + b'"}\n')
    errors = [m for m in a.read() if m["type"] == "error"]
    assert errors[0]["code"] == "too_long"
    assert a.closed


def test_anything_before_hello_is_refused(lobby):
    a = Client(lobby, None)
    reply = a.request("action", table=1, action={"type": "draw_deck"})
    assert reply["code"] == "hello_first"
    assert a.request("list_tables")["code"] == "hello_first"
    assert a.request("hello", name="late")["type"] == "welcome"


def test_seat_comes_from_the_connection(lobby):
    table, (ann, bob, cy) = three_at_a_table(lobby, {"deck": DECK, "first_player": 2})
    watcher = Client(lobby, "w")
    assert watcher.request("join", table=table, spectate=True)["seat"] is None
    stranger = Client(lobby, "s")
    for c in (watcher, stranger):
        reply = c.request("action", table=table, action={"type": "peek", "slots": [0, 1]})
        assert reply["code"] == "not_seated"
    # bob may not peek at ann's cards: the seat is bob's own, whatever the message says
    reply = bob.request("action", table=table, action={"type": "peek", "slots": [0, 1]})
    assert reply["code"] == "illegal_action" and reply["message"] == "choose two different cards of your own"
    reply = bob.request("action", table=table, action={"type": "draw_deck"})
    assert reply["code"] == "illegal_action" and reply["message"] == "first look at two of your cards"
    reply = bob.request("action", table=table, action={"type": "peek", "slots": [4, 5], "seat": 0})
    assert reply["code"] == "bad_action"
    reply = bob.request("action", table=table, action={"type": "window_timeout", "window": 1})
    assert reply["code"] == "bad_action"


def test_replies_come_before_the_pushes_they_cause(lobby):
    ann = Client(lobby, "ann")
    table = ann.request("create_table", game="omerta", seats=3, options={"seed": 3})["table"]["id"]
    bob, cy = Client(lobby, "bob"), Client(lobby, "cy")
    ann.request("join", table=table)
    bob.request("join", table=table)
    cy.seq += 1
    cy.send({"type": "join", "seq": cy.seq, "table": table})
    kinds = [m["type"] for m in cy.read()]
    assert kinds[:3] == ["joined", "table", "match_started"], kinds
    start = cy.of("match_started")[-1]
    peek = start["legal"][0]
    cy.seq += 1
    cy.send({"type": "action", "seq": cy.seq, "table": table, "action": peek})
    msgs = cy.read()
    assert [m["type"] for m in msgs] == ["ack", "update"]
    assert msgs[0]["step"] == msgs[1]["step"] == 1
    # the others got the same update, each with its own view
    upd = bob.of("update")[-1]
    assert upd["view"]["seat"] == 1 and upd["step"] == 1
    assert bob.of("update")[-1]["events"] == [
        {k: v for k, v in e.items() if k != "cards"} for e in msgs[1]["events"]]


def test_illegal_action_error_has_the_engines_sentence_and_play_goes_on(lobby):
    table, (ann, bob, cy) = three_at_a_table(lobby, {"deck": DECK, "first_player": 2})
    for seat, c in enumerate((ann, bob, cy)):
        assert c.request("action", table=table, action={"type": "peek", "slots": [4 * seat, 4 * seat + 1]})["type"] == "ack"
    reply = ann.request("action", table=table, action={"type": "draw_deck"})
    assert reply["code"] == "illegal_action" and reply["message"] == "it is not your turn"
    assert cy.request("action", table=table, action={"type": "draw_deck"})["type"] == "ack"


def test_a_failing_table_does_not_disturb_the_server_or_other_tables(lobby, monkeypatch):
    t1, (a1, b1, c1) = three_at_a_table(lobby, {"seed": 1})
    t2, (a2, b2, c2) = three_at_a_table(lobby, {"seed": 2})
    table1 = lobby.tables[t1]

    def boom(*args, **kwargs):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(table1, "act", boom)
    peek = a1.of("match_started")[-1]["legal"][0]
    reply = a1.request("action", table=t1, action=peek)
    assert reply["code"] == "internal" and "goes on" in reply["message"]
    assert not a1.closed
    peek2 = a2.of("match_started")[-1]["legal"][0]
    assert a2.request("action", table=t2, action=peek2)["type"] == "ack"
    assert b2.of("update")[-1]["step"] == 1
    assert not b1.of("update")  # nothing leaked across tables
    monkeypatch.undo()
    assert a1.request("action", table=t1, action=peek)["type"] == "ack"


def test_error_flood_is_rate_limited(lobby):
    a = Client(lobby)
    for _ in range(sp.MAX_ERRORS + 1):
        a.send_raw(b"nonsense\n")
    codes = [m["code"] for m in a.read() if m["type"] == "error"]
    assert codes[-1] == "rate_limited" and a.closed


def test_message_flood_is_rate_limited(lobby):
    a = Client(lobby)
    a.send_raw(b'{"type": "list_tables"}\n' * (sp.MAX_MESSAGES_PER_S + 5))
    msgs = a.read()
    assert msgs[-1]["code"] == "rate_limited" and a.closed
    b = Client(lobby, "b")  # others are not affected
    assert b.request("list_tables")["type"] == "tables"


def test_client_that_stops_reading_is_dropped(lobby):
    a = Client(lobby)
    a.proto.pauseProducing()  # what the TCP transport does when its buffer is full
    lobby.clock.advance(sp.SLOW_CLIENT_S - 1)
    assert not a.transport.disconnecting
    a.proto.resumeProducing()
    lobby.clock.advance(5)
    assert not a.transport.disconnecting
    a.proto.pauseProducing()
    lobby.clock.advance(sp.SLOW_CLIENT_S + 0.1)
    assert a.transport.disconnecting
    b = Client(lobby, "b")
    b.proto.pauseProducing()
    big = "x" * 60_000
    for _ in range(sp.MAX_QUEUED_BYTES // 60_000 + 2):
        b.proto.push("update", pad=big)
    assert b.transport.disconnecting


def test_create_join_leave_and_bots(lobby):
    ann = Client(lobby, "ann")
    reply = ann.request("create_table", game="omerta", seats=4, name="Friday",
                        options={"seed": 5, "bot_think_ms": 0})
    table = reply["table"]
    assert table["name"] == "Friday" and table["status"] == "waiting" and len(table["seats"]) == 4
    tid = table["id"]
    assert ann.request("join", table=tid, seat=2)["seat"] == 2
    assert ann.request("join", table=tid)["code"] == "already_seated"
    assert ann.request("add_bot", table=tid, seat=2)["code"] == "seat_taken"
    assert ann.request("add_bot", table=tid, seat=7)["code"] == "no_such_seat"
    assert ann.request("add_bot", table=tid)["table"]["seats"][0]["bot"]
    assert ann.request("remove_bot", table=tid, seat=0)["table"]["seats"][0]["bot"] is False
    assert ann.request("remove_bot", table=tid, seat=1)["code"] == "no_such_seat"
    assert ann.of("table")[-1]["table"]["seats"][2]["name"] == "ann"
    listed = Client(lobby, "bob").request("list_tables")["tables"]
    assert [t["id"] for t in listed] == [tid]
    assert ann.request("leave", table=tid)["type"] == "left"
    assert tid not in lobby.tables  # nobody left at it
    assert ann.request("leave", table=tid)["code"] == "unknown_table"


def test_testing_options_need_testing_mode():
    clock = task.Clock()
    lobby = Lobby(merge(None), clock, testing=False)
    a = Client(lobby)
    reply = a.request("create_table", game="omerta", seats=3, options={"deck": ["7"]})
    assert reply["code"] == "testing_only"
    reply = a.request("create_table", game="omerta", seats=3, options={"speed": 2})
    assert reply["code"] == "bad_option"


def test_disconnect_holds_the_seat_and_frees_empty_tables(lobby):
    table, (ann, bob, cy) = three_at_a_table(lobby, {"seed": 8, "bot_think_ms": 0})
    ann.proto.connectionLost(None)
    seats = bob.of("table")[-1]["table"]["seats"]
    # held for ann; the match waits for her first look: a bot stands in after the drop grace
    assert seats[0] == {"seat": 0, "name": "ann", "bot": False, "connected": False, "away": True,
                        "stand_in_at": lobby.clock.seconds() * 1000 + 5000}
    lobby.clock.advance(5.0)
    seats = bob.of("table")[-1]["table"]["seats"]
    assert seats[0] == {"seat": 0, "name": "ann", "bot": True, "connected": False, "away": True}
    lone = Client(lobby, "lone")
    t2 = lone.request("create_table", game="omerta", seats=3)["table"]["id"]
    lone.proto.connectionLost(None)
    assert t2 not in lobby.tables and table in lobby.tables


def test_max_connections():
    clock = task.Clock()
    lobby = Lobby(merge({"server": {"max_connections": 1}}), clock)
    factory = LobbyFactory(lobby)
    first = factory.buildProtocol(None)
    first.makeConnection(StringTransport())
    refused = factory.buildProtocol(None)  # full: told so in one error line, then closed
    transport = StringTransport()
    refused.makeConnection(transport)
    (line,) = transport.value().splitlines()
    assert json.loads(line)["code"] == "server_full" and transport.disconnecting
    assert factory.open_connections == 1
    first.connectionLost(None)
    assert isinstance(factory.buildProtocol(None), ServerProtocol)


def test_pings_are_faster_while_a_match_runs(lobby):
    table, (ann, bob, cy) = three_at_a_table(lobby, {"seed": 8})
    other = ann.request("create_table", game="omerta", seats=3)["table"]["id"]
    ann.request("join", table=other)
    assert ann.proto.clocksync._playing and bob.proto.clocksync._playing
    ann.request("leave", table=other)  # a waiting table: still playing the first one
    assert ann.proto.clocksync._playing
    ann.request("leave", table=table)
    assert not ann.proto.clocksync._playing and bob.proto.clocksync._playing


def test_a_full_server_says_so_and_keeps_serving(lobby):
    lobby.config["server"]["max_tables"] = 2
    ann = Client(lobby)
    for _ in range(2):
        assert ann.request("create_table", game="omerta", seats=3)["type"] == "table"
    reply = ann.request("create_table", game="omerta", seats=3)
    assert reply["type"] == "error" and reply["code"] == "server_full"
    assert len(ann.request("list_tables")["tables"]) == 2
