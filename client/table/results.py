"""What the results boards of every game share (each game's ``results`` module in
``client/games/<game>/``): drawn over the table with a veil that fades in
and a gold-framed box, a main button at the box's bottom right, a way back to the menu
(which leaves the table) and a clock in seconds, so keys pressed at the last moment of
play do not dismiss the board; each player's median snap reaction
(:meth:`ResultsOverlay.reaction_text`, a column or :meth:`ResultsOverlay.draw_reactions`,
a line) for the games with reaction windows.

**Play again and the evening's scoreboard**, added by the kit to every
game's board once the match is over (``match_over`` came: ``table.match_result``):

* a "Play again" button (or R) left of the board's buttons sends ``rematch`` on each
  local seat's connection; the line above the buttons says who already asked
  (``Table.rematch``) and who the table waits for. When everyone asked, the server's
  ``match_started`` opens the new match like a first start
  (:meth:`client.table.ending.MatchEnd.next_match`);
* a "Scoreboard" button (or Tab) at the box's top right shows the evening's scoreboard
  (``match_over.scoreboard``: ``[{name, game, played, won}]``) over the board;
* F5-F8 send emotes as at the table.

The overlay's ``build``, ``draw``, ``handle_event`` and ``on_message`` call the board's
hooks -- :meth:`ResultsOverlay.build_board`, :meth:`~ResultsOverlay.draw_board`,
:meth:`~ResultsOverlay.board_event` and :meth:`~ResultsOverlay.board_message` -- and add
the kit's part, so a game's results module fills the hooks and needs nothing for this."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import pygame

from client import text
from client.i18n import tr
from client.ui.scene import Scene
from client.ui.widgets import centred

CREAM = (243, 232, 207)
GOLD = (240, 207, 121)
DIM = (190, 178, 156)


#: The veil over the table darkens over this long (s), up to this alpha (0-255).
VEIL_S = 0.25
VEIL_ALPHA = 170


def _veil(size: tuple[int, int], alpha: int) -> pygame.Surface:
    """Black at ``alpha`` over the whole window (one surface per size, its alpha set)."""
    veil = _black(size)
    veil.set_alpha(alpha)
    return veil


@lru_cache(maxsize=2)
def _black(size: tuple[int, int]) -> pygame.Surface:
    return pygame.Surface(size)  # black; a plain surface blended by its alpha


class ResultsOverlay(Scene):
    overlay = True
    #: The box's width, a fraction of the window's (its height is 86 %).
    width_frac = 0.86
    #: A round's results close by themselves after this long (s) on a screen nobody plays
    #: on (:meth:`auto_close_left`); None: never (a board without a next round).
    spectator_close_s: float | None = None

    def __init__(self, app: Any, table: Any):
        super().__init__(app)
        self.table = table
        #: ``match_over.result`` of the table once it came (None before).
        self.result: dict[str, Any] | None = getattr(table, "match_result", None)
        self.t = 0.0  # seconds shown
        self.show_scoreboard = False
        self.b_rematch: Any = None
        self.b_scoreboard: Any = None
        self._rematch_sig: Any = None

    def again(self, *args: Any, **kwargs: Any) -> None:
        """The table opens its board while this one is up (``args``: the constructor's
        after the table): by default it takes the match's result, once it came."""
        self.take_result()

    def take_result(self) -> None:
        """Keep the table's ``match_result`` once ``match_over`` came."""
        self.result = self.table.match_result or self.result

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
        self.table.keys.leave_table()

    # -- what the game's board fills ----------------------------------------------------
    def build_board(self, size: tuple[int, int]) -> None:
        """The board's own buttons (``size``: the window, px)."""

    def draw_board(self, surface: pygame.Surface) -> None:
        """Paint the board (usually over :meth:`draw_box`)."""

    def board_event(self, event: pygame.event.Event, t_ms: float) -> None:
        """An input event the kit did not use (``t_ms``: its client stamp)."""

    def board_message(self, msg: dict[str, Any], link: Any = None) -> None:
        """A server message while the board is up (before the kit's own handling)."""

    # -- the template: the board's part, then the kit's -----------------------------------
    def build(self, size: tuple[int, int]) -> None:
        self.build_board(size)
        self.build_rematch(size)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_board(surface)
        self.draw_rematch(surface)

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        """The kit's keys first (Play again, scoreboard, emotes): the board does not see
        what the kit used."""
        if not self.rematch_event(event, t_ms):
            self.board_event(event, t_ms)

    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        self.board_message(msg, link)
        self.rematch_message(msg, link)

    def update(self, dt: float) -> None:
        self.t += dt
        if self.auto_close_left() == 0.0 and self.app.top is self:
            self.close()

    def close(self) -> None:
        """Back to the table (a board with a next round says how)."""
        self.app.pop()

    def auto_close_left(self) -> float | None:
        """Seconds (>= 0) before these results close by themselves -- on a screen nobody
        plays on (a spectator, the TV view) the couch then sees the next round -- or None
        when they stay (a player's screen, a replay, the final results)."""
        if (self.spectator_close_s is None or getattr(self, "final", False) or self.table.links
                or getattr(self.table, "replay", False)):
            return None
        return max(0.0, self.spectator_close_s - self.t)

    def freezes_below(self) -> bool:
        """Once its veil is dark (a quarter second) the table under it is shown still,
        unless an emote badge or the reconnection veil is up on it."""
        table = self.table
        return (self.t >= VEIL_S and not table.emotes.busy() and getattr(table, "reconnecting", None) is None)

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
        parts = " · ".join(f"{self.table.roster.seat_name(p)} {self.reaction_text(p)}" for p in seats)
        line = tr("results.reactions", list=parts)
        img = text.render(line, text.fit_size(line, rect.w, size), CREAM)
        r = img.get_rect(center=rect.center)
        surface.blit(img, r)
        return r

    def draw_box(self, surface: pygame.Surface) -> pygame.Rect:
        """The veil over the table and the empty box; returns the box."""
        w, h = surface.get_size()
        surface.blit(_veil((w, h), int(min(1.0, self.t / VEIL_S) * VEIL_ALPHA)), (0, 0))
        b = self.box()
        pygame.draw.rect(surface, (22, 15, 13), b, border_radius=b.h // 30)
        pygame.draw.rect(surface, GOLD, b, 3, border_radius=b.h // 30)
        return b


    # -- play again and the evening's scoreboard -------------------------------------
    @property
    def match_done(self) -> bool:
        """The match is over (``match_over`` came) and this is a live table."""
        return getattr(self.table, "match_result", None) is not None and not getattr(self.table, "replay", False)

    def table_entry(self) -> dict[str, Any]:
        roster = getattr(self.table, "roster", None)
        return roster.table_entry() if roster is not None else {}

    def rematch_seats(self) -> list[int]:
        """The seats that asked to play again (``Table.rematch``)."""
        return [p for p in self.table_entry().get("rematch") or [] if isinstance(p, int)]

    def my_rematch_links(self) -> dict[int, Any]:
        """Local seat -> its connection (each asks for itself)."""
        return dict(getattr(self.table, "links", {}) or {})

    def asked_all(self) -> bool:
        """Every local seat asked to play again."""
        mine = self.my_rematch_links()
        return bool(mine) and set(mine) <= set(self.rematch_seats())

    def waiting_for(self) -> list[int]:
        """The human seats, connected, that have not asked yet (bots agree; away seats
        are not needed)."""
        asked = set(self.rematch_seats())
        out = []
        for e in self.table_entry().get("seats") or []:
            p = e.get("seat")
            if isinstance(p, int) and e.get("name") and not e.get("bot") and e.get("connected", True) \
                    and not e.get("away") and p not in asked:
                out.append(p)
        return out

    def rematch_line(self) -> str:
        """"Play again: Alice, Vito · Waiting for Sonny" ("" before anyone asked)."""
        asked = self.rematch_seats()
        if not asked:
            return ""
        name = self.table.roster.seat_name
        parts = [tr("rematch.asked", names=", ".join(name(p) for p in asked))]
        waiting = self.waiting_for()
        if waiting:
            parts.append(tr("rematch.waiting", names=", ".join(name(p) for p in waiting)))
        return " · ".join(parts)

    def scoreboard(self) -> list[dict[str, Any]] | None:
        board = getattr(self.table, "match_scoreboard", None)
        return board if isinstance(board, list) else None

    def build_rematch(self, size: tuple[int, int]) -> None:
        """The Play again button (left of the board's own buttons) and the Scoreboard
        button (the box's top right), once the match is over."""
        from client.ui.widgets import button, fitted

        self.b_rematch = self.b_scoreboard = None
        if not self.match_done:
            return
        s = self.app.ui_scale
        main = self.main_button()
        row = [e.rect for e in self.ui if abs(e.rect.bottom - main.bottom) < 4]
        left = min([r.left for r in row] + [main.left])
        if self.my_rematch_links():
            r = pygame.Rect(0, 0, int(200 * s), main.h)
            r.bottomright = (left - int(16 * s), main.bottom)
            text_, cls = fitted(tr("rematch.play_again"), r.w, s)
            self.b_rematch = button(self, r, text_, raw=True, class_id=cls, command=self.ask_rematch)
            if self.asked_all():
                self.b_rematch.disable()
        if self.scoreboard() is not None:
            b = self.box()
            r = pygame.Rect(0, 0, int(170 * s), int(36 * s))
            r.topright = (b.right - int(18 * s), b.y + int(14 * s))
            key = "rematch.hide_scoreboard" if self.show_scoreboard else "rematch.scoreboard"
            text_, cls = fitted(tr(key), r.w, s)
            self.b_scoreboard = button(self, r, text_, raw=True, class_id=cls or "@compact",
                                       command=self.toggle_scoreboard)
        self._rematch_sig = (tuple(self.rematch_seats()), self.show_scoreboard)

    def ask_rematch(self) -> None:
        """Send ``rematch`` for every local seat that has not asked yet."""
        if not self.match_done:
            return
        asked = set(self.rematch_seats())
        for seat, link in self.my_rematch_links().items():
            if seat in asked or getattr(link, "conn", None) is None:
                continue

            def replied(reply: Any) -> None:
                t = reply.get("table") if isinstance(reply, dict) else None
                if isinstance(t, dict) and isinstance(t.get("id"), int):
                    self.app.tables[t["id"]] = t
                    self._rematch_changed()

            def failed(f: Any) -> None:
                from client.ui.errors import error_text

                self.app.notify(error_text(f.value))

            link.request("rematch", table=self.table.table_id).addCallbacks(replied, failed)
        if self.b_rematch is not None:
            self.b_rematch.disable()

    def toggle_scoreboard(self) -> None:
        self.show_scoreboard = not self.show_scoreboard
        self._rematch_changed(force=True)

    def _rematch_changed(self, force: bool = False) -> None:
        sig = (tuple(self.rematch_seats()), self.show_scoreboard)
        if (force or sig != self._rematch_sig) and self.app.scenes and self.app.top is self:
            self.rebuild()

    def rematch_message(self, msg: dict[str, Any], link: Any = None) -> None:
        """A ``table`` push of this table (who asked to play again) or its
        ``match_over`` (the Play again button appears)."""
        kind = msg.get("type")
        if kind == "table" and isinstance(msg.get("table"), dict) and msg["table"].get("id") == self.table.table_id:
            self._rematch_changed()
        elif kind == "match_over" and msg.get("table") == self.table.table_id:
            self._rematch_changed(force=self.b_rematch is None)

    def rematch_event(self, event: pygame.event.Event, t_ms: float) -> bool:
        """R asks to play again, Tab shows the scoreboard, F5-F8 send an emote; True
        when the event was one of them (the board does not see it)."""
        from client.input import EMOTE_KEYS

        if event.type != pygame.KEYDOWN:
            return False
        if event.key in EMOTE_KEYS and hasattr(self.table, "emotes"):
            self.table.emotes.send(EMOTE_KEYS[event.key])
            return True
        if not self.match_done or self.t <= 1.0:
            return False
        if event.key == pygame.K_r and self.b_rematch is not None and self.b_rematch.is_enabled:
            self.ask_rematch()
            return True
        if event.key == pygame.K_TAB and self.scoreboard() is not None:
            self.toggle_scoreboard()
            return True
        return False

    def draw_rematch(self, surface: pygame.Surface) -> None:
        """Who asked to play again (a line over the buttons) and, when open, the
        scoreboard over the board; on a spectator's screen, when the round's results
        close by themselves."""
        left = self.auto_close_left()
        if left is not None:
            s = self.app.ui_scale
            main = self.main_button()
            img = text.render(tr("results.auto_next", s=str(math.ceil(left))), max(11, int(15 * s)), DIM)
            surface.blit(img, img.get_rect(bottomright=(main.right, main.top - int(8 * s))))
        if not self.match_done:
            return
        s = self.app.ui_scale
        b = self.box()
        if self.show_scoreboard and self.scoreboard() is not None:
            top = b.y + int(10 * s)  # over the board's title too (the toggle button stays on top)
            area = pygame.Rect(b.x + int(12 * s), top, b.w - int(24 * s), self.main_button().top - int(40 * s) - top)
            draw_scoreboard(surface, area, self.scoreboard() or [], max(12, int(20 * s)))
        line = self.rematch_line()
        if line:
            main = self.main_button()
            size = max(11, int(16 * s))
            room = b.w - int(48 * s)
            line = text.elide(line, room, size, bold=True)
            img = text.render(line, size, GOLD, bold=True)
            r = img.get_rect(bottomright=(main.right, main.top - int(8 * s)))
            back = r.inflate(img.get_height(), int(6 * s))
            pygame.draw.rect(surface, (22, 15, 13), back, border_radius=back.h // 2)
            pygame.draw.rect(surface, (150, 120, 70), back, 1, border_radius=back.h // 2)
            surface.blit(img, r)


def draw_scoreboard(surface: pygame.Surface, area: pygame.Rect, board: list[dict[str, Any]], size: int) -> pygame.Rect:
    """The evening's scoreboard (the server's rows, sorted by it; :mod:`client.ui.scoreboard`)
    in a dark framed panel filling ``area``: a title, then player, game, played, won; as
    many rows as fit (the bots' row dimmed, a stand-in's wins as "+1" and a line saying
    so). Returns the panel's rect."""
    from client.ui.scoreboard import score_rows, stand_in_note

    pygame.draw.rect(surface, (16, 11, 9), area, border_radius=max(6, size // 2))
    pygame.draw.rect(surface, GOLD, area, 2, border_radius=max(6, size // 2))
    pad = size
    y = area.y + pad // 2
    title = text.render(tr("score.title"), int(size * 1.4), GOLD, bold=True, shadow=True)
    surface.blit(title, title.get_rect(midtop=(area.centerx, y)))
    y += title.get_height() + pad // 2
    w = area.w - 2 * pad
    cols = (area.x + pad, area.x + pad + int(w * 0.40), area.x + pad + int(w * 0.72), area.x + pad + int(w * 0.88))
    heads = ("score.player", "score.game", "score.played", "score.won")
    rh = int(size * 1.6)
    for i, head in enumerate(heads):
        img = text.render(tr(head), size, DIM, bold=True)
        surface.blit(img, (cols[i], y) if i < 2 else img.get_rect(midtop=(cols[i], y)))
    y += rh
    rows = score_rows(board)
    note = stand_in_note(rows)
    bottom = area.bottom - pad // 2 - (rh if note else 0)
    if not rows:
        img = text.render(tr("score.empty"), size, DIM)
        surface.blit(img, (cols[0], y))
    for k, row in enumerate(rows):
        if y + rh > bottom:
            break
        if k % 2 == 0:
            band(surface, pygame.Rect(area.x + pad // 2, y - rh // 8, area.w - pad, rh))
        name = text.elide(row.name, cols[1] - cols[0] - pad // 2, size, bold=True)
        game = text.elide(row.game, cols[2] - cols[1] - pad, size)
        for i, (value, bold) in enumerate(((name, True), (game, False), (row.played, False), (row.won, True))):
            colour = DIM if row.bot else GOLD if i == 3 else CREAM
            img = text.render(value, size, colour, bold=bold)
            surface.blit(img, (cols[i], y) if i < 2 else img.get_rect(midtop=(cols[i], y)))
        y += rh
    if note:
        img = text.render(text.elide(note, area.w - 2 * pad, int(size * 0.85)), int(size * 0.85), DIM)
        surface.blit(img, (cols[0], bottom))
    return area


def band(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The faint light band behind every other row."""
    s = pygame.Surface(rect.size, pygame.SRCALPHA)
    s.fill((255, 255, 255, 12))
    surface.blit(s, rect.topleft)
