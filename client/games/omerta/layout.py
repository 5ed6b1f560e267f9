"""Where everything sits on the Omerta table: a pure function of (view, screen size).

:func:`table_layout` takes the seat's view (only the seat count, the perspective seat
and each player's slot ids matter) and the window size in pixels and returns a
:class:`TableLayout` of ``pygame.Rect`` in window pixels. No display is needed, so the
layout is tested at any resolution and recomputed on every resize.

Seats sit clockwise from the perspective seat (you, at the bottom): the next player on
your left, then across the top, then on your right -- as around a real table. A
spectator sees seat 0 at the bottom.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from pygame import Rect

from client.table.layout import card_size, grid



@dataclass
class SeatArea:
    """One player's place: ``zone`` (everything of the seat), ``plate`` (name, score,
    turn light), ``mamma`` (token spot on the plate), ``slots`` (slot id -> card rect, in
    the game's order), ``hand`` (where a drawn card is held), ``card`` (w, h) px."""

    seat: int
    zone: Rect
    plate: Rect
    mamma: Rect
    slots: dict[int, Rect]
    hand: Rect
    card: tuple[int, int]
    side: str  # "bottom" | "left" | "top" | "right"


@dataclass
class TableLayout:
    """Every rect of the table for one window size (pixels).

    ``seats`` by seat index; ``draw_pile``, ``discard``, ``safe`` (4 rects) in the middle;
    ``banner`` the prompt / reaction-window strip above your cards; ``actions`` the column
    for the action buttons (bottom right); ``info`` the message column (bottom left);
    ``top_bar`` the round and table line; ``font`` a base text size in px; ``slot_owner``
    the seat of each slot id and ``slots`` every seat's slot rects by slot id.
    """

    size: tuple[int, int]
    perspective: int
    seats: dict[int, SeatArea]
    draw_pile: Rect
    discard: Rect
    safe: list[Rect]
    banner: Rect
    actions: Rect
    info: Rect
    top_bar: Rect
    font: int
    pile_card: tuple[int, int] = (0, 0)
    slot_owner: dict[int, int] = field(default_factory=dict)
    slots: dict[int, Rect] = field(default_factory=dict)  # every seat's slots: id -> rect

    def slot_rect(self, slot: int) -> Rect | None:
        """The rect of a slot id, None when it is not on the table."""
        return self.slots.get(slot)

    def hit(self, pos: tuple[int, int]) -> tuple[str, int] | None:
        """What is under a point: ``("slot", id)``, ``("player", seat)`` (plate),
        ``("safe", index)``, ``("draw_pile", 0)``, ``("discard", 0)`` or None."""
        for seat in self.seats.values():
            for sid, r in seat.slots.items():
                if r.collidepoint(pos):
                    return ("slot", sid)
        for i, r in enumerate(self.safe):
            if r.collidepoint(pos):
                return ("safe", i)
        if self.draw_pile.collidepoint(pos):
            return ("draw_pile", 0)
        if self.discard.collidepoint(pos):
            return ("discard", 0)
        for seat in self.seats.values():
            if seat.plate.collidepoint(pos) or seat.zone.collidepoint(pos):
                return ("player", seat.seat)
        return None


def _place_grid(ids: list[int], area: Rect, max_h: int, hand_gap: float,
                with_hand: bool = True) -> tuple[dict[int, Rect], Rect, tuple[int, int]]:
    """Slot rects for ``ids`` plus (``with_hand``) one extra cell for the hand, inside
    ``area``, centred. Returns ``(slots, hand cell, card size)``."""
    cells = len(ids) + (1 if with_hand else 0)
    if not with_hand:
        hand_gap = 0.0
    (cw, ch), cols, rows = grid(cells, area, max_h, extra_ratio=hand_gap)
    gap = max(2, int(cw * 0.10))
    extra = int(cw * hand_gap) if rows == 1 else 0
    total_w = cols * cw + (cols - 1) * gap + extra
    total_h = rows * ch + (rows - 1) * gap
    x0 = area.x + (area.w - total_w) // 2
    y0 = area.y + (area.h - total_h) // 2
    rects: list[Rect] = []
    for i in range(max(cells, 1)):
        r, c = divmod(i, cols)
        x = x0 + c * (cw + gap) + (extra if with_hand and i == cells - 1 and rows == 1 else 0)
        rects.append(Rect(x, y0 + r * (ch + gap), cw, ch))
    hand = rects[-1] if with_hand else Rect(area.centerx - cw // 2, area.y, cw, ch)
    return dict(zip(ids, rects)), hand, (cw, ch)


def _sides(k: int) -> list[str]:
    """Where the ``k`` other players sit, clockwise from your left."""
    return {
        0: [],
        1: ["top"],
        2: ["top_l", "top_r"],
        3: ["left", "top", "right"],
        4: ["left", "top_l", "top_r", "right"],
        5: ["left", "top_l", "top", "top_r", "right"],
    }[k]


def table_layout(view: Mapping[str, Any], size: tuple[int, int], perspective: int | None = None) -> TableLayout:
    """The layout of ``view`` (an Omerta view dict) in a ``size`` = (w, h) px window,
    seen from ``perspective`` (default: the view's own seat; a spectator sees seat 0)."""
    w, h = max(320, int(size[0])), max(240, int(size[1]))
    n = int(view.get("seats", len(view.get("players", [])) or 4))
    me = view.get("seat") if perspective is None else perspective
    persp = me if isinstance(me, int) and 0 <= me < n else 0
    players = {p["seat"]: [s["slot"] for s in p.get("slots", [])] for p in view.get("players", [])}

    m = max(4, int(min(w, h) * 0.012))
    font = max(12, int(h * 0.026))
    top_bar = Rect(0, 0, w, int(h * 0.05))
    plate_h = max(18, int(h * 0.042))

    # Bands: opponents on top, middle (piles and side players), you at the bottom.
    top_y = top_bar.bottom + m
    top_band_h = int(h * 0.215)
    my_card_h = int(h * 0.195)
    my_zone = Rect(int(w * 0.21), h - m - plate_h - my_card_h - m, int(w * 0.58), plate_h + my_card_h + m)
    mid_top = top_y + top_band_h + m
    mid_bottom = my_zone.top - int(h * 0.095)  # leaves room for the banner

    seats: dict[int, SeatArea] = {}

    def make_seat(seat: int, side: str, zone: Rect, max_h: int, with_hand: bool = True) -> None:
        plate = Rect(zone.x, zone.y, zone.w, plate_h)
        cards_area = Rect(zone.x, plate.bottom + m // 2, zone.w, zone.bottom - plate.bottom - m // 2)
        slots, hand, cs = _place_grid(players.get(seat, []), cards_area, max_h, 0.35, with_hand)
        # shrink the plate to the cards' width (but keep room for the name)
        cells = list(slots.values()) + ([hand] if with_hand else [])
        xs = [r.left for r in cells] or [zone.centerx]
        xe = [r.right for r in cells] or [zone.centerx]
        pw = max(min(zone.w, int(w * 0.16)), max(xe) - min(xs))
        plate = Rect(0, zone.y, min(zone.w, pw), plate_h)
        plate.centerx = zone.centerx
        token = Rect(0, 0, int(plate_h * 1.15), int(plate_h * 1.15))
        token.midright = (plate.right - 2, plate.centery)
        token.clamp_ip(zone)
        seats[seat] = SeatArea(seat, zone, plate, token, slots, hand, cs, side.split("_")[0])

    make_seat(persp, "bottom", my_zone, my_card_h, with_hand=False)

    others = [(persp + i) % n for i in range(1, n)]
    sides = _sides(len(others))
    side_w = int(w * 0.215)
    top_sides = [s for s in sides if s.startswith("top")]
    has_side = "left" in sides
    top_x0 = side_w + m if has_side else m
    top_x1 = w - side_w - m if has_side else w - m
    if len(top_sides) >= 2 and has_side:  # use the full width above the side players
        top_x0, top_x1 = m + int(w * 0.04), w - m - int(w * 0.04)
    slot_w = (top_x1 - top_x0 - m * (len(top_sides) - 1)) // max(1, len(top_sides))
    opp_card_h = int(h * 0.15)
    for seat, side in zip(others, sides):
        if side.startswith("top"):
            i = top_sides.index(side)
            zone = Rect(top_x0 + i * (slot_w + m), top_y, slot_w, top_band_h)
            if len(top_sides) == 1:
                zone = Rect(int(w * 0.28), top_y, int(w * 0.44), top_band_h)
        else:
            zone = Rect(m if side == "left" else w - m - side_w, mid_top, side_w, mid_bottom - mid_top)
        make_seat(seat, side, zone, opp_card_h)

    # The middle: safe (2 x 2), draw pile, discard pile.
    pile_h = int(min(h * 0.19, (mid_bottom - mid_top) * 0.95))
    pw, ph = card_size(pile_h)
    safe_h = int((pile_h - m) / 2)
    sw, sh = card_size(safe_h)
    gap = int(pw * 0.35)
    group_w = 2 * sw + m + 3 * (gap + pw)
    gx = (w - group_w) // 2
    gy = mid_top + (mid_bottom - mid_top - pile_h) // 2
    safe = [Rect(gx + (i % 2) * (sw + m), gy + (i // 2) * (sh + m), sw, sh) for i in range(4)]
    draw_pile = Rect(gx + 2 * sw + m + gap, gy, pw, ph)
    discard = Rect(draw_pile.right + gap, gy, pw, ph)
    # your hand: beside the discard pile, as big as the piles
    my = seats[persp]
    my.hand = Rect(discard.right + gap, gy, pw, ph)

    banner = Rect(int(w * 0.22), mid_bottom + m // 2, int(w * 0.56), my_zone.top - mid_bottom - m)
    right_of_me = max(r.right for r in list(my.slots.values()) or [my_zone.centerx])
    left_of_me = min(r.left for r in list(my.slots.values()) or [my_zone.centerx])
    actions = Rect(max(my_zone.right, right_of_me) + m, my_zone.top, 0, my_zone.h)
    actions.w = w - m - actions.left
    info = Rect(m, my_zone.top, min(my_zone.left, left_of_me) - 2 * m, my_zone.h)

    owner = {sid: seat for seat, area in seats.items() for sid in area.slots}
    slots = {sid: r for area in seats.values() for sid, r in area.slots.items()}
    return TableLayout((w, h), persp, seats, draw_pile, discard, safe, banner, actions, info,
                       top_bar, font, (pw, ph), owner, slots)


def all_rects(layout: TableLayout) -> Iterable[tuple[str, Rect]]:
    """Every rect that must not overlap another (for tests and debugging)."""
    for seat in layout.seats.values():
        yield f"plate{seat.seat}", seat.plate
        yield f"hand{seat.seat}", seat.hand
        for sid, r in seat.slots.items():
            yield f"slot{sid}", r
    yield "draw_pile", layout.draw_pile
    yield "discard", layout.discard
    for i, r in enumerate(layout.safe):
        yield f"safe{i}", r
    yield "banner", layout.banner
    yield "actions", layout.actions
    yield "info", layout.info
    yield "top_bar", layout.top_bar
