"""Nothing clipped (issue 13): every screen laid out in both languages at 1280x720,
1920x1080 and 800x600 (headless), each pygame_gui label and button checked: its text,
rendered with its own font, must fit inside its box (the rect less its border, shadow and
text padding). The game tables are laid out at several moments of a match (bots play),
for a player and for a spectator, with their results boards; the key help of the top
bar must keep every one of its parts at 1280x720 and above."""
from __future__ import annotations

import random

import pygame
import pytest
from pygame_gui.core.utility import translate
from pygame_gui.elements import UIButton, UILabel
from twisted.internet import defer

from client import games
from shared.games import get_game
from shared.rules import events_for
from tests.test_client_app import make_app

SIZES = [(1280, 720), (1920, 1080), (800, 600)]
LANGS = ["en", "fr"]
GAMES = ["omerta", "famiglia", "family_business", "mafiosi"]


def _n(v) -> int:
    if isinstance(v, dict):
        return max([int(x) for x in v.values()] or [0])
    return int(v or 0)


def overflows(app) -> list[tuple[str, str, int, int]]:
    """(kind, text, text width, room) of every visible label or button whose text is
    wider than its box."""
    bad = []
    for el in app.manager.get_sprite_group().sprites():
        if not isinstance(el, (UIButton, UILabel)) or not el.visible:
            continue
        txt = translate(el.text, **(el.text_kwargs or {}))
        if not txt.strip():
            continue
        w = el.font.size(txt)[0]
        room = el.rect.w - 2 * (_n(getattr(el, "border_width", 0)) + _n(getattr(el, "shadow_width", 0))
                                + _n(getattr(el, "text_horiz_alignment_padding", 0)))
        if w > room:
            bad.append((type(el).__name__, txt, w, room))
    return bad


class _Conn:
    def __init__(self):
        self.sent = []

    def send_action(self, *a, **kw):
        self.sent.append(a)
        return defer.Deferred()

    def request(self, *a, **kw):
        return defer.Deferred()


class _Link:
    address = ("127.0.0.1", 7777)
    name = "Vito"
    reconnect = None

    def __init__(self):
        self.conn = _Conn()
        self.tokens, self.watching, self.steps = {}, set(), {}

    def request(self, *a, **kw):
        return defer.Deferred()


NAMES = ["Vito Corleone", "Michael", "Fredo", "Sonny", "Connie", "Tom"]


def _seats(n):
    return [{"seat": i, "name": NAMES[i], "bot": i > 0, "connected": True} for i in range(n)]


def _moments(name: str, n_moments: int = 5, seed: int = 3):
    """(state, events) at a few moments of a match of ``name`` played by random legal moves."""
    rules = get_game(name)
    d = games.rules_def(name)
    state = rules.new_match({"seats": d.default_seats}, seed)
    rng = random.Random(seed)
    out, events = [(state, [])], []
    steps = 0
    while len(out) < n_moments and steps < 400 and not rules.is_over(state):
        steps += 1
        movers = [p for p in range(d.default_seats) if rules.legal_actions(state, p)]
        if not movers:
            break
        p = rng.choice(movers)
        state, events = rules.apply(state, p, rng.choice(rules.legal_actions(state, p)))
        if steps % 7 == 0:
            out.append((state, events))
    return out


def _open(app, name, state, seat, events=()):
    rules = get_game(name)
    link = _Link()
    n = games.rules_def(name).default_seats
    started = {"type": "match_started", "table": 3, "game": name, "seat": seat, "view": rules.view(state, seat),
               "legal": [a.to_dict() for a in rules.legal_actions(state, seat)] if seat is not None else [],
               "t_server": 0.0, "seats": _seats(n), "name": "Friday night"}
    app.tables[3] = {"id": 3, "name": "Friday night", "game": name, "seats": _seats(n), "spectators": 1}
    scene = app.reset(games.get(name).table_scene(app, link, started))
    if events:
        scene.on_message({"type": "update", "table": 3, "events": events_for(events, seat),
                          "view": rules.view(state, seat),
                          "legal": [a.to_dict() for a in rules.legal_actions(state, seat)] if seat is not None
                          else []}, link)
    return scene


@pytest.fixture(params=[(s, lang) for s in SIZES for lang in LANGS], ids=lambda p: f"{p[0][0]}x{p[0][1]}-{p[1]}")
def app(request, tmp_path, big_shapes_drawn_once):
    size, lang = request.param
    app = make_app(tmp_path, size)
    app.settings_path = "settings.json"  # a short path in the Settings screen
    app.display.set_language(lang)
    yield app
    app.display.set_language("en")


@pytest.fixture(scope="module")
def big_shapes_drawn_once():
    """pygame_gui keeps the surface of a small rounded rectangle (under 40000 px) in its
    shape cache and draws every bigger one afresh, at four times its size for the
    anti-aliasing: a screen's large panels are most of what building it costs, and the
    same panels come back in every lobby, language and size. Here a large one is drawn
    once per size, borders, colours and corners, then found through pygame_gui's own
    cache lookup like a small one. Only the panels' pixels come from the cache: the
    widgets, their rects, fonts, borders and texts -- all that :func:`overflows` reads
    -- are built as always."""
    from pygame_gui.core.drawable_shapes.rounded_rect_drawable_shape import RoundedRectangleShape
    from pygame_gui.core.surface_cache import SurfaceCache

    drawn: dict[str, pygame.Surface] = {}
    redrawing: list[object] = []  # the shape whose redraw_state runs
    real_find = SurfaceCache.find_surface_in_cache
    real_redraw = RoundedRectangleShape.redraw_state
    real_finalise = RoundedRectangleShape.finalise_images_and_text

    def find(self, lookup_id):
        found = real_find(self, lookup_id)
        return drawn.get(lookup_id) if found is None else found

    def redraw_state(self, *args, **kwargs):
        redrawing.append(self)
        try:
            return real_redraw(self, *args, **kwargs)
        finally:
            redrawing.pop()

    def finalise(self, image_state_str, state_str, *args, **kwargs):
        # from redraw_state: the state's surface holds the shape alone, before images and
        # text (a resize's quick stand-in surface, from set_dimensions, is not kept)
        rect = self.containing_rect
        if redrawing and redrawing[-1] is self and "filled_bar" not in self.theming \
                and rect.w * rect.h >= 40000:
            shape_id = self.shape_cache.build_cache_id(
                "rounded_rectangle", rect.size, self.shadow_width, self.border_widths,
                self.theming[f"{state_str}_border"], self.theming[f"{state_str}_bg"], self.shape_corner_radius)
            drawn.setdefault(shape_id, self.states[state_str].surface.copy())
        return real_finalise(self, image_state_str, state_str, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(SurfaceCache, "find_surface_in_cache", find)
        mp.setattr(RoundedRectangleShape, "redraw_state", redraw_state)
        mp.setattr(RoundedRectangleShape, "finalise_images_and_text", finalise)
        yield


def _check(app, where):
    app.display.render(1 / 60, flip=False)
    bad = overflows(app)
    assert not bad, f"{where} at {app.size} in {app.settings.language}: {bad}"


def test_menu_screens_fit(app):
    from client.scenes.couch import CouchScene
    from client.scenes.help import HelpScene
    from client.scenes.host import HostScene
    from client.scenes.join import JoinScene
    from client.scenes.lobby import LobbyScene
    from client.scenes.menu import MenuScene
    from client.scenes.name import NameScene
    from client.scenes.settings import SettingsScene

    app.connections.main_link = _Link()
    app.connections.links.append(app.connections.main_link)
    for make in (MenuScene, HostScene, JoinScene, CouchScene, SettingsScene, NameScene,
                 lambda a: NameScene(a, first_run=True)):
        app.reset(make(app))
        _check(app, type(app.top).__name__)
    join = app.reset(JoinScene(app))  # the table list: long names, a host, a lock, every status
    join.tables = [
        {"id": 3, "name": "Table de Marco", "game": "family_business", "status": "waiting", "spectators": 0,
         "seats": [dict(s, name=None if s["seat"] else s["name"]) for s in _seats(4)], "host_name": "Marco",
         "locked": True},
        {"id": 4, "name": "Vito Corleone's Friday night table", "game": "mafiosi", "status": "playing",
         "seats": _seats(5), "spectators": 2, "host_name": "Vito Corleone", "locked": True},
        {"id": 5, "name": "Friday", "game": "omerta", "status": "over", "seats": _seats(4), "spectators": 0}]
    join.rebuild()
    _check(app, "join with tables")
    from client.i18n import tr
    from client.scenes.confirm import ConfirmScene

    menu = app.reset(MenuScene(app))
    menu.rejoin_entry = {"table": 3, "table_name": "Friday night", "game": "omerta"}
    menu.rebuild()
    _check(app, "menu with Rejoin")
    for question in ("rejoin.quit_host", "rejoin.quit_seat"):
        app.push(ConfirmScene(app, tr(question, table="Friday night"), tr("rejoin.quit_yes"), tr("rejoin.quit_no"),
                              lambda: None, tag="quit"))
        _check(app, question)
        app.pop()
    for name in GAMES:
        app.reset(HelpScene(app, name))
        _check(app, f"help {name}")
        n = games.rules_def(name).default_seats
        table = {"id": 3, "name": "Friday night", "game": name, "status": "waiting", "spectators": 2,
                 "options": {}, "seats": [dict(s, name=s["name"] if s["seat"] < n - 1 else None)
                                          for s in _seats(n)]}
        for kw in ({"host": True}, {"host": False, "my_seat": 1}, {"spectator": True, "my_seat": None}):
            app.reset(LobbyScene(app, app.connections.main_link, table, **kw))
            _check(app, f"lobby {name} {kw}")


@pytest.mark.parametrize("name", GAMES)
def test_tables_and_results_fit(app, name):
    rules = get_game(name)
    n = games.rules_def(name).default_seats
    for state, events in _moments(name):
        for seat in [p for p in range(n) if rules.legal_actions(state, p)][:2] + [None]:
            scene = _open(app, name, state, seat, events)
            _check(app, f"{name} table seat {seat}")
    game = games.get(name)
    scene = _open(app, name, _moments(name)[-1][0], 0)
    results = game.results_scene
    if results is not None:
        try:
            board = results(app, scene)
        except TypeError:
            board = results(app, scene, None)
        app.push(board)
        _check(app, f"{name} results")


@pytest.mark.parametrize("name", GAMES)
def test_the_history_view_fits(app, name):
    """The full history view (M) lies inside the table, its title and key help whole,
    room for several rows, clear of the action buttons and the message column."""
    from client import text
    from client.i18n import tr

    state, events = _moments(name)[-1]
    for seat in (0, None):
        scene = _open(app, name, state, seat, events)
        scene.history.show()
        _check(app, f"{name} history seat {seat}")
        view = scene.history
        r, body = view.rect(), view.body()
        assert pygame.Rect((0, 0), scene.table_size).contains(r) and r.contains(body)
        assert body.h >= 6 * text.font(view.font_size()).get_linesize()
        room = r.w - 2 * max(6, view.font_size() // 2)
        assert text.font(int(view.font_size() * 1.05), True).size(tr("history.title"))[0] <= room
        assert " ".join(view._keys_lines()) == tr("history.keys")  # wrapped, never cut
        assert not [b for b in scene.buttons.values() if b.visible and r.colliderect(b.rect)]
        assert not r.colliderect(scene.layout.info)
        view.hide()


@pytest.mark.parametrize("name", GAMES)
def test_top_bar_key_help_keeps_every_part(app, name, monkeypatch):
    """At 1280x720 and above the top bar's key help is never shortened."""
    from client.table import draw as table_draw

    seen = []
    real = table_draw.fit_hint

    def spy(line, room, size, *a, **kw):
        out = real(line, room, size, *a, **kw)
        seen.append((line, out[0]))
        return out

    monkeypatch.setattr(table_draw, "fit_hint", spy)
    state = _moments(name)[-1][0]
    for seat in [0, None]:
        seen.clear()
        _open(app, name, state, seat)
        app.display.render(1 / 60, flip=False)
        assert seen, "the top bar's key help was not drawn"
        if app.size[1] >= 720:
            for line, shown in seen:
                assert shown == line, f"{name} seat {seat} at {app.size}: {line!r} shown as {shown!r}"


def _omerta_faces():
    """Every Omerta face: the bottles 1-10 and each character with its points."""
    from shared.games.omerta.cards import CHARACTERS

    faces = [{"kind": "bottle", "value": v} for v in range(1, 11)]
    faces += [{"kind": "character", "name": c[0], "points": c[1]} for c in CHARACTERS]
    return faces


def test_slot_badges_leave_card_values_visible(app):
    """The key number on each of your Omerta cards (1-9) never covers what the card is
    worth: a bottle's value and corner indices, a character's name and points -- for
    every face a slot may show, at every moment laid out, for every local seat."""
    from client.games.omerta.cards import value_rects
    from client.games.omerta.draw import slot_badge

    faces = _omerta_faces()
    checked = 0
    for state, events in _moments("omerta"):
        for seat in [p for p in range(state.n if hasattr(state, "n") else 4)][:2]:
            scene = _open(app, "omerta", state, seat, events)
            app.display.render(1 / 60, flip=False)
            assert scene.show_slot_numbers
            area = scene.layout.seats[seat]
            for sid, rect in area.slots.items():
                (cx, cy), r = slot_badge(rect)
                badge = pygame.Rect(cx - r, cy - r, 2 * r, 2 * r)
                assert rect.contains(badge), f"badge outside its card at {app.size}: {badge} {rect}"
                for face in faces:
                    for v in value_rects(face, rect.w, rect.h):
                        shown = v.move(rect.topleft)
                        assert not badge.colliderect(shown), \
                            f"slot badge {badge} covers {face} value at {shown} ({app.size}, {app.settings.language})"
                checked += 1
    assert checked >= 8
