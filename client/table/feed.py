"""A table's traffic with the server: the messages of this table that reach the scene
(from the display link and from each local seat's connection) and the actions it sends.

The scene's hooks do the game's part: ``_note_seat`` (a local seat's ``legal``),
``_seat_arrived`` (a couch seat's ``match_started``), ``_match_over`` and
``_game_message`` (anything else of this table, e.g. ``race``, ``claim_result``).
"""
from __future__ import annotations

from typing import Any, Mapping

from client.i18n import server_text, tr
from client.narrate import BAD, GOOD, NOTE


class TableFeed:
    """Messages in and actions out for ``scene`` (a :class:`client.table.base.TableScene`)."""

    def __init__(self, scene: Any):
        self.scene = scene

    def receive(self, msg: dict[str, Any], link: Any = None) -> None:
        """A pushed message from ``link`` (the display link or a local seat's); other
        tables' messages are ignored."""
        sc = self.scene
        kind = msg.get("type")
        if msg.get("table") != sc.table_id:
            return
        seat = sc.roster.seat_of(link)
        sc.ending.keep_token(seat, link)
        if kind == "match_started" and sc.ending.is_next_match(msg):
            sc.ending.next_match(msg, link)
        elif kind == "emote":
            if link is sc.display:
                sc.emotes.show(msg)
        elif kind == "moved":
            self._moved(msg, link)
        elif kind == "match_started":
            if seat is not None or link is sc.display:  # back after a lost connection
                self._resume(msg, link, seat)
            elif msg.get("seat") is not None:
                sc._seat_arrived(link, msg)
        elif kind == "update":
            if seat is not None:
                sc._note_seat(seat, msg)
            if link is sc.display:
                sc.timer.note(msg, link)
                sc._apply(msg["view"], msg.get("events", []))
            sc._refresh()
        elif kind == "match_over":
            if link is sc.display or seat is not None:
                sc.match_result = msg.get("result")
                reactions = msg.get("reactions")
                sc.match_reactions = reactions if isinstance(reactions, list) else None
                board = msg.get("scoreboard")  # the evening's scoreboard
                sc.match_scoreboard = board if isinstance(board, list) else None
                sc._match_over()
        elif kind in ("table_paused", "table_resumed"):
            if link is sc.display or (sc.display is None and seat is not None):
                self._pause_notice(kind, msg)
        else:
            sc._game_message(msg, seat)

    def _pause_notice(self, kind: str, msg: dict[str, Any]) -> None:
        """The server cannot save the match (a full disk): say why and that it goes on by
        itself; a restarted server waits for the players (``until``): the notice counts
        down to it (:class:`client.table.pause.PauseClock`); or it goes on again."""
        sc = self.scene
        if kind == "table_paused":
            sc.pause.paused(msg, [sc.display, *sc.links.values()])
            if sc.pause.until is not None:
                # the history keeps the fact; the count runs in the notice, from the next frame
                sc.column.say(tr("table.paused_restart_said"), (255, 170, 140), 20_000)
                return
            text = tr("table.paused", reason=server_text(msg.get("sentence"), str(msg.get("message", ""))))
            sc.column.say(text, (255, 170, 140), 120_000)
            sc.app.notify(text, 120.0)
        else:
            said = tr("table.resumed_restart") if sc.pause.resumed() else tr("table.resumed")
            sc.app.notify(said, 5.0, error=False)
            sc.column.say(said, (180, 220, 160))

    def _resume(self, msg: dict[str, Any], link: Any, seat: int | None) -> None:
        """A ``match_started`` for a connection already at this table: it came back
        after a lost connection (``resumed``), or a spectator re-joined."""
        sc = self.scene
        sc.roster.note_seats(msg)
        rewound = msg.get("rewound_from")
        if isinstance(rewound, int) and isinstance(msg.get("step"), int) and rewound > msg["step"]:
            sc.column.say(tr("table.rewound", n=str(rewound - msg["step"])), (255, 170, 140), 20_000)
        if seat is not None:
            sc._note_seat(seat, msg)
        if link is sc.display:
            sc.timer.note(msg, link)
            sc.jump(msg.get("view") or sc.view)
        if msg.get("resumed"):
            self.resumed_lines(msg)
        sc._drop_choices()
        sc._refresh()

    def resumed_lines(self, msg: dict[str, Any]) -> None:
        """Keep the events missed while away (``msg["missed"]``) in the history, then say
        that we are back."""
        sc = self.scene
        missed = [e for e in msg.get("missed") or [] if isinstance(e, dict)]
        sc.tell(missed, None)
        sc.column.say(tr("reconnect.back_missed") if missed else tr("reconnect.back"), GOOD, 6000)

    def _moved(self, msg: Mapping[str, Any], link: Any) -> None:
        """The host moved a local seat's player to the spectators (``moved {table, seat:
        null}``): a bot plays the seat for good; this screen watches (the spectator
        stream's ``match_started`` with seat null follows and shows the public view)."""
        sc = self.scene
        seat = sc.roster.seat_of(link)
        if msg.get("seat") is not None or seat is None:
            return
        sc.links.pop(seat, None)
        sc.legal.pop(seat, None)
        bindings = getattr(sc, "bindings", None)
        if isinstance(bindings, dict):
            bindings.pop(seat, None)
        sc._drop_choices()
        if hasattr(link, "forget"):
            link.forget(sc.table_id)
        if isinstance(getattr(link, "watching", None), set):
            link.watching.add(sc.table_id)
        if link is sc.display:
            sc.public = True  # nothing private on this screen any more
        sc.column.say(tr("hostctl.moved"), NOTE, 10_000)
        sc.app.notify(tr("hostctl.moved"), 6, error=False)
        sc.actions.invalidate()
        sc._refresh()

    def send_now(self, seat: int, link: Any, action: dict[str, Any], t_press: float | None = None,
                 t_shown: float | None = None, quiet: bool = False) -> None:
        """Send ``action`` for local ``seat`` on its connected ``link`` (``t_press``,
        ``t_shown``: client ms stamps of a claim): nothing more to click until the
        server answers; a refused action gives the choices back and says why
        (``quiet``: only gives them back)."""
        sc = self.scene
        saved = sc.legal.get(seat, [])
        sc.legal[seat] = []  # nothing more to click until the server answers
        sc._refresh()
        sc.app.sound and sc.app.sound.play("click")

        def failed(f: Any) -> None:
            if not sc.legal.get(seat):
                sc.legal[seat] = saved
                sc._refresh()
            if quiet:
                return
            if getattr(f.value, "code", "") != "disconnected":
                sc.column.say(tr("error.action", reason=getattr(f.value, "message", str(f.value))), BAD)

        d = link.conn.send_action(sc.table_id, dict(action), t_press=t_press, t_shown=t_shown)
        d.addErrback(failed)
