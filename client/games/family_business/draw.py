"""Painting the Family Business table from the scene's state (drawing only: nothing
changes).

:func:`draw_table` paints, in order: the *base frame* -- everything that changes only with
the match's state, cached (:class:`~client.table.draw.BaseFrame`) and repainted when
:func:`_base_key` changes: the felt and the top bar (whose turn, the table, the keys),
every seat (panel, name plate with the gang's emblem, living mobsters and cards in hand,
the pills, the nine places of its front and the mobsters lying in them), the piles, the
cemetery (R.I.P., the dead of each gang), the war strip while no war runs, the wall (the
hit list in order, its first in line marked NEXT, the ones the war executes next marked
in red, each with its owner's name), your hand (each card with its effect) or the choice
strip, and the message column -- then, over it, what moves by itself (:func:`_top_items`):
the war strip while a war runs (it breathes), the turn light, the mobsters and cards
gliding to new places, the running effects, the turn timer, the prompt banner with the
counter window's time bar, the photo finish.

:func:`draw_partial` (the TV view, a spectator, which must idle cheaply) repaints only the
regions of those top items, this frame's and the last one's, over the cached base frame.
"""
from __future__ import annotations

from functools import cached_property
from typing import Any

import pygame

from client import felt, text
from client.games.family_business.cards import draw_emblem, emblem_badge, gang_colour
from client.games.family_business.layout import pile_label_size
from client.games.family_business.narrate import ordinal
from client.i18n import tr
from client.table import kept
from client.table import draw as kit
from client.table.draw import (draw_hint, BaseFrame, CREAM, DIM, GOLD, TURN, Same, TopItems, banner, count_badge,
                               discard_pile, draw_messages, draw_reconnecting, fade, label_under, panel, pill,
                               top_record, seat_panel, stack, turn_timer, window_bar)

RED = (235, 70, 60)
SOFT_RED = (255, 130, 110)
BRICK = (92, 46, 36)
BRICK_EDGE = (140, 80, 60)
OUT_GREY = (120, 110, 100)
#: Places whose card is drawn where its follower is (``sc.motion.card_pos``): they glide.
GLIDING_KINDS = ("mob", "card")


class Frame(kit.Frame):
    """What one frame needs, computed once (see :class:`client.table.draw.Frame`): the
    selection sets, the mobsters by id, the cards gliding to new places and the mobsters
    the war executes next."""

    def __init__(self, sc: Any):
        super().__init__(sc)
        self.marked = self.picked | self.offered | self.cursor

    @cached_property
    def mobs(self) -> dict[int, dict]:
        """Every mobster dict the view shows, by id (painting only: a partial frame
        without gliding mobsters never needs it)."""
        return self.sc.mobsters()

    @cached_property
    def gliding(self) -> tuple[tuple[str, int], ...]:
        """The places (``("mob", id)``, ``("card", id)``, in layout order) whose card is
        on its way to a new place (its follower is not at its rect yet): drawn over the
        base frame, which then need not change while they move."""
        card_pos = self.sc.motion.card_pos
        return tuple(place for place, rect in self.layout.cards.items()
                     if place[0] in GLIDING_KINDS and card_pos(place, rect) != (rect.x, rect.y))

    @cached_property
    def moving(self) -> frozenset[tuple[str, int]]:
        """:attr:`gliding` as a set."""
        return frozenset(self.gliding)

    @cached_property
    def doomed(self) -> frozenset[int]:
        """Mobster ids the war executes at the start of the next turn (marked with a
        crosshair): the first ``rate`` of the hit list while a war runs."""
        war = self.view.get("war") or {}
        rate = int(war.get("rate") or 0) if war.get("active") else 0
        return frozenset(self.layout.wall_ids[:rate])


def draw_table(surf: pygame.Surface, sc: Any) -> None:
    """The whole frame: the base frame (cached while :func:`_base_key` stays the same),
    then what moves over it; notes the top items' rects in ``sc.top_rects`` for
    :func:`draw_partial` (None when the base frame is not cached)."""
    f = Frame(sc)
    _base.draw(surf, _base_key(sc, f) if _base.wants_key() else None, f.t, lambda target: _paint_base(target, f))
    _war_top(surf, f)
    _turn_glow(surf, f)
    _gliders(surf, f)
    sc.anim.draw(surf, f.art, f.t)
    _timer(surf, sc)
    if _banner_moves(sc):
        _banner(surf, sc)
    attempt = sc.reconnecting
    if attempt is not None:
        draw_reconnecting(surf, attempt, attempt.clock_s())
    items = _top_items(sc, f) if _base.key is not None else None
    sc.top_rects = top_record(items)


def draw_partial(surf: pygame.Surface, sc: Any) -> list[pygame.Rect] | None:
    """Repaint only what moved since the last frame (the war strip, the turn light, the
    gliding mobsters, the cards in flight, the time bars) over the cached base frame;
    returns the regions repainted (px), or None when the whole frame must be drawn
    (:func:`draw_table`): the base frame changed, or something on screen does not know
    its rects."""
    f = Frame(sc)
    return _base.redraw(surf, sc, _base_key(sc, f), f.t, _top_items(sc, f))


def _top_items(sc: Any, f: Frame) -> TopItems | None:
    """What :func:`draw_table` paints over the base frame, in its order, with the rects
    (px) each paints this frame: the war strip (while a war runs), the turn light, the
    gliding cards, the effects, the turn timer, the banner with its time bar, the photo
    finish. None when one of them does not know its rects."""
    items: TopItems = []
    lay = f.layout
    if _war_on(f.view):
        items.append(([lay.war.inflate(4, 4)], lambda s: _war(s, f)))
    area = _turn_area(f)
    if area is not None:
        z = area.zone.inflate(4, 4)
        th = max(3, area.zone.h // 40) + _glow_radius(area) // 3 + 2  # the line and its rounded corners
        items.append(([pygame.Rect(z.x, z.y, z.w, th), pygame.Rect(z.x, z.bottom - th, z.w, th),
                       pygame.Rect(z.x, z.y, th, z.h), pygame.Rect(z.right - th, z.y, th, z.h)],
                      lambda s: _turn_glow(s, f)))
    for place, rect in zip(f.gliding, _glider_rects(f)):  # one item each: a region repaints only its own
        items.append(([rect], lambda s, place=place: _glider(s, f, place)))
    fx = sc.anim.bounds(f.t, f.art)
    if fx is None:
        return None
    if fx:
        items.append((fx, lambda s: sc.anim.draw(s, f.art, f.t)))
    left = sc.timer.left()
    if left is not None and left[0] in lay.seats:
        pr = lay.seats[left[0]].plate
        items.append(([pygame.Rect(pr.x - pr.h, pr.top - pr.h, pr.w + 2 * pr.h, 2 * pr.h)], lambda s: _timer(s, sc)))
    if _banner_moves(sc):
        items.append(([lay.banner.inflate(6, 6)], lambda s: _banner(s, sc)))
    race = getattr(sc, "race", None)
    if race is not None and getattr(sc, "race_overlay", False) and race.alpha(sc.t) > 0.0:
        if race.panel is None:
            return None
        items.append(([pygame.Rect(race.panel[2])], sc.draw_race))
    return items


# -- the base frame: everything that changes only with the match's state -----------------

#: Felt, top bar, seats, piles, cemetery, the war strip at peace, the wall, the hand or
#: the choice strip and the message column, cached while :func:`_base_key` stays the same.
_base = BaseFrame()


def _base_key(sc: Any, f: Frame) -> tuple | None:
    """Every input of :func:`_paint_base` that may change between two frames; None (no
    caching) while offered places breathe (a local player choosing). The gliding cards
    (:attr:`Frame.gliding`) are not in the base frame: only which ones glide is."""
    if f.offered:
        return None
    lay = f.layout
    hidden = f.hidden_key()
    seats = tuple((p, sc.roster.seat_name(p), _status(sc, p)) for p in lay.seats)
    return (Same(sc.view), Same(lay), Same(f.art), getattr(f.art, "colour_blind", None), hidden,
            frozenset(f.picked), frozenset(f.cursor), f.hover, frozenset(sc.local_seats), sc.show_keys, seats,
            sc.roster.table_name, sc.roster.spectator_line(), sc.keys.help_line,
            sc.actions.hint_right(lay.top_bar), text.cache_epoch(),
            tuple(map(Same, sc.column.visible())), f.gliding, None if _banner_moves(sc) else sc.prompt)


def _paint_base(target: pygame.Surface, f: Frame) -> None:
    sc, lay = f.sc, f.layout
    target.blit(felt.table_surface(*lay.size), (0, 0))
    _top_bar(target, sc)
    for area in lay.seats.values():
        _seat(target, f, area)
    _piles(target, f)
    _cemetery(target, f)
    if not _war_on(f.view):
        _war(target, f)
    _wall(target, f)
    _hand(target, f)
    _picks(target, f)
    if not _banner_moves(sc):
        _banner(target, sc)
    draw_messages(target, sc.emotes.message_box(lay.info), sc.column.visible(), max(11, int(lay.font * 0.80)))


# -- over the base frame ---------------------------------------------------------------------

def _war_on(v: dict) -> bool:
    return bool((v.get("war") or {}).get("active"))


def _war_top(surf: pygame.Surface, f: Frame) -> None:
    """The war strip while a war runs (it breathes: drawn every frame)."""
    if _war_on(f.view):
        _war(surf, f)


def _banner_moves(sc: Any) -> bool:
    """Whether the prompt banner changes with time alone: its frame breathes (urgent)
    or a counter window's time bar runs. A still one is part of the base frame."""
    main, _sub, urgent = sc.prompt
    return bool(main) and (bool(urgent) or sc.window_left() is not None)


def _turn_area(f: Frame) -> Any:
    turn = f.view.get("turn")
    return f.layout.seats.get(turn) if isinstance(turn, int) and _active(f.view, turn) else None


def _glow_radius(area: Any) -> int:
    return max(6, area.plate.h // 3)


def _turn_glow(surf: pygame.Surface, f: Frame) -> None:
    """The breathing outline of the seat whose turn it is."""
    area = _turn_area(f)
    if area is not None:
        zone = area.zone
        pygame.draw.rect(surf, fade(TURN, 0.45 + 0.55 * f.pulse), zone.inflate(4, 4), max(3, zone.h // 40),
                         border_radius=_glow_radius(area))


def _gliders(surf: pygame.Surface, f: Frame) -> None:
    """The mobsters and cards gliding to new places, in layout order."""
    for place in f.gliding:
        _glider(surf, f, place)


def _glider(surf: pygame.Surface, f: Frame, place: tuple[str, int]) -> None:
    """A mobster or card gliding to its new place, with its marks, a doomed mobster's
    crosshair, a card's key number."""
    rect = f.layout.cards[place]
    if place[0] == "mob":
        r = _mobster(surf, f, place[1], rect)
        if r is not None and place[1] in f.doomed:
            _crosshair(surf, r)
    else:
        _hand_card(surf, f, place[1], rect)


def _glider_rects(f: Frame) -> list[pygame.Rect]:
    """Where each gliding card (:attr:`Frame.gliding`, in order) is drawn now (px), with
    its shadow, outline, crosshair, lift and key number."""
    rects = []
    for place in f.gliding:
        rect = f.layout.cards[place]
        x, y = f.sc.motion.card_pos(place, rect)
        _img, m = f.art.shadowed(None, rect.w, rect.h)
        pad = max(8, rect.w // 3, m + 4)
        lift = int(rect.h * 0.06) + 1 if place[0] == "card" else 0
        rects.append(pygame.Rect(int(x) - pad, int(y) - pad - lift, rect.w + 2 * pad, rect.h + 2 * pad + lift))
    return rects


def _active(v: dict, p: int) -> bool:
    return v.get("phase") != "over" and v.get("turn") == p


# -- the top bar ---------------------------------------------------------------------------

def _top_bar(surf: pygame.Surface, sc: Any) -> None:
    lay, v = sc.layout, sc.view
    bar = lay.top_bar
    fs = max(12, int(bar.h * 0.52))
    surf.blit(panel(bar.w, bar.h, 0, 120), bar.topleft)
    x = bar.x + int(bar.h * 0.5)
    left = text.render(tr("fb.table.turn", n=str(v.get("turn_no", 1))), fs, GOLD, bold=True)
    surf.blit(left, left.get_rect(midleft=(x, bar.centery)))
    x += left.get_width() + bar.h // 2
    if v.get("phase") != "over":
        turn = int(v.get("turn", 0))
        d = int(bar.h * 0.78)
        surf.blit(emblem_badge(sc.art, turn, d), (x, bar.centery - d // 2))
        x += d + bar.h // 4
        who = text.render(tr("fb.table.plays", name=sc.roster.seat_name(turn)), fs, TURN, bold=True)
        surf.blit(who, who.get_rect(midleft=(x, bar.centery)))
        x += who.get_width() + bar.h
    name = " · ".join(t for t in (sc.roster.table_name, sc.roster.spectator_line()) if t)
    if name:
        mid = text.render(text.elide(name, int(bar.w * 0.25), fs), fs, CREAM)
        surf.blit(mid, mid.get_rect(midleft=(max(x, bar.centerx - mid.get_width() // 2), bar.centery)))
        x = max(x, bar.centerx - mid.get_width() // 2) + mid.get_width() + bar.h
    hs = int(fs * 0.85)
    if sc.actions.hint_right(bar) - x > 40:
        draw_hint(surf, sc.keys.help_line, x, sc.actions.hint_right(bar), bar.centery, hs)


# -- seats -----------------------------------------------------------------------------------

def _seat(surf: pygame.Surface, f: Frame, area: Any) -> None:
    sc, v, art = f.sc, f.view, f.art
    p = area.seat
    players = v.get("players") or []
    player = players[p] if p < len(players) else {}
    active = _active(v, p)
    in_game = player.get("in_game", True)
    zone, plate = area.zone, area.plate
    radius = max(6, plate.h // 3)
    if not area.bottom:
        seat_panel(surf, zone, plate, radius, active)
    else:
        surf.blit(panel(zone.w, zone.h, radius, 80 if active else 55), zone.topleft)
        surf.blit(kit.plate(plate.w, plate.h, active), plate.topleft)
    who = ("player", p)
    if who in f.picked or who in f.offered:  # a player to target: the plate and the zone light up
        hovered = f.hover == who or (f.hover is not None and f.hover[0] == "mob" and f.hover[1] in area.front)
        colour = kit.PICKED if who in f.picked or hovered else fade(kit.OFFERED, 0.6 + 0.4 * f.pulse)
        th = max(3, plate.h // 7)
        pygame.draw.rect(surf, colour, plate.inflate(6, 6), th, border_radius=plate.h // 2 + 3)
        pygame.draw.rect(surf, colour, zone.inflate(4, 4), th, border_radius=radius)
    # the plate: emblem, name, counts
    d = int(plate.h * 0.86)
    x = plate.x + (plate.h - d) // 2 + 2
    surf.blit(emblem_badge(art, p, d), (x, plate.centery - d // 2))
    x += d + plate.h // 4
    fs = max(11, int(plate.h * 0.56))
    alive = int(player.get("alive", 0))
    hand = int(player.get("hand", 0))
    right = plate.right - plate.h // 2
    counts = []
    if in_game:
        counts.append(_icon_count(art, "mob", alive, int(plate.h * 0.8), fs, p))
        counts.append(_icon_count(art, "card", hand, int(plate.h * 0.8), fs, p))
    else:
        counts.append(text.render(tr("fb.table.out"), fs, SOFT_RED, bold=True))
    for img in reversed(counts):
        surf.blit(img, img.get_rect(midright=(right, plate.centery)))
        right -= img.get_width() + plate.h // 4
    name = sc.roster.seat_name(p)
    room = max(20, right - x - plate.h // 4)
    nm = text.render(text.elide(name, room, text.fit_size(name, room, fs, bold=True, min_size=max(9, fs - 4)),
                                bold=True), text.fit_size(name, room, fs, bold=True, min_size=max(9, fs - 4)),
                     CREAM if in_game else OUT_GREY, bold=True)
    surf.blit(nm, nm.get_rect(midleft=(x, plate.centery)))
    status = _status(sc, p)
    if status:
        pill(surf, status, (plate.centerx, plate.bottom), max(9, int(plate.h * 0.42)),
             fg=(30, 20, 16) if active else (255, 226, 140), bg=TURN if active else (30, 20, 16))
    # the front: nine places, its mobsters in them
    mw, mh = area.mob
    if mw and mh:
        outline = art.slot_outline(mw, mh)
        for r in area.slots[len(area.front):]:
            surf.blit(outline, r.topleft)
    for mid, rect in area.front.items():
        if ("mob", mid) not in f.moving:  # a gliding one is drawn over the base frame
            _mobster(surf, f, mid, rect)
    if not in_game:
        veil = panel(zone.w, zone.h, radius, 110)
        surf.blit(veil, zone.topleft)


def _icon_count(art: Any, kind: str, n: int, d: int, fs: int, gang: int) -> pygame.Surface:
    """A small icon (a mobster's silhouette or a card) with a number after it (cached:
    the base frame is repainted on every message)."""
    return _icon_count_img(kind, n, d, fs, text.cache_epoch())


@kept.lru_cache(maxsize=128)
def _icon_count_img(kind: str, n: int, d: int, fs: int, _epoch: int) -> pygame.Surface:
    num = text.render(str(n), fs, CREAM, bold=True)
    w = d + max(2, d // 6) + num.get_width()
    s = pygame.Surface((w, max(d, num.get_height())), pygame.SRCALPHA)
    cy = s.get_height() // 2
    if kind == "mob":  # head and shoulders
        pygame.draw.circle(s, CREAM, (d // 2, cy - d // 5), max(2, d // 5))
        body = pygame.Rect(d // 6, cy, d - d // 3, d // 2 - 1)
        pygame.draw.rect(s, CREAM, body, border_top_left_radius=d // 3, border_top_right_radius=d // 3)
    else:  # a card
        r = pygame.Rect(0, 0, int(d * 0.62), int(d * 0.86))
        r.center = (d // 2, cy)
        pygame.draw.rect(s, (124, 22, 34), r, border_radius=max(2, d // 8))
        pygame.draw.rect(s, CREAM, r, max(1, d // 12), border_radius=max(2, d // 8))
    s.blit(num, num.get_rect(midleft=(d + max(2, d // 6), cy)))
    return s


def _status(sc: Any, p: int) -> str:
    away = sc.roster.seat_away(p)
    if away:
        return away
    v = sc.view
    if v.get("phase") == "over":
        return ""
    w = v.get("window")
    if isinstance(w, dict) and p in (w.get("pending") or []):
        return tr("fb.table.deciding")
    res = v.get("resolving") or {}
    if res.get("chooser") == p:
        return tr("fb.table.choosing")
    if _active(v, p) and not isinstance(w, dict) and res.get("chooser") is None:
        return tr("fb.table.turn_pill")
    return ""


def _mobster(surf: pygame.Surface, f: Frame, mid: int, rect: pygame.Rect) -> pygame.Rect | None:
    """A mobster of the table at its follower's place (None: hidden by an effect)."""
    place = ("mob", mid)
    if f.hidden[place]:
        return None
    card = f.mobs.get(mid)
    x, y = f.sc.motion.card_pos(place, rect)
    img, m = f.art.shadowed(card, rect.w, rect.h)
    surf.blit(img, (int(x) - m, int(y) - m))
    r = pygame.Rect(int(x), int(y), rect.w, rect.h)
    if place in f.marked or (f.hover == place):
        f.marks(surf, place, r)
    return r


# -- the middle ------------------------------------------------------------------------------

def _piles(surf: pygame.Surface, f: Frame) -> None:
    lay, art, v = f.layout, f.art, f.view
    dp = lay.draw_pile
    count = int(v.get("draw_pile", 0))
    surf.blit(art.slot_outline(dp.w, dp.h), dp.topleft)
    stack(surf, art, dp, count, (v.get("draw_pile_cards") or [None])[0])
    pile = list(v.get("discard") or [])
    k = f.hidden[("discard", 0)]
    discard_pile(surf, art, lay.discard, pile[:len(pile) - k] if k else pile)
    fs = pile_label_size(lay.font)
    label_under(surf, dp, tr("fb.table.draw_pile", n=str(count)), fs)
    label_under(surf, lay.discard, tr("fb.table.discard", n=str(len(pile))), fs)
    count_badge(surf, dp, count)


def _cemetery(surf: pygame.Surface, f: Frame) -> None:
    lay, art, v = f.layout, f.art, f.view
    r = lay.cemetery
    hidden = f.hidden[("rip", 0)]
    dead = list(v.get("cemetery") or [])
    dead = dead[:len(dead) - hidden] if hidden else dead
    # a tombstone: rounded top, grey stone
    stone = pygame.Rect(r.x, r.y, r.w, r.h)
    top = pygame.Rect(stone.x, stone.y, stone.w, stone.w)
    col, edge = (88, 90, 96), (40, 40, 44)
    pygame.draw.ellipse(surf, col, top)
    pygame.draw.rect(surf, col, pygame.Rect(stone.x, stone.y + stone.w // 2, stone.w, stone.h - stone.w // 2),
                     border_bottom_left_radius=6, border_bottom_right_radius=6)
    pygame.draw.arc(surf, edge, top, 0, 3.1416, 3)
    pygame.draw.line(surf, edge, (stone.x, stone.y + stone.w // 2), (stone.x, stone.bottom - 4), 3)
    pygame.draw.line(surf, edge, (stone.right - 2, stone.y + stone.w // 2), (stone.right - 2, stone.bottom - 4), 3)
    pygame.draw.line(surf, edge, (stone.x, stone.bottom - 2), (stone.right, stone.bottom - 2), 3)
    fs = max(12, int(lay.font * 1.05))
    title = text.render(tr("fb.table.rip"), int(fs * 1.3), (230, 230, 235), bold=True, shadow=True)
    y = stone.y + int(stone.w * 0.14)
    surf.blit(title, title.get_rect(midtop=(stone.centerx, y)))
    y += title.get_height()
    total = text.render(tr("fb.table.dead", n=str(len(dead))), fs, (230, 230, 235), bold=True)
    surf.blit(total, total.get_rect(midtop=(stone.centerx, y)))
    y += total.get_height() + fs // 3
    # the dead of each gang: emblem x count, two columns
    n = int(v.get("seats") or len(v.get("players") or []))
    counts = [sum(1 for m in dead if int(m.get("gang", -1)) == g) for g in range(n)]
    rows = (n + 1) // 2
    room = stone.bottom - y - fs // 2
    rh = max(12, min(int(fs * 1.5), room // max(1, rows)))
    d = int(rh * 0.9)
    cw = stone.w // 2
    for g in range(n):
        cx = stone.x + (g % 2) * cw + cw // 2
        cy = y + (g // 2) * rh + rh // 2
        badge = emblem_badge(art, g, d)
        num = text.render(f"×{counts[g]}", int(rh * 0.72), CREAM if counts[g] else (170, 170, 175), bold=True)
        wtot = d + 3 + num.get_width()
        surf.blit(badge, (cx - wtot // 2, cy - d // 2))
        surf.blit(num, num.get_rect(midleft=(cx - wtot // 2 + d + 3, cy)))
    if f.offered & {("rip", 0)}:
        f.marks(surf, ("rip", 0), stone)


def _war(surf: pygame.Surface, f: Frame) -> None:
    lay, v = f.layout, f.view
    r = lay.war
    war = v.get("war") or {}
    rate = int(war.get("rate") or 0)
    fs = max(12, int(r.h * 0.58))
    if war.get("active"):
        base = "fb.table.war_perm_" if war.get("permanent") else "fb.table.war_on_"
        label = tr(base + ("1" if rate == 1 else "n"), n=str(rate))
        k = 0.75 + 0.25 * f.pulse
        bg = tuple(int(c * k) for c in (150, 24, 24))
        pygame.draw.rect(surf, bg, r, border_radius=r.h // 3)
        pygame.draw.rect(surf, (255, 200, 120), r, 2, border_radius=r.h // 3)
        size = text.fit_size(label, r.w - r.h * 2, fs, bold=True)
        img = text.render(label, size, (255, 240, 220), bold=True, shadow=True)
        surf.blit(img, img.get_rect(center=r.center))
        # skulls-ish: red discs with the count at each end
        for cx in (r.x + r.h // 2 + 2, r.right - r.h // 2 - 2):
            pygame.draw.circle(surf, (20, 10, 8), (cx, r.centery), r.h // 2 - 2)
            num = text.render(str(rate), int(r.h * 0.66), (255, 120, 100), bold=True)
            surf.blit(num, num.get_rect(center=(cx, r.centery)))
    else:
        label = tr("fb.table.war_off", n=str(len(v.get("hit_list") or [])))
        surf.blit(panel(r.w, r.h, r.h // 3, 90), r.topleft)
        size = text.fit_size(label, r.w - r.h, int(fs * 0.9))
        img = text.render(label, size, DIM, shadow=True)
        surf.blit(img, img.get_rect(center=r.center))


def _wall(surf: pygame.Surface, f: Frame) -> None:
    lay, v = f.layout, f.view
    wall = lay.wall
    # the brick wall
    surf.blit(_bricks(wall.w, wall.h), wall.topleft)
    pygame.draw.rect(surf, BRICK_EDGE, wall, 2, border_radius=8)
    fs = max(10, int(lay.font * 0.72))
    cap = text.render(tr("fb.table.wall"), fs, (235, 205, 180), bold=True)
    surf.blit(cap, (wall.x + 8, wall.y + 3))
    ids = lay.wall_ids
    if not ids and not lay.collected:
        img = text.render(tr("fb.table.wall_empty"), int(lay.font * 1.1), (235, 205, 180), shadow=True)
        surf.blit(img, img.get_rect(center=wall.center))
        return
    war = v.get("war") or {}
    doomed = int(war.get("rate") or 0) if war.get("active") else 0
    moving = f.moving
    label_fs = max(10, int(lay.font * 0.78))
    for i, (mid, rect) in enumerate(zip(ids, lay.wall_slots)):
        gliding = ("mob", mid) in moving  # drawn over the base frame, with its crosshair
        r = (None if gliding else _mobster(surf, f, mid, rect)) or rect
        # the order above
        colour = SOFT_RED if i < max(1, doomed) else CREAM
        lab = tr("fb.table.next") if i == 0 else ordinal(i + 1)
        size = text.fit_size(lab, rect.w + rect.w // 6, label_fs, bold=True, min_size=8)
        img = text.render(lab, size, colour, bold=True, shadow=True)
        if i == 0:
            box = img.get_rect(midbottom=(rect.centerx, rect.top - 1)).inflate(6, 0)
            pygame.draw.rect(surf, (150, 24, 24), box, border_radius=box.h // 3)
        surf.blit(img, img.get_rect(midbottom=(rect.centerx, rect.top - 1)))
        # whose it is, below
        owner = mid // 9
        nm = sc_name = f.sc.roster.seat_name(owner)
        size = text.fit_size(nm, rect.w + rect.w // 8, label_fs, min_size=8)
        img = text.render(text.elide(sc_name, rect.w + rect.w // 8, size), size,
                          _light(gang_colour(owner, f.art.colour_blind)), bold=True, shadow=True)
        surf.blit(img, img.get_rect(midtop=(rect.centerx, rect.bottom + 1)))
        if i < doomed and not f.hidden[("mob", mid)] and not gliding:
            _crosshair(surf, r)
    for mid, rect in lay.collected.items():
        if ("mob", mid) not in moving:
            _mobster(surf, f, mid, rect)
        img = text.render(tr("fb.table.to_place"), label_fs, DIM, shadow=True)
        surf.blit(img, img.get_rect(midbottom=(rect.centerx, rect.top - 1)))


@kept.lru_cache(maxsize=8)
def _bricks(w: int, h: int) -> pygame.Surface:
    """The wall's translucent brick pattern (w, h px), drawn once per size."""
    wall_bg = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(wall_bg, (*BRICK, 200), wall_bg.get_rect(), border_radius=8)
    bh = max(10, h // 9)
    bw = bh * 3
    for row in range(h // bh + 1):
        y = row * bh
        pygame.draw.line(wall_bg, (*BRICK_EDGE, 120), (0, y), (w, y), 1)
        off = (bw // 2) if row % 2 else 0
        for x in range(off, w, bw):
            pygame.draw.line(wall_bg, (*BRICK_EDGE, 120), (x, y), (x, y + bh), 1)
    return wall_bg


def _light(c: tuple[int, int, int]) -> tuple[int, int, int]:
    """A gang colour lightened to read on the dark wall."""
    return tuple(int(x + (255 - x) * 0.45) for x in c)  # type: ignore[return-value]


def _crosshair(surf: pygame.Surface, r: pygame.Rect) -> None:
    """The mark of a mobster the war executes at the start of the next turn."""
    rad = int(min(r.w, r.h) * 0.34)
    c = (r.centerx, r.centery)
    lw = max(2, rad // 6)
    pygame.draw.rect(surf, RED, r.inflate(4, 4), max(2, r.w // 22), border_radius=max(4, r.w // 10))
    pygame.draw.circle(surf, RED, c, rad, lw)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        pygame.draw.line(surf, RED, (c[0] + dx * rad * 0.4, c[1] + dy * rad * 0.4),
                         (c[0] + dx * rad * 1.3, c[1] + dy * rad * 1.3), lw)


# -- the bottom --------------------------------------------------------------------------------

def _hand(surf: pygame.Surface, f: Frame) -> None:
    lay, art, sc = f.layout, f.art, f.sc
    for cid, rect in lay.hand.items():
        place = ("card", cid)
        if f.hidden[place]:
            surf.blit(art.slot_outline(rect.w, rect.h), rect.topleft)
        elif place not in f.moving:  # a gliding one is drawn over the base frame
            _hand_card(surf, f, cid, rect)
    if lay.backs:
        back, m = art.shadowed(None, lay.backs[0].w, lay.backs[0].h)
        for r in lay.backs:
            surf.blit(back, (r.x - m, r.y - m))
        p = lay.perspective
        label_under(surf, lay.backs[0].unionall(lay.backs), tr("fb.table.hand_of", name=sc.roster.seat_name(p)),
                    max(10, int(lay.font * 0.8)), DIM)


def _hand_card(surf: pygame.Surface, f: Frame, cid: int, rect: pygame.Rect) -> None:
    """Card ``cid`` of the hand at its follower's place (lifted when picked), with its
    marks and key number; nothing while an effect hides it."""
    lay, sc, place = f.layout, f.sc, ("card", cid)
    if f.hidden[place]:
        return
    card = sc.card_face(cid)
    x, y = sc.motion.card_pos(place, rect)
    lift = int(rect.h * 0.06) if place in f.picked else 0
    img, m = f.art.shadowed(card, rect.w, rect.h)
    surf.blit(img, (int(x) - m, int(y) - m - lift))
    r = pygame.Rect(int(x), int(y) - lift, rect.w, rect.h)
    if place in f.marked or f.hover == place:
        f.marks(surf, place, r)
    if sc.show_keys and len(sc.links) == 1:
        i = list(lay.hand).index(cid)
        rad = max(8, r.w // 9)
        _key_badge(surf, i + 1, (r.x + rad // 2, r.y + rad // 2), rad)


def _key_badge(surf: pygame.Surface, n: int, centre: tuple[int, int], radius: int) -> None:
    pygame.draw.circle(surf, (20, 12, 10), centre, radius)
    pygame.draw.circle(surf, GOLD, centre, radius, max(1, radius // 6))
    img = text.render(str(n), int(radius * 1.4), CREAM, bold=True)
    surf.blit(img, img.get_rect(center=centre))


def _picks(surf: pygame.Surface, f: Frame) -> None:
    lay = f.layout
    if not lay.picks:
        return
    box = lay.hand_area
    surf.blit(panel(box.w, box.h, 10, 120), box.topleft)
    for mid, rect in lay.picks.items():
        place = ("pick", mid)
        card = f.mobs.get(mid)
        img, m = f.art.shadowed(card, rect.w, rect.h)
        surf.blit(img, (rect.x - m, rect.y - m))
        f.marks(surf, place, rect)


def _banner(surf: pygame.Surface, sc: Any) -> None:
    b = sc.layout.banner
    if not sc.prompt[0]:
        return
    fs = max(14, int(b.h * 0.36))
    banner(surf, b, sc.prompt, sc.t, size=fs, sub_size=int(fs * 0.72), sub_y=0.74)
    window_bar(surf, b, sc.window_left(), TURN, SOFT_RED)


def _timer(surf: pygame.Surface, sc: Any) -> None:
    left = sc.timer.left()
    if left is not None and left[0] in sc.layout.seats:
        turn_timer(surf, sc.layout.seats[left[0]].plate, left[1])


__all__ = ["draw_table", "draw_emblem"]
