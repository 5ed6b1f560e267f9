"""Play again (issue 13, docs/PROTOCOL.md "Host, emotes, rematch"): once every connected
player of a finished match asked, a new match starts at the same table with the same
seats, names, tokens, bots, spectators and host, a new seed (the same for a fixed deal),
``match_no`` + 1 and a new match log; players who are gone are played by a bot and
keep their token."""
from __future__ import annotations

import pytest_twisted
from twisted.internet import task

from server.app import start_server
from server.lobby import Lobby
from shared import matchlog
from shared.config import merge
from tests.test_protocol import Client
from tests.test_protocol_schema import bot_config, server_config


def make_lobby(tmp_path=None, testing=True):
    clock = task.Clock()
    clock.advance(1000)
    return Lobby(merge({"server": {"name": "Test"}}), clock, testing=testing, data_dir=tmp_path)


def finished_table(lobby, **options):
    """ann and bob (seats 0, 1) and a bot at a 3-seat Omerta table, tv watching. ann and
    bob leave at the start (bots play for them), the match is played to its end, and
    they come back with their tokens. Returns ``(tid, ann, bob, tv, tokens)``."""
    ann, bob, tv = Client(lobby, "ann"), Client(lobby, "bob"), Client(lobby, "tv")
    tid = ann.request("create_table", game="omerta", seats=3, options={
        "bot_think_ms": 0, "rounds": 1, **options})["table"]["id"]
    tv.request("join", table=tid, spectate=True)
    tokens = [ann.request("join", table=tid)["token"], bob.request("join", table=tid)["token"]]
    ann.request("add_bot", table=tid)
    assert lobby.tables[tid].status == "playing"
    ann.request("leave", table=tid)
    bob.request("leave", table=tid)
    table = lobby.tables[tid]
    while table.status == "playing" and not table.closed:
        lobby.clock.advance(0.05)
    assert tv.of("match_over")
    for client, token in zip((ann, bob), tokens):
        assert client.request("reconnect", token=token)["type"] == "joined"
        assert client.of("match_over")
    for c in (ann, bob, tv):
        c.read()
        c.inbox.clear()
    return tid, ann, bob, tv, tokens


def test_play_again_keeps_the_seats_names_tokens_bots_and_spectators(tmp_path):
    lobby = make_lobby(tmp_path)
    tid, ann, bob, tv, tokens = finished_table(lobby, seed=9)
    old = lobby.tables[tid]
    assert tv.request("rematch", table=tid)["code"] == "not_seated"
    reply = ann.request("rematch", table=tid)
    assert reply["type"] == "table" and reply["table"]["status"] == "over"
    assert reply["table"]["rematch"] == [0]
    assert bob.of("table")[-1]["table"]["rematch"] == [0]
    assert lobby.tables[tid] is old and not ann.of("match_started")
    reply = bob.request("rematch", table=tid)
    new = lobby.tables[tid]
    assert new is not old and old.closed and not new.closed
    summary = reply["table"]
    assert summary["status"] == "playing" and summary["match_no"] == 2 and summary["rematch"] == []
    assert summary["host"] == 0 and summary["spectators"] == 1
    assert [(s["name"], s["bot"]) for s in summary["seats"]] == [("ann", False), ("bob", False),
                                                                  ("Bot 3", True)]
    assert [new.seats[0].token, new.seats[1].token] == tokens
    assert not ann.of("match_started")  # the deal waits until its log's header is on disk
    lobby.clock.advance(0)  # the group commit
    for client, seat in ((ann, 0), (bob, 1), (tv, None)):
        started = client.of("match_started")
        assert len(started) == 1 and started[0]["seat"] == seat and started[0]["step"] == 0
        assert "resumed" not in started[0]
    assert new.seed != old.seed  # a new deal (random; same seed only for a fixed deal)
    # a new match log; the old one is closed and never restored
    logs = sorted((tmp_path / "matches").glob("*.jsonl"))
    assert len(logs) == 2
    first = matchlog.parse(old.matchfile.path.read_bytes())
    second = matchlog.parse(new.matchfile.path.read_bytes())
    assert first.closed and first.result is not None
    assert second.header["match_no"] == 2 and second.header["host"] == 0
    assert second.header["seed"] == new.seed and not second.finished
    # the new match is played and counted
    assert ann.request("action", table=tid, action={"type": "peek", "slots": [0, 1]})["type"] == "ack"
    ann.request("leave", table=tid)
    bob.request("leave", table=tid)
    while new.status == "playing" and not new.closed:
        lobby.clock.advance(0.05)
    over = tv.of("match_over")[-1]
    assert {(r["name"], r["played"]) for r in over["scoreboard"]} == {("ann", 2), ("bob", 2), ("Bots", 2)}


def test_rematch_needs_a_finished_match():
    lobby = make_lobby()
    ann = Client(lobby, "ann")
    tid = ann.request("create_table", game="omerta", seats=3)["table"]["id"]
    ann.request("join", table=tid)
    assert ann.request("rematch", table=tid)["code"] == "not_over"
    ann.request("add_bot", table=tid)
    ann.request("add_bot", table=tid)
    assert ann.request("rematch", table=tid)["code"] == "not_over"


def test_a_fixed_deal_is_dealt_again_with_the_same_seed():
    lobby = make_lobby(testing=False)
    tid, ann, bob, tv, tokens = finished_table(lobby, seed=12345)
    assert lobby.tables[tid].summary()["fixed_deal"] is True
    ann.request("rematch", table=tid)
    bob.request("rematch", table=tid)
    new = lobby.tables[tid]
    assert new.status == "playing" and new.seed == 12345 and new.summary()["fixed_deal"] is True


def test_a_player_gone_before_the_rematch_is_played_by_a_bot_and_keeps_the_token():
    lobby = make_lobby()
    tid, ann, bob, tv, tokens = finished_table(lobby)
    bob.proto.connectionLost(None)  # gone at the results: the others do not wait for him
    ann.request("rematch", table=tid)
    new = lobby.tables[tid]
    assert new.status == "playing" and new.match_no == 2
    seat = new.seats[1]
    assert seat.left and seat.driver is not None and seat.token == tokens[1]
    assert new.summary()["seats"][1] == {"seat": 1, "name": "bob (bot)", "bot": True,
                                         "connected": True, "away": False}
    back = Client(lobby, "bob")
    assert back.request("reconnect", token=tokens[1])["seat"] == 1
    started = back.of("match_started")[-1]
    assert started["resumed"] is True and started["seat"] == 1
    assert not seat.left and seat.driver is None


def test_the_last_connected_player_leaving_without_asking_starts_the_rematch():
    lobby = make_lobby()
    tid, ann, bob, tv, tokens = finished_table(lobby)
    ann.request("rematch", table=tid)
    old = lobby.tables[tid]
    bob.request("leave", table=tid)  # only ann is left, and she asked
    assert lobby.tables[tid] is not old and lobby.tables[tid].status == "playing"
    assert ann.of("match_started")


@pytest_twisted.inlineCallbacks
def test_mafia_bot_plays_several_matches_at_one_table_over_tcp(tmp_path):
    """``mafia-bot --matches 2``: after the first match every TCP bot asks to play again;
    the second match runs at the same table (match_no 2) and both count on the
    scoreboard."""
    from twisted.internet import reactor

    from botclient import main as botmain

    server = yield start_server(reactor, server_config(tmp_path), discovery=False)
    results: list[dict] = []
    try:
        args = botmain.parse_args(["--connect", f"127.0.0.1:{server.port}", "--create", "omerta",
                                   "--players", "3", "--server-bots", "1", "--rounds", "1",
                                   "--matches", "2", "--timeout", "90",
                                   "--config", str(bot_config(tmp_path))])
        last = yield botmain.play(reactor, args, on_result=results.append)
        assert len(results) == 2 and last is results[-1]
        assert all(r["game"] == "omerta" for r in results)
        lobby = server.lobby
        rows = lobby.scoreboard.rows()
        assert sorted((r["name"], r["played"]) for r in rows) == [("Bot 1", 2), ("Bot 2", 2), ("Bots", 2)]
        logs = sorted((tmp_path / "data" / "matches").glob("*.jsonl"))
        headers = [matchlog.parse(p.read_bytes()).header for p in logs]
        assert sorted(h["match_no"] for h in headers) == [1, 2]
        assert len({h["table"] for h in headers}) == 1
    finally:
        yield server.stop()
        yield task.deferLater(reactor, 0.05, lambda: None)
