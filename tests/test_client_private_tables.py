"""Private tables in the pygame client (docs/PROTOCOL.md "Private tables"): the Join list
says which tables are private, Sit down or Watch at one asks for its room code and sends
it, a wrong code is one clear sentence; the link keeps the code (typed, or told by the
table's messages) and joins again with it after a lost connection; the TV's panel shows
the code the server told it. Dummy SDL video, fake links and a scripted server."""
from __future__ import annotations

import pygame
import pytest
from twisted.internet import defer

from client.net import ServerError
from client.scenes.join import JoinScene, table_line
from client.scenes.room_code import RoomCodeScene, typed_code
from tests.test_client_app import make_app
from tests.test_client_emotes import FakeLink
from tests.test_client_reconnect import FakeConn, make

@pytest.fixture
def app(tmp_path):
    """A running app on the real reactor, stopped afterwards: its frame and input loops
    must not tick in a later test (one that spins the reactor after pygame quit)."""
    running = make_app(tmp_path)
    yield running
    running.running = False
    running.pacer.stop()


SEATS = [{"seat": i, "name": None, "bot": False, "connected": False} for i in range(3)]


def private_table(**kw):
    return {"id": 6, "name": "Friends only", "game": "omerta", "status": "waiting", "seats": SEATS,
            "spectators": 0, "private": True, **kw}


def join_scene(app, table):
    link = FakeLink()
    link.rooms = {}
    scene = app.reset(JoinScene(app))
    scene.link = link
    scene.tables = [table]
    app.tables[table["id"]] = table
    scene.selected_table = table["id"]
    scene.rebuild()
    return scene, link


def type_code(app, text):
    code_scene = app.top
    assert isinstance(code_scene, RoomCodeScene)
    code_scene.e_code.set_text(text)
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        pygame.event.post(pygame.event.Event(kind, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    app.sample()
    app.display.render(1 / 60, flip=False)


def test_the_join_list_marks_private_tables(app):
    assert table_line(private_table()).endswith("· private")
    assert "private" not in table_line(private_table(private=False))


def test_sitting_at_a_private_table_asks_for_its_code_and_sends_it(app):
    scene, link = join_scene(app, private_table())
    link.replies["join"] = lambda fields: defer.succeed({"type": "joined", "table": 6, "seat": 0, "token": "t"})
    scene.join(False)
    assert link.requests == [] and isinstance(app.top, RoomCodeScene)  # nothing sent before the code
    type_code(app, "kq-tbx ")
    assert link.requests[0] == ("join", {"table": 6, "room": "KQTBX"})  # (then the lobby's list_tables)
    assert link.rooms == {6: "KQTBX"}  # kept: a lost connection joins again with it
    # watching asks too (a fresh link that does not know the code)
    scene, link = join_scene(app, private_table())
    scene.join(True)
    type_code(app, "KQTBX")
    assert link.requests == [("join", {"table": 6, "spectate": True, "room": "KQTBX"})]


def test_a_wrong_code_is_one_clear_sentence_and_an_open_table_asks_nothing(app):
    scene, link = join_scene(app, private_table())
    link.replies["join"] = lambda fields: defer.fail(ServerError("private_table", "wrong room code"))
    scene.join(False)
    type_code(app, "BCDFG")
    assert app.display.notice[0] == "That is not this table's room code: ask its host."
    assert link.rooms == {}
    link.replies["join"] = lambda fields: defer.fail(ServerError("too_many_codes", "wait 30 s"))
    scene.join(False)
    type_code(app, "BCDFH")
    assert link.requests[-1] == ("join", {"table": 6, "room": "BCDFH"})
    assert app.display.notice[0] == "Too many wrong room codes: wait a little, then try again."
    scene, link = join_scene(app, private_table(private=False))
    scene.join(False)
    assert link.requests == [("join", {"table": 6})] and not isinstance(app.top, RoomCodeScene)


def test_typed_codes_keep_letters_only():
    assert typed_code(" kq-tb x\n") == "KQTBX" and typed_code("12-") == ""


def test_the_link_keeps_the_code_the_table_tells_and_joins_again_with_it(tmp_path):
    from shared.games import famiglia as fg
    from tests.test_client_reconnect import SCENARIO, start_match

    back = FakeConn({"join": {"type": "joined", "table": 4, "seat": None, "token": None}})
    app, clock, server, link = make(tmp_path, [back])
    link.conn.replies["join"] = {"type": "joined", "table": 4, "seat": None, "token": None}
    start_match(app, link, fg.new_match(SCENARIO, 5), seat=None)  # a TV watching table 4
    app.connections.route(link, {"type": "table", "table": private_table(id=4, room="QTBXK")})
    assert link.rooms == {4: "QTBXK"}
    link.request("join", table=4, spectate=True)
    assert link.conn.requests[-1] == ("join", {"table": 4, "spectate": True, "room": "QTBXK"})
    # the host's own replies name the code too
    link.conn.replies["set_options"] = {"type": "table", "table": private_table(id=8, room="ZXCVB")}
    link.request("set_options", table=8, options={"private": True})
    assert link.rooms[8] == "ZXCVB"
    link.on_disconnect(None)
    clock.advance(0.5)
    assert back.requests == [("join", {"table": 4, "spectate": True, "room": "QTBXK"})]


def test_the_tv_panel_shows_the_code_the_server_told(tmp_path):
    from client.ui import roomcode

    class Link:
        address = ("192.168.1.20", 7777)
        welcome = {"web_port": 7780}

    assert roomcode.phone_url(Link(), private_table(room="QTBXK")) == (
        "http://192.168.1.20:7780/?room=QTBXK", "QTBXK")
    assert roomcode.phone_url(Link(), private_table()) is None  # not told: no panel, no guessed code


def test_the_hosts_lobby_says_the_table_is_private_and_opens_it_in_one_click(app):
    from client.ui.widgets import shown_text
    from tests.test_client_host_controls import click, lobby

    scene, link = lobby(app, private=True, room="QTBXK")
    texts = [shown_text(e) for e in scene.ui if hasattr(e, "text")]
    assert "Private: only friends with the room code can sit down or watch." in texts
    assert shown_text(scene.controls["private"]) == "Open to all"
    click(app, scene.controls["private"])
    assert link.requests == [("set_options", {"table": 7, "options": {"private": False}})]
