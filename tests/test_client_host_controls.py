"""Host controls in the lobby (issue 13) with fake links: the host sees Start (off while
seats are free, saying how many), add/remove bot, move to spectators, pass host, lock,
options; a guest sees the host's badge and no controls; refusals are one sentence; a
player moved to the spectators watches. Dummy SDL video."""
from __future__ import annotations

import pygame
import pygame_gui
import pytest
from twisted.internet import defer

from client.net import ServerError
from client.scenes.lobby import LobbyScene, error_text
from tests.test_client_emotes import FakeLink, make_app

SEATS4 = [{"seat": 0, "name": "Alice", "bot": False, "connected": True},
          {"seat": 1, "name": "Vito", "bot": False, "connected": True},
          {"seat": 2, "name": "Sonny", "bot": True, "connected": True},
          {"seat": 3, "name": None, "bot": False, "connected": False}]


def table(**kw):
    return {"id": 7, "name": "Friday night", "game": "omerta", "status": "waiting", "seats": SEATS4, "spectators": 0,
            "host": 0, "host_name": "Alice", "locked": False, "options": {"start": "host"}, "rematch": [],
            "match_no": 1, **kw}


def lobby(app, my_seat=0, **kw):
    link = FakeLink()
    scene = app.reset(LobbyScene(app, link, table(**kw), my_seat=my_seat))
    assert link.requests == [("list_tables", {})]  # the evening's scoreboard
    link.requests.clear()
    return scene, link


def click(app, widget):
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=widget.rect.center, button=1))
    app.sample()
    app.display.render(1 / 60, flip=False)


def shown(el) -> str:
    from client.ui.widgets import shown_text

    return shown_text(el)


def test_host_sees_every_control_and_start_says_how_many_seats_are_free(tmp_path):
    app = make_app(tmp_path)
    scene, link = lobby(app)
    assert scene.is_host
    assert set(scene.controls) == {"add:3", "remove:2", "watch:1", "host:1", "options", "lock", "private", "fill",
                                   "bot_level"}
    assert not scene.b_start.is_enabled and shown(scene.b_start) == "1 seat free"
    click(app, scene.b_start)
    assert link.requests == []  # a disabled Start sends nothing
    scene, link = lobby(app, seats=SEATS4[:2] + [dict(SEATS4[3], seat=2), dict(SEATS4[3])])
    assert shown(scene.b_start) == "2 seats free"


def test_start_is_on_when_every_seat_is_taken_and_sends_start(tmp_path):
    app = make_app(tmp_path)
    full = SEATS4[:3] + [{"seat": 3, "name": "Connie", "bot": True, "connected": True}]
    scene, link = lobby(app, seats=full)
    assert scene.b_start.is_enabled and shown(scene.b_start) == "Start the match"
    click(app, scene.b_start)
    assert link.requests == [("start", {"table": 7})]


@pytest.mark.parametrize("control,sent", [
    ("add:3", ("add_bot", {"table": 7, "seat": 3, "level": "normal"})),
    ("remove:2", ("remove_bot", {"table": 7, "seat": 2})),
    ("watch:1", ("move_to_spectators", {"table": 7, "seat": 1})),
    ("host:1", ("pass_host", {"table": 7, "seat": 1})),
    ("lock", ("lock", {"table": 7, "locked": True})),
    ("private", ("set_options", {"table": 7, "options": {"private": True}})),
])
def test_each_control_sends_its_request(tmp_path, control, sent):
    app = make_app(tmp_path)
    scene, link = lobby(app)
    click(app, scene.controls[control])
    assert link.requests == [sent]


def test_guest_sees_the_host_badge_and_no_controls(tmp_path):
    app = make_app(tmp_path)
    scene, link = lobby(app, my_seat=1)
    assert not scene.is_host and scene.controls == {} and scene.b_start is None
    assert scene.badge is not None  # the "host" badge, on Alice's row
    row = next(e for e in scene.ui if isinstance(e, pygame_gui.elements.UILabel) and "Alice" in e.text)
    assert abs(scene.badge.rect.centery - row.rect.centery) <= 2 and scene.badge.rect.left >= row.rect.left
    texts = [shown(e) for e in scene.ui if isinstance(e, pygame_gui.elements.UILabel)]
    assert "Alice is the host: the match starts when they start it." in texts
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F5, mod=0, unicode="", scancode=0))
    app.sample()
    assert link.requests == []


def test_passing_host_turns_the_controls_over(tmp_path):
    app = make_app(tmp_path)
    scene, link = lobby(app)
    app.connections.route(link, {"type": "table", "table": table(host=1, host_name="Vito")})
    app.display.render(1 / 60, flip=False)  # pushed summaries rebuild the widgets once, before the next frame
    assert not scene.is_host and scene.controls == {}
    assert app.display.notice[0] == "Vito is now the host."
    scene2, link2 = lobby(app, my_seat=1)
    app.connections.route(link2, {"type": "table", "table": table(host=1, host_name="Vito")})
    app.display.render(1 / 60, flip=False)
    assert scene2.is_host and "watch:0" in scene2.controls
    assert app.display.notice[0] == "You are now the host of this table."


@pytest.mark.parametrize("code,sentence", [
    ("not_allowed", "Only the host can do that."),
    ("seats_free", "1 seat is still free: add a bot or wait for a friend."),
    ("table_locked", "This table is locked by its host: you can still watch it."),
    ("already_started", "The match has already started."),
])
def test_refusals_are_one_clear_sentence(tmp_path, code, sentence):
    app = make_app(tmp_path)
    scene, link = lobby(app)
    link.replies["add_bot"] = lambda f: defer.fail(ServerError(code, "server words"))
    click(app, scene.controls["add:3"])
    assert app.display.notice[0] == sentence
    assert error_text(ServerError("bad_option", "rounds: 1-20")) == "The server refused this option: rounds: 1-20"
    assert error_text(ServerError("unknown_table", "no table 7")) == "The server refused: no table 7"


def test_locked_table_reads_so_and_unlocks(tmp_path):
    app = make_app(tmp_path)
    scene, link = lobby(app, locked=True)
    assert shown(scene.controls["lock"]) == "Unlock the table"
    texts = [shown(e) for e in scene.ui if isinstance(e, pygame_gui.elements.UILabel)]
    assert "Locked: nobody else can sit down." in texts
    click(app, scene.controls["lock"])
    assert link.requests == [("lock", {"table": 7, "locked": False})]


def test_moved_player_becomes_a_spectator(tmp_path):
    app = make_app(tmp_path)
    scene, link = lobby(app, my_seat=1)
    link.tokens[7] = "tok"
    app.connections.route(link, {"type": "moved", "table": 7, "seat": None})
    assert scene.spectator and scene.my_seat is None
    assert 7 in link.watching and 7 not in link.tokens
    assert app.display.notice[0] == "The host moved you to the spectators: you now watch this table."


def test_moved_during_the_match_lands_in_the_spectator_view(tmp_path):
    from tests.test_client_emotes import omerta_table

    app = make_app(tmp_path)
    scene, link = omerta_table(app, seat=1)
    assert not scene.public and scene.links
    app.connections.route(link, {"type": "moved", "table": 9, "seat": None})
    assert scene.public and scene.links == {} and scene.me is None
    from shared.games import omerta

    s = omerta.new_match({"seats": 3}, 4)
    app.connections.route(link, {"type": "match_started", "table": 9, "game": "omerta", "seat": None,
                                 "view": omerta.view(s, None),
                     "legal": [], "t_server": 0.0, "step": 0})
    assert app.top is scene and scene.keys.help_line.startswith("Watching")
    assert scene.emotes.bar_rect() is None


def test_options_dialog_sends_set_options(tmp_path):
    from client.scenes.options import OptionsScene

    app = make_app(tmp_path)
    scene, link = lobby(app, options={"start": "host", "rounds": 3})
    click(app, scene.controls["options"])
    dlg = app.top
    assert isinstance(dlg, OptionsScene) and set(dlg.values) == {"rounds", "snap_timeout_ms", "turn_timer_s", "bot_kind"}
    assert dlg.values["rounds"] == 3
    dlg.values["turn_timer_s"] = 60
    dlg.apply()
    assert app.top is scene
    assert link.requests == [("set_options", {"table": 7, "options": {"rounds": 3, "snap_timeout_ms": None,
                                                                        "turn_timer_s": 60,
                                                                        "bot_kind": "smart"}})]


def test_the_bot_level_button_cycles_and_the_next_bot_is_seated_at_that_level(tmp_path):
    app = make_app(tmp_path)
    scene, link = lobby(app)
    assert shown(scene.controls["bot_level"]) == "Bots: normal"
    click(app, scene.controls["bot_level"])
    app.display.render(1 / 60, flip=False)  # the rebuild
    assert app.settings.bot_level == "hard" and shown(scene.controls["bot_level"]) == "Bots: hard"
    click(app, scene.controls["add:3"])
    assert link.requests == [("add_bot", {"table": 7, "seat": 3, "level": "hard"})]
    link.requests.clear()
    scene.fill_bots()
    assert link.requests == [("add_bot", {"table": 7, "seat": 3, "level": "hard"})]
    from client import settings as settings_mod

    assert settings_mod.load({}, app.settings_path).bot_level == "hard"  # kept for the next evening


def test_a_bot_seat_says_its_level_in_the_players_language(tmp_path):
    from client.i18n import setup
    from client.scenes.lobby import bot_label

    assert bot_label("Bot 3 (hard)", "hard") == "Bot 3 (hard bot)"
    assert bot_label("Bot 2", "normal") == "Bot 2 (bot)" and bot_label("Sonny", None) == "Sonny (bot)"
    setup("fr")
    try:
        assert bot_label("Bot 3 (easy)", "easy") == "Bot 3 (robot facile)"
    finally:
        setup("en")


def test_host_screen_creates_a_table_that_waits_for_its_host(tmp_path):
    from client.scenes.host import HostScene

    app = make_app(tmp_path)
    link = FakeLink()
    link.conn = object()
    app.connections.main_link = link
    scene = app.reset(HostScene(app))
    scene.on_create()
    kind, fields = link.requests[0]
    assert kind == "create_table" and fields["options"] == {"start": "host"}


def test_quick_game_table_starts_by_itself_and_anybody_adds_bots(tmp_path):
    app = make_app(tmp_path)
    link = FakeLink()
    t = table(options={}, host=None, host_name=None)
    t.pop("options")
    t.pop("host")
    scene = app.reset(LobbyScene(app, link, t, my_seat=1))  # an older server: no host fields
    assert not scene.waits_for_host and "add:3" in scene.controls and scene.b_start is None


def test_side_panel_and_scoreboard_leave_the_dialog_alone(tmp_path):
    from tests.test_client_fit import overflows

    for size in ((1280, 720), (1920, 1080), (800, 600)):
        app = make_app(tmp_path, size)
        for lang in ("en", "fr"):
            app.display.set_language(lang)
            six = [{"seat": i, "name": f"Player number {i}", "bot": i % 2 == 1, "connected": True} for i in range(6)]
            scene, link = lobby(app, seats=six, locked=True, options={"start": "host", "rounds": 4, "turn_timer_s": 60})
            scene.scoreboard = [{"name": "Alice", "game": "omerta", "played": 2, "won": 1}]
            scene.rebuild()
            app.display.render(1 / 60, flip=False)
            box = scene._box(app.size)
            assert not scene.side_panel_rect().colliderect(box) and not scene.scoreboard_rect().colliderect(box)
            assert app.display.screen.get_rect().contains(scene.scoreboard_rect())
            assert not overflows(app), (size, lang, overflows(app))
            for el in scene.ui:  # every widget of the dialog inside it, none over another
                if el.rect.colliderect(box) and not isinstance(el, pygame_gui.elements.UIPanel):
                    assert box.contains(el.rect), (size, lang, getattr(el, "text", el))
            buttons = [e for e in scene.ui if isinstance(e, pygame_gui.elements.UIButton)]
            for i, a in enumerate(buttons):
                for b in buttons[i + 1:]:
                    assert not a.rect.colliderect(b.rect), (size, lang, a.text, b.text)
        app.display.set_language("en")


def test_a_burst_of_table_summaries_rebuilds_the_lobby_once(tmp_path):
    """Filling four seats with bots pushes eight summaries in a row: the lobby's widgets
    (panels of several MB each) are built once for them, before the next frame."""
    app = make_app(tmp_path)
    scene, link = lobby(app)
    builds = []
    real = scene.build
    scene.build = lambda size: (builds.append(size), real(size))  # type: ignore[method-assign]
    for n in range(8):
        app.connections.route(link, {"type": "table", "table": table(name=f"Friday night {n}")})
    assert builds == []
    app.display.render(1 / 60, flip=False)
    app.display.render(1 / 60, flip=False)
    assert len(builds) == 1 and scene.table["name"] == "Friday night 7"
