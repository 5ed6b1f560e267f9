"""Host a table: choose the game (every game of the rules' registry this client can
show, with its seat range and default seat count), the number of seats and the table's
name, and the level of the bots the host will seat (kept in the player's settings), then
wait in the lobby for players (or add bots). The table is created with the
option ``start: "host"``: its match starts when the host presses Start in the lobby,
so friends still arriving are not replaced by bots.

The lobby's "Options…" dialog is :class:`client.scenes.options.OptionsScene`."""
from __future__ import annotations

import weakref
from typing import Any

import pygame
import pygame_gui

from client import felt, games
from client.i18n import tr
from client.ui.scene import Scene
from client.ui.title import draw_title
from client.ui.widgets import button, choice_menu, dialog, entry, label, level_menu


class HostScene(Scene):
    def __init__(self, app: Any):
        super().__init__(app)
        self.game = games.quick_game().name
        self.seats = games.seat_range(self.game)[2]
        self.name = tr("host.default_name", name=app.settings.player_name())
        self.busy = False
        #: every name entry this screen has built (a rebuild makes a new one)
        self.name_entries: "weakref.WeakSet[Any]" = weakref.WeakSet()

    def build(self, size: tuple[int, int]) -> None:
        s = self.app.ui_scale
        box = dialog(self, size, 0.42, 0.50, top_frac=0.36)
        rh, gap = int(40 * s), int(12 * s)
        x0, x1 = box.x + int(24 * s), box.x + int(box.w * 0.42)
        fw = box.right - int(24 * s) - x1
        y = box.y + int(20 * s)
        label(self, pygame.Rect(box.x, y, box.w, rh), "host.title", object_id="#heading", align="center")
        y += rh + gap
        label(self, pygame.Rect(x0, y, x1 - x0, rh), "host.game")
        choices = [(games.title(g), g) for g, _ in games.hostable()]
        self.dd_game = choice_menu(self, choices, (games.title(self.game), self.game), pygame.Rect(x1, y, fw, rh))
        y += rh + gap
        label(self, pygame.Rect(x0, y, x1 - x0, rh), "host.seats")
        lo, hi, _default = games.seat_range(self.game)
        opts = [str(n) for n in range(lo, hi + 1)]
        self.dd_seats = choice_menu(self, opts, str(self.seats), pygame.Rect(x1, y, fw, rh))
        y += rh + gap
        label(self, pygame.Rect(x0, y, x1 - x0, rh), "host.name")
        self.e_name = entry(self, pygame.Rect(x1, y, fw, rh), self.name)
        self.e_name.set_text_length_limit(40)
        self.name_entries.add(self.e_name)
        y += rh + gap
        label(self, pygame.Rect(x0, y, x1 - x0, rh), "host.bots")
        self.dd_level = level_menu(self, pygame.Rect(x1, y, fw, rh))
        y += rh + 2 * gap
        bw = (box.w - int(72 * s)) // 2
        button(self, pygame.Rect(box.x + int(24 * s), y, bw, int(48 * s)), "common.back", command=self.app.pop)
        self.b_create = button(self, pygame.Rect(box.right - int(24 * s) - bw, y, bw, int(48 * s)),
                               "host.create", object_id="#primary", command=self.on_create)

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is getattr(self, "dd_seats", None):
                self.seats = int(event.text)
            elif event.ui_element is getattr(self, "dd_game", None):
                self.set_game(getattr(event, "selected_option_id", self.game))
            elif event.ui_element is getattr(self, "dd_level", None):
                self.app.set_bot_level(getattr(event, "selected_option_id", ""))
        elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element in self.name_entries:
            # also from the entry of a moment ago: choosing the game rebuilt the screen
            # between the typing and its event, and the name typed still counts
            self.name = event.text
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()

    def set_game(self, game: str) -> None:
        """Choose the game; the seat count is brought into its range (its default when
        it was below the range)."""
        if game not in dict(games.hostable()):
            return
        self.game = game
        lo, hi, default = games.seat_range(game)
        self.seats = min(max(self.seats, lo), hi) if self.seats >= lo else default
        if self.app.scenes and self.app.top is self:
            self.rebuild()

    def on_create(self) -> None:
        link = self.app.connections.main_link
        if self.busy or link is None or link.conn is None:
            return
        self.busy = True
        name = (self.name or "").strip() or tr("host.default_name", name=link.name)

        def created(reply: dict) -> Any:
            table = reply["table"]
            self.app.tables[table["id"]] = table
            return link.request("join", table=table["id"], seat=0).addCallback(lambda _r: table)

        def lobby(table: dict) -> None:
            self.busy = False
            from client.scenes.lobby import LobbyScene

            self.app.replace(LobbyScene(self.app, link, self.app.tables.get(table["id"], table), host=True))

        def failed(f) -> None:
            self.busy = False
            self.app.notify(tr("error.request", reason=getattr(f.value, "message", str(f.value))))

        link.request("create_table", game=self.game, seats=self.seats, name=name[:40], options={"start": "host"}) \
            .addCallback(created).addCallbacks(lobby, failed)

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(felt.menu_surface(w, h), (0, 0))
        draw_title(surface, self.app, 0.0, top=0.02, faces=games.title_cards())


#: The choices of each option the dialog offers (None: the server's default).
