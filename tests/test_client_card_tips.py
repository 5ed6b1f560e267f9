"""Card tips (issue 13): the mouse resting on a face-up card of a Famiglia, Family
Business or Mafiosi table (as Omerta's) shows what the card does, from the game's own
rule strings, in English and French; a long press shows it too (a touch screen has no
hover), a short tap does not."""
from __future__ import annotations

import pygame
import pytest

from client import i18n
from client.input import now_ms
from client.table import tips
from shared.games import famiglia as fg
from shared.games import family_business as fb
from shared.games import mafiosi as maf
from tests.test_client_app import make_app


def rest_mouse(app, scene, pos):
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)), now_ms())
    app.display.render(1 / 60, flip=False)


def first_tip(app, scene):
    """(pos, tip) of the first card place whose tip shows, scanning the layout's cards."""
    for place, rect in scene.card_rects().items():
        rest_mouse(app, scene, rect.center)
        tip = scene.tip.text()
        if tip:
            return rect.center, tip, place
    return None, None, None


def famiglia_scene(app):
    from tests.test_client_famiglia import open_famiglia

    return open_famiglia(app, fg.new_match({"first_player": 0}, 3), 0)[0]


def fb_scene(app):
    from tests.test_client_family_business import open_fb

    return open_fb(app, fb.new_match({"seats": 3}, 4), 0)[0]


def mafiosi_scene(app):
    from tests.test_client_mafiosi import open_table

    return open_table(app, maf.new_match({"seats": 4}, 4), 0)[0]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("make,expect", [
    (famiglia_scene, {"en": "Family", "fr": "Famille"}),
    (fb_scene, None),
    (mafiosi_scene, None),
])
def test_resting_on_a_card_shows_what_it_does(tmp_path, lang, make, expect):
    try:
        app = make_app(tmp_path)
        i18n.setup(lang)  # the window opened in English
        scene = make(app)
        pos, tip, place = first_tip(app, scene)
        assert tip, f"no card of {type(scene).__name__} has a tip"
        assert tip == scene.card_help(scene.hover_card_at(pos))
        assert " — " in tip and not tip.startswith(("rules_", "mafia."))
        drawn = scene.tip.draw(app.display.screen)
        assert drawn is not None and app.display.screen.get_rect().contains(drawn)
        # off the cards: no tip
        rest_mouse(app, scene, (1, app.size[1] // 2))
        assert scene.tip.text() is None
    finally:
        i18n.setup("en")


def test_the_tips_differ_between_english_and_french(tmp_path):
    tips_by_lang = {}
    for lang in ("en", "fr"):
        try:
            app = make_app(tmp_path)
            i18n.setup(lang)
            scene = fb_scene(app)
            tips_by_lang[lang] = first_tip(app, scene)[1]
        finally:
            i18n.setup("en")
    assert tips_by_lang["en"] and tips_by_lang["fr"] and tips_by_lang["en"] != tips_by_lang["fr"]


def test_a_long_press_shows_the_tip_and_a_tap_does_not(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    scene = fb_scene(app)
    pos, tip, _place = first_tip(app, scene)
    assert tip
    rest_mouse(app, scene, (1, 1))  # the pointer leaves; a finger lands on the card
    clock = [1000.0]
    monkeypatch.setattr("client.table.tips.now_ms", lambda: clock[0])
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=True)
    scene.handle_event(down, clock[0])
    assert scene.tip.text() is None  # a tap so far
    assert scene.animating()  # the frame rate stays up until the tip can show
    clock[0] += tips.LONG_PRESS_MS + 10
    assert scene.tip.text() == tip
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=True), clock[0])
    assert scene.tip.text() is None  # the finger is lifted: nothing rests on the card
