"""Painting the Mafiosi table from the scene's state (drawing only: nothing changes).

:func:`draw_table` paints, in order, the *base frame* (cached while none of it changes,
:class:`client.table.draw.BaseFrame`): the static layer (felt, top bar with the round and
the trick, seat panels, name plates with each player's clan, won and point cards and
status), every seat's bouncer (an outlined place, face down once chosen, face up once
revealed; your own face up for you alone, marked "hidden"), won piles with their counts,
the hands (yours face up with the playable cards raised, the others face down with a
count), the trick in the middle in play order with who played each card, the duty
strip, your point-card choice, a calm prompt banner and the message column; then, over
it, what moves or breathes (:func:`_top_items`): your hand while a card of it glides to
a new place, the breathing turn light, an urgent (breathing) prompt banner, the running
effects, the turn timer; last the reason of the hovered card you may not use and the
reconnection overlay. Sizes come from the layout (pixels), so it works at any resolution.

:func:`draw_partial` (the TV view, which must idle cheaply) repaints only the regions of
what moves over the cached base frame; it draws exactly what :func:`draw_table` would
(tests/test_client_partial_mafiosi.py compares every frame of a played match).

Frame budget (ARCHITECTURE §6): the static layer is one opaque blit; every card is one
alpha blit of a cached surface with its shadow baked in (``CardArt.shadowed``).
"""
from __future__ import annotations

from functools import cached_property
from typing import Any

import pygame

from client import felt, text
from client.animation import Animator
from client.games.mafiosi.cards import four_colour, suit_badge
from client.games.mafiosi.controls import duty_line
from client.games.mafiosi.fx import Still
from client.games.mafiosi.narrate import clan_name
from client.i18n import tr
from client.table import kept
from client.table import draw as table_draw
from client.table.draw import (BaseFrame, CREAM, DIM, GOLD, TURN, Same, TopItems, banner, count_badge, draw_hint,
                               draw_messages, draw_reconnecting, fade, label_under, panel, pill,
                               refill, top_record, seat_panel, stack, timer_text, turn_timer, wrapped)

RED = (255, 130, 110)


class Frame(table_draw.Frame):
    """What one frame needs, computed once (:class:`client.table.draw.Frame`): whether
    your hand is gliding, the trick cards lying still (base frame) and the effects
    that move (painted over it)."""

    offered_alpha = (70, 110)

    @cached_property
    def known(self) -> dict[int, dict]:
        """The bottom seat's hand cards this screen shows face up, by card id."""
        v, persp = self.view, self.layout.perspective
        if v.get("seat") == persp and v.get("hand") is not None:
            return {int(c["id"]): c for c in v["hand"]}
        return {int(c["id"]): c for c in (v["players"][persp].get("hand") or [])}

    @cached_property
    def hand_gliding(self) -> bool:
        """A card of your hand is on its way to a new place (its follower is not at its
        rect yet): the whole hand is then painted over the base frame, in order, so the
        base frame need not change while it moves."""
        lay, card_pos = self.layout, self.sc.motion.card_pos
        for place in lay.order:
            rect = lay.cards[place]
            if place[1] in self.known and not self.hidden[place] and card_pos(place, rect) != rect.topleft:
                return True
        return False

    @cached_property
    def stills(self) -> tuple[Still, ...]:
        """The cards of a full trick lying still in the middle before they leave
        (:class:`client.games.mafiosi.fx.Still`): painted into the base frame, not
        repainted every frame while the trick waits."""
        return tuple(e for e in self.sc.anim.effects if isinstance(e, Still) and e.active(self.t))

    @cached_property
    def moving(self) -> "_Effects":
        """The other running effects, painted over the base frame."""
        return _Effects([e for e in self.sc.anim.effects if not isinstance(e, Still)])

    @cached_property
    def urgent_banner(self) -> bool:
        """The prompt banner breathes (gold frame): painted over the base frame."""
        prompt = self.sc.prompt
        return bool(prompt[0]) and bool(prompt[2])


class _Effects(Animator):
    """Some of an :class:`~client.animation.Animator`'s effects, painted and bounded as
    the animator does (the same order, the same cards waiting)."""

    def __init__(self, effects: list[Any]):
        super().__init__()
        self.effects = effects


def draw_table(surf: pygame.Surface, sc: Any) -> None:
    """Paint the Mafiosi table scene ``sc`` on ``surf`` (its layout's size) and record
    in ``sc.top_rects`` the rects (px) painted over the base frame (None: not cached),
    for :func:`draw_partial`."""
    f = Frame(sc)
    chrome_key = _chrome_key(sc)
    key = _base_key(sc, f, chrome_key) if _base.wants_key() else None
    _base.draw(surf, key, f.t, lambda target: _paint_base(target, f, chrome_key))
    _paint_top(surf, sc, f)
    tip = _tooltip(surf, f)
    attempt = sc.reconnecting
    if attempt is not None:
        draw_reconnecting(surf, attempt, attempt.clock_s())
    items = _top_items(sc, f) if _base.key is not None and not tip else None
    sc.top_rects = top_record(items)


def draw_partial(surf: pygame.Surface, sc: Any) -> list[pygame.Rect] | None:
    """Repaint only what moved since the last frame (the cards in flight, your gliding
    hand, the turn light, the turn timer, an urgent banner) over the cached base frame;
    returns the regions repainted (px), or None when the whole frame must be drawn
    (:func:`draw_table`): the base frame changed, the last frame showed a tooltip, or
    something on screen does not know its rects."""
    f = Frame(sc)
    return _base.redraw(surf, sc, _base_key(sc, f, _chrome_key(sc)), f.t, _top_items(sc, f))


def _paint_top(surf: pygame.Surface, sc: Any, f: Frame) -> None:
    """What moves or breathes, over the base frame, in the order of :func:`_top_items`."""
    if f.hand_gliding:
        _own_hand(surf, f)
    _turn_glow(surf, f)
    if f.urgent_banner:
        _banner(surf, sc)
    f.moving.draw(surf, f.art, f.t)
    _timer(surf, sc)


def _top_items(sc: Any, f: Frame) -> TopItems | None:
    """What :func:`draw_table` paints over the base frame, with its rects (px), in
    painting order: your gliding hand, the turn light, an urgent banner, the effects,
    the turn timer. None when one of them does not know its rects."""
    items: TopItems = []
    if f.hand_gliding:
        items.append((_own_hand_rects(f), lambda s: _own_hand(s, f)))
    zone = _turn_zone(f)
    if zone is not None:
        lw, radius = _glow_size(zone)
        th = lw + radius // 3 + 2  # the line and its rounded corners
        items.append(([pygame.Rect(zone.x, zone.y, zone.w, th), pygame.Rect(zone.x, zone.bottom - th, zone.w, th),
                       pygame.Rect(zone.x, zone.y, th, zone.h), pygame.Rect(zone.right - th, zone.y, th, zone.h)],
                      lambda s: _turn_glow(s, f)))
    if f.urgent_banner:
        items.append(([sc.layout.banner.inflate(6, 6)], lambda s: _banner(s, sc)))
    fx = f.moving.bounds(f.t, f.art)
    if fx is None:
        return None
    if fx:
        items.append((fx, lambda s: f.moving.draw(s, f.art, f.t)))
    left = sc.timer.left()
    if left is not None and left[0] in sc.layout.seats:
        items.append(([_timer_rect(sc.layout.seats[left[0]].plate, left[1])], lambda s: _timer(s, sc)))
    return items


# -- the base frame: everything that changes only with the match's state ---------------

#: The static layer, bouncers, piles, hands, trick, point cards, a calm banner and the
#: message column, cached while :func:`_base_key` stays the same.
_base = BaseFrame()


def _base_key(sc: Any, f: Frame, chrome_key: tuple) -> tuple | None:
    """Every input of :func:`_paint_base` that may change between two frames; None (no
    caching) while offered places breathe (a local player choosing)."""
    if f.offered:
        return None
    hidden = f.hidden_key()
    offsets = tuple(sorted(f.offsets.items()))
    return (Same(sc.view), Same(sc.layout), Same(sc.art), chrome_key, hidden, offsets,
            f.reveals_key(), frozenset(f.picked), frozenset(f.cursor), f.hover, sc.single,
            f.hand_gliding, tuple(map(Same, f.stills)), None if f.urgent_banner else sc.prompt,
            tuple(map(Same, sc.column.visible())))


def _paint_base(target: pygame.Surface, f: Frame, chrome_key: tuple) -> None:
    sc = f.sc
    target.blit(_chrome_layer(sc, chrome_key), (0, 0))
    for seat, area in f.layout.seats.items():
        _bouncer(target, f, seat, area)
        _pile(target, f, seat, area)
    if not f.hand_gliding:
        _own_hand(target, f)
    _other_hands(target, f)
    _trick(target, f)
    _points(target, f)
    for still in f.stills:
        still.draw(target, f.art, f.t)
    if not f.urgent_banner:
        _banner(target, sc)
    draw_messages(target, sc.emotes.message_box(f.layout.info), sc.column.visible(), max(12, int(f.layout.font * 0.82)))


def _banner(surf: pygame.Surface, sc: Any) -> None:
    """The prompt strip above your zone."""
    b = sc.layout.banner
    banner(surf, b, sc.prompt, sc.t, size=max(14, int(b.h * 0.40)), sub_size=max(12, int(b.h * 0.28)), sub_y=0.74)


# -- the static layer ------------------------------------------------------------------

_chrome: dict[str, Any] = kept.state({"key": None, "surf": None})


def _chrome_key(sc: Any) -> tuple:
    v, lay = sc.view, sc.layout
    seats = tuple((p.get("seat"), sc.roster.seat_name(p["seat"]), sc.seat_status(p["seat"]), p.get("clan"),
                   p.get("won_count"), p.get("point_count"), p.get("hand_count"), p.get("round_score"))
                  for p in v.get("players", []))
    return (lay.size, lay.perspective, seats, v.get("phase"), v.get("turn"), v.get("round"), v.get("rounds"),
            v.get("trick_no"), v.get("tricks_per_round"), sc.roster.table_name, sc.roster.spectator_line(),
            sc.keys.help_line,
            text.cache_epoch(), four_colour(sc.art), sc.art.colour_blind, tuple(sc.local_seats))


def _chrome_layer(sc: Any, key: tuple) -> pygame.Surface:
    """Felt, top bar, seat panels and plates (``key``: :func:`_chrome_key`), rebuilt when
    their text changes."""
    if _chrome["key"] != key:
        surf = refill(_chrome["surf"], felt.table_surface(*sc.layout.size))
        _top_bar(surf, sc)
        for seat, area in sc.layout.seats.items():
            _seat_static(surf, sc, seat, area)
        _chrome.update(key=key, surf=surf)
    return _chrome["surf"]


def _top_bar(surf: pygame.Surface, sc: Any) -> None:
    lay, v = sc.layout, sc.view
    bar = lay.top_bar
    fs = max(12, int(bar.h * 0.50))
    surf.blit(panel(bar.w, bar.h, 0, 110), bar.topleft)
    left = tr("maf.top.round", round=str(v.get("round", 1)), rounds=str(v.get("rounds", 1)))
    if v.get("phase") == "play":
        left += "  ·  " + tr("maf.top.trick", n=str(v.get("trick_no", 1)), of=str(v.get("tricks_per_round", "?")))
    elif v.get("phase") == "bouncer":
        left += "  ·  " + tr("maf.top.bouncers")
    elif v.get("phase") == "point":
        left += "  ·  " + tr("maf.top.points")
    elif v.get("phase") == "over":
        left = tr("maf.top.over")
    img = text.render(left, fs, GOLD, bold=True)
    surf.blit(img, img.get_rect(midleft=(bar.x + bar.h * 0.5, bar.centery)))
    name = " · ".join(x for x in (sc.roster.table_name, sc.roster.spectator_line()) if x)
    x0 = bar.x + bar.h + img.get_width()
    mid = text.render(text.elide(name, max(40, int(bar.w * 0.30)), fs), fs, CREAM)
    mr = mid.get_rect(center=bar.center)
    mr.left = max(mr.left, x0)
    surf.blit(mid, mr)
    hs = int(fs * 0.85)
    draw_hint(surf, sc.keys.help_line, mr.right + bar.h, sc.actions.hint_right(bar), bar.centery, hs)


def _active(v: dict, p: int) -> bool:
    return v.get("phase") == "play" and v.get("turn") == p


def _seat_static(surf: pygame.Surface, sc: Any, seat: int, area: Any) -> None:
    v = sc.view
    player = v["players"][seat]
    pr = area.plate
    active = _active(v, seat)
    x = seat_panel(surf, area.zone, pr, max(6, area.card[0] // 8), active)
    fs = max(12, int(pr.h * 0.54))
    # right side of the plate: won cards, point cards
    parts = [tr("maf.plate.won", n=str(player.get("won_count", 0)))]
    if player.get("point_count"):
        parts.append(tr("maf.plate.points", n=str(player.get("point_count", 0))))
    info = text.render("  ".join(parts), int(fs * 0.9), GOLD, bold=True)
    ir = info.get_rect(midright=(pr.right - pr.h // 2, pr.centery))
    surf.blit(info, ir)
    # the clan: a suit badge and its name
    clan = player.get("clan")
    cx = ir.left - pr.h // 3
    if clan:
        label = text.render(clan_name(clan), int(fs * 0.85), CREAM)
        lr = label.get_rect(midright=(cx, pr.centery))
        badge = suit_badge(sc.art, clan, int(pr.h * 0.82))
        br = badge.get_rect(midright=(lr.left - 4, pr.centery))
        if br.left > x + pr.h * 2.2:
            surf.blit(label, lr)
        else:  # a narrow plate: the suit badge alone (its shape says the clan)
            br = badge.get_rect(midright=(cx, pr.centery))
        surf.blit(badge, br)
        cx = br.left - pr.h // 3
    name = sc.roster.seat_name(seat)
    room = max(20, cx - x)
    nm = text.render(name, text.fit_size(name, room, fs, bold=True), CREAM, bold=True)
    surf.blit(nm, nm.get_rect(midleft=(x, pr.centery)))
    status = sc.seat_status(seat) if seat != sc.single else ""
    if status:
        pill(surf, status, (pr.centerx, pr.bottom), max(10, int(pr.h * 0.42)))


# -- per frame ---------------------------------------------------------------------------

def _turn_zone(f: Frame) -> pygame.Rect | None:
    """The zone of the seat whose turn it is in trick play (None: nobody's)."""
    v = f.view
    turn = v.get("turn")
    if v.get("phase") == "play" and turn in f.layout.seats:
        return f.layout.seats[turn].zone
    return None


def _glow_size(zone: pygame.Rect) -> tuple[int, int]:
    """The turn light's line width and corner radius (px) around ``zone``."""
    return max(2, zone.h // 70), max(6, zone.h // 14)


def _turn_glow(surf: pygame.Surface, f: Frame) -> None:
    """The breathing outline of the seat whose turn it is (over the base frame)."""
    zone = _turn_zone(f)
    if zone is not None:
        lw, radius = _glow_size(zone)
        pygame.draw.rect(surf, fade(TURN, 0.5 + 0.5 * f.pulse), zone, lw, border_radius=radius)


def _caption(surf: pygame.Surface, r: pygame.Rect, label: str, size: int, colour=DIM) -> None:
    img = text.render(text.elide(label, r.w - 4, size), size, colour)
    surf.blit(img, img.get_rect(center=r.center))


def _bouncer(surf: pygame.Surface, f: Frame, seat: int, area: Any) -> None:
    v, art = f.view, f.art
    player = v["players"][seat]
    r = area.bouncer
    surf.blit(art.slot_outline(r.w, r.h), r.topleft)
    if f.hidden[("bouncer", seat)]:
        return
    card = player.get("bouncer")
    fs = max(10, int(r.w * 0.16))
    if card is not None:
        img, m = art.shadowed(card, r.w, r.h)
        surf.blit(img, (r.x - m, r.y - m))
        if not v.get("revealed"):
            pill(surf, tr("maf.hidden"), (r.centerx, r.bottom - fs), fs)
    elif player.get("has_chosen") and not v.get("revealed"):
        img, m = art.shadowed(None, r.w, r.h)
        surf.blit(img, (r.x - m, r.y - m))
    else:
        _caption(surf, r, tr("maf.bouncer"), fs)


def _pile(surf: pygame.Surface, f: Frame, seat: int, area: Any) -> None:
    art, v = f.art, f.view
    player = v["players"][seat]
    r = area.pile
    count = int(player.get("won_count", 0))
    surf.blit(art.slot_outline(r.w, r.h), r.topleft)
    fs = max(10, int(r.w * 0.16))
    if count:
        stack(surf, art, r, count)
        count_badge(surf, r, count)
        if seat == f.sc.single:
            pill(surf, tr("maf.pile_view"), (r.centerx, r.bottom - fs), fs)
    else:
        _caption(surf, r, tr("maf.pile"), fs)


def _own_hand(surf: pygame.Surface, f: Frame) -> None:
    """The bottom seat's hand face up (when this screen may see it), each card where it
    is drawn now, left to right."""
    sc, lay, art = f.sc, f.layout, f.art
    known = f.known
    for place in lay.order:
        card = known.get(place[1])
        rect = lay.cards[place]
        if card is None or f.hidden[place]:
            continue
        x, y = sc.motion.card_pos(place, rect)
        img, m = art.shadowed(card, rect.w, rect.h)
        surf.blit(img, (int(x) - m, int(y) - m))
        shown = pygame.Rect(int(x), int(y), rect.w, rect.h)
        if card.get("reason") and place == f.hover:
            veil = _veil(rect.w, rect.h)
            surf.blit(veil, shown.topleft)
        f.marks(surf, place, shown)


def _own_hand_rects(f: Frame) -> list[pygame.Rect]:
    """Where :func:`_own_hand` paints now (px): every card with its shadow and marks."""
    lay, card_pos = f.layout, f.sc.motion.card_pos
    rects = []
    for place in lay.order:
        rect = lay.cards[place]
        if place[1] not in f.known or f.hidden[place]:
            continue
        x, y = card_pos(place, rect)
        pad = max(8, rect.w // 3)
        rects.append(pygame.Rect(int(x) - pad, int(y) - pad, rect.w + 2 * pad, rect.h + 2 * pad))
    return rects


def _other_hands(surf: pygame.Surface, f: Frame) -> None:
    """The others' hands: face down (or face up in a finished match's replay)."""
    v, lay, art = f.view, f.layout, f.art
    persp = lay.perspective
    for p in v.get("players", []):
        seat = p["seat"]
        for r in lay.backs.get(seat, []):
            img, m = art.shadowed(None, r.w, r.h)
            surf.blit(img, (r.x - m, r.y - m))
        backs = lay.backs.get(seat)
        if backs and seat != persp:
            hull = backs[0].unionall(backs[1:]) if len(backs) > 1 else backs[0]
            count_badge(surf, hull, len(backs))
        for c in p.get("hand") or []:
            place = ("ohand", int(c["id"]))
            rect = lay.cards.get(place)
            if rect is not None:
                img, m = art.shadowed(c, rect.w, rect.h)
                surf.blit(img, (rect.x - m, rect.y - m))


_veils: dict[tuple[int, int], pygame.Surface] = kept.state({})  # type: ignore[assignment]


def _veil(w: int, h: int) -> pygame.Surface:
    s = _veils.get((w, h))
    if s is None:
        s = pygame.Surface((w, h), pygame.SRCALPHA)
        pygame.draw.rect(s, (0, 0, 0, 90), s.get_rect(), border_radius=max(4, w // 10))
        _veils[(w, h)] = s
    return s


def _trick(surf: pygame.Surface, f: Frame) -> None:
    sc, v, lay, art = f.sc, f.view, f.layout, f.art
    fs = max(12, int(lay.font * 0.80))
    if v.get("phase") == "play":
        line = duty_line(v)
        if line:
            colour = (255, 226, 140) if (v.get("ace_suit") or v.get("jack_needed")) else CREAM
            size = text.fit_size(line, lay.duty.w - lay.duty.h, int(lay.font * 0.95), bold=True)
            img = text.render(line, size, colour, bold=True, shadow=True)
            surf.blit(img, img.get_rect(center=lay.duty.center))
    if v.get("phase") not in ("play",) and not v.get("trick"):
        return
    n = lay.n
    trick = [e for e in v.get("trick") or [] if isinstance(e, dict)]
    leader = v.get("leader", 0)
    for i, r in enumerate(lay.trick_slots):
        surf.blit(art.slot_outline(r.w, r.h), r.topleft)
        if i < len(trick):
            seat = int(trick[i]["seat"])
        else:
            seat = (int(leader) + i) % n if isinstance(leader, int) else None
        if seat is None:
            continue
        played = i < len(trick)
        name = sc.roster.seat_name(seat)
        colour = CREAM if played else DIM
        nr = lay.trick_names[i]
        img = text.render(text.elide(name, nr.w, fs, bold=played), fs, colour, bold=played, shadow=True)
        surf.blit(img, img.get_rect(midtop=(nr.centerx, nr.y)))
        if played:
            card = trick[i]["card"]
            place = ("trick", int(card["id"]))
            if f.hidden[place]:
                continue
            img, m = art.shadowed(card, r.w, r.h)
            surf.blit(img, (r.x - m, r.y - m))
            clan = v["players"][seat].get("clan") if seat < len(v.get("players", [])) else None
            if clan and card.get("suit") == clan:  # a trump for its player
                g = art.outline(r.w, r.h, GOLD, max(3, r.w // 18))
                surf.blit(g, g.get_rect(center=r.center))
                pill(surf, tr("maf.trump"), (r.centerx, r.top), max(10, int(fs * 0.85)))
        elif v.get("turn") == seat:
            _caption(surf, r, tr("maf.to_play"), max(10, int(r.w * 0.15)), TURN)


def _points(surf: pygame.Surface, f: Frame) -> None:
    lay, art = f.layout, f.art
    if lay.point_title is None:
        return
    v = f.view
    mine = v["players"][lay.perspective]
    cards = {int(c["id"]): c for c in (mine.get("won") or [])}
    if mine.get("bouncer"):
        cards[int(mine["bouncer"]["id"])] = mine["bouncer"]
    t = lay.point_title
    title = tr("maf.point_title")
    img = text.render(title, text.fit_size(title, t.w, int(lay.font * 1.0), bold=True), GOLD, bold=True, shadow=True)
    surf.blit(img, img.get_rect(center=t.center))
    for place, r in lay.cards.items():
        if place[0] != "point" or place[1] not in cards:
            continue
        c = cards[place[1]]
        img, m = art.shadowed(c, r.w, r.h)
        surf.blit(img, (r.x - m, r.y - m))
        f.marks(surf, place, r)
        label_under(surf, r, tr("maf.worth", n=str(c.get("value", 0))), max(10, int(lay.font * 0.7)))


def _tooltip(surf: pygame.Surface, f: Frame) -> bool:
    """The reason the hovered hand card may not be used now, in a box above it (True:
    shown)."""
    sc = f.sc
    reason = sc.card_reason(f.hover)
    if not reason or f.hover not in f.layout.cards:
        return False
    r = f.layout.cards[f.hover]
    w, h = f.layout.size
    fs = max(13, int(f.layout.font * 0.80))
    width = int(min(w * 0.34, max(r.w * 3, w * 0.22)))
    lines = wrapped(reason, width, fs)
    imgs = [text.render(line, fs, (255, 236, 220)) for line in lines]
    bw = max(i.get_width() for i in imgs) + fs
    bh = sum(i.get_height() for i in imgs) + fs // 2 + 4
    box = pygame.Rect(0, 0, bw, bh)
    box.midbottom = (r.centerx, r.top - 6)
    box.clamp_ip(pygame.Rect(0, 0, w, h))
    pygame.draw.rect(surf, (40, 14, 14), box, border_radius=fs // 2)
    pygame.draw.rect(surf, RED, box, 2, border_radius=fs // 2)
    y = box.y + fs // 4 + 2
    for img in imgs:
        surf.blit(img, (box.x + fs // 2, y))
        y += img.get_height()
    return True


def _timer_rect(pr: pygame.Rect, seconds: float) -> pygame.Rect:
    """Where :func:`client.table.draw.turn_timer` paints the pill of ``seconds`` on plate
    ``pr`` (px), with room for the next second's wider digits."""
    size = max(10, int(pr.h * 0.5))
    w, h = text.font(size).size(tr("table.timer", time=timer_text(seconds)))
    r = pygame.Rect(0, 0, w + h + 4 + pr.h, h + 6)
    r.center = (pr.centerx, pr.top)
    return r


def _timer(surf: pygame.Surface, sc: Any) -> None:
    left = sc.timer.left()
    if left is not None and left[0] in sc.layout.seats:
        turn_timer(surf, sc.layout.seats[left[0]].plate, left[1])
