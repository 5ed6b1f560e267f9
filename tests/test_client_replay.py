"""Replays: a match log written with shared.matchlog from a shared.sim match opens on
the game's table; keys, the progress bar and playback move through the steps, showing the
public view of an unfinished match and every card of a finished one; a truncated log
opens with its warning on screen."""
from __future__ import annotations

import functools

import pygame
import pytest

from client.scenes.replay import ReplayScene, load
from shared import matchlog
from shared.bots import make_bot
from shared.games import get_game
from shared.sim import play_match
from tests.test_client_app import click, key, make_app

STEP_MS = 900.0  # the records' t: one action every 0.9 s


@functools.lru_cache(maxsize=None)
def _match(game, seats, seed):
    bots = [make_bot(game, p, f"{seed}/{p}", {"think_ms": 0}) for p in range(seats)]
    return play_match(get_game(game), {"seats": seats}, seed, bots)


def write_log(tmp_path, game="famiglia", seats=2, seed=4, finished=True, cut=0):
    rules = get_game(game)
    config = {"seats": seats}
    record = _match(game, seats, seed)
    names = [{"seat": p, "name": f"P{p}", "bot": p > 0, "token": f"t{p}"} for p in range(seats)]
    text = matchlog.line(matchlog.header(game, config, seed, 7, "Friday", names))
    for step, (seat, action) in enumerate(record.log, start=1):
        text += matchlog.line(matchlog.action_record(step, seat, action, step * STEP_MS))
    if finished:
        text += matchlog.line({"kind": "over", "result": {"game": game, **rules.scores(record.state)},
                               "t": (len(record.log) + 1) * STEP_MS})
    path = tmp_path / f"{game}.jsonl"
    path.write_bytes(text.encode()[:len(text.encode()) - cut])
    return path, record


def states(game, log):
    return [s for s, *_ in matchlog.replay(get_game(game), log)]


def test_steps_and_seeks_over_a_finished_famiglia_log(tmp_path):
    from client.games.famiglia.table import FamigliaTableScene

    path, record = write_log(tmp_path)
    app = make_app(tmp_path)
    log = load(str(path))
    scene = app.push(ReplayScene(app, log, path.name))
    rules = get_game("famiglia")
    expected = states("famiglia", log)
    assert isinstance(scene.table, FamigliaTableScene) and scene.table.replay
    assert scene.last == len(record.log) and scene.finished and not scene.warnings
    assert scene.table.view == rules.full_view(expected[0])  # finished: every card face up
    assert all(p["hand"] is not None for p in scene.table.view["players"])
    assert scene.table.roster.seat_name(1) == "P1"  # names from the log's header
    app.display.render(1 / 60, flip=False)

    key(pygame.K_RIGHT)  # one step, animated
    app.sample()
    assert scene.step == 1 and scene.table.view == rules.full_view(expected[1])
    assert scene.table.anim.effects  # its events fly
    key(pygame.K_PAGEDOWN)
    app.sample()
    assert scene.step == 11 and scene.table.view == rules.full_view(expected[11])
    assert not scene.table.anim.effects  # seeking jumps
    key(pygame.K_PAGEUP)
    key(pygame.K_LEFT)
    app.sample()
    assert scene.step == 0
    key(pygame.K_END)
    app.sample()
    assert scene.step == scene.last and scene.table.view["phase"] == "over"
    assert "Winner" in scene._result_line()
    key(pygame.K_HOME)
    app.sample()
    assert scene.step == 0
    app.display.render(1 / 60, flip=False)
    bar = scene.progress_rect()
    click((bar.x + bar.w // 2, bar.centery))  # the progress bar seeks
    app.sample()
    assert scene.step == round(scene.last / 2)
    app.display.render(1 / 60, flip=False)


def test_playback_is_paced_by_the_records_times(tmp_path):
    path, _ = write_log(tmp_path)
    app = make_app(tmp_path)
    scene = app.push(ReplayScene(app, load(str(path))))
    key(pygame.K_SPACE)
    app.sample()
    assert scene.playing
    scene.update(0.5)  # the first step comes at once (at most 0.4 s)
    assert scene.step == 1
    scene.update(0.8)
    assert scene.step == 1
    scene.update(0.15)  # 0.9 s after step 1
    assert scene.step == 2
    key(pygame.K_PLUS)
    key(pygame.K_PLUS)  # 4x: a step every 0.225 s
    app.sample()
    assert scene.speed == 4.0
    scene.wait_ms = scene._gap()
    scene.update(0.23)
    assert scene.step == 3
    key(pygame.K_MINUS)
    app.sample()
    assert scene.speed == 2.0
    key(pygame.K_SPACE)
    app.sample()
    scene.update(5.0)
    assert not scene.playing and scene.step == 3
    scene.seek(scene.last - 1)
    scene.toggle()
    scene.update(3.0)
    assert scene.step == scene.last and not scene.playing  # stops at the end


def test_an_unfinished_omerta_log_shows_the_public_view(tmp_path):
    from client.games.omerta.table import OmertaTableScene

    path, record = write_log(tmp_path, "omerta", 3, seed=2, finished=False)
    app = make_app(tmp_path)
    log = load(str(path))
    scene = app.push(ReplayScene(app, log))
    assert isinstance(scene.table, OmertaTableScene) and not scene.finished
    expected = states("omerta", log)
    scene.seek(30)
    assert scene.table.view == get_game("omerta").view(expected[30], None)
    assert not any("card" in s for p in scene.table.view["players"] for s in p["slots"])
    for _ in range(3):
        key(pygame.K_RIGHT)
        app.sample()
        app.display.render(1 / 60, flip=False)
    assert scene.step == 33


def test_a_truncated_log_opens_with_a_warning(tmp_path):
    path, record = write_log(tmp_path, cut=30, finished=False)
    app = make_app(tmp_path)
    log = load(str(path))
    scene = app.push(ReplayScene(app, log))
    assert scene.last == len(record.log) - 1
    assert scene.warnings and "cut off" in scene.warnings[0]
    assert app.display.notice is not None and "cut off" in app.display.notice[0]
    app.display.render(1 / 60, flip=False)


def test_the_command_line_opens_a_replay_or_says_why_not(tmp_path):
    from client.app import build_app
    from twisted.internet import reactor

    path, _ = write_log(tmp_path)
    app = build_app(["--replay", str(path), "--settings", str(tmp_path / "s.json")], reactor)
    assert app.replay_log[0].finished and app.replay_log[1] == "famiglia.jsonl"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a log\n")
    with pytest.raises(SystemExit, match="not a usable match log"):
        build_app(["--replay", str(bad)], reactor)
    with pytest.raises(SystemExit, match="cannot read"):
        build_app(["--replay", str(tmp_path / "missing.jsonl")], reactor)


def test_a_finished_omerta_log_draws_every_card_face_up(tmp_path):
    path, _ = write_log(tmp_path, "omerta", 3, seed=2, finished=True)
    app = make_app(tmp_path)
    scene = app.push(ReplayScene(app, load(str(path))))
    scene.seek(20)
    view = scene.table.view
    faces = {str(s["card"]) for p in view["players"] for s in p["slots"]}
    assert faces and all("card" in s for p in view["players"] for s in p["slots"])
    drawn = []
    real = app.art.shadowed
    app.art.shadowed = lambda card, w, h: (drawn.append(card), real(card, w, h))[1]
    for _ in range(3):
        app.display.render(1 / 60, flip=False)
    shown = {str(c) for c in drawn if c is not None}
    assert faces <= shown  # every slot's card, face up
    assert str(view["draw_pile_cards"][0]) in shown  # and the top of the draw pile
