"""Where everything sits on the Famiglia table: a pure function of (view, screen size).

:func:`famiglia_layout` takes a Famiglia view (``shared.games.famiglia.view`` or
``full_view``) and the window size in pixels and returns a :class:`FamigliaLayout` of
``pygame.Rect`` in window pixels. No display is needed, so the layout is tested at any
resolution and recomputed whenever the cards move.

Bands, top to bottom: the top bar (turn, the four phases, table name); the opponent (name
plate, gang grouped by family, hand face down); the middle (deck, street, discard pile,
with a notice strip for the end of the game); the prompt banner; you (name plate, gang
grouped by family, your hand face up and big). The message column sits left of your
cards and the action buttons right of them, as on the Omerta table. A spectator sees
seat 0 at the bottom.

Card places are ``("street", id)``, ``("gang", id)`` and ``("hand", id)`` (ids are fixed
per card and unique); a hand whose cards the view does not give is a row of backs
(:attr:`FamigliaLayout.backs`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from pygame import Rect

from client.table.layout import CARD_RATIO, card_size, grid

Place = tuple[str, int]
#: Family wire names in the order their gang groups are shown (the rulebook's order).
FAMILY_ORDER = ("famiglia", "accountant", "brute", "mercenary")


@dataclass
class FamigliaLayout:
    """Every rect of the Famiglia table for one window size (pixels).

    ``zones``/``plates`` by seat; ``groups[seat]`` the four family areas of that seat's
    gang (in :data:`FAMILY_ORDER`); ``hand_area[seat]`` where that hand's cards lie;
    ``cards`` the rect of every card place, ``order`` the places in drawing order (later =
    on top); ``backs[seat]`` the face-down cards of a hidden hand; ``owner`` the seat of
    each gang or hand place; ``deck``, ``discard``, ``street`` (area), ``notice`` (end of
    game strip), ``banner``, ``actions`` (button column), ``info`` (message column),
    ``top_bar``, ``phases`` (the four phase pills), ``font`` a base text size (px).
    """

    size: tuple[int, int]
    perspective: int
    top_bar: Rect
    phases: list[Rect]
    zones: dict[int, Rect]
    plates: dict[int, Rect]
    groups: dict[int, list[Rect]]
    hand_area: dict[int, Rect]
    deck: Rect
    discard: Rect
    street: Rect
    notice: Rect
    banner: Rect
    actions: Rect
    info: Rect
    font: int
    cards: dict[Place, Rect] = field(default_factory=dict)
    order: list[Place] = field(default_factory=list)
    backs: dict[int, list[Rect]] = field(default_factory=dict)
    owner: dict[Place, int] = field(default_factory=dict)
    card_size: dict[str, tuple[int, int]] = field(default_factory=dict)

    def rect(self, place: Place) -> Rect | None:
        """The rect of a card place, None when it is not on the table."""
        return self.cards.get(place)

    def hit(self, pos: tuple[int, int]) -> Place | None:
        """The topmost card place under a point, ``("deck", 0)``, ``("discard", 0)``,
        ``("player", seat)`` (plate or zone) or None."""
        for place in reversed(self.order):
            if self.cards[place].collidepoint(pos):
                return place
        if self.deck.collidepoint(pos):
            return ("deck", 0)
        if self.discard.collidepoint(pos):
            return ("discard", 0)
        for seat, zone in self.zones.items():
            if self.plates[seat].collidepoint(pos) or zone.collidepoint(pos):
                return ("player", seat)
        return None

    def hand_target(self, seat: int) -> Rect:
        """Where a card flying into ``seat``'s hand lands (the next free spot)."""
        area = self.hand_area[seat]
        cw, ch = self.card_size["hand" if seat == self.perspective else "opp_hand"]
        cards = [r for p, r in self.cards.items() if p[0] == "hand" and self.owner.get(p) == seat]
        cards += self.backs.get(seat, [])
        x = max((r.right for r in cards), default=area.x) - (cw // 2 if cards else 0)
        x = min(x, area.right - cw)
        return Rect(x, area.y + (area.h - ch) // 2, cw, ch)


def _fan(n: int, area: Rect, size: tuple[int, int], gap_ratio: float = 0.08) -> list[Rect]:
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


def _cascade(n: int, area: Rect, size: tuple[int, int]) -> list[Rect]:
    """``n`` cards of ``size`` from the left of ``area``, overlapping as needed (a gang
    group: each card shows at least its top-left corner)."""
    cw, ch = size
    if n <= 0:
        return []
    step = cw * 0.55
    if n > 1 and cw + (n - 1) * step > area.w:
        step = max(2.0, (area.w - cw) / (n - 1))
    y = area.y + (area.h - ch) // 2
    return [Rect(int(area.x + i * step), y, cw, ch) for i in range(n)]


def _family_groups(area: Rect, gap: int) -> list[Rect]:
    gw = (area.w - 3 * gap) // 4
    return [Rect(area.x + i * (gw + gap), area.y, gw, area.h) for i in range(4)]


def _by_family(cards: Iterable[Mapping[str, Any]]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {f: [] for f in FAMILY_ORDER}
    for c in sorted(cards, key=lambda c: (int(c.get("value", 0)), int(c.get("id", 0)))):
        out.setdefault(str(c.get("family")), []).append(int(c["id"]))
    return out


def famiglia_layout(view: Mapping[str, Any], size: tuple[int, int], perspective: int | None = None) -> FamigliaLayout:
    """The layout of a Famiglia ``view`` in a ``size`` = (w, h) px window, seen from
    ``perspective`` (default: the view's own seat; a spectator sees seat 0 at the bottom)."""
    w, h = max(320, int(size[0])), max(240, int(size[1]))
    me = view.get("seat") if perspective is None else perspective
    persp = me if me in (0, 1) else 0
    opp = 1 - persp
    players = {int(p["seat"]): p for p in view.get("players", [])}

    m = max(4, int(min(w, h) * 0.012))
    font = max(12, int(h * 0.026))
    top_bar = Rect(0, 0, w, int(h * 0.05))
    plate_h = max(18, int(h * 0.040))

    # the four phase pills, a little left of the middle of the top bar (the key help and
    # the Rules button take its right end)
    pill_w = int(w * 0.085)
    pill_h = max(12, int(top_bar.h * 0.70))
    pill_gap = max(4, int(w * 0.006))
    px0 = int(w * 0.27)
    phases = [Rect(px0 + i * (pill_w + pill_gap), (top_bar.h - pill_h) // 2, pill_w, pill_h) for i in range(4)]

    # bands: your zone first (your gang's card height also sizes the opponent's gang)
    my_h = int(h * 0.40)
    my_zone = Rect(int(w * 0.205), h - m - my_h, int(w * 0.59), my_h)
    gang_h = int((my_h - m - plate_h) * 0.38)
    opp_zone = Rect(int(w * 0.12), top_bar.bottom + m, int(w * 0.76), plate_h + gang_h + 2 * m)
    banner = Rect(int(w * 0.205), my_zone.top - m // 2 - int(h * 0.07), int(w * 0.59), int(h * 0.07))
    mid = Rect(m, opp_zone.bottom + m, w - 2 * m, banner.top - m - (opp_zone.bottom + m))

    zones = {persp: my_zone, opp: opp_zone}
    plates: dict[int, Rect] = {}
    groups: dict[int, list[Rect]] = {}
    hand_area: dict[int, Rect] = {}
    cards: dict[Place, Rect] = {}
    order: list[Place] = []
    backs: dict[int, list[Rect]] = {}
    owner: dict[Place, int] = {}
    sizes: dict[str, tuple[int, int]] = {}

    def seat_cards(seat: int, zone: Rect, gang_area: Rect, hand: Rect, gang_h: int, hand_h: int,
                   hand_key: str) -> None:
        plates[seat] = Rect(zone.x + m, zone.y + m // 2, zone.w - 2 * m, plate_h)
        gap = max(3, int(gang_area.w * 0.015))
        groups[seat] = _family_groups(gang_area, gap)
        gsize = card_size(min(gang_h, gang_area.h))
        if gsize[0] > groups[seat][0].w:
            gsize = card_size(groups[seat][0].w / CARD_RATIO)
        sizes["gang" if seat == persp else "opp_gang"] = gsize
        player = players.get(seat, {})
        fams = _by_family(player.get("gang") or [])
        for i, fam in enumerate(FAMILY_ORDER):
            for cid, r in zip(fams.get(fam, []), _cascade(len(fams.get(fam, [])), groups[seat][i], gsize)):
                cards[("gang", cid)] = r
                owner[("gang", cid)] = seat
                order.append(("gang", cid))
        hand_area[seat] = hand
        hsize = card_size(min(hand_h, hand.h))
        sizes[hand_key] = hsize
        known = player.get("hand")
        if known is not None:
            ids = [int(c["id"]) for c in sorted(known, key=lambda c: (FAMILY_ORDER.index(c["family"])
                                                                     if c.get("family") in FAMILY_ORDER else 9,
                                                                     int(c.get("value", 0)), int(c["id"])))]
            for cid, r in zip(ids, _fan(len(ids), hand, hsize)):
                cards[("hand", cid)] = r
                owner[("hand", cid)] = seat
                order.append(("hand", cid))
        else:
            backs[seat] = _fan(int(player.get("hand_count", 0)), hand, hsize, gap_ratio=-0.45)

    # you: plate, gang row, hand row
    inner_top = my_zone.y + m // 2 + plate_h + m // 2
    gang_area = Rect(my_zone.x + m, inner_top, my_zone.w - 2 * m, gang_h)
    hand = Rect(my_zone.x + m, gang_area.bottom + m, my_zone.w - 2 * m, my_zone.bottom - m // 2 - gang_area.bottom - m)
    seat_cards(persp, my_zone, gang_area, hand, gang_h, hand.h, "hand")

    # the opponent: plate, then gang (left) and hand (right) side by side
    o_top = opp_zone.y + m // 2 + plate_h + m // 2
    o_h = opp_zone.bottom - m // 2 - o_top
    o_gang = Rect(opp_zone.x + m, o_top, int((opp_zone.w - 3 * m) * 0.70), o_h)
    o_hand = Rect(o_gang.right + m, o_top, opp_zone.right - m - (o_gang.right + m), o_h)
    seat_cards(opp, opp_zone, o_gang, o_hand, gang_h, gang_h, "opp_hand")

    # the middle: deck, street, discard pile
    label_h = int(font * 1.9)
    pile_h = int(min(h * 0.20, mid.h - label_h))
    pw, ph = card_size(pile_h)
    side = max(pw + 2 * m, int(w * 0.12))
    deck = Rect(mid.x + (side - pw) // 2 + int(w * 0.02), mid.y + (mid.h - label_h - ph) // 2, pw, ph)
    discard = Rect(mid.right - int(w * 0.02) - (side + pw) // 2, deck.y, pw, ph)
    notice_h = max(14, int(h * 0.034))
    s_x0 = deck.right + int(w * 0.04)
    s_x1 = discard.left - int(w * 0.04)
    notice = Rect(s_x0, mid.y, s_x1 - s_x0, notice_h)
    street = Rect(s_x0, notice.bottom + m // 2, s_x1 - s_x0, mid.bottom - notice.bottom - m // 2)
    street_cards = list(view.get("street") or [])
    (sw, sh), cols, rows = grid(len(street_cards), street, int(h * 0.20))
    sizes["street"] = (sw, sh)
    sgap = max(2, int(sw * 0.10))
    for r_i in range(rows):
        row = street_cards[r_i * cols:(r_i + 1) * cols]
        total = len(row) * sw + (len(row) - 1) * sgap
        x0 = street.x + (street.w - total) // 2
        y0 = street.y + (street.h - (rows * sh + (rows - 1) * sgap)) // 2 + r_i * (sh + sgap)
        for j, c in enumerate(row):
            place = ("street", int(c["id"]))
            cards[place] = Rect(x0 + j * (sw + sgap), y0, sw, sh)
            order.insert(0, place)
    sizes["pile"] = (pw, ph)

    actions = Rect(my_zone.right + m, banner.top, w - m - (my_zone.right + m), my_zone.bottom - banner.top)
    info = Rect(m, my_zone.top, my_zone.left - 2 * m, my_zone.h)
    return FamigliaLayout((w, h), persp, top_bar, phases, zones, plates, groups, hand_area, deck, discard, street,
                          notice, banner, actions, info, font, cards, order, backs, owner, sizes)


def areas(layout: FamigliaLayout) -> Iterable[tuple[str, Rect]]:
    """The areas that must not overlap each other (for tests and debugging)."""
    yield "top_bar", layout.top_bar
    for seat, zone in layout.zones.items():
        yield f"zone{seat}", zone
    yield "deck", layout.deck
    yield "discard", layout.discard
    yield "street", layout.street
    yield "notice", layout.notice
    yield "banner", layout.banner
    yield "actions", layout.actions
    yield "info", layout.info
