"""``t_shown`` is the client ms right after the ``display.flip()`` of the first frame
that showed the window's card face (docs/PROTOCOL.md "What a client must stamp, and
when"): not the update's arrival, not the end of the discard's flight. Frame times and
the client clock are injected, headless (``SDL_VIDEODRIVER=dummy``)."""
from __future__ import annotations

import pygame

from client import display as app_mod
from client.games.omerta import fx as omerta_fx
from shared.games import omerta
from shared.rules import events_for
from tests.test_client_app import DECK, FakeLink, make_app, snap_window_state


class FakeClock:
    """The client clock (ms), moved by hand; ``flips`` records the clock at each flip."""

    def __init__(self, t: float = 10_000.0):
        self.t = t
        self.flips: list[float] = []

    def __call__(self) -> float:
        return self.t


def _table_before_discard(app, seat=0):
    """A table whose display link is ``seat``; returns (scene, state after the discard,
    its events)."""
    from client.games.omerta.table import OmertaTableScene

    state, events = snap_window_state()
    # the state before the discard: same deal, seat 1 holds its drawn card
    before = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 1}, 1)
    for p in range(3):
        before, _ = omerta.apply(before, p, omerta.Peek((4 * p, 4 * p + 1)))
    before, _ = omerta.apply(before, 1, omerta.DrawDeck())
    link = FakeLink(seat)
    started = {"type": "match_started", "table": 9, "game": "omerta", "seat": seat,
               "view": omerta.view(before, seat),
               "legal": [a.to_dict() for a in omerta.legal_actions(before, seat)], "t_server": 0.0}
    scene = app.reset(OmertaTableScene(app, link, started))
    return scene, link, state, events


def _deliver(scene, link, state, events, seat=0):
    scene.on_message({"type": "update", "table": 9, "events": events_for(events, seat),
                      "view": omerta.view(state, seat),
                      "legal": [a.to_dict() for a in omerta.legal_actions(state, seat)]}, link)


def _run(monkeypatch, tmp_path, frame_ms: float, frames: int = 40):
    """Deliver the discard that opens a snap window at client ms 10 000, then render
    ``frames`` frames of ``frame_ms`` each; returns (scene, clock, arrival ms, window id,
    cards drawn in the first frame)."""
    app = make_app(tmp_path)
    clock = FakeClock()
    monkeypatch.setattr(app_mod, "now_ms", clock)
    real_flip = pygame.display.flip

    def flip():
        real_flip()
        clock.flips.append(clock.t)

    monkeypatch.setattr(pygame.display, "flip", flip)
    scene, link, state, events = _table_before_discard(app)
    for _ in range(30):  # the deal's flights are over; the table is at rest
        clock.t += frame_ms
        app.display.render(frame_ms / 1000.0)
    arrival = clock.t = clock.t + 3.0  # the update arrives between two frames
    _deliver(scene, link, state, events)
    wid = state.window.id
    assert wid not in scene.window_shown_ms  # not at arrival
    drawn: list = []
    real_surface = app.art.surface

    def spy(card, w, h, *a, **kw):
        drawn.append(card)
        return real_surface(card, w, h, *a, **kw)

    first_frame_cards = None
    for i in range(frames):
        clock.t += frame_ms  # the frame's work and its flip end here
        if i == 0:
            monkeypatch.setattr(app.art, "surface", spy)
        app.display.render(frame_ms / 1000.0)
        if i == 0:
            first_frame_cards = list(drawn)
            monkeypatch.setattr(app.art, "surface", real_surface)
    return scene, clock, arrival, wid, first_frame_cards, state


def test_t_shown_is_the_flip_of_the_first_frame_showing_the_discarded_face(monkeypatch, tmp_path):
    scene, clock, arrival, wid, first, state = _run(monkeypatch, tmp_path, frame_ms=16.0)
    first_flip = arrival + 16.0
    assert clock.flips[-40] == first_flip
    assert scene.window_shown_ms[wid] == first_flip  # right after that flip
    assert scene.window_shown_ms[wid] != arrival  # not the update's arrival
    flight_end = arrival + omerta_fx.DISCARD_MS
    assert scene.window_shown_ms[wid] < flight_end - 100  # not the end of the animation
    # the discarded 7 is drawn face up in that very first frame
    faces = [c for c in first if isinstance(c, dict) and c.get("value") == 7]
    assert faces, f"the discarded card's face is not in the first frame (drawn: {first!r})"


def test_a_slow_frame_moves_t_shown_to_its_own_flip(monkeypatch, tmp_path):
    """A busy host (30 ms frames): the stamp is that frame's flip, 30 ms after the
    arrival -- still the first frame, never the end of the flight."""
    scene, clock, arrival, wid, first, _ = _run(monkeypatch, tmp_path, frame_ms=30.0, frames=20)
    assert scene.window_shown_ms[wid] == arrival + 30.0


def test_the_claim_carries_that_stamp(monkeypatch, tmp_path):
    from client.input import InputSampler

    scene, clock, arrival, wid, _, _ = _run(monkeypatch, tmp_path, frame_ms=16.0, frames=5)
    app = scene.app
    app.sampler = InputSampler(clock=lambda: clock.t + 1.0)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode="", scancode=0))
    app.sample()
    sent = scene.links[0].conn.sent[-1]
    assert sent["action"]["type"] == "snap"
    assert sent["t_shown"] == arrival + 16.0
    assert sent["t_press"] == clock.t + 1.0
