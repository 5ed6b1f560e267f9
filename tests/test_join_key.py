"""Asking again (docs/PROTOCOL.md "Asking again"): a client names its ``create_table`` and
``join`` with a key of its own, so a reply lost with the connection (a crash, a drop) is
recovered by sending the same request again: the same table, the same seat and token,
also from a server restarted on the match log. Only the key's owner gets the seat back.
Through the real protocol over StringTransport and a task.Clock."""
from __future__ import annotations

import pytest
from twisted.internet import task

from server.lobby import Lobby
from shared import matchlog
from shared.config import merge
from tests.test_protocol import Client

KEYS = ["k" * 15 + str(i) + "-abc_DEF" for i in range(4)]


def lobby_at(path=None, start=1000.0, **server) -> Lobby:
    clock = task.Clock()
    clock.advance(start)
    config = merge({"server": {"name": "Test", **server}})
    return Lobby(config, clock, testing=True, data_dir=path)


def full_table(lobby, seats=3, seed=5):
    """``seats`` players at an Omerta table, each joined with its own key; the last join
    starts the match. Returns the clients and the table id."""
    clients = [Client(lobby, f"p{i}") for i in range(seats)]
    tid = clients[0].request("create_table", game="omerta", seats=seats, key=KEYS[3],
                             options={"seed": seed, "bot_think_ms": 0})["table"]["id"]
    for c, key in zip(clients, KEYS):
        c.joined = c.request("join", table=tid, key=key)
    return clients, tid


def test_a_join_asked_again_with_its_key_gets_the_same_seat_and_token_and_the_match():
    lobby = lobby_at()
    clients, tid = full_table(lobby)
    table = lobby.tables[tid]
    assert table.status == "playing"
    last = clients[-1]
    seat, token = last.joined["seat"], last.joined["token"]
    last.proto.connectionLost(None)  # its joined (and the deal) never reached the client
    again = Client(lobby, "p2")
    reply = again.request("join", table=tid, key=KEYS[2])
    assert reply["type"] == "joined" and (reply["seat"], reply["token"]) == (seat, token)
    started = again.of("match_started")[-1]
    assert started["resumed"] and started["seat"] == seat and started["step"] == len(table.log)
    assert table.seats[seat].conn is again.proto and not table.seats[seat].away
    # the same request twice on one connection answers the same
    assert again.request("join", table=tid, key=KEYS[2])["token"] == token


def test_a_key_returns_only_its_own_seat_and_is_checked_like_any_value():
    lobby = lobby_at()
    clients, tid = full_table(lobby)
    thief = Client(lobby, "thief")
    reply = thief.request("join", table=tid, key="x" * 16)  # not a key of this table
    assert reply["type"] == "error" and reply["code"] == "already_started"
    for bad in ("short", "x" * 65, "with space in it!!", 17, ["k" * 16]):
        reply = thief.request("join", table=tid, key=bad)
        assert reply["type"] == "error" and reply["code"] == "bad_message", bad
    reply = thief.request("create_table", game="omerta", seats=3, key="é" * 20)
    assert reply["code"] == "bad_message" and "key" in reply["message"]
    # nobody ever sees a key: not in the table summaries, not in the match's messages
    for c in clients:
        assert not any(key in str(msg) for msg in c.inbox for key in KEYS)


def test_create_table_asked_again_with_its_key_answers_the_same_table():
    lobby = lobby_at()
    ann = Client(lobby, "ann")
    first = ann.request("create_table", game="famiglia", seats=2, key=KEYS[0])["table"]
    ann.proto.connectionLost(None)  # the creator dropped before he sat: the table closes
    ann = Client(lobby, "ann")
    second = ann.request("create_table", game="famiglia", seats=2, key=KEYS[0])["table"]
    assert second["id"] != first["id"]  # the first one was closed: a new one, as asked
    again = ann.request("create_table", game="famiglia", seats=2, key=KEYS[0])["table"]
    assert again["id"] == second["id"] and len(lobby.tables) == 1
    other = ann.request("create_table", game="famiglia", seats=2, key=KEYS[1])["table"]
    assert other["id"] != second["id"]


def test_the_key_is_in_the_match_log_and_a_restarted_server_honours_it(tmp_path):
    first = lobby_at(tmp_path)
    clients, tid = full_table(first)
    table = first.tables[tid]
    head = matchlog.parse(table.matchfile.path.read_bytes()).header
    assert [s.get("key") for s in head["seats"]] == KEYS[:3]
    tokens = [c.joined["token"] for c in clients]
    # the server dies as the last joined leaves: a new one restores the match at step 0
    second = lobby_at(tmp_path, start=5000.0)
    (after,) = second.restore()
    assert after.id == tid and len(after.log) == 0
    back = [Client(second, f"p{i}") for i in range(3)]
    for i in (0, 1):  # these two had their joined: their tokens
        assert back[i].request("reconnect", token=tokens[i], step=0)["seat"] == i
    assert not back[0].of("match_started")  # the table waits for the last player ...
    assert back[0].of("table_paused")[-1]["until"] == 5020_000.0
    reply = back[2].request("join", table=tid, key=KEYS[2])  # ... who asks again with his key
    assert (reply["seat"], reply["token"]) == (2, tokens[2])
    for c in back:  # every seat is back: the match goes on at once, nobody waited 20 s
        assert c.of("table_resumed") and c.of("match_started")[-1]["resumed"]
    assert second.clock.seconds() == 5000.0


def test_a_restored_table_waits_for_its_players_then_stand_ins_play_the_missing_seats(tmp_path):
    first = lobby_at(tmp_path)
    clients, tid = full_table(first)
    second = lobby_at(tmp_path, start=5000.0, restart_grace_s=8.0)
    (after,) = second.restore()
    ann = Client(second, "p0")
    ann.request("reconnect", token=clients[0].joined["token"], step=0)
    assert ann.request("action", table=tid, action={"type": "peek", "slots": [0, 1]})["code"] == "paused"
    second.clock.advance(7.9)
    assert not after.log and all(s.driver is None for s in after.seats)  # nobody played meanwhile
    assert after.summary()["seats"][1]["stand_in_at"] == 5008_000.0
    second.clock.advance(0.2)
    assert ann.of("match_started")[-1]["resumed"]
    for _ in range(20):
        second.clock.advance(0.05)
    assert after.seats[1].stand_in == "takeover" and after.seats[2].stand_in == "takeover"
    assert after.seats[0].driver is None  # ann is back: she plays herself
    assert {e["seat"] for e in after.log} == {1, 2}


def test_a_seat_whose_player_is_back_within_the_drop_grace_was_never_played_by_a_bot():
    lobby = lobby_at(drop_grace_s=5.0)
    clients, tid = full_table(lobby)
    table = lobby.tables[tid]
    ann = clients[0]
    ann.proto.connectionLost(None)  # a Wi-Fi blip while the match waits for her first look
    lobby.clock.advance(4.9)
    assert table.seats[0].driver is None and not any(e["seat"] == 0 for e in table.log)
    back = Client(lobby, "p0")
    back.request("reconnect", token=ann.joined["token"], step=0)
    lobby.clock.advance(30)
    assert table.seats[0].driver is None and table.seats[0].stand_in is None
    assert not any(e["seat"] == 0 for e in table.log)
    assert "stand_in_at" not in table.summary()["seats"][0]


def test_a_table_that_cannot_create_its_log_pauses_and_starts_once_it_can(tmp_path, monkeypatch):
    import errno

    from server import persist

    real = persist.MatchFile.create
    full = [True]

    def create(*args, **kwargs):
        if full[0]:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(persist.MatchFile, "create", create)
    lobby = lobby_at(tmp_path)
    clients, tid = full_table(lobby)
    table = lobby.tables[tid]
    for c in clients:
        paused = c.of("table_paused")
        assert paused and "no space left" in paused[-1]["message"]
        assert not c.of("match_started")  # nothing of an unlogged match reaches anybody
    assert table.paused and table.matchfile is None
    reply = clients[0].request("action", table=tid, action={"type": "peek", "slots": [0, 1]})
    assert reply["code"] == "paused"
    lobby.clock.advance(2.0)
    assert not clients[0].of("match_started")
    full[0] = False
    lobby.clock.advance(8.0)
    assert table.matchfile is not None and table.matchfile.path.exists()
    for c in clients:
        assert c.of("table_resumed") and c.of("match_started")
    assert clients[0].request("action", table=tid, action={"type": "peek", "slots": [0, 1]})["type"] == "ack"
    assert matchlog.parse(table.matchfile.path.read_bytes()).actions


def test_a_match_log_appears_whole_or_not_at_all(tmp_path, monkeypatch):
    import os

    from server import persist

    header = matchlog.header("omerta", {"seats": 3}, 1, 1, "t", [])
    mf = persist.MatchFile.create(tmp_path, 1, 1, header, sync=False)
    assert mf.path.name == "table-1-1.jsonl" and mf.path.read_bytes() == matchlog.line_bytes(header)
    assert sorted(p.name for p in (tmp_path / "matches").iterdir()) == ["table-1-1.jsonl"]

    def no_link(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(persist.os, "link", no_link)
    with pytest.raises(OSError):
        persist.MatchFile.create(tmp_path, 2, 1, header)
    monkeypatch.setattr(persist.os, "link", os.link)
    assert sorted(p.name for p in (tmp_path / "matches").iterdir()) == ["table-1-1.jsonl"]


def test_a_spectator_who_comes_while_the_table_is_paused_is_told_at_once(tmp_path, monkeypatch):
    first = lobby_at(tmp_path)
    clients, tid = full_table(first)
    second = lobby_at(tmp_path, start=5000.0)
    second.restore()  # waits for its players: paused until 5020 s
    watcher = Client(second, "watcher")
    assert watcher.request("join", table=tid, spectate=True)["type"] == "joined"
    started, paused = watcher.of("match_started"), watcher.of("table_paused")
    assert started and paused and paused[-1]["until"] == 5020_000.0
    assert "restarted" in paused[-1]["message"]
    watcher.proto.connectionLost(None)  # and again from a new connection
    again = Client(second, "watcher")
    again.request("join", table=tid, spectate=True)
    assert again.of("table_paused")[-1]["until"] == 5020_000.0
    # a table paused by its disk says why, without an end
    from server import persist

    def create(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(persist.MatchFile, "create", create)
    third = lobby_at(tmp_path / "other")
    _, tid3 = full_table(third)
    late = Client(third, "late")
    late.request("join", table=tid3, spectate=True)
    (told,) = late.of("table_paused")
    assert "no space left" in told["message"] and "until" not in told
    quiet = Client(second, "quiet")  # a table that is not paused says nothing
    second.clock.advance(21)
    quiet.request("join", table=tid, spectate=True)
    assert not quiet.of("table_paused")
