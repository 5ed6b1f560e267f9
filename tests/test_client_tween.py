"""Tween arithmetic, the effect queue, and target picking against legal actions."""
from __future__ import annotations

import pytest

from client import tween
from client.animation import Animator, Flight, Reveal
from client.games.omerta.picker import Picker, targets


@pytest.mark.parametrize("ease", [tween.ease_out_quad, tween.ease_in_out_cubic, tween.ease_out_cubic,
                                  tween.ease_out_back])
def test_easings_start_at_0_and_end_at_1(ease):
    assert ease(0.0) == pytest.approx(0.0, abs=1e-9)
    assert ease(1.0) == pytest.approx(1.0, abs=1e-9)


def test_ease_in_out_is_symmetric_and_monotonic():
    xs = [i / 100 for i in range(101)]
    ys = [tween.ease_in_out_cubic(x) for x in xs]
    assert all(b >= a for a, b in zip(ys, ys[1:]))
    assert tween.ease_in_out_cubic(0.5) == pytest.approx(0.5)
    assert tween.ease_in_out_cubic(0.25) == pytest.approx(1 - tween.ease_in_out_cubic(0.75))


def test_back_overshoots_then_settles():
    assert max(tween.ease_out_back(i / 100) for i in range(101)) > 1.0


def test_progress_clamps_and_handles_zero_duration():
    assert tween.progress(50, 100, 200) == 0.0
    assert tween.progress(200, 100, 200) == 0.5
    assert tween.progress(900, 100, 200) == 1.0
    assert tween.progress(100, 100, 0) == 1.0
    assert tween.progress(99, 100, 0) == 0.0


def test_flip_squashes_through_the_edge():
    assert tween.flip_scale(0.0) == (1.0, False)
    scale, up = tween.flip_scale(0.5)
    assert scale == pytest.approx(0.0, abs=1e-9) and up
    assert tween.flip_scale(0.25)[0] == pytest.approx(2 ** -0.5)
    assert tween.flip_scale(0.49)[1] is False
    assert tween.flip_scale(1.0)[0] == pytest.approx(1.0)


def test_arc_point_lifts_the_middle_only():
    assert tween.arc_point((0, 100), (100, 100), 0.0, 40) == (0, 100)
    assert tween.arc_point((0, 100), (100, 100), 1.0, 40) == (100, 100)
    assert tween.arc_point((0, 100), (100, 100), 0.5, 40) == (50, 60)


def test_follower_converges_frame_rate_independently():
    a, b = tween.Follower(0, 0, 50), tween.Follower(0, 0, 50)
    for _ in range(6):
        a.step(100, 0, 16.6667)
    for _ in range(2):
        b.step(100, 0, 50.0)
    assert a.x == pytest.approx(b.x, rel=1e-6)
    assert a.x == pytest.approx(100 * (1 - 0.5 ** 2), rel=1e-6)
    for _ in range(200):
        a.step(100, 0, 16)
    assert a.x == 100


def test_animator_queues_events_but_caps_the_backlog():
    an = Animator()
    assert an.slot(0, 300) == 0
    assert an.slot(0, 300) == 300  # after the previous one
    assert an.slot(0, 300) == 600  # the cap: 600 ms behind at most
    assert an.slot(0, 300) == 600
    assert an.slot(100, 200, urgent=True) == 100  # your own move: now


def test_flight_hides_its_destination_until_it_lands():
    import pygame

    an = Animator()
    an.add(Flight(100, 400, src=pygame.Rect(0, 0, 10, 14), dst=pygame.Rect(50, 0, 10, 14), hide_dst=("slot", 7)))
    an.add(Flight(100, 500, hide_dst=("discard", 0)))
    an.add(Flight(200, 500, hide_dst=("discard", 0)))
    assert an.hidden(0)[("slot", 7)] == 1
    assert an.hidden(450)[("slot", 7)] == 0
    assert an.hidden(450)[("discard", 0)] == 2
    an.prune(500)
    assert not an.busy(500)


def test_reveal_flips_up_then_down():
    r = Reveal(0, 1000, place=("slot", 1), card={"kind": "bottle", "value": 3}, flip_ms=200)
    assert r.face_at(-1) is None
    assert r.face_at(50)[0] is None  # still showing the back
    assert r.face_at(150)[0] is not None
    assert r.face_at(500) == ({"kind": "bottle", "value": 3}, 1.0)
    assert r.face_at(950)[0] is None
    assert r.face_at(1000) is None


# -- picking targets ------------------------------------------------------------------

HENCH = [{"type": "henchman", "slots": [a, b]} for a, b in [(0, 4), (0, 8), (1, 4), (4, 8)]]


def test_targets_of_actions():
    assert targets({"type": "snitch", "recipients": [2, 2]}) == (("player", 2), ("player", 2))
    assert targets({"type": "safe_swap", "slot": 3, "index": 1}) == (("slot", 3), ("safe", 1))
    assert targets({"type": "draw_deck"}) == ()


def test_henchman_needs_two_slots_of_different_players():
    p = Picker("henchman", HENCH + [{"type": "decline"}])
    assert p.offered() == {("slot", 0), ("slot", 1), ("slot", 4), ("slot", 8)}
    assert p.click(("slot", 0))
    assert p.offered() == {("slot", 4), ("slot", 8)}  # 1 is the same player's: not offered
    assert not p.click(("slot", 1))
    assert p.ready() is None
    assert p.click(("slot", 8))
    assert p.ready() == {"type": "henchman", "slots": [0, 8]}


def test_clicking_a_picked_target_again_unpicks_it():
    p = Picker("henchman", HENCH)
    p.click(("slot", 4))
    assert p.click(("slot", 4)) and p.selection == []


def test_snitch_may_give_twice_to_one_player():
    legal = [{"type": "snitch", "recipients": r} for r in ([1, 1], [1, 2], [2, 2])]
    p = Picker("snitch", legal)
    p.click(("player", 2))
    assert p.offered() == {("player", 1), ("player", 2)}
    p.click(("player", 2))
    assert p.ready() == {"type": "snitch", "recipients": [2, 2]}


def test_driver_waits_for_confirm():
    legal = [{"type": "driver", "slots": s} for s in ([0], [1], [0, 1])]
    p = Picker("driver", legal)
    p.click(("slot", 0))
    assert p.complete() == {"type": "driver", "slots": [0]} and p.ready() is None
    p.click(("slot", 1))
    assert p.complete() == {"type": "driver", "slots": [0, 1]} and p.ready() is None


def test_safe_swap_and_peek():
    p = Picker("safe_swap", [{"type": "safe_swap", "slot": s, "index": i} for s in (5, 6) for i in range(4)])
    p.click(("safe", 2))
    assert p.ready() is None
    p.click(("slot", 6))
    assert p.ready() == {"type": "safe_swap", "slot": 6, "index": 2}
    peek = Picker("peek", [{"type": "peek", "slots": [a, b]} for a, b in [(0, 1), (0, 2), (1, 2)]])
    peek.click(("slot", 2))
    assert peek.ready() is None
    peek.click(("slot", 0))
    assert peek.ready() == {"type": "peek", "slots": [0, 2]}
