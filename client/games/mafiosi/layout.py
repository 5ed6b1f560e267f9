"""Where everything sits on the Mafiosi table: a pure function of (view, screen size).

:func:`mafiosi_layout` takes a Mafiosi view (``shared.games.mafiosi.view`` or
``full_view``) and the window size in pixels and returns a :class:`MafiosiLayout` of
``pygame.Rect`` in window pixels. No display is needed, so the layout is tested at any
resolution and recomputed whenever the cards move.

Bands, top to bottom: the top bar (round, trick, table name); the players across the
top (and on the sides with 4 or 5 players); the middle (the trick, one place per player
in play order, each with the name of who played it, under a strip telling the trick's
duties; during the point-card choice your won cards instead); the prompt banner; you
(name plate, your bouncer on the left, your hand fanned in the middle with the playable
cards raised, your won pile on the right). The message column sits left of your zone,
the action buttons right of it. Seats go clockwise from you (you at the bottom); a
spectator sees seat 0 at the bottom.

Card places: ``("hand", id)`` (the bottom seat's known hand), ``("ohand", id)`` (another
seat's hand, only in a finished match's replay), ``("trick", id)``, ``("point", id)``
(your won cards and bouncer while you choose a point card), ``("bouncer", seat)`` and
``("pile", seat)``; face-down hands are :attr:`MafiosiLayout.backs`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from pygame import Rect

from client.table.layout import CARD_RATIO, card_size, grid

Place = tuple[str, int]
SUIT_ORDER = ("spades", "hearts", "clubs", "diamonds")  # alternate colours in a hand


@dataclass
class SeatArea:
    """One player's place: ``zone`` (everything of the seat), ``plate`` (name, clan,
    counts, turn light), ``hand`` (where the hand lies), ``bouncer`` and ``pile`` (won
    cards) rects, ``card`` the (w, h) of its small cards, ``side``."""

    seat: int
    side: str
    zone: Rect
    plate: Rect
    hand: Rect
    bouncer: Rect
    pile: Rect
    card: tuple[int, int]


@dataclass
class MafiosiLayout:
    """Every rect of the table for one window size (pixels). ``trick_slots`` are the
    places of the 1st, 2nd... card of a trick (``trick_names`` the name strip under
    each), ``duty`` the strip above them, ``centre`` the whole middle; ``cards`` every
    card place, ``order`` the hand places left to right (later = on top), ``raised`` the
    hand places raised as playable, ``backs[seat]`` a face-down hand."""

    size: tuple[int, int]
    perspective: int
    n: int
    top_bar: Rect
    seats: dict[int, SeatArea]
    centre: Rect
    duty: Rect
    trick_slots: list[Rect]
    trick_names: list[Rect]
    banner: Rect
    actions: Rect
    info: Rect
    font: int
    hand_card: tuple[int, int] = (0, 0)
    cards: dict[Place, Rect] = field(default_factory=dict)
    order: list[Place] = field(default_factory=list)
    raised: set[Place] = field(default_factory=set)
    backs: dict[int, list[Rect]] = field(default_factory=dict)
    point_title: Rect | None = None

    def rect(self, place: Place) -> Rect | None:
        return self.cards.get(place)

    def hit(self, pos: tuple[int, int]) -> Place | None:
        """The topmost card place under a point (a hand card, a point card, a trick
        card), ``("bouncer", seat)``, ``("pile", seat)``, ``("player", seat)`` or None."""
        for place in reversed(self.order):
            if self.cards[place].collidepoint(pos):
                return place
        for place, r in self.cards.items():
            if place[0] in ("point", "trick", "ohand") and r.collidepoint(pos):
                return place
        for seat, area in self.seats.items():
            if area.pile.collidepoint(pos):
                return ("pile", seat)
            if area.bouncer.collidepoint(pos):
                return ("bouncer", seat)
        for seat, area in self.seats.items():
            if area.plate.collidepoint(pos) or area.zone.collidepoint(pos):
                return ("player", seat)
        return None

    def hand_centre(self, seat: int) -> Rect:
        """A card-sized rect at the middle of ``seat``'s hand (where its plays start)."""
        area = self.seats[seat]
        cw, ch = self.hand_card if seat == self.perspective else area.card
        r = Rect(0, 0, cw, ch)
        r.center = area.hand.center
        return r


def sort_hand(cards: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """A hand as players hold it: by suit (alternating colours), ace low to King, the
    Jokers last."""
    def key(c: Mapping[str, Any]) -> tuple[int, int, int]:
        suit = c.get("suit")
        return (SUIT_ORDER.index(suit) if suit in SUIT_ORDER else 9, int(c.get("strength", 0)), int(c.get("id", 0)))
    return sorted(cards, key=key)


def fan(n: int, area: Rect, size: tuple[int, int], gap_ratio: float = 0.06) -> list[Rect]:
    """``n`` cards of ``size`` side by side in ``area``, centred; overlapping (left to
    right) when they do not fit."""
    cw, ch = size
    if n <= 0:
        return []
    step = cw * (1 + gap_ratio)
    if n > 1 and cw + (n - 1) * step > area.w:
        step = max(2.0, (area.w - cw) / (n - 1))
    total = cw + (n - 1) * step
    x0 = area.x + (area.w - total) / 2
    y = area.y + (area.h - ch) // 2
    return [Rect(int(x0 + i * step), y, cw, ch) for i in range(n)]


def _sides(k: int) -> list[str]:
    """Where the ``k`` other players sit, clockwise from your left."""
    return {0: [], 1: ["top"], 2: ["top_l", "top_r"], 3: ["left", "top", "right"],
            4: ["left", "top_l", "top_r", "right"]}.get(k, ["top"] * k)


def _player(view: Mapping[str, Any], seat: int) -> Mapping[str, Any]:
    return next((p for p in view.get("players", []) if p.get("seat") == seat), {})


def mafiosi_layout(view: Mapping[str, Any], size: tuple[int, int], perspective: int | None = None) -> MafiosiLayout:
    """The layout of a Mafiosi ``view`` in a ``size`` = (w, h) px window, seen from
    ``perspective`` (default: the view's own seat; a spectator sees seat 0)."""
    w, h = max(320, int(size[0])), max(240, int(size[1]))
    n = int(view.get("seats") or len(view.get("players", [])) or 4)
    me = view.get("seat") if perspective is None else perspective
    persp = me if isinstance(me, int) and 0 <= me < n else 0

    m = max(4, int(min(w, h) * 0.012))
    font = max(12, int(h * 0.026))
    top_bar = Rect(0, 0, w, int(h * 0.05))
    plate_h = max(20, int(h * 0.042))

    # you, at the bottom: plate, then bouncer | hand (raised cards need room) | pile
    hand_h = int(h * 0.215)
    raise_px = max(6, int(hand_h * 0.13))
    zone_h = plate_h + m // 2 + raise_px + hand_h + m // 2
    my_zone = Rect(int(w * 0.20), h - m - zone_h, int(w * 0.60), zone_h)
    banner = Rect(my_zone.x, my_zone.top - m // 2 - int(h * 0.075), my_zone.w, int(h * 0.075))
    actions = Rect(my_zone.right + m, banner.top, w - m - (my_zone.right + m), h - m - banner.top)
    info = Rect(m, banner.top, my_zone.left - 2 * m, h - m - banner.top)

    seats: dict[int, SeatArea] = {}
    cards: dict[Place, Rect] = {}
    order: list[Place] = []
    raised: set[Place] = set()
    backs: dict[int, list[Rect]] = {}

    # your zone
    plate = Rect(my_zone.x + m, my_zone.y, my_zone.w - 2 * m, plate_h)
    row = Rect(my_zone.x + m, plate.bottom + m // 2, my_zone.w - 2 * m, raise_px + hand_h)
    side_size = card_size(hand_h * 0.80)
    bouncer = Rect(row.x, row.bottom - side_size[1], *side_size)
    pile = Rect(row.right - side_size[0], row.bottom - side_size[1], *side_size)
    gap = max(m, int(side_size[0] * 0.22))
    hand_area = Rect(bouncer.right + gap, row.y + raise_px, pile.left - gap - (bouncer.right + gap), hand_h)
    hsize = card_size(hand_h)
    seats[persp] = SeatArea(persp, "bottom", my_zone, plate, hand_area, bouncer, pile, side_size)
    mine = _player(view, persp)
    known = view.get("hand") if view.get("seat") == persp and view.get("hand") is not None else mine.get("hand")
    if known is not None:
        hand = sort_hand(known)
        for c, r in zip(hand, fan(len(hand), hand_area, hsize)):
            place = ("hand", int(c["id"]))
            if c.get("playable"):
                r = r.move(0, -raise_px)
                raised.add(place)
            cards[place] = r
            order.append(place)
    else:
        backs[persp] = fan(int(mine.get("hand_count", 0)), hand_area, hsize, gap_ratio=-0.55)

    # the others
    top_y = top_bar.bottom + m
    top_band_h = int(h * 0.20)
    mid_top = top_y + top_band_h + m
    mid_bottom = banner.top - m
    others = [(persp + i) % n for i in range(1, n)]
    sides = _sides(len(others))
    side_w = int(w * 0.19)
    has_side = "left" in sides
    top_sides = [s for s in sides if s.startswith("top")]
    top_x0, top_x1 = m, w - m
    if has_side and len(top_sides) == 1:
        top_x0, top_x1 = int(w * 0.27), int(w * 0.73)
    elif has_side:
        top_x0, top_x1 = m + int(w * 0.03), w - m - int(w * 0.03)
    else:
        top_x0, top_x1 = int(w * 0.06), int(w * 0.94)
    slot_w = (top_x1 - top_x0 - 2 * m * (len(top_sides) - 1)) // max(1, len(top_sides))
    for seat, side in zip(others, sides):
        if side.startswith("top"):
            i = top_sides.index(side)
            zone = Rect(top_x0 + i * (slot_w + 2 * m), top_y, slot_w, top_band_h)
        else:
            zone = Rect(m if side == "left" else w - m - side_w, mid_top, side_w, mid_bottom - mid_top)
        p_plate = Rect(zone.x + m // 2, zone.y + m // 2, zone.w - m, plate_h)
        content = Rect(zone.x + m, p_plate.bottom + m // 2, zone.w - 2 * m, zone.bottom - p_plate.bottom - m)
        g = max(3, m)
        ch = min(h * 0.15, content.h * 0.92, (content.w - 2 * g) / 3.4 / CARD_RATIO)
        csize = card_size(ch)
        cy = content.y + (content.h - csize[1]) // 2
        p_pile = Rect(content.right - csize[0], cy, *csize)
        p_bouncer = Rect(p_pile.left - g - csize[0], cy, *csize)
        p_hand = Rect(content.x, cy, p_bouncer.left - g - content.x, csize[1])
        seats[seat] = SeatArea(seat, side.split("_")[0], zone, p_plate, p_hand, p_bouncer, p_pile, csize)
        player = _player(view, seat)
        if player.get("hand") is not None:  # a finished match's replay: every card face up
            for c, r in zip(sort_hand(player["hand"]), fan(len(player["hand"]), p_hand, csize, gap_ratio=-0.6)):
                cards[("ohand", int(c["id"]))] = r
        else:
            backs[seat] = fan(int(player.get("hand_count", 0)), p_hand, csize, gap_ratio=-0.7)

    # the middle: the duty strip, the trick in play order with the names under it
    cx0 = (m + side_w + m) if has_side else m
    cx1 = (w - m - side_w - m) if has_side else w - m
    centre = Rect(cx0, mid_top, cx1 - cx0, mid_bottom - mid_top)
    duty_h = int(font * 1.6)
    name_h = int(font * 1.5)
    duty = Rect(centre.x, centre.y, centre.w, duty_h)
    room = Rect(centre.x, duty.bottom, centre.w, centre.bottom - duty.bottom - name_h)
    tw = room.w / (n + (n + 1) * 0.22)
    th = min(h * 0.22, room.h, tw / CARD_RATIO)
    tsize = card_size(th)
    tgap = max(m, int(tsize[0] * 0.22))
    total = n * tsize[0] + (n - 1) * tgap
    tx = room.x + (room.w - total) // 2
    ty = room.y + (room.h - tsize[1]) // 2
    trick_slots = [Rect(tx + i * (tsize[0] + tgap), ty, *tsize) for i in range(n)]
    trick_names = [Rect(r.x - tgap // 2, r.bottom + 2, r.w + tgap, name_h - 2) for r in trick_slots]
    for i, entry in enumerate(view.get("trick") or []):
        if i < n and isinstance(entry, Mapping) and isinstance(entry.get("card"), Mapping):
            cards[("trick", int(entry["card"]["id"]))] = trick_slots[i]

    # the point-card choice: your won cards and bouncer, in the middle
    point_title = None
    if view.get("phase") == "point" and persp in (view.get("point_pending") or []):
        w_cards = list(mine.get("won") or [])
        if mine.get("bouncer"):
            w_cards.append(mine["bouncer"])
        if w_cards and mine.get("won") is not None:
            point_title = Rect(centre.x, centre.y, centre.w, duty_h)
            area = Rect(centre.x, point_title.bottom, centre.w, centre.bottom - point_title.bottom - int(font * 1.2))
            (pw, ph), cols, rows = grid(len(w_cards), area, int(h * 0.17))
            pg = max(2, int(pw * 0.10))
            for i, c in enumerate(sorted(w_cards, key=lambda c: (-int(c.get("value", 0)), int(c.get("id", 0))))):
                r_i, c_i = divmod(i, cols)
                in_row = min(cols, len(w_cards) - r_i * cols)
                x0 = area.x + (area.w - (in_row * pw + (in_row - 1) * pg)) // 2
                y0 = area.y + (area.h - (rows * ph + (rows - 1) * pg)) // 2
                cards[("point", int(c["id"]))] = Rect(x0 + c_i * (pw + pg), y0 + r_i * (ph + pg), pw, ph)

    return MafiosiLayout((w, h), persp, n, top_bar, seats, centre, duty, trick_slots, trick_names, banner,
                         actions, info, font, hsize, cards, order, raised, backs, point_title)


def areas(layout: MafiosiLayout) -> Iterable[tuple[str, Rect]]:
    """The areas that must not overlap each other (for tests and debugging)."""
    yield "top_bar", layout.top_bar
    for seat, area in layout.seats.items():
        yield f"zone{seat}", area.zone
    yield "centre", layout.centre
    yield "banner", layout.banner
    yield "actions", layout.actions
    yield "info", layout.info
