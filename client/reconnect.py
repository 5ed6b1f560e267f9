"""Coming back after a lost connection (PROTOCOL.md "Reconnection, spectators and the
turn timer", client side).

Each :class:`~client.app.Link` keeps the reconnect ``token`` of every seat it was given
(``joined.token``), the tables it watches as a spectator, and the ``step`` of the last
update it applied per table. When its connection drops during a match, the app starts a
:class:`Reconnector`: it opens a new connection after 0.5 s, 1 s, 2 s, 4 s ... (at most
10 s between tries, :func:`delay`), says ``hello`` under the same name, then asks for
each seat back with ``reconnect {token, step}`` (and re-joins watched tables as a
spectator). The server answers ``joined`` and pushes ``match_started`` with ``resumed:
true`` and the ``missed`` events: the table scene tells them and shows the new view.

While it runs, the table scenes draw "Connection lost — reconnecting… (attempt n, next
try in x s)" over the table. When the server answers ``bad_token`` the grace period is
over (a bot now plays the seat for good): the player is told so and goes back to the
menu. After :data:`GIVE_UP_S` seconds without reaching the server at all it gives up the
same way. Times are seconds on the reactor's clock.

The same happens between ``joined`` and ``match_started``, while the table's lobby is on
screen (the server may have been killed as the match log appeared: restarted, it holds
the seat for the token). The lobby stays, with a "reconnecting" notice. When the server
answers ``bad_token`` there, the seat was freed because the table was still waiting: the
player sits at it again with ``join`` (a new token); if that fails too (the table is
gone or full) the player is told why and goes back to the menu.
"""
from __future__ import annotations

from typing import Any, Callable

from twisted.internet import defer
from twisted.python.failure import Failure

from client.i18n import tr

#: First delay before a try (s); each next one doubles, up to :data:`MAX_DELAY_S`.
FIRST_DELAY_S = 0.5
MAX_DELAY_S = 10.0
#: Stop trying after this long (s): the server's grace period (120 s by default) is over.
GIVE_UP_S = 130.0


def delay(attempt: int) -> float:
    """Seconds to wait before try number ``attempt`` (1, 2, ...): 0.5, 1, 2, 4, 8, 10, 10..."""
    return min(MAX_DELAY_S, FIRST_DELAY_S * 2 ** max(0, attempt - 1))


class Reconnector:
    """Brings ``link`` back. ``connect(reactor, host, port, name, listener=, timeout=)``
    opens a connection (``client.net.connect``; tests give a fake). Attributes the
    overlay reads: ``active``, ``attempt`` (the current or last try, from 1),
    ``connecting`` (a try is under way), ``next_at`` (:meth:`clock_s` of the next try).

    The seats also live in the player's ``seats.json`` (:mod:`client.seats_store`): a
    refused token (``bad_token``: the match is over) drops them there; giving up keeps
    them, so the menu offers "Rejoin your seat" once the server is back (a host
    restarting ``mafia-table``)."""

    def __init__(self, app: Any, link: Any, connect: Callable[..., Any]):
        self.app = app
        self.link = link
        self.connect = connect
        self.reactor = app.reactor
        self.started = self.clock_s()
        self.attempt = 0
        self.active = True
        self.connecting = False
        self.next_at = self.started
        self._call: Any = None
        self._schedule()

    def clock_s(self) -> float:
        """The reactor's clock (s)."""
        return float(self.reactor.seconds())

    # -- what to get back ---------------------------------------------------------------
    def lobbies(self) -> set[int]:
        """Tables whose lobby is on screen: joined, the match not started for us."""
        lobby_tables = getattr(self.app, "lobby_tables", None)
        return set(lobby_tables()) if lobby_tables is not None else set()

    def wanted(self) -> tuple[dict[int, str], set[int]]:
        """(table -> token, watched tables) whose table (or lobby) is still on screen."""
        open_tables = self.app.open_tables()
        seated = open_tables | self.lobbies()
        tokens = {t: tok for t, tok in self.link.tokens.items() if t in seated}
        return tokens, {t for t in self.link.watching if t in open_tables}

    # -- the tries ----------------------------------------------------------------------
    def _schedule(self) -> None:
        """Plan the next try (once: a try already planned stays)."""
        if not self.active or (self._call is not None and self._call.active()):
            return
        if self.clock_s() - self.started >= GIVE_UP_S:
            self._give_up()
            return
        self.attempt += 1
        wait = delay(self.attempt)
        self.connecting = False
        self.next_at = self.clock_s() + wait
        self._call = self.reactor.callLater(wait, self._try)

    def _try(self) -> None:
        self._call = None
        if not self.active:
            return
        tokens, watched = self.wanted()
        joining = getattr(self.link, "joining", {})
        if not tokens and not watched and not joining and self.link is not self.app.connections.main_link:
            self.cancel()  # nothing of it is on screen any more
            return
        self.connecting = True
        host, port = self.link.address
        d = defer.maybeDeferred(self.connect, self.reactor, host, port, self.link.name, listener=self.link,
                                timeout=5.0)
        d.addCallbacks(self._connected, self._failed)

    def _connected(self, conn: Any) -> Any:
        if not self.active:
            conn.transport.loseConnection()
            return None
        self.link.conn = conn
        tokens, watched = self.wanted()
        lobbies = self.lobbies()
        asks = [self._ask(conn, table, token, table in lobbies) for table, token in tokens.items()]
        asks += [conn.request("join", table=table, spectate=True, **self._room(table)) for table in watched]
        asks += [self._join_again(conn, table) for table in list(getattr(self.link, "joining", {}))]
        d = defer.gatherResults(asks, consumeErrors=True) if asks else defer.succeed([])
        return d.addCallbacks(lambda _r: self._done(), self._refused)

    def _ask(self, conn: Any, table: int, token: str, waiting: bool) -> Any:
        """``reconnect`` with the seat's token; in a lobby (``waiting``), a refused token
        means the seat was freed: sit again."""
        d = conn.request("reconnect", token=token, step=self.link.steps.get(table))
        d.addCallback(self._rejoined, table)
        if waiting:
            d.addErrback(self._sit_again, conn, table)
        return d

    def _join_again(self, conn: Any, table: int) -> Any:
        """A join whose reply was lost with the connection: asked again with its key
        (PROTOCOL.md "Asking again"); the join's own Deferred gets the answer."""
        waiting = self.link.joining.pop(table)
        d = conn.request("join", table=table, key=self.link.keys[table], **self._room(table))
        d.addCallback(self._rejoined, table)

        def answer(result: Any) -> Any:
            if not waiting.called:
                if isinstance(result, Failure):
                    if getattr(result.value, "code", "") == "disconnected":
                        self.link.joining[table] = waiting  # dropped again: the next try asks
                        return result
                    waiting.errback(result)
                    return None
                waiting.callback(result)
            return result

        return d.addBoth(answer)

    def _sit_again(self, failure: Any, conn: Any, table: int) -> Any:
        if getattr(failure.value, "code", "") != "bad_token":
            return failure
        keys = getattr(self.link, "keys", {})
        fields = {"key": keys[table]} if table in keys else {}
        return conn.request("join", table=table, **fields, **self._room(table)).addCallback(self._sat, table)

    def _room(self, table: int) -> dict[str, str]:
        """``{"room": code}`` when the link knows ``table``'s room code (a private table
        lets nobody in again without it), else ``{}``."""
        code = getattr(self.link, "rooms", {}).get(table)
        return {"room": code} if isinstance(code, str) else {}

    def _sat(self, reply: dict[str, Any], table: int) -> dict[str, Any]:
        """Seated again at a waiting table: the new token, and the lobby shows our seat."""
        self._rejoined(reply, table)
        for scene in self.app.scenes:
            shown = getattr(scene, "table", None)
            if isinstance(shown, dict) and shown.get("id") == table and hasattr(scene, "my_seat"):
                scene.my_seat = reply.get("seat")
        return reply

    def _rejoined(self, reply: dict[str, Any], table: int) -> dict[str, Any]:
        if reply.get("token"):
            self.link.tokens[table] = reply["token"]
            keep = getattr(self.link, "keep_seat", None)
            if keep is not None:
                keep(table, reply.get("seat"))
        return reply

    def _refused(self, failure: Any) -> None:
        err = getattr(failure.value, "subFailure", failure).value
        code = getattr(err, "code", "")
        if code == "bad_token":
            store = getattr(self.app, "seat_store", None)
            server = getattr(self.link, "server", None)
            if store is not None and server:  # the match is over (or the server lost it): nothing to rejoin
                for table in list(self.link.tokens):
                    store.forget(server, table)
            self._lost(tr("reconnect.expired"))
        elif code in ("disconnected", ""):
            self._failed(failure)
        elif code == "unknown_type":  # a server from before reconnection existed
            self._lost(tr("reconnect.unsupported"))
        else:  # the server answered, but not with the seat: nothing more to try
            self._lost(tr("reconnect.refused", reason=str(getattr(err, "message", err))))

    def _failed(self, failure: Any) -> None:
        """This try did not get the seats back (no connection, or it dropped): try again."""
        self.link.conn = None
        self._schedule()

    def dropped(self) -> None:
        """The connection this attempt opened was lost before it was done."""
        self._failed(None)

    # -- endings ------------------------------------------------------------------------
    def _done(self) -> None:
        self.active = False
        self.connecting = False
        self.app.connections.link_back(self.link)

    def _lost(self, message: str) -> None:
        """The seats will not come back: say why; the tables go back to the menu (the
        connection, when open, stays for the lobby)."""
        self.active = False
        self.connecting = False
        self.app.notify(message, 12)
        self.app.connections.seat_lost(self.link)

    def _give_up(self) -> None:
        """The server stays out of reach: back to the menu. The seat stays in
        ``seats.json``: the menu offers it back once the server is up again."""
        self._lost(tr("reconnect.gave_up"))

    def cancel(self) -> None:
        """Stop quietly (the player left the table)."""
        self.active = False
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None
