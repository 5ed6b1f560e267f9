"""Host controls (issue 13, docs/PROTOCOL.md "Host, emotes, rematch"), through the real
protocol over StringTransport and a task.Clock: who the host is, ``start`` with the
``start: "host"`` option, ``set_options``, ``move_to_spectators``, ``lock``,
``pass_host``, host-only bots, and the host role across a dropped connection and a
server restart."""
from __future__ import annotations

from twisted.internet import task

from server.lobby import Lobby
from shared.config import merge
from tests.test_protocol import Client

GRACE = 120


def make_lobby(tmp_path=None, testing=True):
    clock = task.Clock()
    clock.advance(1000)
    config = merge({"server": {"name": "Test", "reconnect_grace_s": GRACE}})
    return Lobby(config, clock, testing=testing, data_dir=tmp_path)


def host_table(lobby, seats=3, **options):
    """ann creates a table (``start: "host"``) and sits at seat 0."""
    ann = Client(lobby, "ann")
    tid = ann.request("create_table", game="omerta", seats=seats, options={
        "start": "host", "bot_think_ms": 0, "rounds": 1, **options})["table"]["id"]
    joined = ann.request("join", table=tid)
    return ann, tid, joined["token"]


def full_table(lobby):
    """ann's table of 3 (see :func:`host_table`) with bob at seat 1 and a bot at seat 2;
    returns ``(ann, bob, table id)``."""
    ann, tid, _ = host_table(lobby)
    bob = Client(lobby, "bob")
    bob.request("join", table=tid)
    ann.request("add_bot", table=tid)
    return ann, bob, tid


def last_table(client):
    return client.of("table")[-1]["table"]


def test_the_creator_is_the_host_and_everybody_sees_it(tmp_path):
    lobby = make_lobby()
    ann = Client(lobby, "ann")
    summary = ann.request("create_table", game="omerta", seats=3, options={"rounds": 2})["table"]
    # not seated yet: no seat, but the name of who hosts
    assert summary["host"] is None and summary["host_name"] == "ann"
    assert summary["locked"] is False and summary["match_no"] == 1 and summary["rematch"] == []
    assert summary["options"] == {"rounds": 2}
    ann.request("join", table=summary["id"], seat=1)
    bob = Client(lobby, "bob")
    bob.request("join", table=summary["id"])
    seen = last_table(bob)
    assert seen["host"] == 1 and seen["host_name"] == "ann"
    assert bob.request("list_tables")["tables"][0]["host"] == 1


def test_a_host_table_waits_for_its_hosts_start():
    lobby = make_lobby()
    ann, tid, _ = host_table(lobby)
    bob = Client(lobby, "bob")
    bob.request("join", table=tid)
    assert ann.request("start", table=tid)["code"] == "seats_free"
    reply = ann.request("start", table=tid)
    assert reply["code"] == "seats_free" and "1 seat is still free" in reply["message"]
    ann.request("add_bot", table=tid)
    assert lobby.tables[tid].status == "waiting"  # every seat filled, still waiting
    assert not ann.of("match_started")
    assert bob.request("start", table=tid)["code"] == "not_allowed"
    assert bob.request("start", table=999)["code"] == "unknown_table"
    reply = ann.request("start", table=tid)
    assert reply["type"] == "table" and reply["table"]["status"] == "playing"
    assert ann.of("match_started") and bob.of("match_started")
    assert ann.request("start", table=tid)["code"] == "already_started"


def test_only_the_host_adds_and_removes_bots():
    lobby = make_lobby()
    ann, tid, _ = host_table(lobby)
    bob = Client(lobby, "bob")
    bob.request("join", table=tid)
    assert bob.request("add_bot", table=tid)["code"] == "not_allowed"
    assert ann.request("add_bot", table=tid)["table"]["seats"][2]["bot"] is True
    assert bob.request("remove_bot", table=tid, seat=2)["code"] == "not_allowed"
    assert ann.request("remove_bot", table=tid, seat=2)["table"]["seats"][2]["bot"] is False


def test_set_options_merges_checks_and_hides_the_seed(tmp_path):
    lobby = make_lobby(testing=False)
    ann, tid, _ = host_table(lobby)
    bob = Client(lobby, "bob")
    bob.request("join", table=tid)
    assert bob.request("set_options", table=tid, options={"rounds": 2})["code"] == "not_allowed"
    assert ann.request("set_options", table=tid, options={"rounds": 99})["code"] == "bad_option"
    assert ann.request("set_options", table=tid, options={"deck": ["7"]})["code"] == "testing_only"
    reply = ann.request("set_options", table=tid, options={"rounds": 2, "turn_timer_s": 30})
    assert reply["type"] == "table"
    assert reply["table"]["options"] == {"start": "host", "bot_think_ms": 0, "rounds": 2,
                                         "turn_timer_s": 30}
    assert last_table(bob)["options"]["rounds"] == 2  # pushed to the others
    table = lobby.tables[tid]
    assert table.engine_config["rounds"] == 2 and table.turn_timer.seconds == 30
    # the seats, names and host are the same
    assert [s["name"] for s in reply["table"]["seats"]] == ["ann", "bob", None]
    assert table.host.is_host(ann.proto) and table.seat_of(bob.proto) == 1
    # a null puts an option back to its default
    reply = ann.request("set_options", table=tid, options={"turn_timer_s": None, "seed": 77})
    assert "turn_timer_s" not in reply["table"]["options"]
    assert reply["table"]["fixed_deal"] is True and reply["table"]["options"]["seed"] == 77
    assert lobby.tables[tid].seed == 77
    # back to "auto" with every seat filled: the match starts
    ann.request("add_bot", table=tid)
    reply = ann.request("set_options", table=tid, options={"start": "auto"})
    assert reply["table"]["status"] == "playing" and bob.of("match_started")
    assert ann.request("set_options", table=tid, options={"rounds": 3})["code"] == "already_started"


def test_the_seed_is_not_shown_unless_it_is_a_fixed_deal():
    lobby = make_lobby(testing=True)
    ann = Client(lobby, "ann")
    summary = ann.request("create_table", game="omerta", seats=3,
                          options={"seed": 5, "deck": ["7", "1"], "rounds": 1})["table"]
    assert summary["options"] == {"rounds": 1}  # no seed, no stacked deck


def test_move_to_spectators_before_the_match_frees_the_seat():
    lobby = make_lobby()
    ann, bob, tid = full_table(lobby)
    assert bob.request("move_to_spectators", table=tid, seat=0)["code"] == "not_allowed"
    assert ann.request("move_to_spectators", table=tid, seat=0)["code"] == "not_allowed"  # himself
    assert ann.request("move_to_spectators", table=tid, seat=2)["code"] == "no_such_seat"  # a bot
    assert ann.request("move_to_spectators", table=tid, seat=7)["code"] == "no_such_seat"
    reply = ann.request("move_to_spectators", table=tid, seat=1)
    assert reply["table"]["seats"][1] == {"seat": 1, "name": None, "bot": False,
                                          "connected": False, "away": False}
    assert reply["table"]["spectators"] == 1
    moved = bob.of("moved")
    assert moved == [{"v": 1, "type": "moved", "table": tid, "seat": None}]
    assert bob.proto in lobby.tables[tid].spectators
    assert bob.request("action", table=tid, action={"type": "draw_deck"})["code"] == "not_seated"


def test_move_to_spectators_during_the_match_gives_the_seat_to_a_bot_for_good():
    lobby = make_lobby()
    ann, tid, _ = host_table(lobby)
    bob = Client(lobby, "bob")
    bob_token = bob.request("join", table=tid)["token"]
    ann.request("add_bot", table=tid)
    ann.request("start", table=tid)
    table = lobby.tables[tid]
    bob.read()
    bob.inbox.clear()
    ann.request("move_to_spectators", table=tid, seat=1)
    bob.read()
    kinds = [m["type"] for m in bob.inbox if m["type"] in ("moved", "match_started")]
    assert kinds[:2] == ["moved", "match_started"]
    started = bob.of("match_started")[-1]
    assert started["seat"] is None and started["legal"] == []
    seat = table.seats[1]
    assert seat.bot and seat.token is None and seat.driver is not None and seat.name == "bob (bot)"
    assert not bob.proto._matches  # no longer playing: no fast pings for him
    other = Client(lobby, "bob")
    assert other.request("reconnect", token=bob_token)["code"] == "bad_token"
    for _ in range(100):
        lobby.clock.advance(0.05)
    assert any(e["seat"] == 1 for e in table.log)  # the bot plays the seat


def test_a_locked_table_refuses_new_players_not_spectators_nor_reconnects():
    lobby = make_lobby()
    ann, tid, _ = host_table(lobby, seats=4)
    bob = Client(lobby, "bob")
    bob_token = bob.request("join", table=tid)["token"]
    assert bob.request("lock", table=tid, locked=True)["code"] == "not_allowed"
    assert ann.request("lock", table=tid, locked=True)["table"]["locked"] is True
    assert last_table(bob)["locked"] is True
    cy = Client(lobby, "cy")
    assert cy.request("join", table=tid)["code"] == "table_locked"
    assert cy.request("join", table=tid, spectate=True)["type"] == "joined"
    ann.request("add_bot", table=tid)  # the host still manages bots
    ann.request("add_bot", table=tid)
    ann.request("start", table=tid)
    bob.proto.connectionLost(None)
    again = Client(lobby, "bob")
    assert again.request("reconnect", token=bob_token)["seat"] == 1
    assert ann.request("lock", table=tid, locked=False)["table"]["locked"] is False


def test_pass_host_to_a_connected_player():
    lobby = make_lobby()
    ann, bob, tid = full_table(lobby)
    assert bob.request("pass_host", table=tid, seat=1)["code"] == "not_allowed"
    assert ann.request("pass_host", table=tid, seat=2)["code"] == "no_such_seat"  # a bot
    assert ann.request("pass_host", table=tid, seat=5)["code"] == "no_such_seat"
    reply = ann.request("pass_host", table=tid, seat=1)
    assert reply["table"]["host"] == 1 and reply["table"]["host_name"] == "bob"
    assert ann.request("remove_bot", table=tid, seat=2)["code"] == "not_allowed"
    assert bob.request("remove_bot", table=tid, seat=2)["type"] == "table"


def test_the_host_role_survives_a_dropped_connection_during_the_match():
    lobby = make_lobby()
    ann, tid, token = host_table(lobby)
    bob = Client(lobby, "bob")
    bob.request("join", table=tid)
    ann.request("add_bot", table=tid)
    ann.request("start", table=tid)
    ann.proto.connectionLost(None)
    table = lobby.tables[tid]
    assert table.summary()["host"] == 0 and table.summary()["host_name"] == "ann"
    assert bob.request("lock", table=tid, locked=True)["code"] == "not_allowed"  # still ann's
    back = Client(lobby, "ann")
    back.request("reconnect", token=token)
    assert back.request("lock", table=tid, locked=True)["type"] == "table"


def test_a_host_who_goes_before_the_match_passes_the_role_on():
    lobby = make_lobby()
    ann, tid, _ = host_table(lobby, seats=4)
    bob, cy = Client(lobby, "bob"), Client(lobby, "cy")
    bob.request("join", table=tid)
    cy.request("join", table=tid)
    ann.request("leave", table=tid)  # still connected: still the host, without a seat
    assert last_table(bob)["host"] is None and last_table(bob)["host_name"] == "ann"
    assert ann.request("add_bot", table=tid)["type"] == "table"
    ann.proto.connectionLost(None)  # gone: the first seated player hosts
    assert last_table(bob)["host"] == 1 and last_table(bob)["host_name"] == "bob"
    assert bob.request("start", table=tid)["code"] == "seats_free"


def test_the_host_is_restored_after_a_server_restart(tmp_path):
    lobby = make_lobby(tmp_path)
    ann, tid, ann_token = host_table(lobby, seed=3, bot_takeover="never")
    bob = Client(lobby, "bob")
    bob_token = bob.request("join", table=tid)["token"]
    ann.request("add_bot", table=tid)
    ann.request("start", table=tid)
    ann.request("pass_host", table=tid, seat=1)  # during the match: a seat record says so
    path = lobby.tables[tid].matchfile.path

    again = make_lobby(tmp_path)
    restored = again.restore()
    assert [t.id for t in restored] == [tid]
    table = restored[0]
    assert table.summary()["host"] == 1 and table.summary()["options"]["start"] == "host"
    ann2, bob2 = Client(again, "ann"), Client(again, "bob")
    ann2.request("reconnect", token=ann_token)
    assert ann2.request("lock", table=tid, locked=True)["code"] == "not_allowed"
    bob2.request("reconnect", token=bob_token)
    assert bob2.request("lock", table=tid, locked=True)["table"]["locked"] is True
    assert path.exists()
