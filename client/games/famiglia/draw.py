"""Painting the Famiglia table from the scene's state (drawing only: nothing changes).

:func:`draw_table` paints, in order: the *static layer* (felt, top bar with the turn and
the four phases, seat panels, name plates with scores and hand sizes, the gang groups'
family places, pile labels, the end-of-game notice -- rendered once and reused while none
of it changes), the deck and the discard pile, the street (a card a Brute lowered this
turn shows its new value in a red badge), both gangs grouped by family, both hands (face
up when the view gives the cards, else backs), selection marks, the running effects, the
turn timer, the prompt banner, the message column, and the reconnection overlay. Sizes
come from the layout (pixels).

Frame budget (ARCHITECTURE §6, near 5 ms at 1920x1080): the static layer is one opaque
blit and also holds the cards lying still at their places (a hand or gang group only
when none of its overlapping cards moves, so the order cards overlap in stays right);
a moving card is one alpha blit with its shadow baked in (``CardArt.shadowed``); effects
are indexed once per frame.
"""
from __future__ import annotations

from typing import Any

import pygame

from client import felt, text
from client.table import draw as table_draw
from client.cards import card_key
from client.games.famiglia.cards import FAMILY_LETTERS, family_colour, family_name
from client.games.famiglia.layout import FAMILY_ORDER
from client.i18n import tr
from client.table.draw import (draw_hint, CREAM, DIM, GOLD, TURN, banner, count_badge, discard_pile, draw_messages,
                               draw_reconnecting, fade, label_under, panel, pill, refill, seat_panel, stack,
                               turn_timer)

RED = (235, 70, 60)


class Frame(table_draw.Frame):
    """What one frame needs, computed once: the effects index, the selection sets, the
    card of every place and the cards lying still."""

    offered_alpha = (70, 110)  # fainter than Omerta's: Famiglia offers many cards at once

    def __init__(self, sc: Any):
        super().__init__(sc)
        # every card place of the view with its card
        v, lay = self.view, self.layout
        self.faces: dict[tuple[str, int], dict] = {("street", int(c["id"])): c for c in v.get("street") or []}
        for p in v.get("players", []):
            for zone in ("gang", "hand"):
                for c in p.get(zone) or []:
                    self.faces[(zone, int(c["id"]))] = c
        # the cards lying still: painted into the static layer, group by group
        moving: set[tuple] = set()
        pos: dict[tuple[str, int], tuple[int, int]] = {}
        for place, rect in lay.cards.items():
            x, y = sc.card_pos(place, rect)
            pos[place] = (int(x), int(y))
            if self.hidden[place] or place in self.offsets or (x, y) != (rect.x, rect.y) or place not in self.faces:
                moving.add(_group(lay, place, self.faces))
        self.resting: dict[tuple, tuple] = {}
        for place in lay.order:
            if place in self.faces and _group(lay, place, self.faces) not in moving:
                self.resting[place] = (*pos[place], card_key(self.faces[place]))
        for seat, backs in lay.backs.items():
            if backs and not self.hidden[("backs", seat)]:
                self.resting[("backs", seat)] = tuple(tuple(r) for r in backs)


def _group(lay: Any, place: tuple[str, int], faces: dict) -> tuple:
    """Cards that overlap each other: a hand, a family of a gang; a street card alone."""
    if place[0] == "street":
        return place
    card = faces.get(place) or {}
    return (place[0], lay.owner.get(place), card.get("family") if place[0] == "gang" else None)


def draw_table(surf: pygame.Surface, sc: Any) -> None:
    """Paint the Famiglia table scene ``sc`` on ``surf`` (its layout's size)."""
    f = Frame(sc)
    surf.blit(_static_layer(sc, f), (0, 0))
    _piles(surf, f)
    _street(surf, f)
    for seat in f.layout.zones:
        _gang(surf, f, seat)
        _hand(surf, f, seat)
    sc.anim.draw(surf, f.art, f.t)
    _timer(surf, sc)
    banner(surf, f.layout.banner, sc.prompt, sc.t)
    draw_messages(surf, f.layout.info, sc.visible_messages(), max(11, int(f.layout.font * 0.82)))
    attempt = sc.reconnecting
    if attempt is not None:
        draw_reconnecting(surf, attempt, attempt.clock_s())


# -- the static layer ------------------------------------------------------------------

_chrome: dict[str, Any] = {"key": None, "surf": None}


def _chrome_key(sc: Any) -> tuple:
    v, lay = sc.view, sc.layout
    seats = tuple((p, sc.seat_name(p), sc.seat_away(p), pl.get("score"), pl.get("hand_count"),
                   v.get("turn") == p and v.get("phase") != "over")
                  for p, pl in ((int(x["seat"]), x) for x in v.get("players", [])))
    return (lay.size, seats, v.get("turn_no"), v.get("step"), v.get("phase"), v.get("exhaustion"),
            str(v.get("end")), v.get("passes"), sc.table_name, sc.spectator_line(), sc.help_line,
            text.cache_epoch(), sc.art.colour_blind, v.get("deck"), len(v.get("discard") or []))


def _chrome_layer(sc: Any) -> pygame.Surface:
    key = _chrome_key(sc)
    if _chrome["key"] != key:
        surf = refill(_chrome["surf"], felt.table_surface(*sc.layout.size))
        _top_bar(surf, sc)
        for seat in sc.layout.zones:
            _seat_static(surf, sc, seat)
        _pile_labels(surf, sc)
        _notice(surf, sc)
        _chrome.update(key=key, surf=surf)
    return _chrome["surf"]


def _top_bar(surf: pygame.Surface, sc: Any) -> None:
    lay, v = sc.layout, sc.view
    bar = lay.top_bar
    fs = max(12, int(bar.h * 0.50))
    surf.blit(panel(bar.w, bar.h, 0, 110), bar.topleft)
    left_room = lay.phases[0].left - bar.h
    if v.get("phase") == "over":
        left = tr("fam.over")
    else:
        left = tr("fam.turn", n=str(v.get("turn_no", 1)), name=sc.seat_name(int(v.get("turn", 0))))
    if sc.spectator_line():
        left += " · " + sc.spectator_line()
    img = text.render(text.elide(left, left_room, fs, bold=True), fs, GOLD, bold=True)
    surf.blit(img, img.get_rect(midleft=(bar.x + bar.h * 0.5, bar.centery)))
    current = 0 if v.get("phase") == "over" else max(1, int(v.get("step", 0)))
    ps = max(10, int(lay.phases[0].h * 0.62))
    for i, r in enumerate(lay.phases):
        n = i + 1
        label = tr(f"fam.phase{n}")
        if n == current:
            bg, fg, edge = (110, 30, 36), (255, 226, 140), TURN
        elif n < current:
            bg, fg, edge = (26, 20, 18), (120, 112, 100), (80, 70, 56)
        else:
            bg, fg, edge = (30, 22, 18), CREAM, (150, 120, 70)
        pygame.draw.rect(surf, bg, r, border_radius=r.h // 2)
        pygame.draw.rect(surf, edge, r, 2 if n == current else 1, border_radius=r.h // 2)
        size = text.fit_size(label, r.w - r.h // 2, ps, bold=n == current)
        img = text.render(label, size, fg, bold=n == current)
        surf.blit(img, img.get_rect(center=r.center))
    right = sc.help_line
    draw_hint(surf, right, lay.phases[-1].right + bar.h * 0.5, sc.hint_right(bar), bar.centery, int(fs * 0.85))


def _seat_static(surf: pygame.Surface, sc: Any, seat: int) -> None:
    lay, v = sc.layout, sc.view
    zone = lay.zones[seat]
    player = next((p for p in v.get("players", []) if p.get("seat") == seat), {})
    active = v.get("turn") == seat and v.get("phase") != "over"
    pr = lay.plates[seat]
    x = seat_panel(surf, zone, pr, max(6, lay.font // 2), active)
    fs = max(11, int(pr.h * 0.56))
    score = text.render(tr("fam.vp", n=str(player.get("score", 0))), fs, GOLD, bold=True)
    surf.blit(score, score.get_rect(midright=(pr.right - pr.h // 2, pr.centery)))
    count = int(player.get("hand_count", 0))
    hand = text.render(tr("fam.in_hand", n=str(count)), int(fs * 0.85), DIM)
    hand_r = hand.get_rect(midright=(pr.right - pr.h // 2 - score.get_width() - pr.h, pr.centery))
    surf.blit(hand, hand_r)
    name = sc.seat_name(seat)
    room = hand_r.left - x - pr.h // 2
    nm = text.render(name, text.fit_size(name, max(20, room), fs, bold=True), CREAM, bold=True)
    surf.blit(nm, nm.get_rect(midleft=(x, pr.centery)))
    away = sc.seat_away(seat)
    if away:
        pill(surf, away, (pr.centerx, pr.bottom), max(9, int(pr.h * 0.42)))
    # the family places of the gang
    cw, ch = lay.card_size["gang" if seat == lay.perspective else "opp_gang"]
    ls = max(9, int(ch * 0.13))
    for fam, g in zip(FAMILY_ORDER, lay.groups[seat]):
        r = pygame.Rect(g.x, g.y + (g.h - ch) // 2, cw, ch)
        col = family_colour(fam, sc.art.colour_blind)
        pygame.draw.rect(surf, fade(col, 0.35), r, max(1, cw // 40), border_radius=max(4, cw // 10))
        label = FAMILY_LETTERS[fam] if sc.art.colour_blind else family_name(fam)
        img = text.render(text.elide(label, g.w - 4, ls), ls, fade(col, 0.6))
        surf.blit(img, img.get_rect(center=r.center))


def _pile_labels(surf: pygame.Surface, sc: Any) -> None:
    lay, v = sc.layout, sc.view
    fs = max(10, int(lay.font * 0.85))
    ex = int(v.get("exhaustion", 0))
    label_under(surf, lay.deck, tr("fam.deck"), fs)
    if ex:
        note = tr("fam.deck_last") if ex == 1 else tr("fam.deck_out")
        img = text.render(note, max(9, int(fs * 0.85)), (255, 170, 140) if ex == 2 else DIM, shadow=True)
        surf.blit(img, img.get_rect(midtop=(lay.deck.centerx, lay.deck.bottom + fs + 6)))
    label_under(surf, lay.discard, tr("fam.discard", n=str(len(v.get("discard") or []))), fs)


def _notice(surf: pygame.Surface, sc: Any) -> None:
    lay, v = sc.layout, sc.view
    end = v.get("end")
    if v.get("phase") == "over":
        return
    if end:
        msg, fg = tr("fam.notice_end", n=str(end.get("last_turn", "?"))), (255, 200, 170)
    elif int(v.get("passes", 0)) == 1:
        msg, fg = tr("fam.notice_pass"), (255, 226, 140)
    elif int(v.get("exhaustion", 0)) == 1:
        msg, fg = tr("fam.notice_reshuffled"), DIM
    else:
        return
    r = lay.notice
    size = text.fit_size(msg, r.w - r.h, max(10, int(r.h * 0.62)))
    pill(surf, msg, r.center, size, fg=fg)


_layer: dict[str, Any] = {"chrome": None, "surf": None, "baked": {}, "t": 0.0}
#: New resting cards wait at most this long (ms) before the layer is rebuilt with them:
#: during a refill the layer is not rebuilt for every card that lands.
BAKE_DELAY_MS = 300.0


def _static_layer(sc: Any, f: Frame) -> pygame.Surface:
    """The chrome plus the cards lying still. Rebuilt at once when the chrome changes or
    a baked card stops resting; lazily to add newly resting cards."""
    chrome = _chrome_layer(sc)
    baked = _layer["baked"]
    stale = _layer["chrome"] is not _chrome["key"] or any(f.resting.get(p) != v for p, v in baked.items())
    lazy = len(f.resting) != len(baked) and f.t - _layer["t"] >= BAKE_DELAY_MS
    if stale or lazy or _layer["surf"] is None:
        surf = refill(_layer["surf"], chrome)
        lay, art = sc.layout, sc.art
        for place, value in f.resting.items():
            if place[0] == "backs":
                for r in lay.backs.get(place[1], []):
                    img, m = art.shadowed(None, r.w, r.h)
                    surf.blit(img, (r.x - m, r.y - m))
                continue
            rect = lay.cards[place]
            img, m = art.shadowed(f.faces[place], rect.w, rect.h)
            surf.blit(img, (value[0] - m, value[1] - m))
        _layer.update(chrome=_chrome["key"], surf=surf, baked=dict(f.resting), t=f.t)
    return _layer["surf"]


# -- per frame ---------------------------------------------------------------------------

def _card(surf: pygame.Surface, f: Frame, place: tuple[str, int], card: dict | None, rect: pygame.Rect) -> None:
    """One card (None = back) at its displayed position, with its selection marks (a
    card lying still is already in the static layer: only its marks are drawn)."""
    if f.hidden[place]:
        return
    x, y = f.sc.card_pos(place, rect)
    ox, oy = f.offsets.get(place, (0.0, 0.0))
    x, y = int(x + ox), int(y + oy)
    if _layer["baked"].get(place) is None or _layer["baked"][place] != f.resting.get(place):
        img, m = f.art.shadowed(card, rect.w, rect.h)
        surf.blit(img, (x - m, y - m))
    f.marks(surf, place, pygame.Rect(x, y, rect.w, rect.h))


def _piles(surf: pygame.Surface, f: Frame) -> None:
    lay, art, v = f.layout, f.art, f.view
    dk = lay.deck
    count = int(v.get("deck", 0))
    surf.blit(art.slot_outline(dk.w, dk.h), dk.topleft)
    stack(surf, art, dk, count, (v.get("deck_cards") or [None])[0])  # face up in a finished match's replay
    count_badge(surf, dk, count, RED if v.get("end") else GOLD)  # red: the last turns are running
    pile = v.get("discard") or []
    k = f.hidden[("discard", 0)]
    discard_pile(surf, art, lay.discard, pile[:len(pile) - k] if k else pile)


def _street(surf: pygame.Surface, f: Frame) -> None:
    lay, v = f.layout, f.view
    brute = v.get("brute") or {}
    for c in v.get("street") or []:
        place = ("street", int(c["id"]))
        rect = lay.cards.get(place)
        if rect is None:
            continue
        _card(surf, f, place, c, rect)
        if f.hidden[place]:
            continue
        eff = c.get("effective", c.get("value"))
        x, y = f.sc.card_pos(place, rect)
        ox, oy = f.offsets.get(place, (0.0, 0.0))
        r = pygame.Rect(int(x + ox), int(y + oy), rect.w, rect.h)
        if brute.get("target") == c["id"]:
            pygame.draw.rect(surf, RED, r.inflate(6, 6), max(2, r.w // 30), border_radius=max(5, r.w // 9))
        if eff is not None and eff != c.get("value"):
            _reduced_badge(surf, r, int(eff))


def _reduced_badge(surf: pygame.Surface, r: pygame.Rect, value: int) -> None:
    """A street card's value after this turn's Brute: a red disc at its top-right."""
    rad = max(9, int(r.w * 0.22))
    centre = (r.right - rad // 2, r.top + int(r.h * 0.36))
    pygame.draw.circle(surf, (20, 8, 8), (centre[0] + 2, centre[1] + 3), rad)
    pygame.draw.circle(surf, RED, centre, rad)
    pygame.draw.circle(surf, (255, 235, 220), centre, rad, max(2, rad // 7))
    img = text.render(str(value), int(rad * 1.35), (255, 255, 255), bold=True)
    surf.blit(img, img.get_rect(center=centre))


def _gang(surf: pygame.Surface, f: Frame, seat: int) -> None:
    lay = f.layout
    player = next((p for p in f.view.get("players", []) if p.get("seat") == seat), {})
    cards = {int(c["id"]): c for c in player.get("gang") or []}
    for place in lay.order:
        if place[0] == "gang" and lay.owner.get(place) == seat and place[1] in cards:
            _card(surf, f, place, cards[place[1]], lay.cards[place])


def _hand(surf: pygame.Surface, f: Frame, seat: int) -> None:
    lay = f.layout
    player = next((p for p in f.view.get("players", []) if p.get("seat") == seat), {})
    known = player.get("hand")
    if known is not None:
        cards = {int(c["id"]): c for c in known}
        for place in lay.order:
            if place[0] == "hand" and lay.owner.get(place) == seat and place[1] in cards:
                _card(surf, f, place, cards[place[1]], lay.cards[place])
        return
    backs = lay.backs.get(seat, [])
    if _layer["baked"].get(("backs", seat)) == f.resting.get(("backs", seat)) is not None:
        return
    hide = f.hidden[("backs", seat)]
    for r in backs[:max(0, len(backs) - hide)]:
        img, m = f.art.shadowed(None, r.w, r.h)
        surf.blit(img, (r.x - m, r.y - m))


def _timer(surf: pygame.Surface, sc: Any) -> None:
    """The turn timer's countdown on the plate of the seat on the clock."""
    left = sc.timer_left()
    if left is not None and left[0] in sc.layout.plates:
        turn_timer(surf, sc.layout.plates[left[0]], left[1])
