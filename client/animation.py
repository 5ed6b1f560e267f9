"""Animated effects on the card table, driven by game events.

An :class:`Effect` lives between ``t0`` and ``t1`` (ms, scene clock), draws itself on
top of the table, and may *hide* a place of the table (``("slot", id)``, ``("hand",
seat)``, ``("discard", 0)``...) until it is over -- a card flying to a slot hides the
slot's card until it lands, so the table never shows a card twice. The table itself is
always drawn from the server's latest view; effects only decorate it, nothing waits for
them, and :meth:`Animator.finish` skips them all (on resize).

Effects are plain data plus ``draw``; drawing never changes them.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

import pygame

from client import tween
from client.cards import CardArt
from shared.showing import MAX_BACKLOG_MS

Place = tuple[str, int]
Card = Mapping[str, Any] | None


def event_animator(handlers: Mapping[str, Callable[[Any, Mapping[str, Any]], None]]
                   ) -> Callable[[Any, Mapping[str, Any]], None]:
    """A game's ``animate(ctx, ev)`` from its handlers, one per event type
    (``_on_<type>``): it queues one event's animation; an event of another type animates
    nothing."""

    def animate(ctx: Any, ev: Mapping[str, Any]) -> None:
        """Queue the animation of one event."""
        handler = handlers.get(ev.get("type"))  # type: ignore[arg-type]
        if handler is not None:
            handler(ctx, ev)

    return animate


@dataclass
class Effect:
    t0: float
    t1: float

    def active(self, t: float) -> bool:
        return self.t0 <= t < self.t1

    def pending(self, t: float) -> bool:
        return t < self.t1

    def hides(self, t: float) -> Iterable[Place]:
        return ()

    def offset(self, place: Place, t: float) -> tuple[float, float]:
        """Extra displacement (px) this effect gives to a place of the table."""
        return (0.0, 0.0)

    def draw(self, surf: pygame.Surface, art: CardArt, t: float) -> None:
        pass

    def bounds(self, t: float, art: CardArt) -> list[pygame.Rect] | None:
        """The screen rects (px) :meth:`draw` paints at scene time ``t`` (ms), shadows
        and glows included, for redrawing only what changed (``[]``: nothing painted);
        None when unknown (the whole frame is then repainted). An effect that changes
        the table itself (hides, moves or turns one of its places) changes the table's
        base frame, which is repainted anyway."""
        return None


def _around(cx: float, cy: float, w: float, h: float) -> pygame.Rect:
    r = pygame.Rect(0, 0, int(w) + 2, int(h) + 2)
    r.center = (int(cx), int(cy))
    return r


@dataclass
class Flight(Effect):
    """A card moving from ``src`` to ``dst`` (rects, px), optionally flipping.

    ``face_a`` is shown at the start and ``face_b`` at the end (None = back); when they
    differ the card turns over during the ``flip_at`` part of the flight (scale-x squash
    through the edge). ``lift`` bows the path upwards (px). ``hide_dst`` is hidden from
    the moment the effect is created until the card lands.
    """

    src: pygame.Rect = field(default_factory=pygame.Rect)
    dst: pygame.Rect = field(default_factory=pygame.Rect)
    face_a: Card = None
    face_b: Card = None
    lift: float = 0.0
    easing: Any = tween.ease_in_out_cubic
    hide_dst: Place | None = None
    flip_at: tuple[float, float] = (0.0, 1.0)  # fraction of the flight where the flip runs
    glow: tuple[int, int, int] | None = None
    spin: float = 0.0  # degrees of rotation at mid-flight (a toss)
    early: bool = True  # before t0 the card waits at ``src`` (drawn there, face_a)

    def hides(self, t: float) -> Iterable[Place]:
        if self.hide_dst is not None and t < self.t1:
            yield self.hide_dst

    def draw(self, surf: pygame.Surface, art: CardArt, t: float) -> None:
        if t < self.t0:
            if self.early:
                surf.blit(art.surface(self.face_a, self.src.w, self.src.h), self.src.topleft)
            return
        p = tween.progress(t, self.t0, self.t1 - self.t0)
        e = self.easing(p)
        cx, cy = tween.arc_point(self.src.center, self.dst.center, e, self.lift)
        face = self.face_b
        scale = 1.0
        if self.face_a != self.face_b:
            a, b = self.flip_at
            fp = tween.progress(p, a, b - a) if b > a else 1.0
            scale, up = tween.flip_scale(fp)
            face = self.face_b if up else self.face_a
        # cards are rendered at the destination size only (cached); in-between sizes and
        # flip frames are plain scales of it, so a flight never renders a new card
        dw, dh = self.dst.w, self.dst.h
        w = max(1, int(tween.lerp(self.src.w, dw, e) * scale))
        h = max(1, int(tween.lerp(self.src.h, dh, e)))
        base = art.surface(face, dw, dh)
        img = base if (w, h) == (dw, dh) else pygame.transform.scale(base, (w, h))
        if self.spin:
            img = pygame.transform.rotate(img, self.spin * math.sin(math.pi * p))
        sh = art.shadow(dw, dh)
        lift_px = 6 + 14 * math.sin(math.pi * p)
        surf.blit(sh, sh.get_rect(center=(int(cx + lift_px * 0.5), int(cy + lift_px))))
        if self.glow is not None:
            g = art.outline(dw, dh, self.glow, max(3, dw // 16))
            surf.blit(g, g.get_rect(center=(int(cx), int(cy))))
        surf.blit(img, img.get_rect(center=(int(cx), int(cy))))

    def bounds(self, t: float, art: CardArt) -> list[pygame.Rect] | None:
        """What :meth:`draw` covers at ``t``: the card at its size of the moment (turned:
        its diagonal), its shadow offset by the lift, its glow."""
        if t < self.t0:
            return [pygame.Rect(self.src)] if self.early else []
        p = tween.progress(t, self.t0, self.t1 - self.t0)
        e = self.easing(p)
        cx, cy = tween.arc_point(self.src.center, self.dst.center, e, self.lift)
        dw, dh = self.dst.w, self.dst.h
        w, h = tween.lerp(self.src.w, dw, e), tween.lerp(self.src.h, dh, e)
        if self.spin:
            w = h = math.hypot(max(w, dw), max(h, dh))
        box = _around(cx, cy, w, h)
        lift_px = 6 + 14 * math.sin(math.pi * p)
        box.union_ip(art.shadow(dw, dh).get_rect(center=(int(cx + lift_px * 0.5), int(cy + lift_px))))
        if self.glow is not None:
            box.union_ip(art.outline(dw, dh, self.glow, max(3, dw // 16)).get_rect(center=(int(cx), int(cy))))
        return [box.inflate(4, 4)]


@dataclass
class Nudge(Effect):
    """A place of the table displaced while the effect runs (the card itself is drawn
    by the table, moved by :meth:`offset`); :meth:`shift` says by how much at progress
    ``p`` (0..1)."""

    place: Place = ("slot", -1)

    def offset(self, place: Place, t: float) -> tuple[float, float]:
        if place != self.place or not self.active(t):
            return (0.0, 0.0)
        return self.shift(tween.progress(t, self.t0, self.t1 - self.t0))

    def shift(self, p: float) -> tuple[float, float]:
        return (0.0, 0.0)

    def bounds(self, t: float, art: CardArt) -> list[pygame.Rect] | None:
        return []  # the table draws the displaced place (its base frame changes)


@dataclass
class Shake(Nudge):
    """A place shaking sideways (a wrong snap bounced back), ``amp`` px."""

    amp: float = 10.0

    def shift(self, p: float) -> tuple[float, float]:
        return (self.amp * (1 - p) * math.sin(p * math.pi * 8), 0.0)


@dataclass
class Lift(Nudge):
    """A place lifted up then put back (a player peeking at a card), ``height`` px."""

    height: float = 12.0

    def shift(self, p: float) -> tuple[float, float]:
        up = tween.ease_out_quad(min(1.0, p * 5)) * tween.ease_out_quad(min(1.0, (1 - p) * 5))
        return (0.0, -self.height * up)


@dataclass
class Reveal(Effect):
    """A card of the table shown face up between ``t0`` and ``t1``: it flips up during
    the first ``flip_ms`` and back down during the last ``flip_ms``. ``private``
    reveals (your peek) are drawn with a gold glow so you know only you see them."""

    place: Place = ("slot", -1)
    card: Card = None
    flip_ms: float = 220.0
    private: bool = False

    def face_at(self, t: float) -> tuple[Card, float] | None:
        """(card or None for the back, x-scale) at ``t``, None when not revealing."""
        if not self.active(t):
            return None
        if t < self.t0 + self.flip_ms:
            scale, up = tween.flip_scale(tween.progress(t, self.t0, self.flip_ms))
            return (self.card if up else None, scale)
        if t > self.t1 - self.flip_ms:
            scale, up = tween.flip_scale(tween.progress(t, self.t1 - self.flip_ms, self.flip_ms))
            return (None if up else self.card, scale)
        return (self.card, 1.0)

    def bounds(self, t: float, art: CardArt) -> list[pygame.Rect] | None:
        return []  # the table draws the turning card (its base frame changes)


@dataclass
class Shuffle(Effect):
    """The cards of a player's game gathering and spreading again (a Lady)."""

    places: tuple[Place, ...] = ()
    centre: tuple[float, float] = (0.0, 0.0)
    rects: tuple[pygame.Rect, ...] = ()

    def hides(self, t: float) -> Iterable[Place]:
        if self.active(t):
            yield from self.places

    def draw(self, surf: pygame.Surface, art: CardArt, t: float) -> None:
        if not self.active(t):
            return
        p = tween.progress(t, self.t0, self.t1 - self.t0)
        gather = math.sin(math.pi * p)  # 0 -> 1 -> 0
        n = len(self.rects)
        for i, r in enumerate(self.rects):
            ang = 2 * math.pi * (i / max(1, n) + p)
            cx = tween.lerp(r.centerx, self.centre[0] + 0.25 * r.w * math.cos(ang), gather)
            cy = tween.lerp(r.centery, self.centre[1] + 0.15 * r.h * math.sin(ang), gather)
            img = art.back(r.w, r.h)
            surf.blit(img, img.get_rect(center=(int(cx), int(cy))))

    def bounds(self, t: float, art: CardArt) -> list[pygame.Rect] | None:
        if not self.active(t) or not self.rects:
            return []
        box = pygame.Rect(self.rects[0]).unionall([pygame.Rect(r) for r in self.rects[1:]])
        return [box.union(_around(*self.centre, box.w, box.h)).inflate(8, 8)]


@dataclass
class Banner(Effect):
    """A big word across the table (``"SNAP!"``...) that pops and fades."""

    text: str = ""
    colour: tuple[int, int, int] = (255, 210, 90)
    centre: tuple[float, float] = (0.0, 0.0)
    size: int = 80
    #: What the word is about ("turn"...): a newer one of the same tag replaces it
    #: (:meth:`Animator.supersede`); "" for none.
    tag: str = ""

    def draw(self, surf: pygame.Surface, art: CardArt, t: float) -> None:
        if not self.active(t):
            return
        from client import text as txt
        p = tween.progress(t, self.t0, self.t1 - self.t0)
        scale = tween.ease_out_back(min(1.0, p * 4))
        alpha = 255 if p < 0.7 else int(255 * (1 - (p - 0.7) / 0.3))
        img = txt.render(self.text, self.size, self.colour, bold=True, shadow=True)
        if scale != 1.0:
            img = pygame.transform.smoothscale_by(img, max(0.05, scale))
        img.set_alpha(alpha)
        surf.blit(img, img.get_rect(center=(int(self.centre[0]), int(self.centre[1]))))

    def bounds(self, t: float, art: CardArt) -> list[pygame.Rect] | None:
        if not self.active(t):
            return []
        from client import text as txt
        w, h = txt.render(self.text, self.size, self.colour, bold=True, shadow=True).get_size()
        return [_around(self.centre[0], self.centre[1], w * 1.2, h * 1.2)]  # ease_out_back overshoots ~10 %


class Animator:
    """The running effects. Times are the scene clock in ms."""

    def __init__(self) -> None:
        self.effects: list[Effect] = []
        self.cursor = 0.0  # when the next queued event animation may start

    def add(self, effect: Effect) -> Effect:
        self.effects.append(effect)
        return effect

    def prune(self, t: float) -> None:
        self.effects = [e for e in self.effects if e.pending(t)]

    def supersede(self, tag: str) -> None:
        """Drop the banners tagged ``tag`` that have not ended: what they announce is
        out of date (a "to play" word queued behind other effects whose turn moved on
        would show on a plate that is no longer playing)."""
        self.effects = [e for e in self.effects if not (isinstance(e, Banner) and e.tag == tag)]

    def finish(self) -> None:
        """Drop every effect (the table then shows the server's view at once)."""
        self.effects.clear()
        self.cursor = 0.0

    def busy(self, t: float) -> bool:
        return any(e.pending(t) for e in self.effects)

    def hidden(self, t: float) -> Counter:
        """How many effects hide each place (several cards may be flying to the
        discard pile at once)."""
        return self.index(t)[0]

    def index(self, t: float) -> tuple[Counter, dict[Place, tuple[float, float]], dict[Place, "Reveal"]]:
        """One pass over the effects for a frame: ``(hidden, offsets, reveals)`` --
        how many effects hide each place, the total displacement of displaced places,
        and the active reveal of each revealed place."""
        hidden: Counter = Counter()
        offsets: dict[Place, tuple[float, float]] = {}
        reveals: dict[Place, Reveal] = {}
        for e in self.effects:
            hidden.update(e.hides(t))
            if isinstance(e, Nudge) and e.active(t):
                ox, oy = e.offset(e.place, t)
                px, py = offsets.get(e.place, (0.0, 0.0))
                offsets[e.place] = (px + ox, py + oy)
            elif isinstance(e, Reveal) and e.active(t):
                reveals[e.place] = e
        return hidden, offsets, reveals

    def slot(self, t: float, duration: float, max_backlog: float = MAX_BACKLOG_MS, urgent: bool = False) -> float:
        """Start time for the next event's animation: after the previous one, but never
        more than ``max_backlog`` ms behind the present (a burst of events speeds up);
        ``urgent`` (your own move) starts now, alongside whatever is still running. The
        server's bots follow the same queue (:class:`shared.showing.Stage`)."""
        if urgent:
            self.cursor = max(self.cursor, t + duration)
            return t
        start = max(t, min(self.cursor, t + max_backlog))
        self.cursor = start + duration
        return start

    def bounds(self, t: float, art: CardArt) -> list[pygame.Rect] | None:
        """Every rect (px) :meth:`draw` paints at ``t`` (ms); None when an effect does
        not know its own (:meth:`Effect.bounds`)."""
        rects: list[pygame.Rect] = []
        for e in self.effects:
            if not e.pending(t):
                continue
            b = e.bounds(t, art)
            if b is None:
                return None
            rects += b
        return rects

    def drawn(self, t: float) -> list[Effect]:
        """The effects :meth:`draw` paints at ``t``, in order: not the reveals (the table
        turns those cards itself), one of the cards waiting on the same pile."""
        out = []
        waiting: set[tuple] = set()
        for e in self.effects:
            if isinstance(e, Reveal):
                continue
            if isinstance(e, Flight) and t < e.t0:
                key = (tuple(e.src), None if e.face_a is None else id(e.face_a))
                if key in waiting:
                    continue
                waiting.add(key)
            out.append(e)
        return out

    def items(self, t: float, art: CardArt) -> list[tuple] | None:
        """The effects as items to paint over a table's base frame
        (``client.table.draw.TopItems``: each its rects and how to paint it, so that a
        partial redraw paints each only where it is); None when one does not know its
        rects."""
        out = []
        for e in self.drawn(t):
            if not e.pending(t):
                continue
            rects = e.bounds(t, art)
            if rects is None:
                return None
            if rects:
                out.append((rects, lambda surf, e=e: e.draw(surf, art, t)))
        return out

    def draw(self, surf: pygame.Surface, art: CardArt, t: float) -> None:
        for e in self.drawn(t):
            e.draw(surf, art, t)
