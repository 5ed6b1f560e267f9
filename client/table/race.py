"""The photo finish of a race (docs/PROTOCOL.md ``race``), for every game with reaction
windows: after each race every player sees the claimants' reaction times side by side,
``"Lena 231 ms · Marc 236 ms"``, and the winner's margin, ``"Lena first by 5 ms"``, for
:data:`RACE_MS`; the results boards show each player's median snap reaction
(``match_over.reactions``).

:class:`PhotoFinish` is the data (built from one ``race`` message, names resolved by the
table); :func:`draw_photo_finish` paints it in a rect, big enough to read from a sofa.
Nothing here names a game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import pygame

from client import text
from client.i18n import current, tr

#: How long a photo finish stays on screen (scene ms); it fades out over the last 600.
RACE_MS = 4500.0
FADE_MS = 600.0

CREAM = (243, 232, 207)
GOLD = (255, 214, 102)
RED = (255, 140, 120)
DIM = (190, 178, 156)
EDGE = (240, 207, 121)


def ms_text(ms: float) -> str:
    """A duration for the players: whole ms from 10 ms up, one decimal below (in the
    language's decimal mark: ``"0.4"`` / ``"0,4"``)."""
    v = abs(float(ms))
    s = f"{v:.0f}" if v >= 9.95 else f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return s.replace(".", ",") if current() == "fr" else s


@dataclass
class Runner:
    seat: int
    name: str
    reaction_ms: float
    outcome: str  # won | wrong | too_slow


@dataclass
class PhotoFinish:
    """One race as shown: runners by reaction time, the winner's seat and margin."""

    window: Any
    runners: list[Runner]
    winner: int | None
    margin_ms: float | None
    since: float  # scene ms it appeared
    until: float  # scene ms it goes
    #: The painted panel, once drawn: ``((area, size, screen size), surface, rect)``.
    panel: Any = field(default=None, repr=False, compare=False)

    @classmethod
    def from_message(cls, msg: Mapping[str, Any], name: Callable[[int], str], now: float,
                     duration: float = RACE_MS) -> "PhotoFinish | None":
        """The photo finish of a ``race`` message (None when it lists no valid claim)."""
        runners = []
        for c in msg.get("claims") or []:
            if not isinstance(c, Mapping):
                continue
            seat, ms = c.get("seat"), c.get("reaction_ms")
            if isinstance(seat, int) and isinstance(ms, (int, float)) and not isinstance(ms, bool):
                runners.append(Runner(seat, name(seat), float(ms), str(c.get("outcome") or "")))
        if not runners:
            return None
        runners.sort(key=lambda r: r.reaction_ms)
        winner = msg.get("winner") if isinstance(msg.get("winner"), int) else None
        margin = msg.get("margin_ms")
        margin = float(margin) if isinstance(margin, (int, float)) and not isinstance(margin, bool) else None
        return cls(msg.get("window"), runners, winner, margin, now, now + duration)

    # -- the words ------------------------------------------------------------------------
    def entries(self) -> list[tuple[str, tuple[int, int, int]]]:
        """``[("Lena 231 ms", colour), ...]`` fastest first; the winner gold, a wrong
        card red (and said), a claim that came too late dimmed."""
        out = []
        for r in self.runners:
            label = tr("race.entry", name=r.name, ms=ms_text(r.reaction_ms))
            if r.outcome == "wrong":
                out.append((tr("race.entry_wrong", entry=label), RED))
            elif r.seat == self.winner:
                out.append((label, GOLD))
            else:
                out.append((label, CREAM if r.outcome != "too_slow" else DIM))
        return out

    def line(self) -> str:
        """The reaction times side by side: ``"Lena 231 ms · Marc 236 ms"``."""
        return " · ".join(e for e, _ in self.entries())

    def verdict(self) -> str:
        """``"Lena first by 5 ms"``, ``"Lena first"`` (alone), or nobody."""
        if self.winner is None:
            return tr("race.no_winner")
        name = next((r.name for r in self.runners if r.seat == self.winner), "?")
        if self.margin_ms is None:
            return tr("race.won", name=name)
        return tr("race.won_by", name=name, ms=ms_text(self.margin_ms))

    def alpha(self, t: float) -> float:
        """1 while shown, fading to 0 over the last :data:`FADE_MS`; 0 once over."""
        if t >= self.until or t < self.since:
            return 0.0
        return max(0.0, min(1.0, (self.until - t) / FADE_MS, 1.0))


def median(values: Sequence[float]) -> float | None:
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return None
    return ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def draw_photo_finish(surf: pygame.Surface, area: pygame.Rect, race: PhotoFinish, t: float,
                      size: int) -> pygame.Rect | None:
    """Paint ``race`` centred in ``area`` (px): a small title, the reaction times side by
    side in ``size`` px bold type (down to 70 % of it; one per line when they still do
    not fit side by side, the panel then growing taller than ``area`` but staying on
    the screen), the verdict. Returns the panel's rect (None when nothing is shown)."""
    a = race.alpha(t)
    if a <= 0.0:
        return None
    key = (tuple(area), size, surf.get_size())
    cached = race.panel
    if cached is None or cached[0] != key:
        cached = race.panel = (key, *_photo_finish_panel(surf, area, race, size))
    _key, layer, box = cached
    layer.set_alpha(int(255 * a) if a < 1.0 else 255)  # (None would drop its per-pixel alpha)
    surf.blit(layer, box.topleft)
    return box


def _photo_finish_panel(surf: pygame.Surface, area: pygame.Rect, race: PhotoFinish,
                        size: int) -> tuple[pygame.Surface, pygame.Rect]:
    """The photo finish's panel (a translucent surface) and where it goes (px): painted
    once per race and size, then only faded (an animating table shows it 60 times a
    second)."""
    pad = max(6, size // 3)
    inner = area.w - 2 * pad
    entries = race.entries()
    sep = "  ·  "
    line_size = text.fit_size(sep.join(e for e, _ in entries), inner, size, bold=True, min_size=max(8, int(size * 0.7)))
    one_line = text.font(line_size, True).size(sep.join(e for e, _ in entries))[0] <= inner
    rows: list[list[tuple[str, tuple[int, int, int]]]] = [entries] if one_line else [[e] for e in entries]
    if not one_line:
        line_size = min(text.fit_size(e, inner, size, bold=True) for e, _ in entries)
    title_size = max(9, int(size * 0.55))
    verdict_size = max(10, int(size * 0.8))
    title = text.render(tr("race.title").upper(), title_size, DIM, bold=True)
    verdict = race.verdict()
    verdict_size = text.fit_size(verdict, inner, verdict_size, bold=True)
    vimg = text.render(verdict, verdict_size, GOLD if race.winner is not None else CREAM, bold=True, shadow=True)
    row_imgs = []
    for row in rows:
        parts = []
        for i, (label, colour) in enumerate(row):
            if i:
                parts.append(text.render(sep, line_size, DIM, bold=True))
            parts.append(text.render(label, line_size, colour, bold=True, shadow=True))
        row_imgs.append(parts)
    row_h = text.font(line_size, True).get_linesize()
    h = pad + title.get_height() + len(rows) * row_h + vimg.get_height() + pad + pad // 2
    w = max(max(sum(p.get_width() for p in parts) for parts in row_imgs), vimg.get_width(), title.get_width()) + 2 * pad
    box = pygame.Rect(0, 0, min(area.w, w), h)  # as tall as its lines need (several runners)
    box.center = area.center
    box.clamp_ip(surf.get_rect())
    layer = pygame.Surface(box.size, pygame.SRCALPHA)
    radius = max(6, size // 2)
    pygame.draw.rect(layer, (16, 10, 8, 225), layer.get_rect(), border_radius=radius)
    pygame.draw.rect(layer, EDGE, layer.get_rect(), max(2, size // 14), border_radius=radius)
    y = pad // 2 + pad // 3
    layer.blit(title, title.get_rect(midtop=(box.w // 2, y)))
    y += title.get_height()
    for parts in row_imgs:
        x = (box.w - sum(p.get_width() for p in parts)) // 2
        for p in parts:
            layer.blit(p, (x, y + (row_h - p.get_height()) // 2))
            x += p.get_width()
        y += row_h
    layer.blit(vimg, vimg.get_rect(midtop=(box.w // 2, y)))
    return layer, box
