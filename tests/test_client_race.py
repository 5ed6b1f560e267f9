"""The photo finish (docs/PROTOCOL.md ``race``) in the generic table kit: the claimants'
reaction times side by side with names and the winner's margin, for a few seconds, in
English and French; the results boards show each player's median snap reaction
(``match_over.reactions``). Headless (``SDL_VIDEODRIVER=dummy``)."""
from __future__ import annotations

import pygame
import pytest

from client import i18n, text
from client.table import race as race_mod
from client.table.race import PhotoFinish, ms_text
from tests.test_client_app import make_app, open_table, snap_window_state

RACE = {"type": "race", "table": 9, "window": 1, "winner": 1, "margin_ms": 5.0,
        "claims": [{"seat": 2, "reaction_ms": 236.4, "outcome": "too_slow"},
                   {"seat": 1, "reaction_ms": 231.2, "outcome": "won"}]}


def _named(app, scene):
    app.tables[9] = {"id": 9, "seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Lena"},
                                        {"seat": 2, "name": "Marc"}]}


class RenderSpy:
    """Records the text rendered while it is installed."""

    def __init__(self, monkeypatch):
        self.texts: list[str] = []
        real = text.render

        def render(s, *a, **kw):
            self.texts.append(s)
            return real(s, *a, **kw)

        monkeypatch.setattr(text, "render", render)
        monkeypatch.setattr(race_mod.text, "render", render)

    def joined(self) -> str:
        return " | ".join(self.texts)


def test_photo_finish_words_in_english_and_french():
    names = {1: "Lena", 2: "Marc"}.get
    try:
        i18n.setup("en")
        r = PhotoFinish.from_message(RACE, names, 0.0)
        assert r.line() == "Lena 231 ms · Marc 236 ms"  # fastest first
        assert r.verdict() == "Lena wins by 5 ms"
        i18n.setup("fr")
        assert r.verdict() == "Lena gagne de 5 ms"
        assert ms_text(0.4) == "0,4"
        alone = PhotoFinish.from_message({"window": 2, "winner": 1, "margin_ms": None,
                                          "claims": [{"seat": 1, "reaction_ms": 250, "outcome": "won"}]}, names, 0.0)
        assert alone.verdict() == "Lena gagne"
        wrong = PhotoFinish.from_message({"window": 3, "winner": None, "margin_ms": None,
                                          "claims": [{"seat": 2, "reaction_ms": 198, "outcome": "wrong"}]}, names, 0.0)
        assert wrong.line() == "Marc 198 ms (mauvaise carte)"
        assert wrong.verdict() == "Personne n'avait la bonne carte"
    finally:
        i18n.setup("en")
    assert ms_text(0.4) == "0.4" and ms_text(5.0) == "5" and ms_text(12.6) == "13"
    assert PhotoFinish.from_message({"claims": [{"seat": "x"}]}, names, 0.0) is None


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_race_shows_its_photo_finish_for_a_few_seconds_beside_the_discard_pile(tmp_path, monkeypatch, size):
    app = make_app(tmp_path, size)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    _named(app, scene)
    app.display.render(1 / 60, flip=False)
    spy = RenderSpy(monkeypatch)
    scene.on_message(dict(RACE), link)
    app.display.render(1 / 60, flip=False)
    assert "Lena 231 ms" in spy.texts and "Marc 236 ms" in spy.texts
    assert "Lena wins by 5 ms" in spy.texts
    box = scene.draw_race(app.display.screen)
    assert box is not None and app.display.screen.get_rect().contains(box)
    assert not box.colliderect(scene.layout.discard)  # never hides the next window's card
    assert box.h >= size[1] * 0.08  # readable from a sofa
    # the same race received on a second connection (couch play) is not shown twice
    first = scene.race
    scene.on_message(dict(RACE), link)
    assert scene.race is first
    # a few seconds later it is gone
    for _ in range(int(race_mod.RACE_MS / 100) + 2):
        app.display.render(0.1, flip=False)
    spy.texts.clear()
    app.display.render(1 / 60, flip=False)
    assert "Lena 231 ms" not in spy.texts
    assert scene.draw_race(app.display.screen) is None


def test_photo_finish_is_painted_once_per_frame_over_the_game(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    calls = []
    real = scene.draw_race
    monkeypatch.setattr(scene, "draw_race", lambda s: calls.append(1) or real(s))
    scene.on_message(dict(RACE), link)
    app.display.render(1 / 60, flip=False)
    assert calls == [1]
    # the top-left pixel of the panel is painted after (over) the table
    box = real(app.display.screen)
    assert box is not None


def test_the_card_tip_is_painted_over_the_photo_finish(tmp_path, monkeypatch):
    """A tip the mouse asked for over the discard pile is read whole: the photo finish
    beside the pile is painted before it, not over it."""
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    order = []
    real_race, real_tip = scene.draw_race, scene.tip.draw_on_top
    monkeypatch.setattr(scene, "draw_race", lambda s: order.append("race") or real_race(s))
    monkeypatch.setattr(scene.tip, "draw_on_top", lambda s: order.append("tip") or real_tip(s))
    scene.on_message(dict(RACE), link)
    app.display.render(1 / 60, flip=False)
    assert order == ["race", "tip"]


def test_results_show_each_players_median_snap_reaction(tmp_path, monkeypatch):
    from client.games.omerta.results import ResultsScene

    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    _named(app, scene)
    # between rounds: the medians of the races seen so far
    scene.on_message(dict(RACE), link)
    scene.on_message(dict(RACE, window=2, claims=[{"seat": 1, "reaction_ms": 251.0, "outcome": "won"}]), link)
    assert scene.median_reaction(1) == pytest.approx((231.2 + 251.0) / 2)
    assert scene.median_reaction(0) is None
    # the match is over: the server's medians
    scene.on_message({"type": "match_over", "table": 9, "result": {"winners": [1], "scores": [3, 0, 5]},
                      "reactions": [None, 240.6, 262.0]}, link)
    assert scene.match_reactions == [None, 240.6, 262.0]
    results = next((s for s in app.scenes if isinstance(s, ResultsScene)), None)
    if results is None:
        results = app.push(ResultsScene(app, scene, {"round": 1, "totals": [3, 0, 5]}, final=True,
                                        result=scene.match_result))
    spy = RenderSpy(monkeypatch)
    app.display.render(1 / 60, flip=False)
    assert "241 ms" in spy.texts and "262 ms" in spy.texts and "—" in spy.texts
    assert "Snap reaction" in spy.texts
    # the generic line of the kit's overlay
    spy.texts.clear()
    r = results.draw_reactions(app.display.screen, pygame.Rect(0, 0, 1200, 40), 20)
    assert r is not None
    assert spy.texts == ["Median snap reaction: Ann — · Lena (you) 241 ms · Marc 262 ms"] or \
        spy.texts == ["Median snap reaction: Ann (you) — · Lena 241 ms · Marc 262 ms"]


def test_photo_finish_keeps_its_rounded_corners_frame_after_frame(tmp_path):
    """The panel is painted once per race and reused: shown at full strength its
    transparent corners must stay transparent (``set_alpha(None)`` on a per-pixel-alpha
    surface would paint them black from the second frame on)."""
    make_app(tmp_path)
    race = PhotoFinish.from_message(RACE, lambda seat: f"P{seat}", 0.0)
    surf = pygame.Surface((800, 450))
    area = pygame.Rect(200, 100, 400, 200)
    for t in (1000.0, race.until - 50.0, 1100.0):  # full, fading, full again
        surf.fill((10, 120, 40))
        box = race_mod.draw_photo_finish(surf, area, race, t, 30)
        assert surf.get_at(box.topleft)[:3] == (10, 120, 40)
        assert surf.get_at(box.center)[:3] != (10, 120, 40)


def test_a_notice_over_a_table_sits_on_its_prompt_banner_not_on_the_top_seat(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    boxes = []
    real_rect = pygame.draw.rect
    monkeypatch.setattr(pygame.draw, "rect", lambda surf, colour, rect, *a, **kw:
                        boxes.append((tuple(colour), pygame.Rect(rect))) or real_rect(surf, colour, rect, *a, **kw))
    app.notify("The server is restarting: your seat is kept")
    app.display.render(1 / 60, flip=False)
    box = next(r for c, r in boxes if c == (20, 10, 8))
    assert box.center == scene.layout.banner.center
    top = min(scene.layout.seats.values(), key=lambda a: a.plate.y).plate
    assert not box.colliderect(top)
