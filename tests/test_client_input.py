"""Key and controller bindings, the stamping sampler, and saved settings."""
from __future__ import annotations

import json

import pygame

from client import settings as settings_mod
import client.input as input_mod
from client.input import CONFIRM, NEXT, PASS, PREV, REVEAL, SELECT, SNAP, InputSampler, binding_for
from shared.config import merge


def _key(k):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def test_keyboard_zones_do_not_share_keys():
    zones = ["keyboard", "left", "middle", "numpad"]
    keys = [binding_for(z).keys() for z in zones]
    for i in range(len(keys)):
        for j in range(i + 1, len(keys)):
            assert not keys[i] & keys[j], (zones[i], zones[j])
    assert binding_for("left").command(_key(pygame.K_s)) == (SNAP, 0)
    assert binding_for("keyboard").command(_key(pygame.K_3)) == (SELECT, 2)
    assert binding_for("right").command(_key(pygame.K_s)) is None


def test_a_controller_drives_only_its_own_seat():
    pad = binding_for("controller", joystick=3)
    press = lambda b, iid=3: pygame.event.Event(pygame.JOYBUTTONDOWN, button=b, instance_id=iid)  # noqa: E731
    assert pad.command(press(0)) == (SNAP, 0)
    assert pad.command(press(1)) == (PASS, 0)
    assert pad.command(press(2)) == (CONFIRM, 0)
    assert pad.command(press(3)) == (REVEAL, 0)
    assert pad.command(press(0, iid=4)) is None  # somebody else's controller
    hat = lambda x: pygame.event.Event(pygame.JOYHATMOTION, value=(x, 0), hat=0, instance_id=3)  # noqa: E731
    assert pad.command(hat(-1)) == (PREV, 0) and pad.command(hat(1)) == (NEXT, 0) and pad.command(hat(0)) is None
    assert pad.command(_key(pygame.K_SPACE)) is None


def test_sampler_stamps_every_event_of_a_poll_with_that_poll_time():
    events = [_key(pygame.K_a), _key(pygame.K_b)]
    s = InputSampler(source=lambda: list(events), clock=lambda: 1234.5)
    assert [(e.key, t) for e, t in s.poll()] == [(pygame.K_a, 1234.5), (pygame.K_b, 1234.5)]
    assert s.last_poll_ms == 1234.5


def _sampler(times, pending):
    clock = iter(times)
    return InputSampler(source=lambda: pending.pop(0) if pending else [], clock=lambda: next(clock))


def test_an_event_found_by_a_late_poll_is_stamped_in_the_middle_of_the_gap():
    """A busy machine delayed the poll by 6 ms: the press happened somewhere in the 8 ms
    since the previous poll, and is stamped at its middle, not at its end."""
    s = _sampler([100.0, 108.0], [[], [_key(pygame.K_SPACE)]])
    assert s.poll() == []
    assert [t for _, t in s.poll()] == [104.0]


def test_a_stamp_is_at_most_the_backdate_cap_before_its_poll_and_never_before_the_frame_shown():
    s = _sampler([100.0, 400.0], [[], [_key(pygame.K_SPACE)]])
    s.poll()
    assert [t for _, t in s.poll()] == [400.0 - input_mod.MAX_BACKDATE_MS]
    s = _sampler([100.0, 108.0], [[], [_key(pygame.K_SPACE)]])
    s.poll()
    assert [t for _, t in s.poll(floor_ms=106.5)] == [106.5]  # the card appeared at 106.5


def test_settings_round_trip_and_ignore_bad_entries(tmp_path):
    path = str(tmp_path / "settings.json")
    s = settings_mod.load(merge({"client": {"player_name": "Zoé"}, "display": {"volume": 0.4}}), path)
    assert s.name == "Zoé" and s.volume == 0.4 and s.language == "auto"
    s.language, s.fullscreen, s.zones = "fr", True, ["left", "right"]
    assert settings_mod.save(s, path) == path
    again = settings_mod.load(merge({}), path)
    assert (again.language, again.fullscreen, again.zones, again.name) == ("fr", True, ["left", "right"], "Zoé")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"volume": "loud", "width": 1600, "unknown": 1}, f)
    odd = settings_mod.load(merge({}), path)
    assert odd.volume == 0.7 and odd.width == 1600


def test_couch_refuses_two_players_on_the_same_keys():
    from client.scenes.couch import shared_controls
    from client.settings import DEFAULT_ZONES

    assert shared_controls([binding_for(z) for z in DEFAULT_ZONES]) is None
    assert shared_controls([binding_for("left"), binding_for("keyboard"), binding_for("right")]) == (1, 2)
    assert shared_controls([binding_for("controller", 0), binding_for("controller", 0)]) == (0, 1)
