"""Waiting tables survive a killed server (docs/MATCHLOG.md "Waiting tables"): the table
and its seats, with the players' tokens and keys, are on disk before anybody hears of a
change, and a restarted server gives each seat back to its player (a join asked again
with its key, or reconnect with its token); the match then starts with its seed. Through
the real protocol over StringTransport and a task.Clock."""
from __future__ import annotations

import json

from server import waiting_tables
from tests.test_join_key import KEYS, lobby_at
from tests.test_protocol import Client


def half_full(lobby, seats=3, joined=2, seed=5, **options):
    """An Omerta table whose first ``joined`` seats are taken, each with its key."""
    clients = [Client(lobby, f"p{i}") for i in range(seats)]
    tid = clients[0].request("create_table", game="omerta", seats=seats, key=KEYS[3],
                             options={"seed": seed, "bot_think_ms": 0, **options})["table"]["id"]
    for c, key in zip(clients[:joined], KEYS):
        c.joined = c.request("join", table=tid, key=key)
    return clients, tid


def test_a_waiting_table_is_on_disk_at_every_change_and_gone_once_its_match_log_exists(tmp_path):
    lobby = lobby_at(tmp_path)
    clients, tid = half_full(lobby, joined=0)
    path = waiting_tables.path_of(tmp_path, tid)
    assert json.loads(path.read_text())["seats"] == []  # there before the create's reply
    clients[0].request("join", table=tid, key=KEYS[0])
    record = json.loads(path.read_text())
    assert [(s["seat"], s["key"]) for s in record["seats"]] == [(0, KEYS[0])]
    assert record["settings"]["seed"] == 5 and record["game"] == "omerta"
    clients[1].request("join", table=tid, key=KEYS[1])
    clients[0].request("leave", table=tid)
    assert [s["seat"] for s in json.loads(path.read_text())["seats"]] == [1]
    for c, key in zip((clients[0], clients[2]), (KEYS[0], KEYS[2])):
        c.request("join", table=tid, key=key)
    assert lobby.tables[tid].status == "playing" and not path.exists()
    assert not [p for p in path.parent.iterdir()]  # no temporary file left behind


def test_a_killed_server_gives_each_waiting_seat_back_and_the_match_starts_with_its_seed(tmp_path):
    first = lobby_at(tmp_path)
    clients, tid = half_full(first)
    tokens = [c.joined["token"] for c in clients[:2]]
    # the server dies before the last join: a new one restores the waiting table
    second = lobby_at(tmp_path, start=5000.0)
    (table,) = second.restore()
    assert table.id == tid and table.status == "waiting" and table.seed == 5
    assert [s.away for s in table.seats] == [True, True, False]
    late = Client(second, "p2")  # the last player's join came first: the match waits
    assert late.request("join", table=tid, key=KEYS[2])["seat"] == 2
    assert table.status == "waiting"
    thief = Client(second, "x")
    assert thief.request("join", table=tid, seat=0)["code"] == "seat_taken"
    ann = Client(second, "p0")
    assert ann.request("join", table=tid, key=KEYS[0])["token"] == tokens[0]  # asked again
    bob = Client(second, "p1")
    assert bob.request("reconnect", token=tokens[1], step=0)["seat"] == 1
    assert table.status == "playing"
    second.clock.advance(0)  # the log's group commit, then the deal
    started = [c.of("match_started")[-1] for c in (ann, bob, late)]
    assert [m["seat"] for m in started] == [0, 1, 2]
    new = Client(second, "new")  # new tables are numbered above the restored one
    assert new.request("create_table", game="omerta", seats=3)["table"]["id"] == tid + 1


def test_create_table_asked_again_after_a_restart_answers_the_restored_table(tmp_path):
    first = lobby_at(tmp_path)
    _, tid = half_full(first, joined=0)
    second = lobby_at(tmp_path, start=5000.0)
    second.restore()
    ann = Client(second, "p0")
    reply = ann.request("create_table", game="omerta", seats=3, key=KEYS[3])
    assert reply["table"]["id"] == tid and len(second.tables) == 1
    assert ann.request("start", table=tid)["code"] == "seats_free"  # she is its host again


def test_a_held_seat_nobody_comes_back_to_is_freed_and_an_empty_table_closes(tmp_path):
    first = lobby_at(tmp_path)
    half_full(first)
    second = lobby_at(tmp_path, start=5000.0, restart_grace_s=8.0)
    (table,) = second.restore()
    ann = Client(second, "p0")
    ann.request("reconnect", token=table.seats[0].token, step=0)
    second.clock.advance(8.0)
    assert not table.closed and table.seats[1].free and table.seats[1].token is None
    record = json.loads(waiting_tables.path_of(tmp_path, table.id).read_text())
    assert [s["seat"] for s in record["seats"]] == [0]
    third = lobby_at(tmp_path, start=9000.0, restart_grace_s=8.0)
    (again,) = third.restore()
    third.clock.advance(8.0)  # nobody came back at all
    assert again.closed and not third.tables
    assert not waiting_tables.path_of(tmp_path, table.id).exists()


def test_options_host_lock_and_bots_come_back_and_a_new_option_keeps_the_record(tmp_path):
    first = lobby_at(tmp_path)
    clients, tid = half_full(first, seats=4, joined=1, start="host")
    host = clients[0]
    assert host.request("add_bot", table=tid)["type"] == "table"
    assert host.request("lock", table=tid, locked=True)["type"] == "table"
    assert host.request("set_options", table=tid, options={"rounds": 2})["type"] == "table"
    assert waiting_tables.path_of(tmp_path, tid).exists()  # the new options' table keeps it
    second = lobby_at(tmp_path, start=5000.0)
    (table,) = second.restore()
    assert table.seats[1].bot and table.host.locked and table.host.options["rounds"] == 2
    assert table.engine_config.get("rounds") == 2
    back = Client(second, "p0")
    back.request("reconnect", token=host.joined["token"], step=0)
    assert table.host.is_host(back.proto)


def test_unusable_and_stale_records_are_skipped(tmp_path):
    folder = tmp_path / waiting_tables.WAITING
    folder.mkdir()
    (folder / "table-3.json").write_text("{not json")
    (folder / "table-4.json").write_text(json.dumps({"kind": "waiting", "table": 5}))
    lobby = lobby_at(tmp_path)
    assert lobby.restore() == []
    assert Client(lobby, "a").request("create_table", game="omerta", seats=3)["type"] == "table"
