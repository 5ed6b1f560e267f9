"""Round results and the final scoreboard, drawn over the table.

Shows every player's revealed game (the cards of ``last_round.games``), median snap
reaction (``match_over.reactions``; the races seen so far between rounds), stock, round
score and running total, who declared Omerta and whether it worked; after the last
round the winners and a way back to the menu.
"""
from __future__ import annotations

from typing import Any

import pygame

from client import text
from client.i18n import tr
from client.narrate import BAD, GOOD
from client.table.results import CREAM, DIM, GOLD, ResultsOverlay, band
from client.ui.widgets import button


class ResultsScene(ResultsOverlay):
    width_frac = 0.84
    #: Round results on a spectator's screen (the TV view) close by themselves.
    spectator_close_s = 12.0

    def __init__(self, app: Any, table: Any, last_round: dict[str, Any] | None, final: bool = False,
                 result: dict[str, Any] | None = None):
        super().__init__(app, table)
        self.lr = last_round or {}
        self.final = final
        self.result = result

    def again(self, last_round: dict[str, Any] | None, final: bool = False,
              result: dict[str, Any] | None = None) -> None:
        """The table shows results while these are up: the final ones replace them."""
        if final:
            self.update_result(result)

    def update_result(self, result: dict[str, Any] | None) -> None:
        self.result = result
        self.final = True
        self.rebuild()

    def build_board(self, size: tuple[int, int]) -> None:
        r = self.main_button()
        if self.final:
            button(self, r, "results.menu", object_id="#primary", command=self.to_menu)
        else:
            button(self, r, "results.next", object_id="#primary", command=self.close)

    def close(self) -> None:
        self.app.pop()
        self.table.results_closed()

    def board_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_ESCAPE):
            if self.t > 1.5:  # a snap key pressed at the last moment must not dismiss it
                self.to_menu() if self.final else self.close()

    def draw_board(self, surface: pygame.Surface) -> None:
        h = surface.get_height()
        b = self.draw_box(surface)
        view = self.table.view
        lr = self.lr
        n = int(view.get("seats", 4))
        pad = int(b.h * 0.04)
        y = b.y + pad
        fs = max(14, int(h * 0.028))
        if self.final:
            title = tr("results.final")
        else:
            title = tr("results.round", round=str(lr.get("round", "?")), rounds=str(view.get("rounds", "?")))
        img = text.render(title, int(fs * 1.7), GOLD, bold=True, shadow=True)
        surface.blit(img, img.get_rect(midtop=(b.centerx, y)))
        y += img.get_height() + pad // 3
        decl = lr.get("declarer")
        if lr.get("capped") or decl is None:
            line, col = tr("results.capped"), DIM
        elif lr.get("success"):
            line, col = tr("results.declared_ok", name=self.table.roster.seat_name(decl)), GOOD
        else:
            line, col = tr("results.declared_fail", name=self.table.roster.seat_name(decl)), BAD
        if lr:
            img = text.render(line, fs, col, bold=True, shadow=True)
            surface.blit(img, img.get_rect(midtop=(b.centerx, y)))
            y += img.get_height() + pad // 2
        # columns
        name_x = b.x + pad
        cards_x = b.x + int(b.w * 0.22)
        react_x = b.x + int(b.w * 0.66)  # each player's median snap reaction
        stock_x = b.x + int(b.w * 0.755)
        round_x = b.x + int(b.w * 0.84)
        total_x = b.x + int(b.w * 0.925)
        hs = max(11, int(fs * 0.75))
        for label, x in ((tr("results.player"), name_x), (tr("results.cards"), cards_x),
                         (tr("results.reaction"), react_x),
                         (tr("results.stock"), stock_x), (tr("results.round_score"), round_x),
                         (tr("results.total"), total_x)):
            img = text.render(label, hs, DIM, bold=True)
            surface.blit(img, (x, y) if x in (name_x, cards_x) else img.get_rect(midtop=(x, y)))
        y += int(hs * 1.6)
        bottom = b.bottom - pad - int(60 * self.app.ui_scale)
        row_h = min(int(h * 0.13), (bottom - y) // max(1, n))
        ch = int(row_h * 0.86)
        cw = int(ch * 5 / 7)
        games = lr.get("games") or [[] for _ in range(n)]
        stocks = lr.get("stocks") or [None] * n
        rscores = lr.get("round_scores") or [None] * n
        totals = view.get("totals") or lr.get("totals") or [0] * n
        low = min(totals) if totals else 0
        winners = set((self.result or {}).get("winners") or view.get("winners") or
                      ([p for p in range(n) if totals[p] == low] if self.final else []))
        for p in range(n):
            ry = y + p * row_h
            if p % 2 == 0:
                band(surface, pygame.Rect(b.x + pad, ry, b.w - 2 * pad, row_h))
            nm = self.table.roster.seat_name(p)
            colour = GOLD if p in winners else CREAM
            label = nm + ("  " + tr("results.winner") if p in winners else "") + \
                ("  " + tr("results.declarer") if p == decl else "")
            size = text.fit_size(label, cards_x - name_x - pad // 2, fs, bold=True)
            img = text.render(label, size, colour, bold=True)
            surface.blit(img, img.get_rect(midleft=(name_x, ry + row_h // 2)))
            game = games[p] if p < len(games) else []
            step = min(cw + cw // 8, (react_x - cards_x - cw - pad * 2) / max(1, len(game) - 1)) if len(game) > 1 else 0
            for i, entry in enumerate(game):
                face = self.app.art.face(entry["card"], cw, ch)
                surface.blit(face, (int(cards_x + i * step), ry + (row_h - ch) // 2))
            react = self.reaction_text(p)
            img = text.render(react, int(fs * 0.95), CREAM if react != "—" else DIM)
            surface.blit(img, img.get_rect(center=(react_x, ry + row_h // 2)))
            for x, value, bold in ((stock_x, stocks[p] if p < len(stocks) else None, False),
                                   (round_x, rscores[p] if p < len(rscores) else None, True),
                                   (total_x, totals[p] if p < len(totals) else None, True)):
                if value is None:
                    continue
                img = text.render(str(value), int(fs * (1.25 if x == total_x else 1.0)),
                                  GOLD if x == total_x else CREAM, bold=bold)
                surface.blit(img, img.get_rect(center=(x, ry + row_h // 2)))
        hint = tr("results.hint_final") if self.final else tr("results.hint")
        img = text.render(hint, max(11, int(fs * 0.8)), DIM)
        surface.blit(img, img.get_rect(bottomleft=(b.x + pad, b.bottom - pad)))
