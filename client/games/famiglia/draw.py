"""Painting the Famiglia table from the scene's state (drawing only: nothing changes).

:func:`draw_table` paints, in order: the *base frame* -- the static layer (felt, top bar
with the turn and the four phases, seat panels, name plates with scores and hand sizes,
the gang groups' family places, pile labels, the end-of-game notice, and the cards lying
still at their places), the deck and the discard pile, the street and gangs and hands
lying still (a card a Brute lowered this turn shows its new value in a red badge), the
face-down hands, the selection marks, the prompt banner when it does not breathe, the
message column -- cached (:class:`~client.table.draw.BaseFrame`) while none of it changes;
then over it what moves: the cards gliding to new places (with their whole overlapping
group, so the order cards overlap in stays right), the running effects, the turn timer,
a breathing (urgent) banner, and the reconnection overlay. Sizes come from the layout
(pixels).

A table nobody plays on here (the TV view) repaints only those moving things each frame
(:func:`draw_partial`, so the TV view idles cheaply); the rects they paint are kept in
``sc.top_rects`` by both paths.

Frame budget (ARCHITECTURE §6, near 5 ms at 1920x1080): the static layer is one opaque
blit and also holds the cards lying still at their places (a hand or gang group only
when none of its overlapping cards moves); a moving card is one alpha blit with its
shadow baked in (``CardArt.shadowed``); effects are indexed once per frame.
"""
from __future__ import annotations

from typing import Any

import pygame

from client import felt, text
from client.table import kept
from client.table import draw as table_draw
from client.cards import card_key
from client.games.famiglia.cards import FAMILY_LETTERS, family_colour, family_name
from client.games.famiglia.layout import FAMILY_ORDER
from client.i18n import tr
from client.table.draw import (BaseFrame, CREAM, DIM, GOLD, TURN, Same, TopItems, banner, count_badge, discard_pile,
                               draw_hint, draw_messages, draw_reconnecting, fade, label_under, panel, pill,
                               top_record, refill, seat_panel, stack, turn_timer)

RED = (235, 70, 60)


class Frame(table_draw.Frame):
    """What one frame needs, computed once: the effects index, the selection sets, the
    card of every place and the cards lying still."""

    offered_alpha = (70, 110)  # fainter than Omerta's: Famiglia offers many cards at once

    def __init__(self, sc: Any):
        super().__init__(sc)
        lay = self.layout
        places = _places(sc)
        #: Every card place of the view with its card.
        self.faces: dict[tuple[str, int], dict] = places["faces"]
        groups = places["groups"]
        # the cards lying still: painted into the static layer, group by group; the
        # groups where a card moves (gliding to a new place, displaced by an effect) are
        # drawn over the base frame; the others, where a card is hidden (an effect
        # brings it), lie still in the base frame without being in the static layer
        moving: set[tuple] = set()
        unsettled: set[tuple] = set()
        hidden = {place for place, n in self.hidden.items() if n}  # (a Counter's misses are slow)
        offsets, card_pos, faces = self.offsets, sc.motion.card_pos, self.faces
        for place, rect in lay.cards.items():
            x, y = card_pos(place, rect)
            if place in offsets or x != rect.x or y != rect.y:
                moving.add(groups[place])
            elif place in hidden or place not in faces:
                unsettled.add(groups[place])
        unsettled |= moving
        keys, cards = places["keys"], lay.cards
        self.resting: dict[tuple, tuple] = {}
        for place in lay.order:
            if place in keys and groups[place] not in unsettled:
                self.resting[place] = (cards[place].x, cards[place].y, keys[place])  # a resting card is at its place
        for seat, backs in lay.backs.items():
            if backs and ("backs", seat) not in hidden:
                self.resting[("backs", seat)] = tuple(tuple(r) for r in backs)
        #: The card places drawn over the base frame, in drawing order: every card of
        #: a group where one moves (so the order they overlap in stays right). The base
        #: frame need not change while they glide: only which places glide is in its key.
        self.glide_order = tuple(p for p in places["order"] if groups[p] in moving) if moving else ()
        self.gliding = frozenset(self.glide_order)


#: What :class:`Frame` derives from the view and layout alone, kept while they stay the
#: same objects: ``faces`` (place -> card), ``groups`` (place -> :func:`_group`),
#: ``keys`` (place -> ``card_key``), ``order`` (the card places in drawing order).
_places_cache: dict[str, Any] = kept.state({"key": None})


def _places(sc: Any) -> dict[str, Any]:
    key = (Same(sc.view), Same(sc.layout))
    if _places_cache["key"] != key:
        v, lay = sc.view, sc.layout
        faces: dict[tuple[str, int], dict] = {("street", int(c["id"])): c for c in v.get("street") or []}
        for p in v.get("players", []):
            for zone in ("gang", "hand"):
                for c in p.get(zone) or []:
                    faces[(zone, int(c["id"]))] = c
        order = [place for place in faces if place[0] == "street" and place in lay.cards]
        for seat in lay.zones:
            for zone in ("gang", "hand"):
                order += [place for place in lay.order
                          if place[0] == zone and lay.owner.get(place) == seat and place in faces]
        _places_cache.update(key=key, faces=faces, order=order,
                             groups={place: _group(lay, place, faces) for place in lay.cards},
                             keys={place: card_key(faces[place]) for place in lay.order if place in faces})
    return _places_cache


def _group(lay: Any, place: tuple[str, int], faces: dict) -> tuple:
    """Cards that overlap each other: a hand, a family of a gang; a street card alone."""
    if place[0] == "street":
        return place
    card = faces.get(place) or {}
    return (place[0], lay.owner.get(place), card.get("family") if place[0] == "gang" else None)


def draw_table(surf: pygame.Surface, sc: Any) -> None:
    """Paint the Famiglia table scene ``sc`` on ``surf`` (its layout's size): the base
    frame (cached while :func:`_base_key` stays the same), then what moves over it;
    records the rects of the latter in ``sc.top_rects`` (None when the base frame is
    not cached) for :func:`draw_partial`."""
    f = Frame(sc)
    key, version = (_base_key(sc, f) if _base.wants_key() else None), _layer["version"]
    layer = _static_layer(sc, f, lazy_ok=not _base.fresh(key, f.t, surf.get_size()))
    if key is not None and _layer["version"] != version:  # the layer was rebuilt: part of the key
        key = _base_key(sc, f)
    _base.draw(surf, key, f.t, lambda target: _paint_base(target, f, layer))
    gliders = _glider_items(f)
    for _rects, paint in gliders:
        paint(surf)
    sc.anim.draw(surf, f.art, f.t)
    _timer(surf, sc)
    if sc.prompt[2]:
        _banner(surf, sc)
    attempt = sc.reconnecting
    if attempt is not None:
        draw_reconnecting(surf, attempt, attempt.clock_s())
    items = _top_items(sc, f, gliders) if _base.key is not None else None
    sc.top_rects = top_record(items)


def draw_partial(surf: pygame.Surface, sc: Any) -> list[pygame.Rect] | None:
    """Repaint only what moved since the last frame (the gliding cards, the cards in
    flight, the turn timer, a breathing banner) over the cached base frame; returns the
    regions repainted (px), or None when the whole frame must be drawn
    (:func:`draw_table`): the base frame changed, or an effect does not know its rects."""
    f = Frame(sc)
    return _base.redraw(surf, sc, _base_key(sc, f), f.t, _top_items(sc, f, _glider_items(f)))


def _top_items(sc: Any, f: Frame, gliders: TopItems) -> TopItems | None:
    """What :func:`draw_table` paints over the base frame, in the same order, with its
    rects (px): the gliding cards (``gliders``, :func:`_glider_items`), the effects, the
    turn timer, an urgent banner. None when an effect does not know its rects."""
    items: TopItems = list(gliders)
    fx = sc.anim.bounds(f.t, f.art)
    if fx is None:
        return None
    if fx:
        items.append((fx, lambda s: sc.anim.draw(s, f.art, f.t)))
    left = sc.timer.left()
    if left is not None and left[0] in sc.layout.plates:
        pr = sc.layout.plates[left[0]]
        items.append(([pygame.Rect(pr.x - pr.h, pr.top - pr.h, pr.w + 2 * pr.h, 2 * pr.h)], lambda s: _timer(s, sc)))
    if sc.prompt[2]:
        items.append(([sc.layout.banner.inflate(6, 6)], lambda s: _banner(s, sc)))
    return items


# -- the base frame: everything that changes only with the match's state ---------------

#: The static layer, the piles, the cards lying still, the hidden hands' backs, a still
#: banner and the message column, cached while :func:`_base_key` stays the same.
_base = BaseFrame()


def _base_key(sc: Any, f: Frame) -> tuple | None:
    """Every input of :func:`_paint_base` that may change between two frames; None (no
    caching) while offered cards breathe (a local player choosing). The gliding cards
    (:attr:`Frame.gliding`) are not in the base frame: only which places glide is."""
    if f.offered:
        return None
    hidden = f.hidden_key()
    return (Same(sc.view), Same(sc.layout), _layer["version"], hidden, f.gliding, frozenset(f.picked),
            frozenset(f.cursor), f.hover, sc.prompt, tuple(map(Same, sc.column.visible())))


def _paint_base(target: pygame.Surface, f: Frame, layer: pygame.Surface) -> None:
    sc = f.sc
    target.blit(layer, (0, 0))
    _piles(target, f)
    _street(target, f)
    for seat in f.layout.zones:
        _gang(target, f, seat)
        _hand(target, f, seat)
    if not sc.prompt[2]:
        _banner(target, sc)
    draw_messages(target, sc.emotes.message_box(f.layout.info), sc.column.visible(), max(11, int(f.layout.font * 0.82)))


def _glider_items(f: Frame) -> TopItems:
    """The gliding cards (:attr:`Frame.glide_order`), one item each: where each is drawn
    now (px), with its shadow, selection marks, a Brute's red frame and the lowered
    value's badge, and how to paint it."""
    items: TopItems = []
    for place in f.glide_order:
        if f.hidden[place]:
            continue
        rect = f.layout.cards[place]
        x, y = f.sc.motion.card_pos(place, rect)
        ox, oy = f.offsets.get(place, (0.0, 0.0))
        pad = max(8, rect.w // 3) + 2
        items.append(([pygame.Rect(int(x + ox) - pad, int(y + oy) - pad, rect.w + 2 * pad, rect.h + 2 * pad)],
                      lambda s, place=place: _glide(s, f, place)))
    return items


def _glide(surf: pygame.Surface, f: Frame, place: tuple[str, int]) -> None:
    """One gliding card, over the base frame."""
    rect = f.layout.cards[place]
    card = f.faces[place]
    _card(surf, f, place, card, rect)
    if place[0] == "street":
        _street_marks(surf, f, place, card, rect)


def _banner(surf: pygame.Surface, sc: Any) -> None:
    """The prompt strip (its frame breathes when urgent: then drawn over the base frame)."""
    banner(surf, sc.layout.banner, sc.prompt, sc.t)


# -- the static layer ------------------------------------------------------------------

_chrome: dict[str, Any] = kept.state({"key": None, "surf": None})


def _chrome_key(sc: Any) -> tuple:
    v, lay = sc.view, sc.layout
    seats = tuple((p, sc.roster.seat_name(p), sc.roster.seat_away(p), pl.get("score"), pl.get("hand_count"),
                   v.get("turn") == p and v.get("phase") != "over")
                  for p, pl in ((int(x["seat"]), x) for x in v.get("players", [])))
    return (lay.size, seats, v.get("turn_no"), v.get("step"), v.get("phase"), v.get("exhaustion"),
            str(v.get("end")), v.get("passes"), sc.roster.table_name, sc.roster.spectator_line(), sc.keys.help_line,
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
        left = tr("fam.turn", n=str(v.get("turn_no", 1)), name=sc.roster.seat_name(int(v.get("turn", 0))))
    if sc.roster.spectator_line():
        left += " · " + sc.roster.spectator_line()
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
    right = sc.keys.help_line
    draw_hint(surf, right, lay.phases[-1].right + bar.h * 0.5, sc.actions.hint_right(bar), bar.centery, int(fs * 0.85))


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
    name = sc.roster.seat_name(seat)
    room = hand_r.left - x - pr.h // 2
    nm = text.render(name, text.fit_size(name, max(20, room), fs, bold=True), CREAM, bold=True)
    surf.blit(nm, nm.get_rect(midleft=(x, pr.centery)))
    away = sc.roster.seat_away(seat)
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


_layer: dict[str, Any] = kept.state({"chrome": None, "surf": None, "baked": {}, "t": 0.0, "version": 0})
#: New resting cards wait at most this long (ms) before the layer is rebuilt with them:
#: during a refill the layer is not rebuilt for every card that lands.
BAKE_DELAY_MS = 300.0


def _static_layer(sc: Any, f: Frame, lazy_ok: bool = True) -> pygame.Surface:
    """The chrome plus the cards lying still. Rebuilt at once when the chrome changes or
    a baked card stops resting; lazily to add newly resting cards (``lazy_ok``: when the
    base frame is repainted anyway, so a cached base frame is not repainted for it)."""
    chrome = _chrome_layer(sc)
    baked = _layer["baked"]
    stale = _layer["chrome"] is not _chrome["key"] or any(f.resting.get(p) != v for p, v in baked.items())
    lazy = lazy_ok and len(f.resting) != len(baked) and f.t - _layer["t"] >= BAKE_DELAY_MS
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
        _layer.update(chrome=_chrome["key"], surf=surf, baked=dict(f.resting), t=f.t, version=_layer["version"] + 1)
    return _layer["surf"]


# -- per frame ---------------------------------------------------------------------------

def _card(surf: pygame.Surface, f: Frame, place: tuple[str, int], card: dict | None, rect: pygame.Rect) -> None:
    """One card (None = back) at its displayed position, with its selection marks (a
    card lying still is already in the static layer: only its marks are drawn)."""
    if f.hidden[place]:
        return
    x, y = f.sc.motion.card_pos(place, rect)
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
    """The street's cards that do not glide (into the base frame)."""
    lay, v = f.layout, f.view
    for c in v.get("street") or []:
        place = ("street", int(c["id"]))
        rect = lay.cards.get(place)
        if rect is None or place in f.gliding:
            continue
        _card(surf, f, place, c, rect)
        _street_marks(surf, f, place, c, rect)


def _street_marks(surf: pygame.Surface, f: Frame, place: tuple[str, int], c: dict, rect: pygame.Rect) -> None:
    """A street card's Brute marks where it is drawn now: the red frame of this turn's
    target, the badge of its lowered value."""
    if f.hidden[place]:
        return
    brute = f.view.get("brute") or {}
    eff = c.get("effective", c.get("value"))
    x, y = f.sc.motion.card_pos(place, rect)
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
    """A seat's gang cards that do not glide (into the base frame)."""
    lay = f.layout
    player = next((p for p in f.view.get("players", []) if p.get("seat") == seat), {})
    cards = {int(c["id"]): c for c in player.get("gang") or []}
    for place in lay.order:
        if place[0] == "gang" and lay.owner.get(place) == seat and place[1] in cards and place not in f.gliding:
            _card(surf, f, place, cards[place[1]], lay.cards[place])


def _hand(surf: pygame.Surface, f: Frame, seat: int) -> None:
    """A seat's hand cards that do not glide, or a hidden hand's backs (which never
    move), into the base frame."""
    lay = f.layout
    player = next((p for p in f.view.get("players", []) if p.get("seat") == seat), {})
    known = player.get("hand")
    if known is not None:
        cards = {int(c["id"]): c for c in known}
        for place in lay.order:
            if place[0] == "hand" and lay.owner.get(place) == seat and place[1] in cards and place not in f.gliding:
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
    left = sc.timer.left()
    if left is not None and left[0] in sc.layout.plates:
        turn_timer(surf, sc.layout.plates[left[0]], left[1])
