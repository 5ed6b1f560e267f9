"""What the results boards of every game share (each game's ``results`` module in
``client/games/<game>/``): drawn over the table with a veil that fades in
and a gold-framed box, a main button at the box's bottom right, a way back to the menu
(which leaves the table) and a clock in seconds, so keys pressed at the last moment of
play do not dismiss the board; each player's median snap reaction
(:meth:`ResultsOverlay.reaction_text`, a column or :meth:`ResultsOverlay.draw_reactions`,
a line) for the games with reaction windows."""
from __future__ import annotations

from typing import Any

import pygame

from client import text
from client.i18n import tr
from client.ui.scene import Scene
from client.ui.widgets import centred

CREAM = (243, 232, 207)
GOLD = (240, 207, 121)
DIM = (190, 178, 156)


class ResultsOverlay(Scene):
    overlay = True
    #: The box's width, a fraction of the window's (its height is 86 %).
    width_frac = 0.86

    def __init__(self, app: Any, table: Any):
        super().__init__(app)
        self.table = table
        self.t = 0.0  # seconds shown

    def box(self) -> pygame.Rect:
        return centred(self.app.size, self.width_frac, 0.86)

    def main_button(self) -> pygame.Rect:
        """Where the main button goes: the box's bottom-right corner."""
        b = self.box()
        s = self.app.ui_scale
        r = pygame.Rect(0, 0, int(240 * s), int(50 * s))
        r.bottomright = (b.right - int(24 * s), b.bottom - int(18 * s))
        return r

    def to_menu(self) -> None:
        self.table.leave_table()

    def update(self, dt: float) -> None:
        self.t += dt

    # -- reactions (games with reaction windows) ------------------------------------------
    def reaction_of(self, seat: int) -> float | None:
        """``seat``'s median snap reaction (ms) this match, None if it never claimed (or
        the table has no reaction windows)."""
        median_reaction = getattr(self.table, "median_reaction", None)
        return median_reaction(seat) if median_reaction is not None else None

    def reaction_text(self, seat: int) -> str:
        """``"231 ms"`` or ``"—"``."""
        from client.table.race import ms_text

        v = self.reaction_of(seat)
        return tr("results.reaction_ms", ms=ms_text(v)) if v is not None else "—"

    def draw_reactions(self, surface: pygame.Surface, rect: pygame.Rect, size: int,
                       seats: list[int] | None = None) -> pygame.Rect | None:
        """One line centred in ``rect``: "Median snap reaction: Lena 231 ms · Marc —"
        (nothing when nobody claimed). Returns the line's rect."""
        seats = list(range(int(self.table.view.get("seats", 0) or 0))) if seats is None else seats
        if not any(self.reaction_of(p) is not None for p in seats):
            return None
        parts = " · ".join(f"{self.table.seat_name(p)} {self.reaction_text(p)}" for p in seats)
        line = tr("results.reactions", list=parts)
        img = text.render(line, text.fit_size(line, rect.w, size), CREAM)
        r = img.get_rect(center=rect.center)
        surface.blit(img, r)
        return r

    def draw_box(self, surface: pygame.Surface) -> pygame.Rect:
        """The veil over the table and the empty box; returns the box."""
        w, h = surface.get_size()
        veil = pygame.Surface((w, h), pygame.SRCALPHA)
        veil.fill((0, 0, 0, int(min(1.0, self.t * 4) * 170)))
        surface.blit(veil, (0, 0))
        b = self.box()
        pygame.draw.rect(surface, (22, 15, 13), b, border_radius=b.h // 30)
        pygame.draw.rect(surface, GOLD, b, 3, border_radius=b.h // 30)
        return b


def band(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The faint light band behind every other row."""
    s = pygame.Surface(rect.size, pygame.SRCALPHA)
    s.fill((255, 255, 255, 12))
    surface.blit(s, rect.topleft)
