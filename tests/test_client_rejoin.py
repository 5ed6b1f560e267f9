"""Getting your seat back (issue 13): the player's ``seats.json`` (client.seats_store),
the menu's "Rejoin your seat at <table>" after a client restart (real embedded server,
real TCP, the first client's connection cut as by SIGKILL), forgetting a seat whose match
is over, and the confirmation before quitting a running match. The whole-process
acceptance (SIGKILL, host restart, under Xvfb) is ``tools/rejoin_check.py``."""
from __future__ import annotations

import json
import os

import pygame
import pytest
import pytest_twisted

from client import seats_store
from client.app import App, Link
from client.scenes.menu import MenuScene
from client.seats_store import SeatStore
from client.settings import Settings
from tests.test_client_app import _config, click, key, menu_app, until


class FakeClock:
    def __init__(self, t=1_000_000.0):
        self.t = t

    def __call__(self):
        return self.t


# -- the file -------------------------------------------------------------------------

def test_store_keeps_replaces_and_forgets(tmp_path):
    clock = FakeClock()
    store = SeatStore(str(tmp_path / "d" / "seats.json"), clock)
    assert store.entries() == []
    store.remember("10.0.0.2:7777", 3, 1, "tok-a", table_name="Friday", game="omerta")
    clock.t += 1
    store.remember("10.0.0.2:7777", 4, 0, "tok-b", table_name="Other", game="famiglia", step=12)
    clock.t += 1
    store.remember("10.0.0.2:7777", 3, 2, "tok-c", table_name="Friday", game="omerta")  # replaces table 3
    entries = store.entries()
    assert [(e["table"], e["seat"], e["token"]) for e in entries] == [(3, 2, "tok-c"), (4, 0, "tok-b")]
    raw = json.loads((tmp_path / "d" / "seats.json").read_text())
    assert set(raw[0]) == {"server", "table", "table_name", "game", "seat", "token", "step", "saved_at"}
    store.forget("10.0.0.2:7777", 3)
    assert [e["table"] for e in store.entries()] == [4]
    assert [p.name for p in (tmp_path / "d").iterdir()] == ["seats.json"]  # no temporary file left


def test_store_prunes_stale_and_malformed_entries(tmp_path):
    clock = FakeClock()
    path = tmp_path / "seats.json"
    store = SeatStore(str(path), clock)
    store.remember("h:1", 1, 0, "old")
    clock.t += seats_store.MAX_AGE_S + 1
    store.remember("h:1", 2, 0, "new")
    assert [e["token"] for e in store.entries()] == ["new"]
    assert [e["token"] for e in json.loads(path.read_text())] == ["new"]  # pruned on write too
    raw = json.loads(path.read_text())
    raw += [{"server": "h:1", "table": "7"}, 5, {**raw[0], "seat": True, "table": 9}]
    path.write_text(json.dumps(raw))
    assert [e["token"] for e in store.entries()] == ["new"]
    path.write_text("{not json")
    assert store.entries() == []


def test_store_write_is_atomic(tmp_path, monkeypatch):
    store = SeatStore(str(tmp_path / "seats.json"))
    store.remember("h:1", 1, 0, "kept")

    def broken(*a, **kw):
        raise OSError("disk full")

    monkeypatch.setattr(seats_store.json, "dump", broken)
    store.remember("h:1", 2, 0, "lost")  # fails quietly: the previous list stays whole
    monkeypatch.undo()
    assert [e["token"] for e in store.entries()] == ["kept"]
    assert sorted(os.listdir(tmp_path)) == ["seats.json"]


def test_step_writes_are_throttled(tmp_path):
    clock = FakeClock()
    store = SeatStore(str(tmp_path / "seats.json"), clock)
    store.note_step("h:1", 1, 5)  # not a kept seat: nothing written
    assert store.entries() == []
    store.remember("h:1", 1, 0, "t")
    store.note_step("h:1", 1, 5)
    assert store.get("h:1", 1)["step"] is None  # too soon after the last write
    clock.t += seats_store.STEP_WRITE_S + 0.1
    store.note_step("h:1", 1, 9)
    assert store.get("h:1", 1)["step"] == 9
    store.note_step("h:1", 1, 11, force=True)
    assert store.get("h:1", 1)["step"] == 11


def test_match_over_forgets_the_kept_seat(tmp_path):
    from twisted.internet import reactor

    app = App(_config(), Settings(name="A", language="en"), reactor, settings_path=str(tmp_path / "s.json"))
    app.seat_store = SeatStore(str(tmp_path / "seats.json"))
    link = Link(app, "A", ("127.0.0.1", 7777))
    link.tokens[5] = "tok"
    link.keep_seat(5, 2)
    assert app.seat_store.get("127.0.0.1:7777", 5)["seat"] == 2
    app.connections.route(link, {"type": "match_over", "table": 5})
    assert app.seat_store.get("127.0.0.1:7777", 5) is None


# -- a client restarted mid-match -------------------------------------------------------

@pytest_twisted.inlineCallbacks
def test_restarted_client_rejoins_from_the_menu(tmp_path):
    from client.games.omerta.table import OmertaTableScene

    store_path = str(tmp_path / "seats.json")
    with menu_app(tmp_path) as first:
        first.seat_store = SeatStore(store_path)
        link = yield first.connections.start()
        first.display.render(1 / 60, flip=False)
        click(first.top.b_quick.rect.center)
        yield until(first, lambda: isinstance(first.top, OmertaTableScene))
        table_id = first.top.table_id
        kept = SeatStore(store_path).get(f"127.0.0.1:{first.connections.server_port}", table_id)
        assert kept is not None and kept["seat"] == 0 and kept["game"] == "omerta"
        assert kept["table_name"] == "Quick game"
        # the first client dies: no leave, no reconnection, the connection just drops
        first.running = False
        link.conn.transport.abortConnection()

        from twisted.internet import reactor

        second = App(_config(), Settings(name="Tester", language="en"), reactor,
                     connect_to=("127.0.0.1", first.connections.server_port), settings_path=str(tmp_path / "s2.json"))
        second.seat_store = SeatStore(store_path)
        second.open_window()
        second.running = True
        try:
            menu = second.push(MenuScene(second))
            yield second.connections.start()
            yield until(second, lambda: menu.b_rejoin is not None, timeout=5)
            assert menu.b_rejoin.text == "Rejoin your seat at Quick game"
            click(menu.b_rejoin.rect.center)
            yield until(second, lambda: isinstance(second.top, OmertaTableScene), timeout=5)
            table = second.top
            assert table.table_id == table_id and table.me == 0
            assert second.connections.main_link.tokens.get(table_id)
            seats = second.tables.get(table_id, {}).get("seats") or []
            if seats:
                assert not seats[0]["bot"]
        finally:
            for ln in list(second.connections.links):
                second.connections.close_link(ln)
            second.running = False


@pytest_twisted.inlineCallbacks
def test_quitting_a_running_match_asks_first(tmp_path, monkeypatch):
    from client.games.omerta.table import OmertaTableScene
    from client.scenes.confirm import ConfirmScene

    with menu_app(tmp_path) as app:
        app.seat_store = SeatStore(str(tmp_path / "seats.json"))
        yield app.connections.start()
        app.display.render(1 / 60, flip=False)
        click(app.top.b_quick.rect.center)
        yield until(app, lambda: isinstance(app.top, OmertaTableScene))
        quits = []
        monkeypatch.setattr(app, "quit", lambda: quits.append(1))
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        yield until(app, lambda: isinstance(app.top, ConfirmScene), timeout=3)
        assert "bot plays your seat" in app.top.message and quits == []
        key(pygame.K_ESCAPE)  # keep playing
        yield until(app, lambda: isinstance(app.top, OmertaTableScene), timeout=2)
        assert quits == []
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        yield until(app, lambda: isinstance(app.top, ConfirmScene), timeout=3)
        key(pygame.K_RETURN)
        yield until(app, lambda: quits == [1], timeout=2)


@pytest_twisted.inlineCallbacks
def test_quitting_from_the_menu_without_a_match_does_not_ask(tmp_path, monkeypatch):
    with menu_app(tmp_path) as app:
        app.seat_store = SeatStore(str(tmp_path / "seats.json"))
        yield app.connections.start()
        quits = []
        monkeypatch.setattr(app, "quit", lambda: quits.append(1))
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        yield until(app, lambda: quits == [1], timeout=3)
        assert isinstance(app.top, MenuScene)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_rejoin_strings_exist(lang):
    from client import i18n
    from client.i18n import tr

    i18n.setup(lang)
    try:
        for k in ("button", "gone", "quit_host", "quit_seat", "quit_yes", "quit_no", "esc_seat"):
            assert not tr(f"rejoin.{k}", table="T", reason="r").startswith("rejoin."), k
    finally:
        i18n.setup("en")


@pytest_twisted.inlineCallbacks
def test_a_player_who_left_on_purpose_sits_back_down(tmp_path):
    """Esc twice leaves the match (a bot plays the seat); the menu then offers the seat
    back and one click takes it (PROTOCOL: ``leave`` keeps the token valid)."""
    from client.games.omerta.table import OmertaTableScene

    with menu_app(tmp_path) as app:
        app.seat_store = SeatStore(str(tmp_path / "seats.json"))
        yield app.connections.start()
        app.display.render(1 / 60, flip=False)
        click(app.top.b_quick.rect.center)
        yield until(app, lambda: isinstance(app.top, OmertaTableScene))
        table_id = app.top.table_id
        key(pygame.K_ESCAPE)
        yield until(app, lambda: any("bot plays your seat" in m[0] for m in app.top.column.messages), timeout=2)
        key(pygame.K_ESCAPE)
        yield until(app, lambda: isinstance(app.top, MenuScene), timeout=3)
        assert app.seat_store.get(f"127.0.0.1:{app.connections.server_port}", table_id) is not None
        menu = app.top
        yield until(app, lambda: menu.b_rejoin is not None, timeout=5)
        click(menu.b_rejoin.rect.center)
        yield until(app, lambda: isinstance(app.top, OmertaTableScene), timeout=5)
        assert app.top.table_id == table_id and app.top.me == 0


@pytest_twisted.inlineCallbacks
def test_a_guest_restarted_on_his_own_server_rejoins_his_friends_table(tmp_path):
    """A guest sat at a match on a friend's server, his client died; restarted, it
    connects to its own embedded server first. The menu still offers the seat on the
    friend's server, and one click takes it back there."""
    from client.games.omerta.table import OmertaTableScene
    from server import start_embedded

    from twisted.internet import reactor

    friend_port = yield start_embedded(reactor, _config())
    store_path = str(tmp_path / "seats.json")
    with menu_app(tmp_path) as first:
        first.seat_store = SeatStore(store_path)
        yield first.connections.start()
        link = yield first.connections.open_link("Lena", ("127.0.0.1", friend_port), main=True)
        reply = yield link.request("create_table", game="omerta", seats=3, name="Evening", options={})
        table_id = reply["table"]["id"]
        yield link.request("join", table=table_id, seat=0)
        yield link.request("add_bot", table=table_id)
        yield link.request("add_bot", table=table_id)
        yield until(first, lambda: isinstance(first.top, OmertaTableScene))
        assert SeatStore(store_path).get(f"127.0.0.1:{friend_port}", table_id) is not None
        first.running = False
        link.conn.transport.abortConnection()  # killed: no leave

    with menu_app(tmp_path) as second:
        second.seat_store = SeatStore(store_path)
        menu = second.top
        yield second.connections.start()  # its own embedded server, not the friend's
        assert second.connections.main_link.address != ("127.0.0.1", friend_port)
        yield until(second, lambda: menu.b_rejoin is not None, timeout=5)
        assert menu.b_rejoin.text == "Rejoin your seat at Evening"
        click(menu.b_rejoin.rect.center)
        yield until(second, lambda: isinstance(second.top, OmertaTableScene), timeout=5)
        assert second.top.table_id == table_id and second.top.me == 0
        assert second.connections.main_link.address == ("127.0.0.1", friend_port)


@pytest_twisted.inlineCallbacks
def test_join_sit_on_a_running_table_takes_the_kept_seat_back(tmp_path):
    """Join → Sit down on a running table where the client keeps that seat's token takes
    the seat back (the server refuses a new seat once the match has started)."""
    from client.games.omerta.table import OmertaTableScene
    from client.scenes.join import JoinScene

    store_path = str(tmp_path / "seats.json")
    with menu_app(tmp_path) as app:
        app.seat_store = SeatStore(store_path)
        yield app.connections.start()
        app.display.render(1 / 60, flip=False)
        click(app.top.b_quick.rect.center)
        yield until(app, lambda: isinstance(app.top, OmertaTableScene))
        table_id = app.top.table_id
        key(pygame.K_ESCAPE)
        yield until(app, lambda: any("bot plays your seat" in m[0] for m in app.top.column.messages), timeout=2)
        key(pygame.K_ESCAPE)
        yield until(app, lambda: isinstance(app.top, MenuScene), timeout=3)
        app.settings.last_address = "192.168.1.20:7777"  # a friend's server, typed last time
        join = app.push(JoinScene(app))
        yield until(app, lambda: any(t["id"] == table_id for t in join.tables), timeout=5)
        assert "kept" in join.state
        assert join.address == "192.168.1.20:7777"  # the box keeps it: Connect goes there again
        # the LAN search ends with nothing found: the kept seat is still what it says
        yield until(app, lambda: not join.searching, timeout=5)
        assert "kept" in join.state and "No server answered" not in join.state
        join.selected_table = table_id
        click(join.b_join.rect.center)
        yield until(app, lambda: isinstance(app.top, OmertaTableScene), timeout=5)
        assert app.top.table_id == table_id and app.top.me == 0
