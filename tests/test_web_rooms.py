"""Room codes (server/web/rooms.py), the WebSocket bridge in-process (server/web/bridge.py
over a real TCP listener), and the TV's room-code panel (client/ui/roomcode.py)."""
from __future__ import annotations

import json
import os

import pytest
import pytest_twisted

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from server.web import rooms  # noqa: E402
from tests.wsclient import WSClient  # noqa: E402


def test_codes_are_random_unambiguous_letters_with_at_least_20_bits():
    import math

    assert rooms.LENGTH * math.log2(len(rooms.ALPHABET)) >= 20
    assert not set(rooms.ALPHABET) & set("AEIOUY")
    codes = [rooms.new_code() for _ in range(2000)]
    for code in codes:
        assert len(code) == rooms.LENGTH and set(code) <= set(rooms.ALPHABET)
    assert len(set(codes)) > 1990  # drawn, not counted: 3.2 million codes
    # every letter turns up at every place about as often: a chi-square (19 degrees of
    # freedom) below its 1e-7 bound, which a fair generator passes in all but one run of
    # millions, and a letter never drawn (a chi-square of 100 at least) fails
    for place in range(rooms.LENGTH):
        seen = [sum(c[place] == letter for c in codes) for letter in rooms.ALPHABET]
        expected = len(codes) / len(rooms.ALPHABET)
        assert sum((n - expected) ** 2 / expected for n in seen) < 70.8
    taken = set(codes[:3])
    assert all(rooms.new_code(taken) not in taken for _ in range(200))


def test_normalise_reads_what_people_type():
    assert rooms.normalise("bcdfg") == "BCDFG"
    assert rooms.normalise(" bc-dfg ") == "BCDFG"
    assert rooms.normalise("ABCDF") is None  # A is not in the alphabet
    assert rooms.normalise("BCDF") is None and rooms.normalise("BCDFGH") is None


def test_tables_get_distinct_random_codes_that_survive_options_and_play_again():
    from twisted.internet import task

    from server.lobby import Lobby
    from shared.config import merge

    lobby = Lobby(merge({}), task.Clock())

    class Conn:
        name = "host"
        peer_host = "192.168.1.9"

    host = Conn()
    first = lobby.create_table(host, "famiglia", 2, "A", {})
    second = lobby.create_table(host, "famiglia", 2, "B", {})
    assert first.room and second.room and first.room != second.room
    assert lobby.table_by_room(first.room.lower()) is first
    renewed = first.host.set_options(host, {"private": True}, False)
    assert renewed.room == first.room and renewed.private
    assert lobby.table_by_room(first.room) is renewed


def test_join_url():
    assert rooms.join_url("192.168.1.5", 7780, "KQTB") == "http://192.168.1.5:7780/?room=KQTB"
    assert rooms.join_url("fe80::1", 7780, "KQTB") == "http://[fe80::1]:7780/?room=KQTB"


# -- the WebSocket bridge, in-process, over real TCP -------------------------------------------
@pytest_twisted.inlineCallbacks
def test_websocket_speaks_the_protocol_one_message_per_frame(tmp_path):
    from twisted.internet import reactor

    from server.app import start_server
    from shared.config import merge

    config = merge({"server": {"host": "127.0.0.1", "port": 0, "data_dir": str(tmp_path)}, "web": {"port": 0}})
    running = yield start_server(reactor, config, discovery=False)
    try:
        c = WSClient(running.web_port)
        yield c.opened
        c.send({"type": "hello", "name": "Phone", "seq": 1})
        welcome = yield c.wait_for(lambda m: m.get("type") == "welcome")
        assert welcome["re"] == 1 and welcome["web_port"] == running.web_port
        yield c.wait_for(lambda m: m.get("type") == "ping")  # clock sync starts, as over TCP
        c.send(b"{not json")
        err = yield c.wait_for(lambda m: m.get("type") == "error")
        assert err["code"] == "bad_json"
        c.send({"type": "list_tables", "seq": 2})
        assert (yield c.wait_for(lambda m: m.get("re") == 2))["type"] == "tables"
        c.send({"type": "create_table", "game": "omerta", "seats": 3, "seq": 3})
        table = (yield c.wait_for(lambda m: m.get("re") == 3))["table"]
        c.send({"type": "join", "table": table["id"], "seat": 1, "seq": 4})
        joined = yield c.wait_for(lambda m: m.get("re") == 4)
        assert joined["type"] == "joined" and joined["seat"] == 1 and joined["token"]
        # the table's room code (told to its host) finds it, and the lobby sees the phone as a player
        assert running.lobby.table_by_room(table["room"]).id == table["id"]
        assert running.lobby.tables[table["id"]].summary()["seats"][1]["name"] == "Phone"
        # a line longer than the protocol allows: too_long, then the WebSocket closes
        c.send(json.dumps({"type": "hello", "name": "x" * 70000}).encode())
        yield c.wait_for(lambda m: m.get("code") == "too_long")
        yield c.closed
        # the phone's connection is gone for the lobby too (the empty table closed)
        assert table["id"] not in running.lobby.tables or \
            running.lobby.tables[table["id"]].summary()["seats"][1]["connected"] is False
    finally:
        yield running.stop()


# -- the TV's panel ------------------------------------------------------------------------------
def test_roomcode_panel_draws_the_qr_of_the_phone_url():
    import pygame

    from client.ui import roomcode

    # pygame stays initialised afterwards (no pygame.quit): client apps of earlier tests
    # in this worker may still have frame loops on the reactor, which later tests spin
    pygame.init()

    class Link:
        address = ("192.168.1.20", 7777)
        welcome = {"web_port": 7780}

    url, code = roomcode.phone_url(Link(), {"id": 5, "room": "KQTBX"})
    assert url == "http://192.168.1.20:7780/?room=KQTBX" and code == "KQTBX"
    assert roomcode.phone_url(Link(), {"id": 5}) is None  # a screen not told the code

    class Old(Link):
        welcome = {}

    assert roomcode.phone_url(Old(), {"id": 5, "room": "KQTBX"}) is None  # a server without the phone page
    qr = roomcode.qr_surface(url, 200)
    assert qr.get_width() == qr.get_height() <= 200
    # the quiet zone is light and the finder pattern's corner dark
    px = qr.get_width() // 33  # version 2 at level M: 25 modules + 2 * 4
    assert tuple(qr.get_at((1, 1)))[:3] == roomcode.LIGHT
    assert tuple(qr.get_at((4 * px + 1, 4 * px + 1)))[:3] == roomcode.DARK
    surf = pygame.Surface((420, 260))
    assert roomcode.draw_for(surf, surf.get_rect(), Link(), {"id": 5, "room": "KQTBX"}, 1.0)
    assert not roomcode.draw_for(surf, surf.get_rect(), Old(), {"id": 5, "room": "KQTBX"}, 1.0)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (1024, 768), (800, 600)])
def test_the_tv_keeps_the_room_code_in_the_bottom_right_corner_of_a_running_table(size):
    import pygame

    from client.ui import roomcode

    rect = roomcode.corner_rect(size)
    screen = pygame.Rect((0, 0), size)
    assert screen.contains(rect)
    assert rect.left > size[0] * 0.75 and rect.top > size[1] * 0.5  # clear of the message column
    assert rect.w >= 140 and rect.h >= 180  # room for the QR code, the code and the address
