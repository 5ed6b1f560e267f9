"""The rules help: one page per game, from the game's help provider
(:attr:`client.gamedef.ClientGame.help`, a list of :class:`~client.gamedef.HelpSection`).

Reached from the main menu (Rules) and from a table (F1 or H, or its Rules button). A row
of tabs at the top switches game (also Left/Right); the page scrolls with the mouse
wheel, Up/Down, Page Up/Page Down, Home/End. Esc, F1 or the Back button close it. Each
section is a title, a few paragraphs and its cards, drawn with the game's real card art
(:meth:`client.cards.CardArt.face`), each card beside its name and what it does.

Everything is laid out for the window's width; the page is painted once per (game,
language, size) and blitted with the scroll offset.
"""
from __future__ import annotations

from typing import Any

import pygame

from client import felt, games, i18n, text
from client.gamedef import HelpSection
from client.i18n import tr
from client.ui.scene import Scene
from client.ui.widgets import button, call, fitted, label

GOLD = (240, 207, 121)
CREAM = (243, 232, 207)
DIM = (190, 178, 156)
PANEL = (16, 10, 8, 215)
EDGE = (150, 120, 70)


def help_games() -> list[str]:
    """Wire names of the games that have a rules help, in the rules' registry order
    (then any other registered game)."""
    order = [n for n, _d in games.hostable()] + [n for n in games.GAMES if n not in dict(games.hostable())]
    return [n for n in order if games.GAMES.get(n) is not None and games.GAMES[n].help is not None]


def sections_of(name: str) -> list[HelpSection]:
    game = games.get(name)
    if game is None or game.help is None:
        return []
    return list(game.help())


class HelpScene(Scene):
    """The rules of ``game`` (a wire name; None: the first game with help)."""

    def __init__(self, app: Any, game: str | None = None):
        super().__init__(app)
        self.names = help_games()
        self.game = game if game in self.names else (self.names[0] if self.names else None)
        self.scroll = 0
        self._page: tuple[tuple, pygame.Surface] | None = None
        self.tabs: dict[str, Any] = {}
        self.b_back: Any = None

    # -- geometry -----------------------------------------------------------------------
    def content_rect(self) -> pygame.Rect:
        """Where the page is shown (px)."""
        w, h = self.app.size
        s = self.app.ui_scale
        top = int(h * 0.085) + int(40 * s) + int(10 * s)
        bottom = h - int(56 * s)
        margin = max(12, int(w * 0.04))
        return pygame.Rect(margin, top, w - 2 * margin, bottom - top)

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        s = self.app.ui_scale
        self.tabs = {}
        n = max(1, len(self.names))
        gap = int(8 * s)
        tw = min(int(230 * s), (int(w * 0.92) - gap * (n - 1)) // n)
        th = int(36 * s)
        x = (w - (tw * n + gap * (n - 1))) // 2
        y = int(h * 0.085)
        for name in self.names:
            title, cls = fitted(games.title(name), tw, s)
            b = button(self, pygame.Rect(x, y, tw, th), title, raw=True,
                       object_id="#primary" if name == self.game else None, class_id=cls,
                       command=call(self.select, name))
            self.tabs[name] = b
            x += tw + gap
        bw, bh = int(170 * s), int(38 * s)
        self.b_back = button(self, pygame.Rect(w - bw - int(16 * s), h - bh - int(10 * s), bw, bh), "help.back",
                             command=self.close)
        hint_w = w - bw - int(48 * s)
        hint = tr("help.keys")
        fs = max(10, round(15 * s))
        hint = text.elide(hint, hint_w - 8, fs)
        label(self, pygame.Rect(int(16 * s), h - bh - int(10 * s), hint_w, bh), hint, object_id="#hint", raw=True)

    # -- actions ------------------------------------------------------------------------
    def select(self, name: str) -> None:
        if name != self.game and name in self.names:
            self.game = name
            self.scroll = 0
            self.rebuild()

    def step_game(self, d: int) -> None:
        if self.names and self.game in self.names:
            self.select(self.names[(self.names.index(self.game) + d) % len(self.names)])

    def close(self) -> None:
        if self.app.scenes and self.app.top is self:
            self.app.pop()

    def view_rect(self) -> pygame.Rect:
        """The part of the content box the page is shown in (px)."""
        return self.content_rect().inflate(-8, -8)

    def scroll_by(self, dy: int) -> None:
        inner = self.view_rect()
        page = self.page(inner.w - 12)
        self.scroll = max(0, min(self.scroll + int(dy), max(0, page.get_height() - inner.h)))

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        box = self.content_rect()
        line = max(16, int(self.app.size[1] * 0.05))
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_by(-event.y * line * 2)
        elif event.type == pygame.KEYDOWN:
            k = event.key
            if k in (pygame.K_ESCAPE, pygame.K_F1, pygame.K_BACKSPACE):
                self.close()
            elif k == pygame.K_DOWN:
                self.scroll_by(line)
            elif k == pygame.K_UP:
                self.scroll_by(-line)
            elif k in (pygame.K_PAGEDOWN, pygame.K_SPACE):
                self.scroll_by(int(box.h * 0.85))
            elif k == pygame.K_PAGEUP:
                self.scroll_by(-int(box.h * 0.85))
            elif k == pygame.K_HOME:
                self.scroll = 0
            elif k == pygame.K_END:
                self.scroll_by(10 ** 6)
            elif k in (pygame.K_RIGHT, pygame.K_TAB):
                self.step_game(1)
            elif k == pygame.K_LEFT:
                self.step_game(-1)

    # -- the page -----------------------------------------------------------------------
    def sizes(self) -> tuple[int, int, int, int]:
        """(body font, title font, card width, card height) px for this window."""
        w, h = self.app.size
        fs = max(13, int(min(h * 0.026, w * 0.0155)))
        hs = max(16, int(fs * 1.4))
        ch = max(70, int(min(h * 0.17, w * 0.12)))
        return fs, hs, int(ch * 5 / 7), ch

    def page(self, width: int) -> pygame.Surface:
        """The whole page of the current game, ``width`` px wide (cached)."""
        key = (self.game, i18n.current(), width, self.app.size, text.cache_epoch(),
               getattr(self.app.art, "colour_blind", False))
        if self._page is not None and self._page[0] == key:
            return self._page[1]
        surf = self.paint(width)
        self._page = (key, surf)
        return surf

    def layout(self, width: int) -> list[tuple[str, Any, pygame.Rect]]:
        """What the page is made of: ``(kind, what, rect)`` with kind ``"title"``,
        ``"text"`` (one line: its string and font size), ``"card"`` (a card dict) or
        ``"card_title"``; rects are page pixels."""
        fs, hs, cw, ch = self.sizes()
        pad = max(8, fs)
        inner = width - 2 * pad
        out: list[tuple[str, Any, pygame.Rect]] = []
        y = pad
        sections = sections_of(self.game) if self.game else []
        if not sections:
            for line in text.wrap(tr("help.none"), inner, fs):
                out.append(("text", (line, fs), pygame.Rect(pad, y, inner, int(fs * 1.35))))
                y += int(fs * 1.35)
        for sec in sections:
            for line in text.wrap(sec.title, inner, hs, bold=True):
                out.append(("title", (line, hs), pygame.Rect(pad, y, inner, int(hs * 1.3))))
                y += int(hs * 1.3)
            y += fs // 3
            for para in [p for p in sec.body.split("\n") if p.strip()]:
                for line in text.wrap(para, inner, fs):
                    out.append(("text", (line, fs), pygame.Rect(pad, y, inner, int(fs * 1.35))))
                    y += int(fs * 1.35)
                y += fs // 2
            if sec.cards:
                gap = max(6, cw // 6)
                cols = max(1, min(len(sec.cards), (inner + gap) // (cw * 4 + gap)))
                iw = (inner - gap * (cols - 1)) // cols
                tw = iw - cw - gap
                row_h = 0
                for i, hc in enumerate(sec.cards):
                    col = i % cols
                    if col == 0 and i:
                        y += row_h + gap
                        row_h = 0
                    x = pad + col * (iw + gap)
                    out.append(("card", hc.card, pygame.Rect(x, y, cw, ch)))
                    ty = y
                    for line in text.wrap(hc.title, tw, fs, bold=True):
                        out.append(("card_title", (line, fs), pygame.Rect(x + cw + gap, ty, tw, int(fs * 1.3))))
                        ty += int(fs * 1.3)
                    for line in text.wrap(hc.text, tw, fs) if hc.text else []:
                        out.append(("text", (line, fs), pygame.Rect(x + cw + gap, ty, tw, int(fs * 1.3))))
                        ty += int(fs * 1.3)
                    row_h = max(row_h, ch, ty - y)
                y += row_h + gap
            y += hs
        return out

    def paint(self, width: int) -> pygame.Surface:
        items = self.layout(width)
        height = max([r.bottom for _k, _w, r in items] or [0]) + 16
        surf = pygame.Surface((width, max(1, height)), pygame.SRCALPHA)
        for kind, what, r in items:
            if kind == "card":
                surf.blit(self.app.art.face(what, r.w, r.h), r.topleft)
            else:
                line, size = what
                colour, bold = {"title": (GOLD, True), "card_title": (GOLD, True)}.get(kind, (CREAM, False))
                surf.blit(text.render(line, size, colour, bold=bold), r.topleft)
        return surf

    # -- frame --------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(felt.menu_surface(w, h), (0, 0))
        title = tr("help.title", game=games.title(self.game)) if self.game else tr("help.button")
        size = text.fit_size(title, int(w * 0.9), max(18, int(h * 0.05)), bold=True)
        img = text.render(title, size, GOLD, bold=True, shadow=True)
        surface.blit(img, img.get_rect(midtop=(w // 2, int(h * 0.012))))
        box = self.content_rect()
        veil = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(veil, PANEL, veil.get_rect(), border_radius=max(6, box.h // 60))
        surface.blit(veil, box.topleft)
        pygame.draw.rect(surface, EDGE, box, 1, border_radius=max(6, box.h // 60))
        inner = self.view_rect()
        page = self.page(inner.w - 12)
        self.scroll = max(0, min(self.scroll, max(0, page.get_height() - inner.h)))
        surface.blit(page, inner.topleft, pygame.Rect(0, self.scroll, inner.w - 12, inner.h))
        if page.get_height() > inner.h:  # the scroll bar
            frac = inner.h / page.get_height()
            bar_h = max(20, int(inner.h * frac))
            top = inner.y + int((inner.h - bar_h) * self.scroll / max(1, page.get_height() - inner.h))
            pygame.draw.rect(surface, (70, 55, 40), (inner.right - 6, inner.y, 5, inner.h), border_radius=3)
            pygame.draw.rect(surface, GOLD, (inner.right - 6, top, 5, bar_h), border_radius=3)
