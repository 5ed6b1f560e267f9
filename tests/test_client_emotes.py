"""Emotes at the table (issue 13): F5-F8 and the emote bar send ``emote``; the pushed
``emote`` shows a badge beside the sender's plate for ~4 s on every screen (players,
spectators, the TV view); ``too_many_emotes`` is a short notice; text badges when the
font has no emoji. Dummy SDL video, fake links (no server)."""
from __future__ import annotations

import pygame
import pytest
from twisted.internet import defer

from client.app import App
from client.net import ServerError
from client.settings import Settings
from client.ui import emotes
from shared.config import merge
from shared.games import famiglia, omerta
from tests.test_client_famiglia import FakeConn

DECK = ["7", "1", "2", "3", "4", "5", "6", "8", "9", "10", "1", "2", "2", "3", "4", "5", "7"]


class FakeLink:
    """A link whose requests are recorded; ``replies`` maps a type to a callable giving
    the Deferred to return (default: one that never fires, as the server does for a
    successful emote)."""

    def __init__(self, name="Alice"):
        self.conn = FakeConn()
        self.address = ("127.0.0.1", 1)
        self.server = "127.0.0.1:1"
        self.name = name
        self.reconnect = None
        self.requests: list[tuple[str, dict]] = []
        self.replies: dict = {}
        self.tokens: dict = {}
        self.watching: set = set()
        self.steps: dict = {}
        self.kept: list = []

    def forget(self, table):
        self.tokens.pop(table, None)
        self.watching.discard(table)
        self.steps.pop(table, None)

    def keep_seat(self, table, seat, game=None):
        self.kept.append((table, seat, game))

    def request(self, msg_type, **fields):
        self.requests.append((msg_type, fields))
        make = self.replies.get(msg_type)
        return make(fields) if make else defer.Deferred()


def make_app(tmp_path, size=(1280, 720), language="en"):
    from twisted.internet import reactor

    settings = Settings(name="Alice", width=size[0], height=size[1], language=language)
    app = App(merge({}), settings, reactor, settings_path=str(tmp_path / "settings.json"))
    app.open_window()
    app.seat_store = None  # no seats.json written by these tests
    return app


SEATS = [{"seat": i, "name": n, "bot": i > 0, "connected": True} for i, n in enumerate(["Alice", "Vito", "Sonny"])]


def omerta_table(app, seat=0, link=None):
    from client.games.omerta.table import OmertaTableScene

    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0}, 1)
    for p in range(3):
        s, _ = omerta.apply(s, p, omerta.Peek((4 * p, 4 * p + 1)))
    app.tables[9] = {"id": 9, "name": "Friday", "game": "omerta", "seats": SEATS, "spectators": 1}
    link = link or FakeLink()
    started = {"type": "match_started", "table": 9, "game": "omerta", "seat": seat, "view": omerta.view(s, seat),
               "legal": [a.to_dict() for a in omerta.legal_actions(s, seat)] if seat is not None else [],
               "t_server": 0.0, "seats": SEATS}
    return app.reset(OmertaTableScene(app, link, started)), link


def emote_push(seat=1, emote="clap"):
    return {"type": "emote", "table": 9, "seat": seat, "name": SEATS[seat]["name"], "emote": emote,
            "t_server": 1.0}


def press(app, key):
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0), 0.0)
    app.dispatch(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0), 0.0)


def test_emote_keys_do_not_collide_with_any_binding():
    from client.input import EMOTE_KEYS, ZONE_PRESETS, binding_for

    used = set()
    for zone in ZONE_PRESETS:
        used |= binding_for(zone).keys()
    assert not used & set(EMOTE_KEYS)
    assert not {pygame.K_F1, pygame.K_F11, pygame.K_h, pygame.K_ESCAPE} & set(EMOTE_KEYS)
    assert sorted(EMOTE_KEYS.values()) == sorted(emotes.EMOTES)


def test_f5_to_f8_send_each_emote(tmp_path):
    app = make_app(tmp_path)
    scene, link = omerta_table(app)
    for k in (pygame.K_F5, pygame.K_F6, pygame.K_F7, pygame.K_F8):
        press(app, k)
    assert link.requests == [("emote", {"table": 9, "emote": e}) for e in ("clap", "laugh", "shock", "well_played")]
    assert link.conn.sent == []  # no game action went out


def test_click_on_the_bar_sends_that_emote_and_not_a_table_click(tmp_path):
    app = make_app(tmp_path)
    scene, link = omerta_table(app)
    app.display.render(1 / 60, flip=False)
    r = scene.emotes.bar_rect()
    assert r is not None
    scene.emotes.bar.place(r)
    for e in emotes.EMOTES:
        pos = scene.emotes.bar.rects[e].center
        app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1), 0.0)
    assert [f["emote"] for t, f in link.requests if t == "emote"] == list(emotes.EMOTES)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (800, 600)])
def test_the_bar_covers_nothing_of_the_table(tmp_path, size):
    from client.games.omerta.layout import all_rects

    app = make_app(tmp_path, size)
    scene, _ = omerta_table(app)
    r = scene.emotes.bar_rect()
    for name, rect in all_rects(scene.layout):
        if name != "info":
            assert not r.colliderect(rect), name
    assert app.display.screen.get_rect().contains(r)
    for b in scene.buttons.values():  # nor the action buttons
        assert not r.colliderect(b.rect)


def test_push_shows_a_badge_beside_the_senders_plate_for_four_seconds(tmp_path):
    app = make_app(tmp_path)
    scene, link = omerta_table(app)
    scene.on_message(emote_push(1, "laugh"), link)
    assert scene.emotes.board.active(scene.t) == {1: ("laugh", 0.0)}
    drawn = []
    real = emotes.draw_badge

    def spy(surf, emote, age, plate):
        drawn.append((emote, plate))
        return real(surf, emote, age, plate)

    import client.ui.emotes as mod
    mod.draw_badge = spy
    try:
        app.display.render(1 / 60, flip=False)
    finally:
        mod.draw_badge = real
    assert drawn == [("laugh", scene.layout.seats[1].plate)]
    for _ in range(3):
        app.display.render(1.0, flip=False)
    assert 1 in scene.emotes.board.active(scene.t)  # still there after ~3 s
    app.display.render(1.1, flip=False)
    assert scene.emotes.board.active(scene.t) == {}  # gone after 4 s


def test_a_push_for_another_table_or_an_unknown_emote_shows_nothing(tmp_path):
    app = make_app(tmp_path)
    scene, link = omerta_table(app)
    scene.on_message({**emote_push(1), "table": 10}, link)
    scene.on_message(emote_push(1, "dance"), link)
    assert scene.emotes.board.shown == {}


def test_spectator_and_tv_see_badges_but_have_no_bar(tmp_path):
    app = make_app(tmp_path)
    scene, link = omerta_table(app, seat=None)
    assert scene.emotes.bar_rect() is None
    press(app, pygame.K_F5)
    assert link.requests == []  # a spectator cannot send
    scene.on_message(emote_push(2, "shock"), link)
    assert 2 in scene.emotes.board.active(scene.t)
    app.display.render(1 / 60, flip=False)


def test_too_many_emotes_is_a_short_notice_not_an_error(tmp_path):
    app = make_app(tmp_path)
    scene, link = omerta_table(app)
    link.replies["emote"] = lambda f: defer.fail(ServerError("too_many_emotes", "more than 3 in 5 s"))
    press(app, pygame.K_F5)
    lines = [m[0] for m in scene.column.messages]
    assert "Easy on the emotes: wait a few seconds." in lines
    assert app.display.notice is None  # no red banner over the table


def test_famiglia_badge_goes_by_its_plates(tmp_path):
    from client.games.famiglia.table import FamigliaTableScene

    app = make_app(tmp_path)
    s = famiglia.new_match({"seats": 2}, 3)
    link = FakeLink()
    started = {"type": "match_started", "table": 9, "game": "famiglia", "seat": 0, "view": famiglia.view(s, 0),
               "legal": [a.to_dict() for a in famiglia.legal_actions(s, 0)], "t_server": 0.0}
    scene = app.reset(FamigliaTableScene(app, link, started))
    assert scene.emotes.plate_rect(1) == scene.layout.plates[1]
    scene.on_message(emote_push(1, "well_played"), link)
    app.display.render(1 / 60, flip=False)
    r = scene.emotes.bar_rect()
    from client.games.famiglia.layout import areas

    for name, rect in areas(scene.layout):
        if name != "info":
            assert not r.colliderect(rect), name


@pytest.mark.parametrize("language,expected", [("en", "Well played!"), ("fr", "Bien joué\u00a0!")])
def test_text_badges_when_the_font_has_no_emoji(tmp_path, language, expected):
    app = make_app(tmp_path, language=language)
    assert not emotes.has_glyph("\U0001F44F")  # Noto Sans has no emoji
    assert emotes.has_glyph("A")
    assert emotes.label("well_played") == expected
    assert emotes.label("clap") == ("Bravo!" if language == "en" else "Bravo\u00a0!")
    app.display.set_language("en")


def test_badge_stays_inside_the_window(tmp_path):
    make_app(tmp_path)  # pygame and the fonts that draw_badge needs
    surf = pygame.Surface((400, 300))
    plate = pygame.Rect(300, 10, 100, 24)  # at the right edge: the badge goes left of it
    r = emotes.draw_badge(surf, "well_played", 1000.0, plate)
    assert surf.get_rect().contains(r) and not r.colliderect(plate)
