"""The client end to end under the dummy SDL driver: the real embedded server, real
TCP on loopback, bots in-process; and the claim path from a stamped key press to
``send_action``."""
from __future__ import annotations

import contextlib

import pygame
import pytest
import pytest_twisted
from twisted.internet import defer, task

from client.app import App
from client.input import InputSampler, now_ms
from client.settings import Settings
from shared.config import merge
from shared.games import omerta


def _config():
    return merge({"server": {"host": "127.0.0.1", "port": 0, "discovery_port": 0},
                  "bots": {"think_ms": 0}})


def make_app(tmp_path, size=(1280, 720)):
    from twisted.internet import reactor

    settings = Settings(name="Tester", width=size[0], height=size[1], language="en")
    app = App(_config(), settings, reactor, settings_path=str(tmp_path / "settings.json"))
    app.open_window()
    app.running = True
    return app


@contextlib.contextmanager
def menu_app(tmp_path, size=(1280, 720)):
    """An app showing the main menu (start its server with ``app.connections.start()``); its
    connections are closed on the way out."""
    from client.scenes.menu import MenuScene

    app = make_app(tmp_path, size)
    try:
        app.push(MenuScene(app))
        yield app
    finally:
        for link in list(app.connections.links):
            app.connections.close_link(link)
        app.running = False


def click(pos, button=1):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def key(k):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))


@defer.inlineCallbacks
def until(app, cond, timeout=8.0):
    """Run the client's input and frames until ``cond()``; fail after ``timeout`` s."""
    from twisted.internet import reactor

    end = now_ms() + timeout * 1000
    while not cond():
        assert now_ms() < end, "timed out"
        app.sample()
        app.display.render(1 / 60, flip=False)
        yield task.deferLater(reactor, 0.005, lambda: None)


@pytest_twisted.inlineCallbacks
def test_quick_game_starts_a_match(tmp_path):
    from client.games.omerta.table import OmertaTableScene

    with menu_app(tmp_path) as app:
        link = yield app.connections.start()
        assert app.connections.server_port and link.conn is not None
        app.display.render(1 / 60, flip=False)
        click(app.top.b_quick.rect.center)  # one click
        yield until(app, lambda: isinstance(app.top, OmertaTableScene))
        table = app.top
        assert table.me == 0 and table.view["seats"] == 4
        assert table.view["phase"] == "peek"
        assert {a["type"] for a in table.legal[0]} == {"peek"}
        seats = app.tables[table.table_id]["seats"]
        assert [s["bot"] for s in seats] == [False, True, True, True]
        # peek by clicking two of our cards: the server answers with our two faces
        mine = table.own_slots(0)
        click(table.layout.slot_rect(mine[0]).center)
        click(table.layout.slot_rect(mine[2]).center)
        yield until(app, lambda: any(ev for ev in table.anim.effects
                                     if getattr(ev, "private", False)), timeout=5)
        revealed = {e.place for e in table.anim.effects if getattr(e, "private", False)}
        assert revealed == {("slot", mine[0]), ("slot", mine[2])}


# -- the claim path -------------------------------------------------------------------

# seat 0: 7 1 2 3 | seat 1: 4 5 6 8 | seat 2: 9 10 1 2 | safe | draw pile: 7 first
DECK = ["7", "1", "2", "3", "4", "5", "6", "8", "9", "10", "1", "2", "2", "3", "4", "5", "7"]


def snap_window_state(seats=3):
    """A match where seat 1 has just discarded a 7: a snap window is open."""
    s = omerta.new_match({"seats": seats, "deck": DECK, "first_player": 1}, 1)
    for p in range(seats):
        s, _ = omerta.apply(s, p, omerta.Peek((4 * p, 4 * p + 1)))
    s, _ = omerta.apply(s, 1, omerta.DrawDeck())
    s, events = omerta.apply(s, 1, omerta.DiscardDrawn())
    assert omerta.reaction_window(s) is not None
    return s, events


class FakeConn:
    """Records what the table sends (a ClientProtocol stand-in)."""

    def __init__(self):
        self.sent = []

    def send_action(self, table, action, t_press=None, t_shown=None):
        self.sent.append({"table": table, "action": action, "t_press": t_press, "t_shown": t_shown})
        return defer.Deferred()

    def request(self, *a, **kw):
        return defer.Deferred()


class FakeLink:
    def __init__(self, seat):
        self.conn = FakeConn()
        self.address = ("127.0.0.1", 1)
        self.name = f"P{seat}"

    def request(self, *a, **kw):
        return defer.Deferred()


def open_table(app, state, seat, events=()):
    from client.games.omerta.table import OmertaTableScene

    link = FakeLink(seat)
    started = {"type": "match_started", "table": 9, "game": "omerta", "seat": seat,
               "view": omerta.view(state, seat),
               "legal": [a.to_dict() for a in omerta.legal_actions(state, seat)], "t_server": 0.0}
    scene = app.reset(OmertaTableScene(app, link, started))
    if events:
        from shared.rules import events_for

        scene.on_message({"type": "update", "table": 9, "events": events_for(events, seat),
                          "view": omerta.view(state, seat),
                          "legal": [a.to_dict() for a in omerta.legal_actions(state, seat)]}, link)
    return scene, link


class StampClock(InputSampler):
    """The real sampler, recording the stamp it gives every event it returns."""

    def __init__(self):
        super().__init__()
        self.stamps = []

    def poll(self, floor_ms=0.0):
        out = super().poll(floor_ms)
        self.stamps.extend(t for _, t in out)
        return out


def test_snap_key_sends_a_claim_stamped_by_the_sampler(tmp_path):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    for _ in range(40):  # the discarded 7 lands face up: t_shown is recorded
        app.display.render(1 / 60, flip=False)
    assert scene.window_shown_ms, "the window's card was never shown"
    clock = app.sampler = StampClock()
    key(pygame.K_1)  # choose our first card (the 7)
    key(pygame.K_SPACE)  # snap
    app.sample()
    assert len(link.conn.sent) == 1
    sent = link.conn.sent[0]
    assert sent["action"] == {"type": "snap", "slot": 0}
    assert sent["t_press"] == clock.stamps[-1]  # the stamp of the poll that found the key
    wid = state.window.id
    assert sent["t_shown"] == scene.window_shown_ms[wid] <= sent["t_press"]


def test_right_click_snaps_that_card_and_enter_passes(tmp_path):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 2, events)
    app.display.render(1 / 60, flip=False)
    clock = app.sampler = StampClock()
    sid = scene.own_slots(2)[3]
    click(scene.layout.slot_rect(sid).center, button=3)
    app.sample()
    assert link.conn.sent[-1]["action"] == {"type": "snap", "slot": sid}
    assert link.conn.sent[-1]["t_press"] == clock.stamps[-1]
    # a second seat's view of the same window: Enter answers "no snap" without a stamp
    scene, link = open_table(app, state, 1, events)
    key(pygame.K_RETURN)
    app.sample()
    assert link.conn.sent == [{"table": 9, "action": {"type": "snap_pass"}, "t_press": None, "t_shown": None}]


def test_snap_without_a_chosen_card_sends_nothing(tmp_path):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    key(pygame.K_SPACE)
    app.sample()
    assert link.conn.sent == []
    assert any("Choose one of your cards" in m[0] for m in scene.column.messages)


def test_buttons_follow_the_legal_actions(tmp_path):
    app = make_app(tmp_path)
    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0}, 1)
    for p in range(3):
        s, _ = omerta.apply(s, p, omerta.Peek((4 * p, 4 * p + 1)))
    scene, link = open_table(app, s, 0)
    labels = {b.text for b in scene.ui}
    assert labels == {"mafia.act.declare_omerta", "mafia.act.draw_deck"}
    click(scene.layout.draw_pile.center)  # the draw pile is a button too
    app.sample()
    assert link.conn.sent[-1]["action"] == {"type": "draw_deck"}
    assert {b.text for b in scene.ui} == set()  # nothing to press until the server answers
    scene2, link2 = open_table(app, s, 1)  # not our turn: no buttons
    assert scene2.ui == []


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_table_draws_at_several_sizes_and_resizes(tmp_path, size):
    app = make_app(tmp_path, size)
    state, events = snap_window_state(4)
    scene, _ = open_table(app, state, 0, events)
    for _ in range(5):
        app.display.render(1 / 60, flip=False)
    app.display.resize((1600, 900))
    assert scene.layout.size == (1600, 900)
    app.display.render(1 / 60, flip=False)


def test_f11_toggles_fullscreen_and_back_to_the_window_size(tmp_path):
    from client.scenes.menu import MenuScene

    app = make_app(tmp_path, (1280, 720))
    app.push(MenuScene(app))
    key(pygame.K_F11)
    app.sample()
    assert app.display.fullscreen and app.settings.fullscreen
    assert pygame.display.get_surface().get_flags() & pygame.FULLSCREEN
    app.display.render(1 / 60, flip=False)
    key(pygame.K_F11)
    app.sample()
    assert not app.display.fullscreen and app.size == (1280, 720) == pygame.display.get_surface().get_size()
    assert app.top.ui  # the menu rebuilt its buttons for the new size


def test_frame_time_benchmark_runs(capsys):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "frame_time.py"
    spec = importlib.util.spec_from_file_location("frame_time", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--frames", "30", "--size", "1280x720"]) == 0
    out = capsys.readouterr().out
    assert "p50" in out and "p99" in out


def test_help_starts_with_the_usage_not_pygames_banner():
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    out = subprocess.run([sys.executable, "-c", "from client.app import main; main(['--help'])"],
                         cwd=Path(__file__).resolve().parent.parent, env=env, capture_output=True, text=True)
    assert out.stdout.startswith("usage: "), out.stdout[:80]
    assert "pygame-ce" not in out.stdout + out.stderr


def test_config_errors_name_the_file_and_the_reason(tmp_path):
    import pytest
    from client.config import ConfigError, load_config
    assert load_config(None)["server"]["port"] == 7777
    bad = tmp_path / "bad.yaml"
    bad.write_text("timing:\n  snap_timeout_ms: soon\n")
    with pytest.raises(ConfigError, match="bad.yaml.*timing.snap_timeout_ms"):
        load_config(str(bad))
    with pytest.raises(ConfigError, match="not found"):
        load_config(str(tmp_path / "missing.yaml"))
