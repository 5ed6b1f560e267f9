"""Painting the Omerta table from the scene's state (drawing only: nothing changes).

:func:`draw_table` paints, in order: the *static layer* (felt, top bar, seat panels,
name plates with scores and statuses, labels -- rendered once and reused while none of
it changes), the turn glow, every seat's cards (reveals, Police Patrol tokens, selection
marks, Mamma tokens), the safe, the draw and discard piles, the card in hand, the
running effects, the prompt banner with the reaction-window countdown, and the message
column. Sizes come from the layout (pixels), so it works at any resolution.

Frame budget (ARCHITECTURE §6: under ~5 ms at 1920x1080): the static layer is one
opaque blit, each card one alpha blit with its shadow baked in, and the effects are
indexed once per frame (``Animator.index``) rather than searched per card.
"""
from __future__ import annotations

from functools import cached_property
from typing import Any

import pygame

from client import felt, text
from client.table import kept
from client.table import draw as table_draw
from client.games.omerta.cards import token
from client.i18n import tr
from client.games.omerta.fx import token_rect
from client.table.draw import (BaseFrame, CREAM, GOLD, OFFERED, PICKED, TURN, Same, TopItems, banner, count_badge,
                               discard_pile, draw_hint, draw_messages, draw_reconnecting, fade, label_under, panel,
                               pill, pulse, top_record, refill, seat_panel, stack, timer_text,
                               turn_timer, window_bar)
from client.input import now_ms

DIM = (180, 170, 150)  # a little darker than the shared one: the Omerta felt's labels
RED = (255, 120, 100)


class Frame(table_draw.Frame):
    """What one frame needs, computed once: the effects index, the selection sets, the
    cards the view gives face up and the face-down cards lying still."""

    def __init__(self, sc: Any):
        super().__init__(sc)
        self.marked = self.picked | self.offered | self.cursor

    @cached_property
    def faces(self) -> dict[int, dict]:
        """Cards the view gives face up (a finished match's replay: full_view slots carry
        ``card``), by slot id."""
        return {s["slot"]: s["card"] for p in self.view.get("players", []) for s in p.get("slots", []) if s.get("card")}

    @cached_property
    def gliding(self) -> frozenset[int]:
        """Slot ids of the cards moving: on their way to a new place (their follower is
        not at their rect yet) or displaced by an effect (a peek lifts a card, a wrong
        snap shakes it). They are drawn over the base frame, which then need not change
        while they move."""
        card_pos = self.sc.motion.card_pos
        moving = {sid for area in self.layout.seats.values() for sid, rect in area.slots.items()
                  if card_pos(sid, rect) != (rect.x, rect.y)}
        moving.update(place[1] for place in self.offsets if place[0] == "slot")
        return frozenset(moving)

    @cached_property
    def resting(self) -> dict[int, tuple[int, int]]:
        """Face-down cards lying still at their place (slot id -> top-left px): painted
        once into the static layer."""
        resting: dict[int, tuple[int, int]] = {}
        faces = self.faces
        for area in self.layout.seats.values():
            for sid, rect in area.slots.items():
                place = ("slot", sid)
                if self.hidden[place] or place in self.offsets or place in self.reveals or sid in faces:
                    continue
                pos = self.sc.motion.card_pos(sid, rect)
                if pos[0] == rect.x and pos[1] == rect.y:
                    resting[sid] = (rect.x, rect.y)
        return resting


def draw_table(surf: pygame.Surface, sc: Any) -> None:
    f = Frame(sc)
    key, version = (_base_key(sc, f) if _base.wants_key() else None), _layer["version"]
    layer = _static_layer(sc, f, lazy_ok=not _base.fresh(key, f.t, surf.get_size()))
    if key is not None and _layer["version"] != version:  # the layer was rebuilt: part of the key
        key = _base_key(sc, f)
    _base.draw(surf, key, f.t, lambda target: _paint_base(target, f, layer))
    _turn_glow(surf, f)
    _gliders(surf, f)
    sc.anim.draw(surf, f.art, f.t)
    _timer(surf, sc)
    _banner(surf, sc)
    attempt = sc.reconnecting
    if attempt is not None:
        draw_reconnecting(surf, attempt, attempt.clock_s())
    items = _top_items(sc, f) if _base.key is not None else None
    sc.top_rects = top_record(items)


def draw_partial(surf: pygame.Surface, sc: Any) -> list[pygame.Rect] | None:
    """Repaint only what moved since the last frame (the cards in flight, the time bars,
    the turn light) over the cached base frame; returns the regions repainted (px), or
    None when the whole frame must be drawn (:func:`draw_table`): the base frame changed,
    or something on screen does not know its rects."""
    f = Frame(sc)  # the static layer stays: its chrome changes with a message, its cards with
    # the effects index or the moving cards (the key then: a whole frame)
    return _base.redraw(surf, sc, _base_key(sc, f), f.t, _top_items(sc, f))


def _top_items(sc: Any, f: Frame) -> TopItems | None:
    """What :func:`draw_table` paints over the base frame, with its rects (px): the turn
    light, the effects, the turn timer, the banner with its time bar, the photo finish.
    None when one of them does not know its rects."""
    items: TopItems = []
    turn = f.view.get("turn")
    area = f.layout.seats.get(turn) if _active(f.view, turn) else None
    if area is not None:
        z = area.zone
        th = max(2, z.h // 90) + max(6, area.card[0] // 6) // 3 + 2  # the line and its rounded corners
        items.append(([pygame.Rect(z.x, z.y, z.w, th), pygame.Rect(z.x, z.bottom - th, z.w, th),
                       pygame.Rect(z.x, z.y, th, z.h), pygame.Rect(z.right - th, z.y, th, z.h)],
                      lambda s: _turn_glow(s, f), "glow", _glow_colour(f)))
    if f.gliding:
        items += _glider_items(f)
    fx = sc.anim.items(f.t, f.art)
    if fx is None:
        return None
    items += fx
    left = sc.timer.left()
    if left is not None and left[0] in sc.layout.seats:
        pr = sc.layout.seats[left[0]].plate
        seconds = left[1]
        look = (left[0], timer_text(seconds), seconds < 10 and pulse(now_ms(), 600) > 0.5)  # as turn_timer
        items.append(([pygame.Rect(pr.x - pr.h, pr.top - pr.h, pr.w + 2 * pr.h, 2 * pr.h)], lambda s: _timer(s, sc),
                      "timer", look))
    if sc.prompt[0]:
        b = sc.layout.banner
        frac = sc.window_left()
        bar = None if frac is None else (int((b.w - 12) * frac), frac < 0.3)  # as window_bar
        edge = fade(TURN, 0.6 + 0.4 * pulse(sc.t, 500)) if sc.prompt[2] else None  # as banner, urgent
        items.append(([b.inflate(6, 6)], lambda s: _banner(s, sc), "banner", (sc.prompt, bar, edge)))
    race = getattr(sc, "race", None)
    alpha = race.alpha(sc.t) if race is not None and getattr(sc, "race_overlay", False) else 0.0
    if alpha > 0.0:
        if race.panel is None:
            return None
        items.append(([pygame.Rect(race.panel[2])], sc.draw_race, "race", (Same(race), int(255 * alpha))))
    return items


# -- the base frame: everything that changes only with the match's state ---------------

#: The static layer, the cards lying on the table, the piles, the card in hand and the
#: message column, cached while :func:`_base_key` stays the same.
_base = BaseFrame()


def _base_key(sc: Any, f: Frame) -> tuple | None:
    """Every input of :func:`_paint_base` that may change between two frames; None (no
    caching) while offered places breathe (a local player choosing). The moving cards
    (:attr:`Frame.gliding`) are not in the base frame: only which ones move is."""
    if f.offered:
        return None
    hidden = f.hidden_key()
    offsets = tuple(sorted((place, o) for place, o in f.offsets.items() if place[0] != "slot"))
    return (Same(sc.view), Same(sc.layout), _layer["version"], hidden, offsets, f.reveals_key(),
            frozenset(f.picked), frozenset(f.cursor), f.hover, frozenset(sc.local_seats), sc.show_slot_numbers,
            tuple(map(Same, sc.column.visible())), f.gliding)


def _paint_base(target: pygame.Surface, f: Frame, layer: pygame.Surface) -> None:
    target.blit(layer, (0, 0))
    for area in f.layout.seats.values():
        _seat(target, f, area)
    _safe(target, f)
    _piles(target, f)
    _hand(target, f)
    draw_messages(target, f.sc.emotes.message_box(f.layout.info), f.sc.column.visible(), max(11, int(f.layout.font * 0.82)))


def _turn_glow(surf: pygame.Surface, f: Frame) -> None:
    """The breathing outline of the seat whose turn it is (drawn every frame, over the
    base frame)."""
    turn = f.view.get("turn")
    area = f.layout.seats.get(turn) if _active(f.view, turn) else None
    if area is not None:
        radius = max(6, area.card[0] // 6)
        pygame.draw.rect(surf, _glow_colour(f), area.zone, max(2, area.zone.h // 90), border_radius=radius)


def _glow_colour(f: Frame) -> tuple[int, int, int]:
    """The turn light's colour now: it breathes in :data:`GLOW_STEPS` steps (a step is
    ~40 ms: smooth to the eye, and between two steps the light is not repainted)."""
    return fade(TURN, 0.5 + 0.5 * round(f.pulse * GLOW_STEPS) / GLOW_STEPS)


#: Steps of the turn light's breathing between dim and bright.
GLOW_STEPS = 12


# -- the static layer ------------------------------------------------------------------

_chrome: dict[str, Any] = kept.state({"key": None, "surf": None})
_layer: dict[str, Any] = kept.state({"key": None, "surf": None, "baked": {}, "t": 0.0, "version": 0})
#: The chrome with every place's outline on it: the static layer starts from it, so a
#: rebuild (each card landing in a deal) blits the resting cards only, not 50 outlines.
_outlined: dict[str, Any] = kept.state({"key": None, "slots": None, "surf": None})
#: New resting cards wait at most this long (ms) before being painted into the layer:
#: during a deal the layer is not rebuilt for every card that lands.
BAKE_DELAY_MS = 300.0


def _chrome_key(sc: Any) -> tuple:
    v, lay = sc.view, sc.layout
    seats = []
    for area in lay.seats.values():
        p = area.seat
        player = v["players"][p]
        seats.append((p, sc.roster.seat_name(p), player.get("total", 0), _active(v, p),
                      sc.seat_status(p) if p not in sc.local_seats else "", player.get("mamma") is not None,
                      tuple(area.zone), tuple(area.plate)))
    return (lay.size, tuple(seats), sc.shown_round(), v.get("rounds"), sc.roster.table_name, sc.keys.help_line,
            sc.roster.spectator_line(), text.cache_epoch())


def _chrome_layer(sc: Any) -> pygame.Surface:
    """Felt, top bar, seat panels and plates, labels: rebuilt when their text changes."""
    key = _chrome_key(sc)
    if _chrome["key"] != key:
        surf = refill(_chrome["surf"], felt.table_surface(*sc.layout.size))
        _top_bar(surf, sc)
        for area in sc.layout.seats.values():
            _seat_static(surf, sc, area)
        lay = sc.layout
        fs = max(10, int(lay.font * 0.85))
        box = lay.safe[0].union(lay.safe[3])
        label_under(surf, box, tr("table.safe"), max(10, int(lay.font * 0.8)))
        label_under(surf, lay.draw_pile, tr("table.draw_pile"), fs)
        _chrome.update(key=key, surf=surf)
    return _chrome["surf"]


def _static_layer(sc: Any, f: Frame, lazy_ok: bool = True) -> pygame.Surface:
    """The chrome plus the face-down cards lying still. Rebuilt at once when the chrome
    changes or a card painted into it stops resting; lazily to add newly resting cards
    (``lazy_ok``: when the base frame is repainted anyway -- a card painted into the
    layer rather than over it may differ by a few shadow pixels where cards overlap)."""
    chrome = _chrome_layer(sc)
    baked = _layer["baked"]
    stale = _layer["key"] is not _chrome["key"] or _layer.get("slots") != sc.layout.slot_owner or \
        any(f.resting.get(sid) != pos for sid, pos in baked.items())
    lazy = lazy_ok and len(f.resting) != len(baked) and f.t - _layer["t"] >= BAKE_DELAY_MS
    if stale or lazy or _layer["surf"] is None:
        surf = refill(_layer["surf"], _outlined_chrome(sc, chrome))
        for area in sc.layout.seats.values():
            back, m = sc.art.shadowed(None, *area.card)
            for sid in area.slots:
                if sid in f.resting:
                    x, y = f.resting[sid]
                    surf.blit(back, (x - m, y - m))
        _layer.update(key=_chrome["key"], surf=surf, baked=dict(f.resting), t=f.t, slots=dict(sc.layout.slot_owner),
                      version=_layer["version"] + 1)
    return _layer["surf"]


def _outlined_chrome(sc: Any, chrome: pygame.Surface) -> pygame.Surface:
    """``chrome`` with the outline of every place (the place shows while its card is
    away), made again when the chrome or the places change."""
    slots = sc.layout.slot_owner
    if _outlined["key"] is not _chrome["key"] or _outlined["slots"] != slots or _outlined["surf"] is None:
        surf = refill(_outlined["surf"], chrome)
        for area in sc.layout.seats.values():
            outline = sc.art.slot_outline(*area.card)
            for rect in area.slots.values():
                surf.blit(outline, rect.topleft)
        _outlined.update(key=_chrome["key"], slots=dict(slots), surf=surf)
    return _outlined["surf"]


def _active(v: dict, p: int) -> bool:
    return v.get("phase") == "turn" and v.get("turn") == p


def _top_bar(surf: pygame.Surface, sc: Any) -> None:
    lay, view = sc.layout, sc.view
    bar = lay.top_bar
    fs = max(12, int(bar.h * 0.52))
    surf.blit(panel(bar.w, bar.h, 0, 110), bar.topleft)
    left = text.render(tr("table.round", round=str(sc.shown_round()), rounds=str(view.get("rounds", 1))),
                       fs, GOLD, bold=True)
    surf.blit(left, left.get_rect(midleft=(bar.x + bar.h * 0.6, bar.centery)))
    name = " · ".join(x for x in (sc.roster.table_name, sc.roster.spectator_line()) if x)
    mid = text.render(name, fs, CREAM)
    surf.blit(mid, mid.get_rect(center=bar.center))
    draw_hint(surf, sc.keys.help_line, bar.centerx + mid.get_width() // 2 + bar.h, sc.actions.hint_right(bar), bar.centery,
              int(fs * 0.85))


def _seat_static(surf: pygame.Surface, sc: Any, area: Any) -> None:
    view = sc.view
    p = area.seat
    player = view["players"][p]
    plate = area.plate
    x = seat_panel(surf, area.zone, plate, max(6, area.card[0] // 6), _active(view, p))
    fs = max(11, int(plate.h * 0.56))
    mamma = player.get("mamma") is not None
    name = sc.roster.seat_name(p)
    sc_img = text.render(tr("table.points", points=str(player.get("total", 0))), fs, GOLD, bold=True)
    room = plate.right - x - sc_img.get_width() - plate.h * (1.5 if mamma else 0.6)
    nm = text.render(name, text.fit_size(name, max(20, int(room)), fs, bold=True), CREAM, bold=True)
    surf.blit(nm, nm.get_rect(midleft=(x, plate.centery)))
    right = plate.right - plate.h * (1.4 if mamma else 0.5)
    surf.blit(sc_img, sc_img.get_rect(midright=(int(right), plate.centery)))
    status = sc.seat_status(p) if p not in sc.local_seats else ""
    if status:  # a small pill on the plate's lower edge
        pill(surf, status, (plate.centerx, plate.bottom), max(9, int(plate.h * 0.40)))


# -- per frame ---------------------------------------------------------------------------

def _seat(surf: pygame.Surface, f: Frame, area: Any) -> None:
    view, art = f.view, f.art
    p = area.seat
    player = view["players"][p]
    if player.get("mamma") is not None and not f.hidden[("mamma", p)]:
        surf.blit(token(art, "mamma", area.mamma.w), area.mamma.topleft)
    who = ("player", p)
    if who in f.picked or who in f.offered:  # a player to choose (Lady, Mamma, Snitch)
        plate = area.plate
        colour = PICKED if who in f.picked else fade(OFFERED, 0.35 + 0.65 * f.pulse)
        pygame.draw.rect(surf, colour, plate.inflate(6, 6), max(2, plate.h // 9), border_radius=plate.h // 2 + 3)
    gliding, baked, faces, reveals, marked = f.gliding, _layer["baked"], f.faces, f.reveals, f.marked
    hidden = f.hidden
    numbered = p in f.sc.local_seats and f.sc.show_slot_numbers
    for i, s in enumerate(player.get("slots", [])):
        sid = s["slot"]
        if sid in gliding or hidden[("slot", sid)]:
            continue  # moving (drawn over the base frame), or hidden (its outline is in the static layer)
        if (sid in baked and sid not in faces and ("slot", sid) not in reveals and ("slot", sid) not in marked
                and s.get("patrol") is None and not (numbered and i < 9)):
            continue  # a card at rest in the static layer, nothing on it: what _card would paint
        _card(surf, f, area, i, s)


def _gliders(surf: pygame.Surface, f: Frame) -> None:
    """The cards gliding to new places, over the base frame (seat by seat, in order)."""
    gliding = f.gliding
    if not gliding:
        return
    for area in f.layout.seats.values():
        for i, s in enumerate(f.view["players"][area.seat].get("slots", [])):
            if s["slot"] in gliding:
                _card(surf, f, area, i, s)


def _glider_items(f: Frame) -> TopItems:
    """Each gliding card as an item over the base frame (:func:`_gliders`' order): where
    it is drawn now (px, with its shadow, outlines and token) and how to paint it."""
    items: TopItems = []
    gliding = f.gliding
    for area in f.layout.seats.values():
        cw, ch = area.card
        pad = max(8, cw // 3)
        for i, s in enumerate(f.view["players"][area.seat].get("slots", [])):
            sid = s["slot"]
            rect = area.slots.get(sid)
            if sid not in gliding or rect is None:
                continue
            x, y = f.sc.motion.card_pos(sid, rect)
            ox, oy = f.offsets.get(("slot", sid), (0.0, 0.0))
            box = pygame.Rect(int(x + ox) - pad, int(y + oy) - pad, cw + 2 * pad, ch + 2 * pad)
            items.append(([box], lambda surf, area=area, i=i, s=s: _card(surf, f, area, i, s)))
    return items


def _card(surf: pygame.Surface, f: Frame, area: Any, i: int, s: dict) -> None:
    """Card ``s`` (a view slot, the ``i``-th of its seat) where it is drawn now: face down
    (unless it lies still in the static layer), face up, turning (a reveal), with its
    marks, Police Patrol token and key number."""
    sc, art, t = f.sc, f.art, f.t
    cw, ch = area.card
    sid = s["slot"]
    rect = area.slots.get(sid)
    if rect is None:
        return
    local = area.seat in sc.local_seats and sc.show_slot_numbers
    back, bm = art.shadowed(None, cw, ch)
    baked = _layer["baked"]
    place = ("slot", sid)
    if f.hidden[place]:
        return  # its outline is in the static layer
    x, y = sc.motion.card_pos(sid, rect)
    ox, oy = f.offsets.get(place, (0.0, 0.0))
    x, y = int(x + ox), int(y + oy)
    rev = f.reveals.get(place)
    if rev is not None:
        face, scale = rev.face_at(t)
        sh = art.shadow(cw, ch)
        m = (sh.get_width() - cw) // 2
        surf.blit(sh, (x - m + 2, y - m + 4))
        img = art.squashed(face, cw, ch, scale)
        surf.blit(img, (x + (cw - img.get_width()) // 2, y))
        if rev.private and face is not None:
            g = art.outline(cw, ch, GOLD, max(3, cw // 18))
            surf.blit(g, g.get_rect(center=(x + cw // 2, y + ch // 2)))
    elif sid in f.faces:
        img, m = art.shadowed(f.faces[sid], cw, ch)
        surf.blit(img, (x - m, y - m))
    elif sid not in baked:
        surf.blit(back, (x - bm, y - bm))
    if place in f.marked:
        f.marks(surf, place, pygame.Rect(x, y, cw, ch))
    if s.get("patrol") is not None and not f.hidden[("patrol", sid)]:
        tr_ = token_rect(pygame.Rect(x, y, cw, ch))
        surf.blit(token(art, "police_patrol", tr_.w), tr_.topleft)
    if local and i < 9:
        centre, radius = slot_badge(pygame.Rect(x, y, cw, ch))
        _number(surf, i + 1, centre, radius)


def slot_badge(card: pygame.Rect) -> tuple[tuple[int, int], int]:
    """Centre and radius (px) of the key number of a card at ``card``: in its
    bottom-left corner, clear of the bottle's value and corner indices and of a
    character's points (``cards.value_rects``; tests/test_client_fit.py checks it)."""
    cw, ch = card.size
    radius = max(7, min(ch // 11, int(cw * 0.16)))
    m = max(1, cw // 30)
    return (card.x + radius + m, card.bottom - radius - m), radius


def _number(surf: pygame.Surface, n: int, centre: tuple[int, int], radius: int) -> None:
    """The key number of one of your cards, on a small dark disc."""
    img = _number_badge(n, radius)
    surf.blit(img, img.get_rect(center=centre))


@kept.lru_cache(maxsize=64)
def _number_badge(n: int, radius: int) -> pygame.Surface:
    s = pygame.Surface((2 * radius + 2, 2 * radius + 2), pygame.SRCALPHA)
    c = (radius + 1, radius + 1)
    pygame.draw.circle(s, (20, 12, 10), c, radius)
    pygame.draw.circle(s, GOLD, c, radius, max(1, radius // 6))
    img = text.render(str(n), int(radius * 1.5), CREAM, bold=True)
    s.blit(img, img.get_rect(center=c))
    return s


def _safe(surf: pygame.Surface, f: Frame) -> None:
    lay, art, view = f.layout, f.art, f.view
    cards = view.get("safe_cards")
    count = int(view.get("safe", 4))
    for i, r in enumerate(lay.safe):
        if i >= count:
            continue
        if f.hidden[("safe", i)]:
            surf.blit(art.slot_outline(r.w, r.h), r.topleft)
            continue
        face = cards[i] if cards and i < len(cards) else None
        img, m = art.shadowed(face, r.w, r.h)
        surf.blit(img, (r.x - m, r.y - m))
        f.marks(surf, ("safe", i), r)


def _piles(surf: pygame.Surface, f: Frame) -> None:
    lay, art, view = f.layout, f.art, f.view
    dp = lay.draw_pile
    count = int(view.get("draw_pile", 0))
    surf.blit(art.slot_outline(dp.w, dp.h), dp.topleft)
    stack(surf, art, dp, count, (view.get("draw_pile_cards") or [None])[0])  # face up in a finished replay
    f.marks(surf, ("draw_pile", 0), dp)

    dc = lay.discard
    pile = view.get("discard", [])
    k = f.hidden[("discard", 0)]
    discard_pile(surf, art, dc, pile[:len(pile) - k] if k else pile)
    f.marks(surf, ("discard", 0), dc)
    label_under(surf, dc, tr("table.discard", n=str(len(pile))), max(10, int(lay.font * 0.85)))
    count_badge(surf, dp, count)  # last, so the discard pile never covers it


def _hand(surf: pygame.Surface, f: Frame) -> None:
    view, lay, art, sc = f.view, f.layout, f.art, f.sc
    drawn = view.get("drawn")
    turn = view.get("turn")
    if not drawn or turn not in lay.seats or f.hidden[("hand", turn)]:
        return
    r = lay.seats[turn].hand
    img = art.rotated(drawn.get("card"), r.w, r.h, -5)
    sh = art.shadow(r.w, r.h)
    surf.blit(sh, sh.get_rect(center=(r.centerx + 4, r.centery + 8)))
    surf.blit(img, img.get_rect(center=r.center))
    if turn in sc.local_seats:
        g = art.outline(r.w, r.h, GOLD, max(3, r.w // 18))
        surf.blit(g, g.get_rect(center=r.center))
        label_under(surf, r, tr("table.in_hand"), max(10, int(lay.font * 0.85)))


def _banner(surf: pygame.Surface, sc: Any) -> None:
    """The prompt strip, with the reaction window's time left as a bar along its bottom."""
    b = sc.layout.banner
    if not sc.prompt[0]:
        return
    fs = max(14, int(b.h * 0.34))
    banner(surf, b, sc.prompt, sc.t, size=fs, sub_size=int(fs * 0.72), sub_y=0.70, sub_colour=DIM)
    window_bar(surf, b, sc.window_left(), TURN, RED)


def _timer(surf: pygame.Surface, sc: Any) -> None:
    """The turn timer's countdown on the plate of the seat on the clock."""
    left = sc.timer.left()
    if left is not None and left[0] in sc.layout.seats:
        turn_timer(surf, sc.layout.seats[left[0]].plate, left[1])
