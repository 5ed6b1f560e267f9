"""The evening's scoreboard (issue 13, docs/PROTOCOL.md "Host, emotes, rematch"): played
and won per player and game, in ``match_over`` and the ``tables`` reply, rebuilt from
the data directory's finished match logs of the last 12 h when the server starts again
(each match counted once)."""
from __future__ import annotations

import os
import time

from server.scoreboard import WINDOW_S, Scoreboard
from tests.test_rematch import finished_table, make_lobby


def test_rows_count_played_and_won_and_sort_by_wins_then_name():
    board = Scoreboard()
    assert board.add("a", "omerta", {0: "Zoe", 1: "Ann", 2: "Bob"}, {"winners": [0]})
    assert board.add("b", "omerta", {0: "Zoe", 1: "Ann"}, {"winners": [0, 1]})  # a shared win
    assert board.add("c", "famiglia", {0: "Ann", 1: "Bob"}, {"winners": [1]})
    assert not board.add("a", "omerta", {0: "Zoe"}, {"winners": [0]})  # counted once
    assert board.rows() == [
        {"name": "Zoe", "game": "omerta", "played": 2, "won": 2, "by_stand_in": 0},
        {"name": "Ann", "game": "omerta", "played": 2, "won": 1, "by_stand_in": 0},
        {"name": "Bob", "game": "famiglia", "played": 1, "won": 1, "by_stand_in": 0},
        {"name": "Ann", "game": "famiglia", "played": 1, "won": 0, "by_stand_in": 0},
        {"name": "Bob", "game": "omerta", "played": 1, "won": 0, "by_stand_in": 0},
    ]


def test_a_win_a_stand_in_finished_is_not_the_players_and_bots_have_a_row():
    board = Scoreboard()
    # Lena left; the stand-in that finished her seat won
    board.add("a", "famiglia", {0: "Lena", 1: "Marco"}, {"winners": [0]}, stand_ins=[0], bots=[2])
    board.add("b", "famiglia", {0: "Lena", 1: "Marco"}, {"winners": [2]}, bots=[2, 3])
    assert board.rows() == [
        {"name": "Bots", "game": "famiglia", "played": 2, "won": 1, "by_stand_in": 0, "bot": True},
        {"name": "Lena", "game": "famiglia", "played": 2, "won": 0, "by_stand_in": 1},
        {"name": "Marco", "game": "famiglia", "played": 2, "won": 0, "by_stand_in": 0},
    ]


def test_match_over_and_the_table_list_carry_the_scoreboard(tmp_path):
    lobby = make_lobby(tmp_path)
    tid, ann, bob, tv, _ = finished_table(lobby, seed=3)
    table = lobby.tables[tid]
    winners = set(table.result["winners"])
    rows = ann.request("list_tables")["scoreboard"]
    # ann and bob left at the start: stand-ins played and finished their seats
    assert table.finished_by_stand_in == [0, 1]
    expected = sorted(
        [{"name": n, "game": "omerta", "played": 1, "won": 0, "by_stand_in": int(s in winners)}
         for s, n in ((0, "ann"), (1, "bob"))]
        + [{"name": "Bots", "game": "omerta", "played": 1, "won": int(2 in winners), "by_stand_in": 0,
            "bot": True}], key=lambda r: (-r["won"], r["name"]))
    assert rows == expected
    assert tv.request("list_tables")["scoreboard"] == expected


def test_a_restarted_server_rebuilds_the_scoreboard_from_its_logs(tmp_path):
    lobby = make_lobby(tmp_path)
    tid, ann, bob, tv, _ = finished_table(lobby, seed=3)
    ann.request("rematch", table=tid)
    bob.request("rematch", table=tid)
    table = lobby.tables[tid]
    ann.request("leave", table=tid)
    bob.request("leave", table=tid)
    while table.status == "playing" and not table.closed:
        lobby.clock.advance(0.05)
    before = ann.request("list_tables")["scoreboard"]
    assert sum(r["played"] for r in before if not r.get("bot")) == 4  # two matches of two players
    # the second match's table is still open (no "closed" record): a restart restores it
    # as finished and must not count it twice
    again = make_lobby(tmp_path)
    assert [t.status for t in again.restore()] == ["over"]
    assert rows_of(again) == before  # stand-in wins too: the "over" record keeps them


def rows_of(lobby):
    from tests.test_protocol import Client

    return Client(lobby, "zed").request("list_tables")["scoreboard"]


def test_logs_older_than_twelve_hours_do_not_count(tmp_path):
    lobby = make_lobby(tmp_path)
    finished_table(lobby, seed=3)
    (log,) = list((tmp_path / "matches").glob("*.jsonl"))
    now = time.time()
    assert Scoreboard().load(tmp_path, now=now) == 1
    old = now - WINDOW_S - 60
    os.utime(log, (old, old))
    assert Scoreboard().load(tmp_path, now=now) == 0
    assert rows_of(make_lobby(tmp_path)) == []
