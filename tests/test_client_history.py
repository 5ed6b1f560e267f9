"""The history of a table: every narrated line of the match is kept (bounded) under its
round and turn; the message column scrolls back with the wheel and Page Up / Page Down;
M (or a click on the column) opens the full history view, which scrolls with the wheel,
Page Up / Page Down, Home / End and its scroll bar, and closes with M or Esc -- for a
player, a spectator (the TV view) and in replays."""
from __future__ import annotations

import functools

import pygame
import pytest

from client import games
from client.scenes.replay import ReplayScene, load
from client.table.history import LIMIT, History
from shared.bots import make_bot
from shared.games import get_game
from shared.rules import events_for
from shared.sim import play_match
from tests.test_client_app import key, make_app
from tests.test_client_fit import _Link, _seats
from tests.test_client_replay import write_log

GAMES = {"omerta": 4, "famiglia": 2, "family_business": 4, "mafiosi": 4}


@functools.lru_cache(maxsize=None)
def match(name: str, seed: int = 3):
    """``[(view before, view after, events as seat 0 and as a spectator get them)]`` of a
    seeded bot match."""
    seats = GAMES[name]
    rules = get_game(name)
    record = play_match(rules, {"seats": seats}, seed,
                        [make_bot(name, p, f"{seed}/{p}", {"think_ms": 0}) for p in range(seats)])
    state = rules.new_match({"seats": seats}, seed)
    out = []
    for seat, action in record.log:
        before = state
        state, events = rules.apply(state, seat, action)
        out.append((before, state, events))
    return out


def open_table(app, name: str, seat: int | None, steps: int):
    """``name``'s table for ``seat`` (None: a spectator, the TV view) after ``steps``
    updates of the seeded match, as the server would send them."""
    rules = get_game(name)
    played = match(name)[:steps]
    first = played[0][0]
    started = {"type": "match_started", "table": 3, "game": name, "seat": seat, "view": rules.view(first, seat),
               "legal": [], "t_server": 0.0, "seats": _seats(GAMES[name]), "name": "Friday night"}
    link = _Link()
    scene = app.reset(games.get(name).table_scene(app, link, started))
    assert scene.column.visible()[-1][0] == "M or a click here: the whole match history · wheel: scroll back"
    scene.t = 20_000.0  # that note is gone: the column shows the history alone
    for _before, state, events in played:
        scene.on_message({"type": "update", "table": 3, "events": events_for(events, seat),
                          "view": rules.view(state, seat), "legal": []}, link)
    return scene


def wheel(scene, pos, dy):
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)), 0.0)
    scene.handle_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=dy, flipped=False), 0.0)


def press(scene, k):
    scene.handle_event(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0), 0.0)


# -- the history itself ---------------------------------------------------------------

def test_rows_sit_under_a_header_for_each_round_and_turn():
    h = History(lambda m: f"R{m[0]} T{m[1]}")
    h.add((1, None), "dealt", (1, 1, 1))
    h.add((1, 1), "Ann draws", (1, 1, 1))
    h.add((1, 1), "Ann discards", (1, 1, 1))
    h.add((1, 2), "Bob draws", (1, 1, 1))
    assert [r[0] for r in h.rows] == ["R1 TNone", "dealt", "R1 T1", "Ann draws", "Ann discards", "R1 T2", "Bob draws"]
    assert h.lines() == [(1, None, "dealt"), (1, 1, "Ann draws"), (1, 1, "Ann discards"), (1, 2, "Bob draws")]
    assert h.truncate(5) and h.lines()[-1] == (1, 1, "Ann discards") and h.total == 5
    h.add((1, 2), "Bob draws", (1, 1, 1))
    assert h.rows[-2][0] == "R1 T2"  # the header comes back with the turn


def test_a_long_evening_keeps_a_bounded_history():
    h = History(lambda m: "head")
    for i in range(5 * LIMIT):
        h.add((1, i // 3), f"line {i}", (1, 1, 1))
    assert LIMIT <= len(h) <= LIMIT * 1.1 and len(h.rows) == len(h.marks)
    assert h.rows[-1][0] == f"line {5 * LIMIT - 1}" and h.total > 6 * LIMIT
    assert not h.truncate(10)  # old rows are gone: a replay tells its steps afresh


# -- a table ---------------------------------------------------------------------------

@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path, (1280, 720))
    yield app
    app.display.set_language("en")


def test_a_player_keeps_every_line_with_its_round_and_turn(app):
    scene = open_table(app, "omerta", 0, 120)
    lines = scene.column.history.lines()
    assert len(lines) > 40  # far more than the six the column shows
    rounds_turns = {(r, t) for r, t, _ in lines}
    assert len({t for _r, t in rounds_turns if t}) > 8
    heads = [row[0] for row, mark in zip(scene.column.history.rows, scene.column.history.marks) if mark.header]
    assert "Round 1 · Turn 3" in heads
    # a draw is told under the turn of the player who drew
    rules = get_game("omerta")
    for before, _state, events in match("omerta")[:120]:
        for ev in events_for(events, None):
            if ev["type"] == "draw":
                name = scene.roster.seat_name(ev["seat"])
                view = rules.view(before, None)
                assert any(t == view["turn_no"] and r == view["round"] and text.startswith(name)
                           for r, t, text in lines)
    assert scene.column.visible()[-1] is scene.column.history.rows[-1]  # the column shows the newest


def test_the_column_scrolls_back_with_the_wheel_and_the_page_keys(app):
    scene = open_table(app, "omerta", 0, 120)
    column = scene.layout.info
    newest = scene.column.history.rows[-1]
    wheel(scene, column.center, 2)
    assert scene.column.scroll == 6
    shown = scene.column.visible()
    assert newest not in shown and shown[-1][0] == "+6 newer lines: wheel down"
    app.display.render(1 / 60, flip=False)
    wheel(scene, (column.right + 40, column.centery), -2)  # not over the column: nothing
    assert scene.column.scroll == 6
    press(scene, pygame.K_PAGEDOWN)
    press(scene, pygame.K_PAGEDOWN)
    assert scene.column.scroll == 0 and scene.column.visible()[-1] is newest
    press(scene, pygame.K_PAGEUP)
    rules = get_game("omerta")
    _b, state, events = match("omerta")[120]
    scene.on_message({"type": "update", "table": 3, "events": events_for(events, 0), "view": rules.view(state, 0),
                      "legal": []}, scene.display)
    assert scene.column.visible()[:-1] == scene.column.history.rows[-40 - scene.column.scroll:-scene.column.scroll]


def test_the_full_view_opens_scrolls_and_closes(app):
    scene = open_table(app, "omerta", 0, 200)
    view = scene.history
    press(scene, pygame.K_m)
    assert view.open and view.bar is not None
    app.display.render(1 / 60, flip=False)
    assert scene.draw_partial(app.display.screen) is None  # drawn whole while open
    follow = view._first()
    assert follow > 0 and view.top is None
    press(scene, pygame.K_PAGEUP)
    assert view.top is not None and view.top < follow
    scene.update(1 / 60)
    assert view.bar.start_percentage < 1.0 - view.bar.visible_percentage  # the bar follows
    wheel(scene, view.body().center, -1)
    press(scene, pygame.K_HOME)
    assert view._first() == 0
    app.display.render(1 / 60, flip=False)
    wheel(scene, view.body().center, -100)
    assert view.top is None  # back at the newest: it follows them again
    view.bar.set_scroll_from_start_percentage(0.25)  # a drag of the bar
    scene.update(1 / 60)
    assert view.top == pytest.approx(0.25 * len(scene.column.history), abs=1)
    press(scene, pygame.K_ESCAPE)
    assert not view.open and view.bar is None and scene.keys._esc_until == 0.0  # Esc closed it, nothing else
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=scene.layout.info.center, button=1), 0.0)
    assert view.open  # a click on the column opens it
    press(scene, pygame.K_m)
    assert not view.open


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_full_view_leaves_a_seated_player_his_cards_buttons_and_keys(app, name):
    scene = open_table(app, name, 0, 30)
    press(scene, pygame.K_m)
    assert scene.history.open
    rect = scene.history.rect()
    assert not [b for b in scene.buttons.values() if rect.colliderect(b.rect)]
    assert not rect.colliderect(scene.layout.info)  # the column stays in sight below it
    bar = scene.emotes.bar_rect()
    assert bar is None or not rect.colliderect(bar)
    press(scene, pygame.K_SPACE)  # the table's own keys still reach it
    assert scene.history.open


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_keeps_its_history_for_a_spectator(app, name):
    scene = open_table(app, name, None, 80)
    assert scene.public
    lines = scene.column.history.lines()
    assert len(lines) > 12
    assert any(t is not None for _r, t, _ in lines)
    heads = [row[0] for row, mark in zip(scene.column.history.rows, scene.column.history.marks) if mark.header]
    assert heads and all(h for h in heads)
    press(scene, pygame.K_m)
    app.display.render(1 / 60, flip=False)
    assert scene.history.open and scene.history.rect().contains(scene.history.body())
    press(scene, pygame.K_m)


def test_mafiosi_counts_tricks(app):
    scene = open_table(app, "mafiosi", None, 80)
    heads = [row[0] for row, mark in zip(scene.column.history.rows, scene.column.history.marks) if mark.header]
    assert "Round 1 · Trick 2" in heads


def test_a_replay_keeps_the_history_of_the_steps_shown(app, tmp_path):
    path, record = write_log(tmp_path, game="omerta", seats=4, seed=3)
    scene = app.push(ReplayScene(app, load(str(path)), path.name))
    history = scene.table.column.history
    key(pygame.K_PAGEDOWN)
    key(pygame.K_PAGEDOWN)
    app.sample()
    assert scene.step == 20
    told = list(history.rows)
    assert len(told) > 6
    key(pygame.K_RIGHT)
    app.sample()
    assert scene.step == 21 and history.rows[:len(told)] == told
    key(pygame.K_LEFT)
    key(pygame.K_LEFT)
    app.sample()
    assert scene.step == 19 and len(history.rows) < len(told)
    key(pygame.K_PAGEDOWN)
    app.sample()
    assert scene.step == 29
    fresh = ReplayScene(app, load(str(path)), path.name)
    fresh.seek(29)  # told in one go: the same rows
    assert fresh.table.column.history.rows == history.rows
    key(pygame.K_m)
    app.sample()
    assert scene.table.history.open
    key(pygame.K_PAGEUP)  # scrolls the history, does not seek
    key(pygame.K_ESCAPE)  # closes the history, does not leave
    app.sample()
    app.display.render(1 / 60, flip=False)
    assert scene.step == 29 and app.top is scene and not scene.table.history.open
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=scene.table.layout.info.center, rel=(0, 0),
                                          buttons=(0, 0, 0)), 0.0)
    scene.handle_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False), 0.0)
    assert scene.table.column.scroll == 3
