"""Painting shared by every game table (drawing only: nothing changes).

* :func:`draw_messages` -- the message column, each line wrapped to the column's width
  (never cut with an ellipsis: every line stays readable at 1280x720), newest at the
  bottom, as many as fit;
* :func:`pill` -- a small rounded label (a plate's status, the turn timer);
  :func:`turn_timer` -- the turn timer's pill on the plate of the seat on the clock;
* :func:`window_bar` -- a reaction window's time left, a bar along the banner's bottom;
* :func:`draw_reconnecting` -- the veil and box shown while a lost connection is being
  re-opened: "Connection lost — reconnecting… (attempt n, next try in x s)";
* :class:`Frame` -- what one frame needs, computed once, and the selection marks on a
  card (:meth:`Frame.marks`);
* the pieces both tables are made of: :func:`panel`, :func:`plate` and
  :func:`seat_panel` (a seat's panel and name plate), :func:`stack` (the draw pile),
  :func:`discard_pile`, :func:`count_badge`, :func:`label_under`, :func:`banner` (the
  prompt strip), and :func:`refill` for the cached static layers.

Sizes are pixels; wrapped lines are cached per (text, width, size).
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import pygame

from client.table import kept
from client import text
from client.i18n import tr
from client.input import now_ms

CREAM = (243, 232, 207)
GOLD = (240, 207, 121)
DIM = (190, 178, 156)
TURN = (255, 214, 102)
FELT = (20, 70, 44)
PICKED = (255, 214, 102)
OFFERED = (235, 235, 235)
CURSOR = (110, 200, 255)


@lru_cache(maxsize=512)
def wrapped(message: str, width: int, size: int) -> tuple[str, ...]:
    """``message`` broken into lines at most ``width`` px wide at ``size`` px (a word
    longer than the width is cut with an ellipsis, the only case that is)."""
    return tuple(line if text.font(size).size(line)[0] <= width else text.elide(line, width, size)
                 for line in text.wrap(message, width, size))


_MESSAGES_CACHE: dict[str, Any] = {"key": None, "img": None}


def draw_messages(surf: pygame.Surface, box: pygame.Rect, messages: list[tuple[str, Any, float]],
                  size: int) -> None:
    """``messages`` (text, colour, until) in ``box``, wrapped, newest at the bottom. A
    message's continuation lines are indented a little. The column is rendered once
    into a transparent surface and reused while the messages and box stay the same
    (an animating table redraws it 60 times a second)."""
    key = (tuple((m, tuple(c) if isinstance(c, (list, tuple)) else c) for m, c, _u in messages),
           box.size, size)
    if _MESSAGES_CACHE["key"] != key:
        img = pygame.Surface(box.size, pygame.SRCALPHA)
        _draw_messages(img, pygame.Rect(0, 0, box.w, box.h), messages, size)
        _MESSAGES_CACHE.update(key=key, img=img)
    surf.blit(_MESSAGES_CACHE["img"], box.topleft)


def _draw_messages(surf: pygame.Surface, box: pygame.Rect, messages: list[tuple[str, Any, float]],
                   size: int) -> None:
    y = box.bottom
    indent = max(4, size // 2)
    for message, colour, _until in reversed(messages):
        lines = wrapped(message, box.w - 8 - indent, size)
        imgs = [text.render(line, size, colour, shadow=True) for line in lines]
        height = sum(i.get_height() for i in imgs) + 2
        if y - height < box.top:
            break
        y -= height
        yy = y
        for k, img in enumerate(imgs):
            surf.blit(img, (box.x + 4 + (indent if k else 0), yy))
            yy += img.get_height()


def fit_hint(line: str, room: int, size: int, min_frac: float = 0.78) -> tuple[str, int]:
    """The top bar's key help made to fit ``room`` px: ``(text, font size)``. The font
    shrinks down to ``min_frac`` of ``size``; then the last " · " parts (the least
    useful keys) are dropped whole; a single part left too long is cut with an ellipsis
    as a last resort. Never wider than ``room``."""
    room = max(1, int(room))
    small = max(8, int(size * min_frac))
    parts = line.split(" · ")
    while parts:
        candidate = " · ".join(parts)
        fs = text.fit_size(candidate, room, size, min_size=small)
        if text.font(fs).size(candidate)[0] <= room:
            return candidate, fs
        if len(parts) == 1:
            break
        parts.pop()
    return text.elide(parts[0] if parts else line, room, small), small


def draw_hint(surf: pygame.Surface, line: str, left: float, right: float, centery: float, size: int,
              colour: tuple[int, int, int] = DIM) -> pygame.Rect | None:
    """The key help ``line`` right-aligned at ``right``, never past ``left`` (px)."""
    if not line or right - left < 20:
        return None
    fitted_line, fs = fit_hint(line, int(right - left), size)
    img = text.render(fitted_line, fs, colour)
    r = img.get_rect(midright=(int(right), int(centery)))
    surf.blit(img, r)
    return r


def pill(surf: pygame.Surface, label: str, centre: tuple[int, int], size: int,
         fg: tuple[int, int, int] = (255, 226, 140), bg: tuple[int, int, int] = (30, 20, 16),
         edge: tuple[int, int, int] = (150, 120, 70)) -> pygame.Rect:
    """A rounded label centred on ``centre``; returns its rect."""
    img = text.render(label, max(8, size), fg)
    r = img.get_rect(center=centre)
    box = r.inflate(img.get_height(), 2)
    pygame.draw.rect(surf, bg, box, border_radius=box.h // 2)
    pygame.draw.rect(surf, edge, box, 1, border_radius=box.h // 2)
    surf.blit(img, r)
    return box


def timer_text(seconds: float) -> str:
    """``"0:42"``: a turn timer's time left."""
    s = int(seconds + 0.999)
    return f"{s // 60}:{s % 60:02d}"


def turn_timer(surf: pygame.Surface, pr: pygame.Rect, seconds: float) -> None:
    """The turn timer's countdown on the top edge of plate ``pr``: red and blinking in
    the last 10 s."""
    urgent = seconds < 10
    fg = (255, 255, 255) if urgent else (255, 226, 140)
    bg = (150, 30, 30) if urgent and pulse(now_ms(), 600) > 0.5 else (30, 20, 16)
    pill(surf, tr("table.timer", time=timer_text(seconds)), (pr.centerx, pr.top), max(10, int(pr.h * 0.5)),
         fg=fg, bg=bg)


def window_bar(surf: pygame.Surface, b: pygame.Rect, frac: float | None,
               colour: tuple[int, int, int] = TURN, low: tuple[int, int, int] = (255, 120, 100)) -> None:
    """The open reaction window's time left (``frac`` 1 -> 0, None: no window) as a bar
    along the bottom of the banner ``b``; ``low`` under 30 %."""
    if frac is None:
        return
    bar = pygame.Rect(b.x + 6, b.bottom - max(3, b.h // 12) - 3, int((b.w - 12) * frac), max(3, b.h // 12))
    pygame.draw.rect(surf, low if frac < 0.3 else colour, bar, border_radius=bar.h // 2)


@kept.lru_cache(maxsize=4)
def _veil(w: int, h: int) -> pygame.Surface:
    v = pygame.Surface((w, h), pygame.SRCALPHA)
    v.fill((0, 0, 0, 150))
    return v


def draw_reconnecting(surf: pygame.Surface, attempt: Any, now_s: float) -> None:
    """The overlay while ``attempt`` (a :class:`client.reconnect.Reconnector`) runs:
    the attempt number and the seconds until the next try (``now_s`` = its clock)."""
    w, h = surf.get_size()
    surf.blit(_veil(w, h), (0, 0))
    size = max(14, int(h * 0.034))
    if attempt.connecting:
        line = tr("reconnect.trying", n=str(attempt.attempt))
    else:
        line = tr("reconnect.waiting", n=str(attempt.attempt), s=str(math.ceil(max(0.0, attempt.next_at - now_s))))
    title = text.render(tr("reconnect.lost"), int(size * 1.3), GOLD, bold=True, shadow=True)
    sub = text.render(line, size, CREAM, shadow=True)
    hint = text.render(tr("reconnect.hint"), int(size * 0.8), DIM, shadow=True)
    bw = max(title.get_width(), sub.get_width(), hint.get_width()) + 3 * size
    bh = title.get_height() + sub.get_height() + hint.get_height() + 2 * size
    box = pygame.Rect(0, 0, bw, bh)
    box.center = (w // 2, int(h * 0.45))
    pygame.draw.rect(surf, (22, 15, 13), box, border_radius=size)
    pygame.draw.rect(surf, GOLD, box, 2, border_radius=size)
    y = box.y + size
    for img in (title, sub, hint):
        surf.blit(img, img.get_rect(midtop=(box.centerx, y)))
        y += img.get_height()


@kept.lru_cache(maxsize=64)
def panel(w: int, h: int, radius: int, alpha: int = 70) -> pygame.Surface:
    """A translucent dark rounded panel (w, h px)."""
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(s, (0, 0, 0, alpha), s.get_rect(), border_radius=radius)
    return s


@kept.lru_cache(maxsize=64)
def plate(w: int, h: int, active: bool) -> pygame.Surface:
    """A seat's name plate (w, h px); ``active`` = its turn (red with a gold rim)."""
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    r = s.get_rect()
    bg = (70, 18, 26, 235) if active else (22, 16, 14, 215)
    pygame.draw.rect(s, bg, r, border_radius=h // 2)
    pygame.draw.rect(s, (*(TURN if active else (150, 120, 70)), 255), r, max(1, h // 14), border_radius=h // 2)
    return s


def fade(colour: tuple[int, int, int], k: float) -> tuple[int, int, int]:
    """``colour`` darkened towards the felt by ``1 - k`` (drawing on the opaque screen
    ignores alpha, so a breathing outline changes brightness instead)."""
    return tuple(int(f + (c - f) * k) for c, f in zip(colour, FELT))  # type: ignore[return-value]


def pulse(t_ms: float, period_ms: float = 900.0) -> float:
    """0..1..0 breathing value for highlights."""
    return 0.5 + 0.5 * math.sin(t_ms / period_ms * 2 * math.pi)


def label_under(surf: pygame.Surface, rect: pygame.Rect, label: str, size: int,
                colour: tuple[int, int, int] = CREAM) -> None:
    img = text.render(label, size, colour, shadow=True)
    surf.blit(img, img.get_rect(midtop=(rect.centerx, rect.bottom + 2)))


def banner(surf: pygame.Surface, b: pygame.Rect, prompt: tuple[str, str, bool], t_ms: float,
           size: int | None = None, sub_size: int | None = None, sub_y: float = 0.72,
           sub_colour: tuple[int, int, int] = DIM) -> None:
    """The prompt strip ``b``: main line (gold and framed when ``urgent``), second line
    dim. The main line is at most ``size`` px (default: 36 % of the strip's height, 42 %
    alone), the second ``sub_size`` px (default 27 %) centred at ``sub_y`` of the height."""
    main, sub, urgent = prompt
    if not main:
        return
    fs = size if size is not None else max(14, int(b.h * 0.36 if sub else b.h * 0.42))
    colour = (255, 226, 140) if urgent else CREAM
    fitted = text.fit_size(main, int(b.w * 0.96), fs, bold=True)
    img = text.render(main, fitted, colour, bold=True, shadow=True)
    if urgent:
        surf.blit(panel(b.w, b.h, b.h // 4, 150), b.topleft)
        pygame.draw.rect(surf, fade(TURN, 0.6 + 0.4 * pulse(t_ms, 500)), b, 2, border_radius=b.h // 4)
    surf.blit(img, img.get_rect(center=(b.centerx, b.top + b.h * (0.32 if sub else 0.5))))
    if sub:
        ss = text.fit_size(sub, int(b.w * 0.96), sub_size if sub_size is not None else max(11, int(b.h * 0.27)))
        simg = text.render(sub, ss, sub_colour, shadow=True)
        surf.blit(simg, simg.get_rect(center=(b.centerx, b.top + b.h * sub_y)))


def seat_panel(surf: pygame.Surface, zone: pygame.Rect, pr: pygame.Rect, radius: int, active: bool) -> int:
    """A seat's translucent panel ``zone`` and its name plate ``pr`` (``active``: its
    turn, with the turn light); returns the x where the plate's name starts."""
    surf.blit(panel(zone.w, zone.h, radius, 80 if active else 55), zone.topleft)
    surf.blit(plate(pr.w, pr.h, active), pr.topleft)
    x = pr.x + pr.h // 2
    if active:
        pygame.draw.circle(surf, TURN, (x, pr.centery), max(3, pr.h // 5))
    return x + pr.h // 2


def stack(surf: pygame.Surface, art: Any, r: pygame.Rect, count: int, top: Any = None) -> None:
    """A pile of ``count`` cards at ``r``; ``top`` (a card dict) shows its top card face up."""
    layers = min(4, max(0, (count + 9) // 10))
    step = max(1, r.w // 60)
    for k in range(layers - 1, 0, -1):
        surf.blit(art.back(r.w, r.h), (r.x + k * step, r.y + k * step))
    if count > 0:
        img, m = art.shadowed(top, r.w, r.h)
        surf.blit(img, (r.x - m, r.y - m))


def discard_pile(surf: pygame.Surface, art: Any, r: pygame.Rect, shown: list[Any]) -> None:
    """The discard pile at ``r``: its place, the card under the top one turned a
    little, and the top card of ``shown`` (the cards not flying to it)."""
    surf.blit(art.slot_outline(r.w, r.h), r.topleft)
    if len(shown) >= 2:
        under = art.rotated(shown[-2], r.w, r.h, 6)
        surf.blit(under, under.get_rect(center=(r.centerx - r.w * 0.04, r.centery + r.h * 0.02)))
    if shown:
        img, m = art.shadowed(shown[-1], r.w, r.h)
        surf.blit(img, (r.x - m, r.y - m))


def count_badge(surf: pygame.Surface, r: pygame.Rect, count: int, edge: tuple[int, int, int] = GOLD) -> None:
    """How many cards a pile ``r`` holds, on a dark disc at its top-right corner."""
    badge = text.render(str(count), max(12, int(r.h * 0.16)), CREAM, bold=True, shadow=True)
    br = badge.get_rect(center=(r.right - r.w * 0.12, r.top + r.h * 0.10))
    pygame.draw.circle(surf, (20, 12, 10), br.center, int(max(br.w, br.h) * 0.62))
    pygame.draw.circle(surf, edge, br.center, int(max(br.w, br.h) * 0.62), 2)
    surf.blit(badge, br)


def refill(surf: pygame.Surface | None, src: pygame.Surface) -> pygame.Surface:
    """``src`` painted over ``surf`` (a cached layer), or a copy of it when there is no
    layer yet or the sizes differ."""
    if surf is None or surf.get_size() != src.get_size():
        return src.copy()
    surf.blit(src, (0, 0))
    return surf


class Same:
    """A part of a :class:`BaseFrame` key equal only to the very same object (``is``):
    cheap to compare whatever the object's size, and -- holding it -- no other object
    can take its ``id`` while the key lives."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any):
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj

    def __hash__(self) -> int:
        return id(self.obj)


class BaseFrame:
    """The part of a table's frame that changes only with the match's state -- felt,
    plates, the cards lying on the table, piles, the message column: everything under
    the cards in flight, the time bars and the breathing turn light -- painted once into
    an off-screen surface and reused while its *key* stays the same. An animating table
    (60 FPS while cards fly) then blits one surface a frame instead of repainting every
    card: the TV view idles on a small machine.

    The key is the caller's: every input of the painting that may change (identities of
    the view and layout, the effects index, selections, messages...). ``None`` means "do
    not cache" (something in it moves or breathes: paint straight onto the screen).
    :attr:`REFRESH_MS` bounds how long a surface is reused whatever the key says.

    A key is cached only from its second frame in a row: painting into the surface and
    then blitting it costs a whole-window copy more than painting onto the screen, which
    pays only when the painting is reused. During a deal the key changes nearly every
    frame (a card lands), and such frames paint straight onto the screen. After
    :data:`STORM` such frames in a row, :meth:`wants_key` tells the game not to build
    the key -- itself a cost -- but on every :data:`STORM`-th frame, to see the storm end."""

    #: Frames in a row with a new key after which building the key is mostly skipped.
    STORM = 4

    #: The cached surface is repainted at least this often (scene ms), a safety net for
    #: an input of the painting missing from a key.
    REFRESH_MS = 1000.0

    def __init__(self) -> None:
        self.key: Any = None
        self.surf: pygame.Surface | None = None
        self.t = 0.0
        #: The key of the last frame painted straight onto the screen: seen again in the
        #: next frame, it is worth caching.
        self.pending: Any = None
        #: Frames in a row whose key was new (painted straight), and frames since the
        #: last key during such a storm (:meth:`wants_key`).
        self.changes = 0
        self.skipped = 0
        #: How many times the surface was (re)painted and reused (tests, benchmarks).
        self.painted = 0
        self.reused = 0
        kept.frame(self)

    def release(self) -> None:
        """Let the painting go (the table was left): the next frame paints it again, and
        the next table starts with no storm of new keys (the left table's deal says
        nothing about it)."""
        self.key, self.surf, self.pending = None, None, None
        self.changes = self.skipped = 0

    def wants_key(self) -> bool:
        """Whether this frame's key is worth building: False in a storm of new keys
        (the frame is painted straight, :meth:`draw` with None) but on every
        :data:`STORM`-th frame."""
        if self.changes < self.STORM:
            return True
        self.skipped += 1
        if self.skipped >= self.STORM:
            self.skipped = 0
            return True
        return False

    def fresh(self, key: Any, t_ms: float, size: tuple[int, int]) -> bool:
        """Whether the cached painting is the one :meth:`draw` would blit now for
        ``key`` at ``t_ms`` on a ``size`` (w, h px) screen (no repainting needed)."""
        return (key is not None and self.surf is not None and self.surf.get_size() == size and key == self.key
                and abs(t_ms - self.t) < self.REFRESH_MS)

    def redraw(self, surf: pygame.Surface, sc: Any, key: Any, t_ms: float,
               items: "TopItems | None") -> list[pygame.Rect] | None:
        """A partial frame of table ``sc`` (a game's ``draw_partial``): when the cached
        painting is still the one for ``key`` at ``t_ms`` and ``sc.top_rects`` knows the
        last frame's top items, repaint only what moved (:func:`redraw_over_base`) and
        return the regions repainted (px); else None (``sc.top_rects`` then None too):
        the whole frame must be drawn (the base frame changed, or an item of ``items``
        -- None -- does not know its rects)."""
        previous = sc.top_rects
        if previous is None or items is None or not self.fresh(key, t_ms, surf.get_size()):
            sc.top_rects = None
            return None
        damage = redraw_over_base(surf, self.surf, previous, items)
        sc.top_rects = top_record(items)
        return damage

    def draw(self, surf: pygame.Surface, key: Any, t_ms: float, paint: Any) -> None:
        """Blit the cached painting onto ``surf`` at (0, 0), repainting it first with
        ``paint(target)`` when ``key`` changed, the size changed, or :attr:`REFRESH_MS`
        passed since ``t_ms`` (scene ms) of the last painting. ``key`` None: ``paint(surf)``
        straight away, nothing cached."""
        if key is None:
            self.key = None
            paint(surf)
            return
        size = surf.get_size()
        if self.surf is None or self.surf.get_size() != size:
            self.surf = pygame.Surface(size, 0, surf)  # the screen's pixel format: a plain copy blit
            self.key = None
        if key != self.key or abs(t_ms - self.t) >= self.REFRESH_MS:
            if key != self.pending:  # a key seen once: maybe the only frame it lasts
                self.key, self.pending = None, key
                self.changes += 1
                paint(surf)
                self.painted += 1
                return
            paint(self.surf)
            self.key, self.t, self.pending = key, t_ms, None
            self.painted += 1
        else:
            self.reused += 1
        self.changes = self.skipped = 0
        surf.blit(self.surf, (0, 0))


#: What is painted over a table's base frame, one entry per thing: the rects (px) it
#: paints this frame and how to paint it (``paint(surface)``, clipped by the caller);
#: optionally also a name and a signature of its look (``(rects, paint, name, sig)``):
#: an item whose signature and rects are those of the last frame (a turn light between
#: two steps of its breathing, a banner without a time bar) causes no repainting itself
#: -- it is painted again only where something else is.
TopItems = list[tuple]


def top_record(items: TopItems | None) -> list[tuple] | None:
    """What :func:`redraw_over_base` needs to know of this frame's ``items`` in the next
    one (``[(name or None, sig, rects)]``; None for None): kept in ``sc.top_rects``."""
    if items is None:
        return None
    return [(it[2] if len(it) > 2 else None, it[3] if len(it) > 3 else None, it[0]) for it in items]


#: Two overlapping regions are repainted as one when their union is at most this much
#: bigger than the two together (px²): a long thin strip (the turn light's side) crossed
#: by a flying card stays two regions rather than one big box.
MERGE_SLACK = 1.25


def merge_rects(rects: list[pygame.Rect], bounds: pygame.Rect) -> list[pygame.Rect]:
    """``rects`` clipped to ``bounds`` (px), empty ones dropped, overlapping ones merged
    into their union when it is not much bigger (:data:`MERGE_SLACK`): the regions a
    partial redraw repaints. Regions may still overlap (each is repainted whole, in
    turn, so the result is the same)."""
    out: list[pygame.Rect] = []
    for rect in rects:
        r = rect.clip(bounds)
        if r.w <= 0 or r.h <= 0:
            continue
        merged = True
        while merged:
            merged = False
            for k, o in enumerate(out):
                if r.colliderect(o):
                    u = r.union(o)
                    if u.w * u.h <= MERGE_SLACK * (r.w * r.h + o.w * o.h):
                        r = u
                        del out[k]
                        merged = True
                        break
        out.append(r)
    return out


def disjoint(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """``rects`` cut into pieces that do not overlap and cover the same pixels (px).
    The app paints the widgets over each region it is given (``manager.draw_ui``
    clipped to it): a pixel in two regions would get a translucent widget edge (the
    Rules button's) blended twice."""
    out: list[pygame.Rect] = []
    for rect in rects:
        pieces = [pygame.Rect(rect)]
        for o in out:
            rest = []
            for p in pieces:
                c = p.clip(o)
                if c.w <= 0 or c.h <= 0:
                    rest.append(p)
                    continue
                if c.top > p.top:
                    rest.append(pygame.Rect(p.x, p.y, p.w, c.top - p.top))
                if c.bottom < p.bottom:
                    rest.append(pygame.Rect(p.x, c.bottom, p.w, p.bottom - c.bottom))
                if c.left > p.left:
                    rest.append(pygame.Rect(p.x, c.top, c.left - p.x, c.h))
                if c.right < p.right:
                    rest.append(pygame.Rect(c.right, c.top, p.right - c.right, c.h))
            pieces = rest
        out += pieces
    return out


def redraw_over_base(surf: pygame.Surface, base: pygame.Surface, previous: list[tuple],
                     items: TopItems) -> list[pygame.Rect]:
    """Repaint only what moved since the last frame: where the ``previous`` frame's top
    items were and where ``items`` are now (:func:`top_record` of the last frame; a
    named item with the same signature and rects as then is left out), ``base`` (the
    cached base frame, same size as ``surf``) is copied back and every item touching the
    region painted again, clipped to it. Returns the regions repainted (px), cut so that
    none overlap (for the widgets painted over them and ``pygame.display.update``)."""
    before = {name: (sig, rects) for name, sig, rects in previous if name is not None}
    rects_before = [r for name, _sig, rects in previous if name is None for r in rects]
    changed: list[pygame.Rect] = []
    for item in items:
        rects = item[0]
        name, sig = (item[2], item[3]) if len(item) > 2 else (None, None)
        last = before.pop(name, None) if name is not None else None
        if last is not None and sig is not None and last[0] == sig and last[1] == rects:
            continue  # unchanged: repainted only where something else is
        changed += rects
        if last is not None:
            changed += last[1]
    for _sig, rects in before.values():  # named items gone since
        changed += rects
    damage = merge_rects(rects_before + changed, surf.get_rect())
    for r in damage:
        surf.set_clip(r)
        surf.blit(base, r, r)
        for item in items:
            if r.collidelist(item[0]) != -1:
                item[1](surf)
    surf.set_clip(None)
    return disjoint(damage)


class Frame:
    """What one frame of a table needs, computed once: the effects index (hidden places,
    offsets, reveals) and the selection sets of the scene ``sc``."""

    #: An offered place's outline breathes between these alphas: base + swing * pulse.
    offered_alpha = (90, 120)

    def __init__(self, sc: Any):
        self.sc = sc
        self.t = sc.t
        self.art = sc.art
        self.view = sc.view
        self.layout = sc.layout
        self.hidden, self.offsets, self.reveals = sc.anim.index(sc.t)
        self.picked = sc.picked
        self.offered = sc.offered
        self.cursor = sc.cursor_picks
        self.hover = sc.hover
        self.pulse = pulse(sc.t)

    def hidden_key(self) -> tuple:
        """The places effects hide now, with how many (a :class:`BaseFrame` key part)."""
        return tuple(sorted((place, n) for place, n in self.hidden.items() if n))

    def reveals_key(self) -> tuple:
        """The cards turning face up now, each with its face and width of the moment (a
        :class:`BaseFrame` key part: a card mid-turn changes the base frame)."""
        reveals = []
        for place, rev in self.reveals.items():
            shown = rev.face_at(self.t)
            reveals.append((place, Same(shown[0]) if shown else None, round(shown[1], 3) if shown else None,
                            rev.private))
        return tuple(sorted(reveals, key=repr))

    def marks(self, surf: pygame.Surface, place: tuple[str, int], rect: pygame.Rect) -> None:
        """Selection outlines on a place: picked (gold), keyboard cursor (blue), mouse
        hover on an offered place (white), offered (breathing white)."""
        th = max(3, rect.w // 16)
        colour = None
        if place in self.picked:
            colour = PICKED
        elif place in self.cursor:
            colour = CURSOR
        elif place == self.hover and place in self.offered:
            colour = (255, 255, 255)
        if colour is not None:
            g = self.art.outline(rect.w, rect.h, colour, th)
            surf.blit(g, g.get_rect(center=rect.center))
        elif place in self.offered:
            g = self.art.outline(rect.w, rect.h, OFFERED, th)
            base, swing = self.offered_alpha
            g.set_alpha(int(base + swing * self.pulse))
            surf.blit(g, g.get_rect(center=rect.center))
            g.set_alpha(255)  # (None would make the cached outline opaque: per-pixel alpha lost)
