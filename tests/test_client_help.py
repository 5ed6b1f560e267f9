"""The rules help: one page per game (EN and FR), drawn with the real card art,
reachable from the menu (button, F1) and from a table (F1, H, the Rules button); the tip
of a card under the mouse at the Omerta table."""
from __future__ import annotations

import pygame
import pytest

from client import games, i18n
from client.scenes.help import HelpScene, help_games, sections_of
from tests.test_client_app import click, key, make_app, open_table, snap_window_state

GAMES = ("omerta", "famiglia", "family_business", "mafiosi")


def test_every_game_has_help_with_its_cards():
    assert set(GAMES) <= set(help_games())
    for lang in ("en", "fr"):
        i18n.setup(lang)
        try:
            for name in GAMES:
                secs = sections_of(name)
                assert len(secs) >= 3, name
                flat = [secs[0].title, secs[0].body] + [c.title for s in secs for c in s.cards] + \
                       [c.text for s in secs for c in s.cards]
                assert not any(t.startswith(i18n.NAMESPACE + ".") for t in flat if t), (name, lang, flat)
                assert any(s.cards for s in secs), name
        finally:
            i18n.setup("en")


def test_every_omerta_character_is_explained():
    from client.games.omerta.help import CHARACTERS, card_help

    secs = sections_of("omerta")
    shown = {c.card.get("name") for s in secs for c in s.cards if c.card.get("kind") == "character"}
    assert shown == {n for n, _p in CHARACTERS}
    assert len(CHARACTERS) == 11
    assert "Hitwoman" in card_help({"kind": "character", "name": "hitwoman", "points": 15})


def test_cards_are_drawn_with_the_games_own_faces():
    from client import cards

    for name in GAMES:
        for s in sections_of(name):
            for c in s.cards:
                assert not cards.card_key(c.card).startswith("plain:"), (name, c.card)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(1280, 720), (800, 600), (1920, 1080)])
def test_help_pages_lay_out_and_scroll(tmp_path, lang, size):
    app = make_app(tmp_path, size)
    app.display.set_language(lang)
    try:
        scene = app.push(HelpScene(app, "omerta"))
        for name in GAMES:
            scene.select(name)
            app.display.render(1 / 60, flip=False)
            view = scene.view_rect()
            page = scene.page(view.w - 12)
            for kind, what, r in scene.layout(view.w - 12):
                assert 0 <= r.left and r.right <= page.get_width(), (name, kind, what)
                if kind != "card":
                    line, fs = what
                    from client import text
                    assert text.font(fs, kind != "text").size(line)[0] <= r.w + 1, (name, line)
        scene.select("omerta")
        assert scene.page(scene.view_rect().w - 12).get_height() > scene.view_rect().h  # it scrolls
        key(pygame.K_END)
        app.sample()
        assert scene.scroll > 0
        key(pygame.K_HOME)
        app.sample()
        assert scene.scroll == 0
        key(pygame.K_RIGHT)
        app.sample()
        assert scene.game == help_games()[(help_games().index("omerta") + 1) % len(help_games())]
        key(pygame.K_ESCAPE)
        app.sample()
        assert not any(isinstance(s, HelpScene) for s in app.scenes)
    finally:
        app.display.set_language("en")


def test_menu_opens_the_rules(tmp_path):
    from client.scenes.menu import MenuScene

    app = make_app(tmp_path)
    app.push(MenuScene(app))
    app.display.render(1 / 60, flip=False)
    click(app.top.b_help.rect.center)
    app.sample()
    assert isinstance(app.top, HelpScene) and app.top.game == games.quick_game().name
    key(pygame.K_ESCAPE)
    app.sample()
    assert isinstance(app.top, MenuScene)
    key(pygame.K_F1)
    app.sample()
    assert isinstance(app.top, HelpScene)


@pytest.mark.parametrize("k", [pygame.K_F1, pygame.K_h])
def test_table_opens_its_games_rules_by_key_and_comes_back(tmp_path, k):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    app.display.render(1 / 60, flip=False)
    key(k)
    app.sample()
    assert isinstance(app.top, HelpScene) and app.top.game == "omerta"
    app.display.render(1 / 60, flip=False)
    key(pygame.K_ESCAPE)
    app.sample()
    assert app.top is scene and scene.actions.rules_button is not None
    assert link.conn.sent == []  # the help key is not a game key


def test_table_rules_button(tmp_path):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, _link = open_table(app, state, 1, events)
    app.display.render(1 / 60, flip=False)
    b = scene.actions.rules_button
    assert b is not None and b.rect.colliderect(scene.layout.top_bar)
    click(b.rect.center)
    app.sample()
    app.display.render(1 / 60, flip=False)
    assert isinstance(app.top, HelpScene)


def test_hovering_a_character_on_the_table_says_what_it_does(tmp_path):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, _link = open_table(app, state, 0, events)
    app.display.render(1 / 60, flip=False)
    centre = scene.layout.discard.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=centre, rel=(0, 0), buttons=(0, 0, 0)))
    app.sample()
    assert scene.hover_card_at(centre)["value"] == 7  # the discarded bottle
    scene.view["discard"].append({"kind": "character", "name": "mamma", "value": None, "points": 15})
    tip = scene.tip.text()
    assert tip.startswith("Mamma (15)") and "skips" in tip
    surf = pygame.Surface(app.size)
    box = scene.tip.draw(surf)
    assert box is not None and surf.get_rect().contains(box)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(2, app.size[1] // 2), rel=(0, 0), buttons=(0, 0, 0)))
    app.sample()
    assert scene.tip.text() is None
