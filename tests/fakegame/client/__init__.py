"""Fake Snap on the client: a table built on the generic table kit only.

One module, no strings, no card faces of its own (the kit draws a plain face): the
piles and the hands as simple rects, the window's keys, stamping and time bar from
:class:`client.table.reactions.ReactionTableScene`. :func:`register` adds it to the
client registry (``client.games.register``); nothing outside the fake game's folders
names it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import pygame

from client.gamedef import ClientGame
from client.narrate import GOOD, INFO, NOTE, subject
from client.table import draw as kit
from client.table.layout import card_size
from client.table.reactions import ReactionTableScene
from client.ui.widgets import button, call

NAME = "fake_snap"
Place = tuple[str, int]


@dataclass
class FakeLayout:
    """Every rect of the table (px): the piles in the middle, each seat's hand in a row."""

    size: tuple[int, int]
    draw_pile: pygame.Rect
    discard: pygame.Rect
    hands: dict[int, pygame.Rect]  # seat -> the row of its hand
    cards: dict[Place, pygame.Rect] = field(default_factory=dict)  # ("card", id) / ("back", seat*10+i)
    banner: pygame.Rect = field(default_factory=pygame.Rect)
    actions: pygame.Rect = field(default_factory=pygame.Rect)
    info: pygame.Rect = field(default_factory=pygame.Rect)

    def hit(self, pos: tuple[int, int]) -> Place | None:
        for place, r in self.cards.items():
            if r.collidepoint(pos):
                return place
        if self.draw_pile.collidepoint(pos):
            return ("draw_pile", 0)
        return None


def fake_layout(view: Mapping[str, Any], size: tuple[int, int], perspective: int | None) -> FakeLayout:
    w, h = size
    n = int(view.get("seats", 2))
    cw, ch = card_size(h * 0.18)
    me = perspective or 0
    lay = FakeLayout(size, pygame.Rect(w // 2 - cw - 10, h // 2 - ch // 2, cw, ch),
                     pygame.Rect(w // 2 + 10, h // 2 - ch // 2, cw, ch), {})
    for k in range(n):
        p = (me + k) % n
        y = h - ch - int(h * 0.2) if k == 0 else int(h * 0.05) + (k - 1) * (ch // 3)
        x = int(w * 0.3) + (k - 1) * int(w * 0.2) if k else w // 2 - cw
        row = pygame.Rect(x, y, 2 * cw + 10, ch)
        lay.hands[p] = row
        player = view["players"][p]
        cards = player.get("hand") or [None] * int(player.get("hand_count", 0))
        for i, c in enumerate(cards):
            r = pygame.Rect(row.x + i * (cw + 10), row.y, cw, ch)
            lay.cards[("card", c["id"]) if c else ("back", p * 10 + i)] = r
    lay.banner = pygame.Rect(int(w * 0.25), h - int(h * 0.18), int(w * 0.5), int(h * 0.06))
    lay.actions = pygame.Rect(int(w * 0.8), int(h * 0.6), int(w * 0.18), int(h * 0.35))
    lay.info = pygame.Rect(int(w * 0.02), int(h * 0.6), int(w * 0.2), int(h * 0.35))
    return lay


class Controls:
    """The banner's prompt and the buttons (pass) from ``legal``."""

    @staticmethod
    def prompt(sc: Any) -> tuple[str, str, bool]:
        w = sc.window
        if w and any(s in w.get("pending", []) for s in sc.local_seats):
            return (f"Snap a {w.get('value', '?')}!", "", True)
        return ("", "", False)

    @staticmethod
    def button_specs(sc: Any) -> list[tuple]:
        out = []
        for seat in sorted(sc.local_seats):
            for a in sc.legal.get(seat, []):
                if a.get("type") in ("flip", "fake_snap_pass"):
                    out.append((f"{seat}:{a['type']}", a["type"], a, seat))
        return out


class FakeSnapTable(ReactionTableScene):
    controls = Controls
    claim_types = ("fake_snap_claim",)
    pass_types = ("fake_snap_pass",)
    claim_field = "card"
    card_place = "card"

    def __init__(self, app: Any, link: Any, started: dict[str, Any], binding: Any = None):
        super().__init__(app, link, started, binding)
        self.motion.sync(self.card_rects())
        self._window_on_screen()
        self._refresh()

    def _layout(self) -> FakeLayout:
        return fake_layout(self.view, self.table_size, self.perspective)

    def card_rects(self) -> Mapping[Place, pygame.Rect]:
        return self.layout.cards

    def own_cards(self, seat: int) -> list[int]:
        hand = self.seat_views.get(seat, {}).get("players", [{}] * (seat + 1))[seat].get("hand") or []
        return [c["id"] for c in hand]

    def _narrate(self, ev: dict[str, Any]):
        kind, who, _mine = subject(ev, self.roster.seat_name, self.local_seats)
        if kind == "flip":
            return (f"{who} flips a {ev.get('card', {}).get('value')}", INFO, "flip")
        if kind == "snap":
            return (f"{who} snaps" + ("!" if ev.get("success") else " wrong"), GOOD if ev.get("success") else NOTE, None)
        return None

    def _fx(self, prev_view: dict[str, Any], old: Any) -> Callable[[dict[str, Any]], None]:
        def animate(ev: dict[str, Any]) -> None:
            if ev.get("type") == "window_opened":
                self.window_seen(ev["window"], self.t)  # no animation: shown at once
        return animate

    def _window_on_screen(self) -> None:
        w = self.window
        if w and w.get("window") not in self.window_face_t:
            self.window_seen(w["window"], self.t)

    def _after_update(self) -> None:
        self._window_on_screen()

    def _buttons_key(self, specs: list[tuple]) -> tuple:
        return tuple(s[0] for s in specs)

    def _button(self, spec: tuple, rect: pygame.Rect) -> Any:
        ident, label, action, seat = spec
        return button(self, rect, label, raw=True, command=call(self.send, seat, action))

    def click(self, pick: Place, seat: int | None = None) -> None:
        if pick[0] == "draw_pile":
            for s in self.local_seats:
                if any(a.get("type") == "flip" for a in self.legal.get(s, [])):
                    self.send(s, {"type": "flip"})

    def draw_table(self, surface: pygame.Surface) -> None:
        lay = self.layout
        surface.fill(kit.FELT)
        pygame.draw.rect(surface, kit.GOLD, lay.draw_pile, 2)
        kit.count_badge(surface, lay.draw_pile, int(self.view.get("draw_pile", 0)))
        discard = self.view.get("discard") or []
        if discard:
            surface.blit(self.art.face(discard[-1], lay.discard.w, lay.discard.h), lay.discard.topleft)
        for place, r in lay.cards.items():
            x, y = self.motion.card_pos(place, r)
            card = next((c for p in self.view["players"] for c in p.get("hand") or [] if ("card", c["id"]) == place), None)
            surface.blit(self.art.surface(card, r.w, r.h), (int(x), int(y)))
            if place in self.cursor_picks:
                pygame.draw.rect(surface, kit.CURSOR, r, 3)
        kit.banner(surface, lay.banner, self.prompt, self.t)
        kit.window_bar(surface, lay.banner, self.window_left())
        kit.draw_messages(surface, lay.info, self.column.visible(), max(12, lay.size[1] // 50))


GAME = ClientGame(name=NAME, table_scene=FakeSnapTable)


def register() -> ClientGame:
    """Add Fake Snap to the client registry (``client.games.register``)."""
    from client import games

    return games.register(GAME)


def unregister() -> None:
    from client import games

    games.unregister(NAME)
