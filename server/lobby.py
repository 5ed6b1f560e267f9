"""The lobby: every connection, player name and table of one server, and the handlers
of the client requests (docs/PROTOCOL.md "Session", "Lobby", "Playing", "Reconnection").

:class:`Lobby` is plain logic (no sockets); :class:`LobbyFactory` is the Twisted factory
that holds it and builds one :class:`server.protocol.ServerProtocol` per connection.
With a data directory, every match is logged there, every table waiting for its match
is kept there, and :meth:`Lobby.restore` brings both back when the server starts
(docs/MATCHLOG.md).
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import itertools
import math
import secrets
from pathlib import Path
from typing import Any

from twisted.internet import protocol
from twisted.logger import Logger

from shared import matchlog
from shared.bots import DEFAULT_LEVEL
from shared.games import DEFS, GAMES, get_game
from shared.protocol import VERSION, ProtocolError, clean_name, encode, encode_value
from shared.sentences import Sentence, say
from server import persist, waiting_tables
from server.ratelimit import AddressAllowance
from server.scoreboard import Scoreboard
from server.match.table import Table
from server.options import parse_options
from server.web import rooms

log = Logger()

#: A ``tables`` reply holds at most this many bytes of table summaries (about 40
#: tables of four players); ``list_tables {after}`` asks for the next ones.
TABLES_PAGE_BYTES = 24 * 1024

#: Wrong room codes one address may try (``join`` of a private table, the phone page's
#: ``GET /api/room/CODE``) before it must wait; one more comes back every
#: :data:`CODE_REFILL_S` seconds (docs/PROTOCOL.md "Private tables").
CODE_TRIES = 10
CODE_REFILL_S = 30.0


def _game_entry(d: Any) -> dict[str, Any]:
    """One game of the ``welcome`` message's ``games`` list (docs/PROTOCOL.md): its wire
    name and seat range, from the registry."""
    return {"name": d.name, "min_seats": d.min_seats, "max_seats": d.max_seats}


class Lobby:
    """Tables and connections of one server.

    ``config``: the merged config (``server``, ``timing``, ``bots``); ``clock``: an
    ``IReactorTime`` whose ``seconds()`` is the server's monotonic clock; ``testing``:
    accept the test-only table options; ``data_dir``: where match logs are written and
    restored from (None: matches are not logged).
    """

    def __init__(self, config: dict[str, Any], clock: Any, testing: bool = False,
                 data_dir: Path | None = None):
        self.config = config
        self.data_dir = data_dir
        self.port: int | None = None  # the TCP port, once listening (written to match logs)
        self.clock = clock
        self.testing = testing or bool(config["server"].get("testing"))
        self.name = str(config["server"]["name"])
        self.server_id = secrets.token_hex(8)  # tells discovery answers of one server apart
        self.tables: dict[int, Table] = {}
        self.connections: set[Any] = set()
        self.names: dict[Any, str] = {}
        self._table_ids = itertools.count(1)
        self._conn_ids = itertools.count(1)
        self._created_by: dict[int, Any] = {}
        #: sha256 of a ``create_table`` key -> the table it created: asked again with the
        #: same key, ``create_table`` answers that table instead of a second one
        self._create_keys: dict[bytes, int] = {}
        #: connection -> ids of the tables it created, joined, reconnected to or asked about:
        #: a lost connection is looked for only there (not in every table: a storm of 800
        #: drops at 200 tables would cost 160,000 table scans)
        self._tables_of: dict[Any, set[int]] = {}
        #: sha256 of a seat's token -> its table id, so that ``reconnect`` finds the seat
        #: without comparing the token with every seat of every table
        self._tokens: dict[bytes, int] = {}
        #: the evening's scoreboard: finished logs of the last 12 h, then every match that ends
        self.scoreboard = Scoreboard()
        self.scoreboard.load(data_dir)
        #: the worker pool of the bots' searches and the hints (:class:`server.thinkers.Thinkers`,
        #: set by :func:`server.app.start_server`; None: they run in-process, as in tests)
        self.thinkers: Any = None
        #: per address: the wrong room codes it may still try (:meth:`check_room`)
        self.code_tries = AddressAllowance(clock, CODE_TRIES, CODE_REFILL_S)

    # -- connections ----------------------------------------------------------------
    def next_conn_id(self) -> int:
        return next(self._conn_ids)

    def hello(self, conn: Any, name: str) -> dict[str, Any]:
        """Register ``conn`` under ``name`` (:func:`shared.protocol.clean_name`: no
        control or format character, whitespace collapsed, at most 40 characters; "Player"
        when nothing visible is left; made unique: "Ann", "Ann (2)", ...). Returns the
        ``welcome`` fields."""
        base = clean_name(name, 40) or "Player"
        taken = set(self.names.values())
        unique, n = base, 1
        while unique in taken:
            n += 1
            unique = f"{base} ({n})"
        self.names[conn] = unique
        self.connections.add(conn)
        return {"conn": conn.conn_id, "name": unique, "server": self.name, "version": VERSION,
                "games": [_game_entry(d) for d in DEFS.values()]}

    def connection_lost(self, conn: Any) -> None:
        """Free everything ``conn`` held: its seats (held for it in running matches),
        its spectator places, and the still-empty tables it created."""
        self.connections.discard(conn)
        self.names.pop(conn, None)
        ids = self._tables_of.pop(conn, None)
        if ids is None:  # never at a table through this lobby: look everywhere
            ids = set(self.tables) | set(self._created_by)
        for tid in sorted(ids):
            table = self.tables.get(tid)
            if table is not None and conn in table.connections():
                table.drop(conn)
        for tid in sorted(ids):
            table = self.tables.get(tid)
            if table is not None and table.host.conn is conn:
                table.host.lost(conn)
        for tid in sorted(ids):
            creator = self._created_by.get(tid)
            if creator is conn:
                del self._created_by[tid]
                table = self.tables.get(tid)
                if table is not None:
                    table.maybe_close()

    def at_a_table(self, conn: Any) -> bool:
        """``conn`` sits at or watches at least one open table."""
        return any(conn in t.connections() for tid in self._tables_of.get(conn, ())
                   if (t := self.tables.get(tid)) is not None)

    # -- tables ---------------------------------------------------------------------
    def summaries(self) -> list[dict[str, Any]]:
        """Every table as anybody may see it (``list_tables``, discovery: no room code), by id."""
        return [t.listing() for _, t in sorted(self.tables.items())]

    def table_by_room(self, code: str) -> Table | None:
        """The open table whose room code is ``code`` (as typed: :func:`rooms.normalise`),
        or None."""
        wanted = rooms.normalise(code)
        if wanted is None:
            return None
        for table in self.tables.values():
            if table.room == wanted and not table.closed:
                return table
        return None

    def check_room(self, conn: Any, table: Table, room: str | None, key: str | None,
                   spectate: bool) -> None:
        """Let ``conn`` join (or watch) ``table``, or raise: an open table lets anybody in;
        a private one its host, whoever is already at it, a join asked again with the
        ``key`` of one of its seats, and whoever brings its room code ``room``. A wrong
        code spends one of the address's tries (:attr:`code_tries`). Raises
        :class:`ProtocolError` ``private_table`` (no code, or a wrong one) or
        ``too_many_codes`` (the address has no try left: the code is not even looked at)."""
        if not table.private or table.host.is_host(conn) or conn in table.connections():
            return
        if key is not None and not spectate and table.roster.seat_with_key(key) is not None:
            return
        if room is None:
            raise ProtocolError("private_table", say("private_no_code"))
        address = getattr(conn, "peer_host", None)
        if not self.code_tries.allowed(address):
            raise ProtocolError("too_many_codes", too_many_codes_say(self.code_tries.retry_after_s(address)))
        if rooms.normalise(room) != table.room:
            self.code_tries.spend(address)
            raise ProtocolError("private_table", say("private_wrong_code"))

    def tables_page(self, after: int | None = None) -> dict[str, Any]:
        """The ``tables`` reply's fields for ``list_tables {after}``: the tables whose
        id is above ``after`` (every table without it), by id, as many as
        :data:`TABLES_PAGE_BYTES` of summaries hold (at least one); ``next`` (the last
        id sent, to ask for the rest with) when more follow; the scoreboard on the
        first page only. One reply stays well within a line (docs/PROTOCOL.md
        "Lobby")."""
        page: list[dict[str, Any]] = []
        size = 0
        more = False
        for tid, table in sorted(self.tables.items()):
            if after is not None and tid <= after:
                continue
            summary = table.listing()
            cost = len(encode_value(summary)) + 1
            if page and size + cost > TABLES_PAGE_BYTES:
                more = True
                break
            page.append(summary)
            size += cost
        fields: dict[str, Any] = {"tables": page}
        if more:
            fields["next"] = page[-1]["id"]
        if after is None:
            fields["scoreboard"] = self.scoreboard.rows()
        return fields

    def _table(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("unknown_table", say("no_table", table=table_id))
        return table

    def _remove(self, table: Table) -> None:
        table.close()
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._tokens = {k: t for k, t in self._tokens.items() if t != table.id}
            self._create_keys = {k: t for k, t in self._create_keys.items() if t != table.id}
            log.info("table {id} closed", id=table.id)

    def create_table(self, conn: Any, game_name: str, seats: int, name: str | None,
                     options: dict[str, Any] | None, key: str | None = None) -> Table:
        """A new waiting table (the creator still has to ``join``). ``key``: the client's
        own secret naming this request (:data:`shared.protocol.KEY_RE`): asked again with
        it (the reply was lost with the connection), the table it created is answered
        and ``conn`` counts as its creator; no second table is made. Raises
        :class:`ProtocolError` ``unknown_game``, ``bad_seats``, ``bad_option``,
        ``testing_only``, or ``server_full`` when ``server.max_tables`` is reached."""
        digest = hashlib.sha256(key.encode()).digest() if key is not None else None
        if digest is not None:
            known = self.tables.get(self._create_keys.get(digest, -1))
            if known is not None and not known.closed:
                if known.id in self._created_by:
                    self._created_by[known.id] = conn
                if known.host.conn is None and known.host.token is None:
                    known.host.conn = conn  # the creator, back before he sat down
                self._at(conn, known.id)
                return known
        try:
            game = get_game(game_name)
        except KeyError:
            raise ProtocolError("unknown_game", say("no_game", game=str(game_name)[:40],
                                                    games=", ".join(sorted(GAMES)))) from None
        limit = int(self.config["server"]["max_tables"])
        if len(self.tables) >= limit:
            raise ProtocolError("server_full", say("too_many_tables", n=limit))
        engine, settings = parse_options(game, seats, options or {}, self.config, self.testing)
        tid = next(self._table_ids)
        label = clean_name(name or "", 60) or f"{self.names.get(conn, 'Table')}'s table"
        table = Table(tid, game, label, engine, settings, self.config, self.clock,
                      on_empty=self._remove, data_dir=self.data_dir, port=self.port,
                      options=options or {})
        table.host.conn = conn  # the creator is the host (server.match.host)
        self._adopt(table)
        self.tables[tid] = table
        self._created_by[tid] = conn
        if digest is not None:
            self._create_keys[digest] = tid
            table.create_key = digest.hex()
        table.saving.save_waiting()  # on disk before the reply: a crash keeps the table
        self._at(conn, tid)
        log.info("table {id} created: {game} for {n}", id=tid, game=game.NAME, n=seats)
        return table

    def restore(self) -> list[Table]:
        """Bring back every unfinished match of the data directory that this server's
        port served (docs/MATCHLOG.md): each table with its own id, playing, its players'
        seats held for them. Table ids of new tables continue above. Unusable logs are
        logged and skipped."""
        restored: list[Table] = []
        if self.data_dir is None:
            return restored
        for path, mlog in persist.unfinished(self.data_dir, self.port):
            head = mlog.header
            tid = head.get("table")
            if not isinstance(tid, int) or tid in self.tables:
                log.error("match log {path}: table id {tid!r} is not usable, not restored",
                          path=str(path), tid=tid)
                continue
            try:
                game = get_game(str(head.get("game")))
                table = Table.restore(path, mlog, game, self.config, self.clock,
                                      data_dir=self.data_dir, on_empty=self._remove, port=self.port)
            except (KeyError, TypeError, ValueError, OSError, matchlog.LogError) as e:
                log.error("match log {path} does not restore: {e!r}", path=str(path), e=e)
                continue
            except Exception:  # a log must never keep the server from starting
                log.failure("match log {path} does not restore", path=str(path))
                continue
            self._adopt(table)
            try:
                table.host.restore(mlog)
            except Exception:  # the host's details are not worth losing the match for
                log.failure("match log {path}: the host does not restore", path=str(path))
            if table.status == "over":
                self.scoreboard.record_table(table)
            if table.closed:  # nobody can come back to it
                continue
            self.tables[tid] = table
            restored.append(table)
            for seat in table.seats:
                self._index_token(seat.token, tid)
        restored += self._restore_waiting()
        self._table_ids = itertools.count(max(self.tables, default=0) + 1)
        if restored:
            log.info("restored {n} table(s) from {dir}", n=len(restored), dir=str(self.data_dir))
        return restored

    def _restore_waiting(self) -> list[Table]:
        """The tables that waited for their match when the server stopped
        (:mod:`server.waiting_tables`), with their ids, seats held for their players.
        A record whose id a restored match already has is stale (the crash came as
        that match's log was created): it is removed."""
        assert self.data_dir is not None
        restored = []
        for path, record in waiting_tables.load(self.data_dir, self.port):
            tid = record["table"]
            if tid in self.tables:
                log.info("waiting table record {path}: table {id}'s match was restored instead",
                         path=str(path), id=tid)
                waiting_tables.remove(self.data_dir, tid)
                continue
            try:
                table = Table.restore_waiting(record, get_game(record["game"]), self.config, self.clock,
                                              data_dir=self.data_dir, on_empty=self._remove,
                                              port=self.port)
            except (KeyError, TypeError, ValueError, IndexError) as e:
                log.error("waiting table record {path} does not restore: {e!r}", path=str(path), e=e)
                continue
            self._adopt(table)
            self.tables[tid] = table
            restored.append(table)
            for seat in table.seats:
                self._index_token(seat.token, tid)
            if table.create_key is not None:
                try:
                    self._create_keys[bytes.fromhex(table.create_key)] = tid
                except ValueError:
                    table.create_key = None
        return restored

    def reconnect(self, conn: Any, token: str, step: Any) -> dict[str, Any]:
        """``reconnect {token, step}``: the seat whose token this is goes to ``conn``.
        Raises ``bad_token`` (unknown or expired), ``bad_message`` (``step`` not a
        non-negative integer), ``already_seated``."""
        if step is not None and (not isinstance(step, int) or isinstance(step, bool) or step < 0):
            raise ProtocolError("bad_message", say("step_negative", request="reconnect"))
        wanted = token.encode()
        table = self.tables.get(self._tokens.get(hashlib.sha256(wanted).digest(), -1))
        if table is not None and not table.closed:
            for seat in table.seats:
                if seat.token is not None and hmac.compare_digest(seat.token.encode(), wanted):
                    self._at(conn, table.id)
                    return table.reconnect(conn, seat.index, step)
        raise ProtocolError("bad_token", say("bad_token"))

    def _at(self, conn: Any, table_id: int) -> None:
        """``conn`` may be at table ``table_id`` (see ``_tables_of``). Runs on every
        request naming a table: no new set when the connection has one."""
        tables = self._tables_of.get(conn)
        if tables is None:
            self._tables_of[conn] = {table_id}
        else:
            tables.add(table_id)

    def _index_token(self, token: str | None, table_id: int) -> None:
        if token is not None:
            self._tokens[hashlib.sha256(token.encode()).digest()] = table_id

    def _adopt(self, table: Table) -> None:
        """Hook ``table`` to this lobby: its scoreboard and worker pool, the table that takes its place
        (play again, new options), and a room code when it has none yet (a new table, or
        one restored from a log written before codes were kept)."""
        table.scoreboard = self.scoreboard
        table.thinkers = self.thinkers
        table.on_replace = self._replace
        if table.room is None:
            taken = {t.room for t in self.tables.values() if t.room is not None}
            table.settings["room"] = rooms.new_code(taken)

    def _replace(self, old: Table, new: Table) -> None:
        if self.tables.get(old.id) is old:
            self.tables[old.id] = new

    def _check_may_manage(self, conn: Any, table: Table) -> None:
        """Only the table's host (its creator, or whom he passed it to) may add or
        remove bots; raises :class:`ProtocolError` ``not_allowed``."""
        if not table.host.is_host(conn):
            raise ProtocolError("not_allowed", say("host_only_bots"))

    # -- requests -------------------------------------------------------------------
    def handle(self, conn: Any, msg: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """Run one validated request (not ``hello``/``pong``) of a greeted connection.
        Returns ``(reply_type, reply_fields)``; raises :class:`ProtocolError`."""
        kind = msg["type"]
        if kind == "list_tables":
            return "tables", self.tables_page(msg.get("after"))
        if kind == "create_table":
            table = self.create_table(conn, msg["game"], msg["seats"], msg.get("name"),
                                      msg.get("options"), msg.get("key"))
            return "table", {"table": table.summary()}
        if kind == "reconnect":
            return "joined", self.reconnect(conn, msg["token"], msg.get("step"))
        if kind == "hello":
            raise ProtocolError("bad_message", say("hello_twice"))
        table = self._table(msg["table"])
        self._at(conn, table.id)
        if kind == "join":
            self.check_room(conn, table, msg.get("room"), msg.get("key"), bool(msg.get("spectate")))
            joined = table.join(conn, msg.get("seat"), bool(msg.get("spectate")), msg.get("key"))
            self._index_token(joined.get("token"), table.id)
            return "joined", joined
        if kind == "leave":
            if conn not in table.connections():
                raise ProtocolError("not_seated", say("not_at_table"))
            table.leave(conn)
            return "left", {"table": table.id}
        if kind == "add_bot":
            self._check_may_manage(conn, table)
            level = msg.get("level")
            table.add_bot(msg.get("seat"), DEFAULT_LEVEL if level is None else level)
            return "table", {"table": table.summary()}
        if kind == "remove_bot":
            self._check_may_manage(conn, table)
            table.roster.remove_bot(msg["seat"])
            return "table", {"table": table.summary()}
        if kind == "action":
            return "ack", table.act(conn, msg["action"], msg.get("t_press"), msg.get("t_shown"))
        if kind == "start":
            table.host.start(conn)
            return "table", {"table": self.tables.get(table.id, table).summary()}
        if kind == "set_options":
            table = table.host.set_options(conn, msg["options"], self.testing)
            return "table", {"table": self.tables.get(table.id, table).summary()}
        if kind == "move_to_spectators":
            table.host.move_to_spectators(conn, msg["seat"])
            return "table", {"table": self.tables.get(table.id, table).summary()}
        if kind == "lock":
            table.host.lock(conn, msg["locked"])
            return "table", {"table": table.summary()}
        if kind == "pass_host":
            table.host.pass_host(conn, msg["seat"])
            return "table", {"table": table.summary()}
        if kind == "rematch":
            table = table.host.ask_rematch(conn) or table
            return "table", {"table": table.summary()}
        if kind == "hint":  # answered later, to this connection only (server.match.hints)
            table.hints.ask(conn, msg.get("seq"))
            return None
        if kind == "emote":  # the sender's copy of the pushed emote is its reply
            return "emote", table.host.emote(conn, msg["emote"])
        raise ProtocolError("unknown_type")  # pragma: no cover - check_fields knows every type


def too_many_codes_say(wait_s: float) -> Sentence:
    """The ``too_many_codes`` sentence (also the phone page's HTTP 429): try again in
    ``wait_s`` seconds, rounded up, at least 1."""
    return say("too_many_codes", s=max(1, math.ceil(wait_s)))


class Refused(protocol.Protocol):
    """A connection the server has no room for (``server.max_connections``): it is told
    why in one ``error`` line (``code``, ``message``), then closed -- aborted after
    :attr:`ABORT_S` if the peer does not read. It never counts as a connection and reads
    nothing."""

    #: A refused peer that does not read its error is cut off after this long (s).
    ABORT_S = 1.0

    def __init__(self, clock: Any, code: str, message: Sentence):
        self.clock = clock
        self.line = encode("error", **ProtocolError(code, message).fields())
        self._abort: Any = None

    def connectionMade(self) -> None:
        transport: Any = self.transport
        transport.write(self.line)
        transport.loseConnection()
        self._abort = self.clock.callLater(self.ABORT_S, transport.abortConnection)

    def dataReceived(self, data: bytes) -> None:
        """Ignored: the connection is closing."""

    def connectionLost(self, reason: Any = None) -> None:
        if self._abort is not None and self._abort.active():
            self._abort.cancel()
        self._abort = None


class LobbyFactory(protocol.ServerFactory):
    """Holds the :class:`Lobby` and guards the door (docs/PROTOCOL.md "Transport and
    framing"):

    * at most ``server.max_unauthenticated_per_address`` connections of one address may
      wait for their ``hello``: a newer one closes the oldest (``error hello_timeout``),
      so idle sockets, however many, never keep a player of the same machine out;
    * at most ``server.max_connections_per_address`` connections of one address, greeted
      or not (this machine's own, on loopback, are not counted: the host's clients and
      bots): a newcomer beyond it closes the oldest of that address still waiting for
      its hello, else it is refused with one ``error too_many_connections`` line saying
      what to do. So one address cannot fill ``server.max_connections``;
    * at most ``server.max_connections`` connections at once: when full, the oldest
      connection still waiting for its hello (for :data:`EVICT_MIN_AGE_S` at least) is
      closed to make room, else the newcomer is refused: it gets one ``error
      server_full`` line saying what to do (:class:`Refused`), then is closed. Greeted
      connections are never closed for a newcomer.
    """

    #: A connection waiting for its hello is closed for a newcomer (when the server is
    #: full) only once it has had this long to say it (s).
    EVICT_MIN_AGE_S = 1.0

    def __init__(self, lobby: Lobby):
        self.lobby = lobby
        self.live: set[Any] = set()  # every open connection (not yet closed for room)
        #: address -> its connections still waiting for their hello, oldest first
        self.unauthenticated: dict[Any, dict[Any, None]] = {}
        #: address -> its open connections, greeted or not (loopback not counted)
        self.by_address: dict[Any, set[Any]] = {}

    @property
    def open_connections(self) -> int:
        return len(self.live)

    def waiting_hello(self) -> int:
        """Connections still waiting for their hello, every address."""
        return sum(len(w) for w in self.unauthenticated.values())

    def buildProtocol(self, addr: Any) -> Any:
        from server.protocol import ServerProtocol

        server = self.lobby.config["server"]
        host = getattr(addr, "host", None)
        per_address = int(server.get("max_unauthenticated_per_address", 16))
        waiting = self.unauthenticated.get(host)
        if per_address > 0 and waiting and len(waiting) >= per_address:
            self._evict(next(iter(waiting)), say("evicted_address"))
        cap = int(server.get("max_connections_per_address", 32))
        mine = self.by_address.get(host)
        if cap > 0 and mine and len(mine) >= cap:
            waiting = self.unauthenticated.get(host)
            if not waiting:
                log.warn("refusing connection from {addr}: {n} connections from that address",
                         addr=addr, n=len(mine))
                return Refused(self.lobby.clock, "too_many_connections", say("crowded", n=cap))
            self._evict(next(iter(waiting)), say("evicted_no_hello"))
        if len(self.live) >= int(server["max_connections"]):
            victim = self._oldest_waiting()
            if victim is None:
                log.warn("refusing connection from {addr}: too many connections", addr=addr)
                return Refused(self.lobby.clock, "server_full", say("server_full", n=int(server["max_connections"])))
            self._evict(victim, say("evicted_full"))
        proto = ServerProtocol(self.lobby, addr)
        proto.factory = self
        return proto

    def _oldest_waiting(self) -> Any:
        now = self.lobby.clock.seconds()
        oldest = None
        for waiting in self.unauthenticated.values():
            first = next(iter(waiting), None)
            if first is not None and now - first.opened_at >= self.EVICT_MIN_AGE_S and (
                    oldest is None or first.opened_at < oldest.opened_at):
                oldest = first
        return oldest

    def _evict(self, proto: Any, why: Sentence) -> None:
        """Close ``proto`` (waiting for its hello) to make room; it counts no more."""
        self._forget(proto)
        proto.refuse("hello_timeout", why)

    # -- what connections tell ----------------------------------------------------------
    def opened(self, proto: Any) -> None:
        self.live.add(proto)
        if not proto.greeted:
            self.unauthenticated.setdefault(proto.peer_host, {})[proto] = None
        if not _is_loopback(proto.peer_host):
            self.by_address.setdefault(proto.peer_host, set()).add(proto)

    def greeted(self, proto: Any) -> None:
        waiting = self.unauthenticated.get(proto.peer_host)
        if waiting is not None:
            waiting.pop(proto, None)
            if not waiting:
                del self.unauthenticated[proto.peer_host]

    def closed(self, proto: Any) -> None:
        self._forget(proto)

    def _forget(self, proto: Any) -> None:
        self.live.discard(proto)
        self.greeted(proto)
        mine = self.by_address.get(proto.peer_host)
        if mine is not None:
            mine.discard(proto)
            if not mine:
                del self.by_address[proto.peer_host]


def _is_loopback(host: Any) -> bool:
    """``host`` (an address string) is this machine's own (127.0.0.0/8, ::1, or those as
    IPv4-mapped IPv6)."""
    try:
        ip = ipaddress.ip_address(str(host).split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return bool(ip.is_loopback or (mapped is not None and mapped.is_loopback))
