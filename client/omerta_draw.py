"""Painting the Omerta table from the scene's state (drawing only: nothing changes).

:func:`draw_table` paints, in order: the felt, the top bar, every seat (panel, name
plate with score and turn light, Mamma token, face-down slots with reveals, Police
Patrol tokens and selection marks), the safe, the draw and discard piles, the card in
hand, the running effects, the prompt banner with the reaction-window countdown, and
the message column. All sizes come from the layout (pixels), so it works at any
resolution; text and card surfaces come from caches.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import pygame

from client import felt, text
from client.i18n import tr
from client.omerta_fx import token_rect

CREAM = (243, 232, 207)
GOLD = (240, 207, 121)
DIM = (180, 170, 150)
TURN = (255, 214, 102)
PICKED = (255, 214, 102)
OFFERED = (235, 235, 235)
CURSOR = (110, 200, 255)
RED = (255, 120, 100)


@lru_cache(maxsize=64)
def _panel(w: int, h: int, radius: int, alpha: int = 70) -> pygame.Surface:
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(s, (0, 0, 0, alpha), s.get_rect(), border_radius=radius)
    return s


@lru_cache(maxsize=64)
def _plate(w: int, h: int, active: bool) -> pygame.Surface:
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    r = s.get_rect()
    bg = (70, 18, 26, 235) if active else (22, 16, 14, 215)
    pygame.draw.rect(s, bg, r, border_radius=h // 2)
    pygame.draw.rect(s, (*(TURN if active else (150, 120, 70)), 255), r, max(1, h // 14), border_radius=h // 2)
    return s


def pulse(t_ms: float, period_ms: float = 900.0) -> float:
    """0..1..0 breathing value for highlights."""
    return 0.5 + 0.5 * math.sin(t_ms / period_ms * 2 * math.pi)


def draw_table(surf: pygame.Surface, sc: Any) -> None:
    lay = sc.layout
    t = sc.t
    art = sc.art
    w, h = lay.size
    surf.blit(felt.table_surface(w, h), (0, 0))
    hidden = sc.anim.hidden(t)
    _top_bar(surf, sc)
    for area in lay.seats.values():
        _seat(surf, sc, area, hidden)
    _safe(surf, sc, hidden)
    _piles(surf, sc, hidden)
    _hand(surf, sc, hidden)
    sc.anim.draw(surf, art, t)
    _banner(surf, sc)
    _messages(surf, sc)


def _top_bar(surf: pygame.Surface, sc: Any) -> None:
    lay, view = sc.layout, sc.view
    bar = lay.top_bar
    fs = max(12, int(bar.h * 0.52))
    s = _panel(bar.w, bar.h, 0, 110)
    surf.blit(s, bar.topleft)
    left = text.render(tr("table.round", round=str(view.get("round", 1)), rounds=str(view.get("rounds", 1))),
                       fs, GOLD, bold=True)
    surf.blit(left, left.get_rect(midleft=(bar.x + bar.h * 0.6, bar.centery)))
    mid = text.render(sc.table_name, fs, CREAM)
    surf.blit(mid, mid.get_rect(center=bar.center))
    right = text.render(sc.help_line, int(fs * 0.85), DIM)
    surf.blit(right, right.get_rect(midright=(bar.right - bar.h * 0.6, bar.centery)))


def _seat(surf: pygame.Surface, sc: Any, area: Any, hidden: Any) -> None:
    view, t, art = sc.view, sc.t, sc.art
    p = area.seat
    player = view["players"][p] if p < len(view.get("players", [])) else {"slots": [], "total": 0}
    active = view.get("phase") == "turn" and view.get("turn") == p
    zone = area.zone
    radius = max(6, area.card[0] // 6)
    surf.blit(_panel(zone.w, zone.h, radius, 55 if not active else 80), zone.topleft)
    if active:
        glow = int(120 + 100 * pulse(t))
        pygame.draw.rect(surf, (*TURN, glow), zone, max(2, zone.h // 90), border_radius=radius)
    # plate: turn light, name, score
    plate = area.plate
    surf.blit(_plate(plate.w, plate.h, active), plate.topleft)
    fs = max(11, int(plate.h * 0.56))
    x = plate.x + plate.h // 2
    if active:
        pygame.draw.circle(surf, TURN, (x, plate.centery), max(3, plate.h // 5))
    x += plate.h // 2
    name = sc.seat_name(p)
    score = tr("table.points", points=str(player.get("total", 0)))
    sc_img = text.render(score, fs, GOLD, bold=True)
    room = plate.right - x - sc_img.get_width() - plate.h * (1.5 if player.get("mamma") is not None else 0.6)
    nm = text.render(name, text.fit_size(name, max(20, int(room)), fs, bold=True), CREAM, bold=True)
    surf.blit(nm, nm.get_rect(midleft=(x, plate.centery)))
    right = plate.right - plate.h * (1.4 if player.get("mamma") is not None else 0.5)
    surf.blit(sc_img, sc_img.get_rect(midright=(int(right), plate.centery)))
    status = sc.seat_status(p) if p not in sc.local_seats else ""
    if status:  # a small pill on the plate's lower edge
        st = text.render(status, max(9, int(plate.h * 0.40)), (255, 226, 140))
        r = st.get_rect(center=(plate.centerx, plate.bottom))
        pill = r.inflate(st.get_height(), 2)
        pygame.draw.rect(surf, (30, 20, 16), pill, border_radius=pill.h // 2)
        pygame.draw.rect(surf, (150, 120, 70), pill, 1, border_radius=pill.h // 2)
        surf.blit(st, r)
    if player.get("mamma") is not None and not hidden[("mamma", p)]:
        tok = art.token("mamma", area.mamma.w)
        surf.blit(tok, area.mamma.topleft)
    # slots
    cw, ch = area.card
    for i, s in enumerate(player.get("slots", [])):
        sid = s["slot"]
        rect = area.slots.get(sid)
        if rect is None:
            continue
        if hidden[("slot", sid)]:
            surf.blit(art.slot_outline(cw, ch), rect.topleft)
            continue
        x, y = sc.slot_pos(sid, rect)
        ox, oy = sc.anim.offset(("slot", sid), t)
        x, y = int(x + ox), int(y + oy)
        sh = art.shadow(cw, ch)
        m = (sh.get_width() - cw) // 2
        surf.blit(sh, (x - m + 2, y - m + 4))
        rev = sc.anim.reveal(("slot", sid), t)
        if rev is not None:
            face, scale = rev.face_at(t)
            img = art.squashed(face, cw, ch, scale)
            surf.blit(img, (x + (cw - img.get_width()) // 2, y))
            if rev.private and face is not None:
                g = art.outline(cw, ch, GOLD, max(3, cw // 18))
                surf.blit(g, g.get_rect(center=(x + cw // 2, y + ch // 2)))
        else:
            surf.blit(art.back(cw, ch), (x, y))
        _marks(surf, sc, ("slot", sid), pygame.Rect(x, y, cw, ch))
        if s.get("patrol") is not None and not hidden[("patrol", sid)]:
            tr_ = token_rect(pygame.Rect(x, y, cw, ch))
            surf.blit(art.token("police_patrol", tr_.w), tr_.topleft)
        if p in sc.local_seats and i < 9 and sc.show_slot_numbers:
            _number(surf, i + 1, (x + cw // 2, y + ch - max(8, ch // 12)), max(8, ch // 11))


def _number(surf: pygame.Surface, n: int, centre: tuple[int, int], radius: int) -> None:
    """The key number of one of your cards, on a small dark disc."""
    pygame.draw.circle(surf, (20, 12, 10), centre, radius)
    pygame.draw.circle(surf, GOLD, centre, radius, max(1, radius // 6))
    img = text.render(str(n), int(radius * 1.5), CREAM, bold=True)
    surf.blit(img, img.get_rect(center=centre))


def _marks(surf: pygame.Surface, sc: Any, pick: tuple[str, int], rect: pygame.Rect) -> None:
    """Selection outlines on a place: picked (gold), offered (breathing white), keyboard
    cursor (blue), mouse hover."""
    art = sc.art
    th = max(3, rect.w // 16)
    colour = None
    if pick in sc.picked:
        colour = PICKED
    elif pick in sc.cursor_picks:
        colour = CURSOR
    elif pick == sc.hover and pick in sc.offered:
        colour = (255, 255, 255)
    if colour is not None:
        g = art.outline(rect.w, rect.h, colour, th)
        surf.blit(g, g.get_rect(center=rect.center))
    elif pick in sc.offered:
        g = art.outline(rect.w, rect.h, OFFERED, th)
        g.set_alpha(int(90 + 120 * pulse(sc.t)))
        surf.blit(g, g.get_rect(center=rect.center))
        g.set_alpha(None)


def _label_under(surf: pygame.Surface, rect: pygame.Rect, label: str, size: int) -> None:
    img = text.render(label, size, CREAM, shadow=True)
    surf.blit(img, img.get_rect(midtop=(rect.centerx, rect.bottom + 2)))


def _safe(surf: pygame.Surface, sc: Any, hidden: Any) -> None:
    lay, art, view = sc.layout, sc.art, sc.view
    cards = view.get("safe_cards")
    count = int(view.get("safe", 4))
    for i, r in enumerate(lay.safe):
        if i >= count:
            continue
        if hidden[("safe", i)]:
            surf.blit(art.slot_outline(r.w, r.h), r.topleft)
            continue
        face = cards[i] if cards and i < len(cards) else None
        sh = art.shadow(r.w, r.h)
        m = (sh.get_width() - r.w) // 2
        surf.blit(sh, (r.x - m + 2, r.y - m + 3))
        surf.blit(art.surface(face, r.w, r.h), r.topleft)
        _marks(surf, sc, ("safe", i), r)
    box = lay.safe[0].union(lay.safe[3])
    _label_under(surf, box, tr("table.safe"), max(10, int(lay.font * 0.8)))


def _stack(surf: pygame.Surface, art: Any, r: pygame.Rect, count: int, face: Any = None) -> None:
    layers = min(4, max(0, (count + 9) // 10))
    step = max(1, r.w // 60)
    sh = art.shadow(r.w, r.h)
    m = (sh.get_width() - r.w) // 2
    surf.blit(sh, (r.x - m + 3, r.y - m + 5))
    for k in range(layers - 1, 0, -1):
        surf.blit(art.back(r.w, r.h), (r.x + k * step, r.y + k * step))
    if count > 0:
        surf.blit(art.surface(face, r.w, r.h), r.topleft)


def _piles(surf: pygame.Surface, sc: Any, hidden: Any) -> None:
    lay, art, view = sc.layout, sc.art, sc.view
    fs = max(10, int(lay.font * 0.85))
    dp = lay.draw_pile
    count = int(view.get("draw_pile", 0))
    surf.blit(art.slot_outline(dp.w, dp.h), dp.topleft)
    _stack(surf, art, dp, count)
    _marks(surf, sc, ("draw_pile", 0), dp)
    badge = text.render(str(count), max(12, int(dp.h * 0.16)), CREAM, bold=True, shadow=True)
    br = badge.get_rect(center=(dp.right - dp.w * 0.12, dp.top + dp.h * 0.10))
    pygame.draw.circle(surf, (20, 12, 10), br.center, int(max(br.w, br.h) * 0.62))
    pygame.draw.circle(surf, GOLD, br.center, int(max(br.w, br.h) * 0.62), 2)
    surf.blit(badge, br)
    _label_under(surf, dp, tr("table.draw_pile"), fs)

    dc = lay.discard
    pile = list(view.get("discard", []))
    k = hidden[("discard", 0)]
    shown = pile[:len(pile) - k] if k else pile
    surf.blit(art.slot_outline(dc.w, dc.h), dc.topleft)
    if len(shown) >= 2:
        under = art.rotated(shown[-2], dc.w, dc.h, 6)
        surf.blit(under, under.get_rect(center=(dc.centerx - dc.w * 0.04, dc.centery + dc.h * 0.02)))
    if shown:
        sh = art.shadow(dc.w, dc.h)
        m = (sh.get_width() - dc.w) // 2
        surf.blit(sh, (dc.x - m + 3, dc.y - m + 5))
        surf.blit(art.face(shown[-1], dc.w, dc.h), dc.topleft)
    _marks(surf, sc, ("discard", 0), dc)
    _label_under(surf, dc, tr("table.discard", n=str(len(pile))), fs)


def _hand(surf: pygame.Surface, sc: Any, hidden: Any) -> None:
    view, lay, art = sc.view, sc.layout, sc.art
    drawn = view.get("drawn")
    turn = view.get("turn")
    if not drawn or turn not in lay.seats or hidden[("hand", turn)]:
        return
    r = lay.seats[turn].hand
    img = art.rotated(drawn.get("card"), r.w, r.h, -5)
    sh = art.shadow(r.w, r.h)
    surf.blit(sh, sh.get_rect(center=(r.centerx + 4, r.centery + 8)))
    surf.blit(img, img.get_rect(center=r.center))
    if turn in sc.local_seats:
        g = art.outline(r.w, r.h, GOLD, max(3, r.w // 18))
        surf.blit(g, g.get_rect(center=r.center))
        _label_under(surf, r, tr("table.in_hand"), max(10, int(lay.font * 0.85)))


def _banner(surf: pygame.Surface, sc: Any) -> None:
    lay = sc.layout
    b = lay.banner
    prompt, sub, urgent = sc.prompt
    if not prompt:
        return
    fs = max(14, int(b.h * 0.34))
    colour = (255, 226, 140) if urgent else CREAM
    size = text.fit_size(prompt, int(b.w * 0.96), fs, bold=True)
    img = text.render(prompt, size, colour, bold=True, shadow=True)
    box = img.get_rect(center=(b.centerx, b.top + b.h * (0.32 if sub else 0.5)))
    back = box.inflate(int(fs * 1.2), int(fs * 0.4))
    if urgent:
        back = pygame.Rect(b.x, b.y, b.w, b.h)
        surf.blit(_panel(back.w, back.h, back.h // 4, 150), back.topleft)
        pygame.draw.rect(surf, (*TURN, int(150 + 100 * pulse(sc.t, 500))), back, 2, border_radius=back.h // 4)
    surf.blit(img, box)
    if sub:
        ss = text.fit_size(sub, int(b.w * 0.96), int(fs * 0.72))
        simg = text.render(sub, ss, DIM, shadow=True)
        surf.blit(simg, simg.get_rect(center=(b.centerx, b.top + b.h * 0.70)))
    frac = sc.window_left()
    if frac is not None:
        bar = pygame.Rect(b.x + 6, b.bottom - max(3, b.h // 12) - 3, int((b.w - 12) * frac), max(3, b.h // 12))
        pygame.draw.rect(surf, RED if frac < 0.3 else TURN, bar, border_radius=bar.h // 2)


def _messages(surf: pygame.Surface, sc: Any) -> None:
    lay = sc.layout
    box = lay.info
    fs = max(11, int(lay.font * 0.82))
    y = box.bottom
    for message, colour, _until in reversed(sc.visible_messages()):
        img = text.render(text.elide(message, box.w - 8, fs), fs, colour, shadow=True)
        y -= img.get_height() + 2
        if y < box.top:
            break
        surf.blit(img, (box.x + 4, y))
