"""Where everything sits on the Family Business table: a pure function of (view, screen
size).

:func:`fb_layout` takes a Family Business view (``view`` or ``full_view``), the window
size in pixels, the seat at the bottom and the mobsters of an open choice, and returns
an :class:`FBLayout` of ``pygame.Rect``. No display is needed: it is tested at any
resolution and recomputed whenever the cards move.

Bands, top to bottom:

* the top bar (turn number, table name, key help);
* the opponents, all in one row, clockwise from your left: each zone has a name plate
  (gang emblem, name, living mobsters, cards in hand) and a grid of nine places for the
  gang's *front* (its mobsters not on the hit list);
* the middle: the draw and discard piles (left), the *wall* with the war strip above it
  -- the hit list in order, first in line on the left -- and the cemetery (right);
* the prompt banner;
* you: your plate and your front in one row, then your hand (big, each card with its
  effect) -- or, while a mobster is being chosen (``order``, ``place``, a Turncoat's
  revived mobster), the *choice strip* of candidates in its place. The message column
  sits left of it and the action buttons right, as on the other tables.

A spectator sees seat 0 at the bottom. Places: ``("mob", id)`` (a mobster on the
table: a front, the wall, collected), ``("card", id)`` (your hand), ``("pick", id)``
(the choice strip), ``("player", seat)``, ``("rip", 0)``, ``("draw", 0)``,
``("discard", 0)``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from pygame import Rect

from client.table.layout import CARD_RATIO, card_size, emote_bar_size, grid

Place = tuple[str, int]
GANG_SIZE = 9
MAX_HAND = 6


@dataclass
class SeatArea:
    """One player's place: ``zone`` (everything of the seat), ``plate`` (name plate),
    ``slots`` (the nine places of its front, in order), ``front`` (mobster id -> rect),
    ``mob`` the (w, h) px of its mobsters, ``bottom`` whether it is the seat at the bottom."""

    seat: int
    zone: Rect
    plate: Rect
    slots: list[Rect]
    front: dict[int, Rect]
    mob: tuple[int, int]
    bottom: bool = False


@dataclass
class FBLayout:
    """Every rect of the Family Business table for one window size (pixels).

    ``wall`` the hit list's area, ``wall_slots`` the rect of each list place (index 0 =
    first in line), ``collected`` the mobsters collected and waiting to be ordered (after
    the list), ``war`` the war strip above the wall; ``cemetery``, ``draw_pile``,
    ``discard``, ``pile_labels`` the strip under the piles their counts are written in;
    ``hand`` your cards by id, ``backs`` the face-down cards of a hidden bottom hand,
    ``picks`` the choice strip by mobster id; ``banner``, ``actions`` (button column),
    ``info`` (message column), ``top_bar``; ``font`` a base text size."""

    size: tuple[int, int]
    perspective: int
    top_bar: Rect
    seats: dict[int, SeatArea]
    wall: Rect
    wall_slots: list[Rect]
    wall_ids: list[int]
    collected: dict[int, Rect]
    war: Rect
    cemetery: Rect
    draw_pile: Rect
    discard: Rect
    hand_area: Rect
    hand: dict[int, Rect]
    backs: list[Rect]
    picks: dict[int, Rect]
    banner: Rect
    actions: Rect
    info: Rect
    font: int
    pile_labels: Rect = field(default_factory=Rect)
    pile_card: tuple[int, int] = (0, 0)
    wall_mob: tuple[int, int] = (0, 0)
    cards: dict[Place, Rect] = field(default_factory=dict)

    def rect(self, place: Place) -> Rect | None:
        return self.cards.get(place)

    def mob_rect(self, mobster: int) -> Rect | None:
        return self.cards.get(("mob", int(mobster)))

    def hit(self, pos: tuple[int, int]) -> Place | None:
        """What is under a point (see the module docstring for the places)."""
        for kind in ("pick", "card", "mob"):
            for place, r in self.cards.items():
                if place[0] == kind and r.collidepoint(pos):
                    return place
        if self.cemetery.collidepoint(pos):
            return ("rip", 0)
        if self.draw_pile.collidepoint(pos):
            return ("draw", 0)
        if self.discard.collidepoint(pos):
            return ("discard", 0)
        for seat in self.seats.values():
            if seat.plate.collidepoint(pos) or seat.zone.collidepoint(pos):
                return ("player", seat.seat)
        return None


def _row(n: int, area: Rect, max_h: int, gap_ratio: float = 0.12, ratio: float = CARD_RATIO) -> list[Rect]:
    """``n`` cards in one row centred in ``area``, as big as fits (at most ``max_h``)."""
    if n <= 0:
        return []
    w_by_width = area.w / (n + (n - 1) * gap_ratio)
    h = int(min(max_h, area.h, w_by_width / ratio))
    w = int(h * ratio)
    gap = max(2, int(w * gap_ratio))
    total = n * w + (n - 1) * gap
    x0 = area.x + (area.w - total) // 2
    y0 = area.y + (area.h - h) // 2
    return [Rect(x0 + i * (w + gap), y0, w, h) for i in range(n)]


def _grid_cells(n: int, area: Rect, max_h: int) -> list[Rect]:
    """``n`` cells of the biggest grid of cards that fits ``area``, centred."""
    (cw, ch), cols, rows = grid(n, area, max_h)
    gap = max(2, int(cw * 0.10))
    total_w = cols * cw + (cols - 1) * gap
    total_h = rows * ch + (rows - 1) * gap
    x0 = area.x + (area.w - total_w) // 2
    y0 = area.y + (area.h - total_h) // 2
    return [Rect(x0 + (i % cols) * (cw + gap), y0 + (i // cols) * (ch + gap), cw, ch) for i in range(n)]


def _wall_cells(n: int, area: Rect, max_h: int, label_h: int) -> list[Rect]:
    """The hit list's places: one row (two when long), each with room for its order
    label above and its owner's name below (``label_h`` px each)."""
    if n <= 0:
        return []
    best: list[Rect] = []
    best_h = 0
    for rows in (1, 2, 3):
        cols = -(-n // rows)
        row_h = (area.h - (rows - 1) * 4) // rows
        cell = Rect(0, 0, area.w, row_h - 2 * label_h)
        h = int(min(max_h, cell.h, area.w / (cols + (cols - 1) * 0.14) / CARD_RATIO))
        if h > best_h:
            best_h = h
            w = int(h * CARD_RATIO)
            gap = max(3, int(w * 0.14))
            total = cols * w + (cols - 1) * gap
            x0 = area.x + (area.w - total) // 2
            block = rows * (h + 2 * label_h) + (rows - 1) * 4
            y0 = area.y + (area.h - block) // 2 + label_h
            best = [Rect(x0 + (i % cols) * (w + gap), y0 + (i // cols) * (h + 2 * label_h + 4), w, h)
                    for i in range(n)]
    return best


def _ids(cards: Iterable[Any]) -> list[int]:
    return [int(c["id"]) for c in cards or [] if isinstance(c, Mapping) and "id" in c]


def _sides(k: int, w: int) -> list[float]:
    """Width fraction of each opponent's zone (all in the top row)."""
    return [min(0.44, 0.96 / max(1, k))] * k


def fb_layout(view: Mapping[str, Any], size: tuple[int, int], perspective: int | None = None,
              picks: Sequence[Any] = ()) -> FBLayout:
    """The layout of ``view`` in a ``size`` = (w, h) px window seen from ``perspective``
    (default: the view's own seat; a spectator sees seat 0); ``picks`` are the mobsters
    (card dicts) of an open choice, shown in the choice strip."""
    w, h = max(320, int(size[0])), max(240, int(size[1]))
    n = int(view.get("seats") or len(view.get("players") or []) or 4)
    me = view.get("seat") if perspective is None else perspective
    persp = me if isinstance(me, int) and 0 <= me < n else 0
    players = {int(p["seat"]): p for p in view.get("players") or []}

    m = max(4, int(min(w, h) * 0.011))
    font = max(12, int(h * 0.025))
    top_bar = Rect(0, 0, w, max(22, int(h * 0.045)))
    plate_h = max(18, int(h * 0.036))

    # -- the bottom: your plate and front, then your hand (or the choice strip) ---------
    side_w = int(w * 0.205)
    mid_x0, mid_x1 = side_w + m, w - side_w - m
    hand_h = int(h * 0.215)
    hand_area = Rect(mid_x0, h - m - hand_h, mid_x1 - mid_x0, hand_h)
    front_h = max(24, int(h * 0.082))
    my_row = Rect(mid_x0, hand_area.top - m - front_h, hand_area.w, front_h)
    my_plate = Rect(my_row.x, my_row.centery - plate_h // 2, int(my_row.w * 0.30), plate_h)
    my_front_area = Rect(my_plate.right + 2 * m, my_row.y, my_row.right - my_plate.right - 2 * m, my_row.h)
    my_slots = _row(GANG_SIZE, my_front_area, front_h, 0.10)
    if my_slots:  # the plate reaches to where the front starts
        my_plate.w = max(my_plate.w, my_slots[0].left - 2 * m - my_plate.x)
    my_zone = Rect(my_row.x - m // 2, my_row.y - m // 2, my_row.w + m, my_row.h + m)

    seats: dict[int, SeatArea] = {}

    def add_seat(seat: int, zone: Rect, plate: Rect, slots: list[Rect], bottom: bool) -> None:
        front_ids = _ids((players.get(seat) or {}).get("front"))
        front = dict(zip(front_ids, slots))
        mob = (slots[0].w, slots[0].h) if slots else (0, 0)
        seats[seat] = SeatArea(seat, zone, plate, slots, front, mob, bottom)

    add_seat(persp, my_zone, my_plate, my_slots, True)

    # -- the opponents: one row across the top ------------------------------------------
    others = [(persp + i) % n for i in range(1, n)]
    top_y = top_bar.bottom + m
    band_h = int(h * 0.205)
    fracs = _sides(len(others), w)
    zw = [int(f * w) for f in fracs]
    total = sum(zw) + m * (len(others) - 1)
    x = (w - total) // 2
    for seat, zwidth in zip(others, zw):
        zone = Rect(x, top_y, zwidth, band_h)
        plate = Rect(zone.x + m // 2, zone.y + m // 2, zone.w - m, plate_h)
        area = Rect(zone.x + m, plate.bottom + m // 2, zone.w - 2 * m, zone.bottom - plate.bottom - m)
        slots = _grid_cells(GANG_SIZE, area, int(h * 0.12))
        add_seat(seat, zone, plate, slots, False)
        x += zwidth + m

    # -- the banner, then the middle ----------------------------------------------------
    banner_h = max(30, int(h * 0.072))
    banner = Rect(mid_x0, my_zone.top - m - banner_h, mid_x1 - mid_x0, banner_h)
    mid_top = top_y + band_h + m
    mid_bottom = banner.top - m
    mid_h = mid_bottom - mid_top

    # piles on the left, stacked side by side, their counts written under them; both
    # above the emote bar's place over the message column (left column, from the banner)
    pile_h = int(min(h * 0.17, mid_h * 0.72))
    pw, ph = card_size(pile_h)
    pgap = max(m, int(pw * 0.22))
    piles_w = 2 * pw + pgap
    px = max(m, (side_w - piles_w) // 2)
    label_h = int(pile_label_size(font) * 1.5) + 3  # the gap above, a line of text with its shadow
    bar_h, bar_gap = emote_bar_size((w, h))
    py = mid_top + (mid_h - ph) // 2 - int(font * 0.4)
    py = max(mid_top, min(py, banner.top - 2 * bar_gap - bar_h - label_h - ph))
    draw_pile = Rect(px, py, pw, ph)
    discard = Rect(px + pw + pgap, py, pw, ph)
    pile_labels = Rect(max(0, px - pgap), draw_pile.bottom, min(side_w, piles_w + 2 * pgap), label_h)
    # the cemetery on the right
    cem_w = int(side_w * 0.78)
    cemetery = Rect(w - m - (side_w + cem_w) // 2, mid_top + int(mid_h * 0.02), cem_w, int(mid_h * 0.96))
    cemetery.right = min(cemetery.right, w - m)
    # the war strip and the wall between them
    wall_x0 = max(discard.right, mid_x0 - m) + 2 * m
    wall_x1 = min(cemetery.left, mid_x1 + m) - 2 * m
    war_h = max(20, int(h * 0.042))
    war = Rect(wall_x0, mid_top, wall_x1 - wall_x0, war_h)
    wall = Rect(wall_x0, war.bottom + m // 2, wall_x1 - wall_x0, mid_bottom - war.bottom - m // 2)
    hit_ids = _ids(view.get("hit_list"))
    res = view.get("resolving") or {}
    coll_ids = [i for i in _ids(res.get("collected")) if i not in hit_ids]
    label_h = max(11, int(h * 0.021))
    cells = _wall_cells(len(hit_ids) + len(coll_ids), wall.inflate(-2 * m, -m // 2), int(h * 0.155), label_h)
    wall_slots = cells[:len(hit_ids)]
    collected = dict(zip(coll_ids, cells[len(hit_ids):]))
    wall_mob = (cells[0].w, cells[0].h) if cells else card_size(min(h * 0.155, wall.h - 2 * label_h))

    # -- your hand (or the choice strip, or a hidden hand's backs) -----------------------
    pick_ids = _ids(picks)
    hand: dict[int, Rect] = {}
    backs: list[Rect] = []
    pick_rects: dict[int, Rect] = {}
    bottom_player = players.get(persp) or {}
    mine = view.get("hand") if view.get("seat") == persp else None
    if view.get("hands") and persp < len(view["hands"]):  # a finished match's replay: faces up
        mine = view["hands"][persp]
    if pick_ids:
        area = hand_area.inflate(-2 * m, -m)
        for i, r in zip(pick_ids, _row(len(pick_ids), area, int(hand_h * 0.92), 0.14)):
            pick_rects[i] = r
    elif mine is not None:
        ids = _ids(mine)
        cells = _row(max(MAX_HAND, len(ids)), hand_area, hand_h, 0.08)
        if cells and len(ids) < len(cells):  # fewer cards: the same size, centred
            step = cells[1].x - cells[0].x
            shift = (len(cells) - len(ids)) * step // 2
            cells = [c.move(shift, 0) for c in cells[:len(ids)]]
        hand = dict(zip(ids, cells))
    else:
        k = int(bottom_player.get("hand") or 0) if bottom_player.get("in_game", True) else 0
        area = hand_area.inflate(-int(hand_area.w * 0.3), -int(hand_h * 0.3))
        backs = _row(k, area, int(hand_h * 0.7), -0.35) if k else []

    info = Rect(m, banner.top, side_w - m, h - m - banner.top)
    actions = Rect(w - side_w, banner.top, side_w - m, h - m - banner.top)

    cards: dict[Place, Rect] = {}
    for area in seats.values():
        for mid, r in area.front.items():
            cards[("mob", mid)] = r
    for mid, r in zip(hit_ids, wall_slots):
        cards[("mob", mid)] = r
    for mid, r in collected.items():
        cards[("mob", mid)] = r
    for cid, r in hand.items():
        cards[("card", cid)] = r
    for mid, r in pick_rects.items():
        cards[("pick", mid)] = r
    return FBLayout((w, h), persp, top_bar, seats, wall, wall_slots, hit_ids, collected, war, cemetery,
                    draw_pile, discard, hand_area, hand, backs, pick_rects, banner, actions, info, font,
                    pile_labels, (pw, ph), wall_mob, cards)


def pile_label_size(font: int) -> int:
    """The text size (px) of the counts under the piles, for a layout's base ``font``."""
    return max(10, int(font * 0.8))


def areas(lay: FBLayout) -> Iterable[tuple[str, Rect]]:
    """Every rect that must not overlap another (tests and debugging): the plates and
    fronts' places, the piles, the cemetery, the war strip, the wall's places, the hand,
    the banner, the buttons' and messages' columns, the top bar."""
    for s in lay.seats.values():
        yield f"plate{s.seat}", s.plate
        for i, r in enumerate(s.slots):
            yield f"front{s.seat}.{i}", r
    yield "draw_pile", lay.draw_pile
    yield "discard", lay.discard
    yield "pile_labels", lay.pile_labels
    yield "cemetery", lay.cemetery
    yield "war", lay.war
    for i, r in enumerate(lay.wall_slots):
        yield f"wall{i}", r
    for mid, r in lay.collected.items():
        yield f"collected{mid}", r
    for cid, r in lay.hand.items():
        yield f"hand{cid}", r
    for i, r in enumerate(lay.backs):
        if i == 0:
            yield "backs", r.unionall(lay.backs)
    for mid, r in lay.picks.items():
        yield f"pick{mid}", r
    yield "banner", lay.banner
    yield "actions", lay.actions
    yield "info", lay.info
    yield "top_bar", lay.top_bar
