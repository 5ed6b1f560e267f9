"""A table's own keys, whatever the game: F1 (or H) for the rules, Esc twice to leave,
and the key help of the top bar."""
from __future__ import annotations

from typing import Any

import pygame

from client.i18n import tr
from client.narrate import NOTE


class TableKeys:
    """The rules key, the double Esc and leaving of ``scene`` (a
    :class:`client.table.base.TableScene`)."""

    def __init__(self, scene: Any):
        self.scene = scene
        self._esc_until = 0.0  # scene ms until which a second Esc leaves

    @property
    def help_line(self) -> str:
        """The top bar's key help: a replay's keys, a spectator's, or the game's
        (``scene.player_help()``). A replay's and a spectator's end with the history's
        key (a player's bar is full: the column says it when the match opens)."""
        sc = self.scene
        if sc.replay:
            return f"{tr('replay.keys')} · {tr('history.key_hint')}"
        if not sc.links:
            return f"{tr('table.help_spectator')} · {tr('history.key_hint')}"
        return sc.player_help()

    def is_help_key(self, key: int) -> bool:
        """F1 always opens the rules; H too when no local player's binding uses it."""
        if key == pygame.K_F1:
            return True
        if key != pygame.K_h:
            return False
        return not any(key in b.keys() for b in getattr(self.scene, "bindings", {}).values())

    def open_help(self) -> None:
        """The rules of this table's game (:mod:`client.scenes.help`) over the table."""
        sc = self.scene
        if sc.app.scenes and sc.app.top is sc:
            sc.app.open_help(sc.game)

    def disarm(self) -> None:
        """An Esc that cancelled a confirmation or a choice: the next Esc starts over
        (it says "again to leave" before anything leaves)."""
        self._esc_until = 0.0

    def escape(self) -> None:
        """Esc twice within 2.5 s leaves the table (the first press says so)."""
        sc = self.scene
        if sc.t < self._esc_until:
            self.leave_table()
        else:
            self._esc_until = sc.t + 2500
            seated = bool(sc.links) and not sc.replay and sc.match_result is None
            sc.column.say(tr("rejoin.esc_seat") if seated else tr("table.esc_again"), NOTE, 2500)

    def leave_table(self) -> None:
        """Leave the table on every connection of this screen (the ones opened for it
        close), then back to the menu."""
        sc = self.scene
        app = sc.app
        for link in set(sc.links.values()) | {sc.display}:
            if link is not None and link.conn is not None:
                link.request("leave", table=sc.table_id).addErrback(lambda f: None)
                if link is not app.connections.main_link:
                    app.connections.close_link(link)
        app.go_menu()
