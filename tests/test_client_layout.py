"""The table layout is a pure function: nothing overlaps and everything is on screen,
from 1024x600 to 3840x2160, for 3-5 seats and games that grew with penalty cards."""
from __future__ import annotations

import pytest

from client.games.omerta.layout import all_rects, table_layout
from shared.games import omerta

SIZES = [(1280, 720), (1920, 1080), (3840, 2160), (1366, 768), (1024, 768), (1024, 600), (2560, 1080)]


def _view(seats: int, seat: int | None, extra: dict[int, int] | None = None) -> dict:
    state = omerta.new_match({"seats": seats}, 7)
    view = omerta.view(state, seat)
    next_id = 1000
    for p in view["players"]:
        for _ in range((extra or {}).get(p["seat"], 0)):
            p["slots"].append({"slot": next_id, "patrol": None})
            next_id += 1
    return view


def _check(view: dict, size: tuple[int, int]) -> None:
    lay = table_layout(view, size)
    w, h = size
    rects = list(all_rects(lay))
    for name, r in rects:
        assert r.w > 0 and r.h > 0, (name, r)
        assert 0 <= r.left and r.right <= w and 0 <= r.top and r.bottom <= h, (name, r, size)
    for i, (a, ra) in enumerate(rects):
        for b, rb in rects[i + 1:]:
            assert not ra.colliderect(rb), (a, ra, b, rb, size)
    # every slot of the view has a place, and cards stay legible
    for p in view["players"]:
        for s in p["slots"]:
            r = lay.slot_rect(s["slot"])
            assert r is not None
            assert r.h >= h * 0.045, (s, r, size)
    me = lay.seats[lay.perspective]
    others = [a for a in lay.seats.values() if a.seat != lay.perspective]
    assert all(me.card[1] >= o.card[1] for o in others)  # your cards are the biggest


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("seats", [3, 4, 5])
def test_no_overlap_all_on_screen(seats, size):
    _check(_view(seats, 0), size)
    _check(_view(seats, seats - 1), size)
    _check(_view(seats, None), size)


@pytest.mark.parametrize("size", SIZES)
def test_grown_games_still_fit(size):
    _check(_view(5, 2, {0: 6, 1: 5, 2: 6, 3: 3, 4: 8}), size)
    _check(_view(3, 0, {0: 9, 1: 9, 2: 9}), size)


def test_seats_clockwise_from_you():
    lay = table_layout(_view(5, 2), (1920, 1080))
    assert lay.perspective == 2
    sides = [lay.seats[(2 + i) % 5].side for i in range(5)]
    assert sides == ["bottom", "left", "top", "top", "right"]
    assert lay.seats[4].zone.centerx < lay.seats[0].zone.centerx  # top-left then top-right


def test_hit_testing():
    view = _view(4, 0)
    lay = table_layout(view, (1280, 720))
    sid = view["players"][1]["slots"][2]["slot"]
    assert lay.hit(lay.slot_rect(sid).center) == ("slot", sid)
    assert lay.hit(lay.draw_pile.center) == ("draw_pile", 0)
    assert lay.hit(lay.discard.center) == ("discard", 0)
    assert lay.hit(lay.safe[3].center) == ("safe", 3)
    assert lay.hit(lay.seats[2].plate.center) == ("player", 2)


def test_scales_with_resolution():
    v = _view(4, 0)
    small = table_layout(v, (1280, 720))
    big = table_layout(v, (3840, 2160))
    assert big.seats[0].card[1] == pytest.approx(3 * small.seats[0].card[1], rel=0.05)
