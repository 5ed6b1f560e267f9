"""The published schema (docs/protocol.schema.json) against the real wire (issue 15,
"A protocol a stranger can implement and nobody can break").

* A whole match of every registered game is played over real TCP on loopback: a host
  connection creates the table, sits, adds and removes a server bot, drops its
  connection, comes back with ``reconnect`` and leaves; a spectator watches; ``mafia-bot``
  fills the other seats and plays. A tap between the clients and the server records
  every line in both directions: each one is strict JSON and valid against the schema
  (``client_message`` / ``server_message``, and per game its view, events, legal
  actions and result), no reply is ``internal``, and every message ``type``, field,
  event, event field and view key seen is both in the schema and in the text of
  docs/PROTOCOL.md or the game's appendix.
* The schema follows the code: each game's actions are its ``ACTIONS`` vocabulary, the
  error codes are ``shared.protocol.ERROR_CODES``, the request fields are
  ``shared.protocol.CLIENT_MESSAGES``.
* The requests the pygame client and ``mafia-bot`` build (every ``request(...)`` call
  in ``client/`` and ``botclient/``, hello, pong, actions with stamps) are valid.

The tap, the validators and the match scenario are reused by tests/test_protocol_fuzz.py
and benchmarks/protocol_fuzz.py.
"""
from __future__ import annotations

import ast
import dataclasses
import functools
import json
import re
from pathlib import Path
from typing import Any, Callable

import msgspec
import pytest
import pytest_twisted
from jsonschema import Draft202012Validator
from twisted.internet import defer, protocol, task

from client.net import ClientProtocol, ServerError, connect
from server.app import start_server
from shared.config import merge
from tests.test_loopback import Inbox as LoopbackInbox
from shared.games import GAMES
from shared.protocol import CLIENT_MESSAGES, ERROR_CODES, MAX_DEPTH, MAX_INT

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "docs" / "protocol.schema.json"
DOC_PATH = ROOT / "docs" / "PROTOCOL.md"
APPENDIX = ROOT / "docs" / "protocol"

#: Quick bots: every window is decided in well under a second.
FAST_BOTS = {"reaction_median_ms": 120, "reaction_floor_ms": 100, "reaction_cap_ms": 160,
             "think_ms": 0}
#: Seats of each game's scenario (the host, one server bot, the rest mafia-bot).
SCENARIO_SEATS = {"omerta": 4, "famiglia": 2, "family_business": 4, "mafiosi": 3}


# -- the schema -------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def validator(name: str) -> Draft202012Validator:
    """A validator of ``#/$defs/<name>`` (``client_message``, ``server_message``,
    ``omerta/view``, ...)."""
    s = schema()
    return Draft202012Validator({"$schema": s["$schema"], "$defs": s["$defs"],
                                 "$ref": f"#/$defs/{name}"})


def defn(path: str) -> dict[str, Any]:
    """The schema object at ``$defs/<path>``."""
    node: Any = schema()["$defs"]
    for part in path.split("/"):
        node = node[part]
    return node


def errors(name: str, instance: Any, limit: int = 3) -> list[str]:
    out = []
    for e in validator(name).iter_errors(instance):
        out.append(f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")
        if len(out) >= limit:
            break
    return out


def strict_parse(line: bytes) -> Any:
    """RFC 8259 JSON only (msgspec refuses NaN, Infinity, lone surrogates and invalid
    UTF-8), within the protocol's depth and integer bounds; raises ValueError."""
    try:
        value = msgspec.json.decode(line)
    except (msgspec.DecodeError, RecursionError) as e:
        raise ValueError(f"not strict JSON: {e}: {line[:200]!r}") from None
    stack = [(value, 0)]
    while stack:
        o, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValueError(f"nested deeper than {MAX_DEPTH}: {line[:200]!r}")
        if isinstance(o, dict):
            stack.extend((v, depth + 1) for v in o.values())
        elif isinstance(o, list):
            stack.extend((v, depth + 1) for v in o)
        elif type(o) is int and abs(o) > MAX_INT:
            raise ValueError(f"integer beyond 2^53: {line[:200]!r}")
    return value


# -- documentation text -----------------------------------------------------------------
def _tokens(text: str) -> set[str]:
    """Every identifier inside a backtick span of ``text``."""
    out: set[str] = set()
    for block in re.findall(r"```.*?```", text, flags=re.S):  # fenced examples
        out.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", block))
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for span in re.findall(r"`([^`]+)`", text):
        out.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span))
    return out


@functools.lru_cache(maxsize=None)
def doc_tokens(game: str | None = None) -> frozenset[str]:
    """Identifiers written in backticks in PROTOCOL.md (plus the game's appendix)."""
    text = DOC_PATH.read_text(encoding="utf-8")
    if game is not None:
        text += (APPENDIX / f"{game}.md").read_text(encoding="utf-8")
    return frozenset(_tokens(text))


# -- the tap: a loopback proxy that records every line ------------------------------------
@dataclasses.dataclass
class Line:
    conn: int
    direction: str  # "c2s" or "s2c"
    data: bytes


class Tap(protocol.ServerFactory):
    """Listen on loopback, forward every connection to the server at ``port`` and record
    every complete line in both directions (``lines``). ``on_line(line)`` is called as
    each line passes."""

    def __init__(self, reactor: Any, port: int, on_line: Callable[[Line], None] | None = None):
        self.reactor = reactor
        self.port = port
        self.lines: list[Line] = []
        self.on_line = on_line
        self.conns = 0

    def buildProtocol(self, addr: Any) -> "_TapIn":
        self.conns += 1
        return _TapIn(self, self.conns)

    def record(self, conn: int, direction: str, data: bytes) -> None:
        line = Line(conn, direction, data)
        self.lines.append(line)
        if self.on_line is not None:
            self.on_line(line)


class _Splitter:
    def __init__(self, tap: Tap, conn: int, direction: str):
        self.tap, self.conn, self.direction, self.buf = tap, conn, direction, b""

    def feed(self, data: bytes) -> None:
        self.buf += data
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            line = line.rstrip(b"\r")
            if line.strip():
                self.tap.record(self.conn, self.direction, line)


class _TapOut(protocol.Protocol):
    def __init__(self, inbound: "_TapIn"):
        self.inbound = inbound

    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)
        self.inbound.out = self.transport
        for data in self.inbound.early:
            self.transport.write(data)
        self.inbound.early = []

    def dataReceived(self, data: bytes) -> None:
        self.inbound.down.feed(data)
        self.inbound.transport.write(data)

    def connectionLost(self, reason: Any = None) -> None:
        self.inbound.transport.loseConnection()


class _TapIn(protocol.Protocol):
    def __init__(self, tap: Tap, conn: int):
        self.tap, self.conn = tap, conn
        self.up = _Splitter(tap, conn, "c2s")
        self.down = _Splitter(tap, conn, "s2c")
        self.out: Any = None
        self.early: list[bytes] = []

    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)
        creator = protocol.ClientCreator(self.tap.reactor, _TapOut, self)
        creator.connectTCP("127.0.0.1", self.tap.port).addErrback(
            lambda _: self.transport.loseConnection())

    def dataReceived(self, data: bytes) -> None:
        self.up.feed(data)
        if self.out is None:
            self.early.append(data)
        else:
            self.out.write(data)

    def connectionLost(self, reason: Any = None) -> None:
        if self.out is not None:
            self.out.loseConnection()


# -- a match of each game over TCP ----------------------------------------------------------
class Inbox(LoopbackInbox):
    """Pushed messages of one connection (``tests/test_loopback.Inbox``) with a wait
    long enough for a whole match."""

    def wait(self, pred: Callable[[dict], bool], timeout: float = 60.0) -> defer.Deferred:
        return super().wait(pred, timeout)


def server_config(tmp_path: Path, **server: Any) -> dict[str, Any]:
    return merge({"server": {"host": "127.0.0.1", "port": 0, "data_dir": str(tmp_path / "data"),
                             **server},
                  "bots": FAST_BOTS})


def bot_config(tmp_path: Path) -> Path:
    path = tmp_path / "bots.yaml"
    path.write_text(json.dumps({"bots": FAST_BOTS}), encoding="utf-8")  # JSON is YAML
    return path


@defer.inlineCallbacks
def play_scenario(reactor: Any, port: int, game: str, seed: int, config_path: Path,
                  options: dict[str, Any] | None = None, detours: bool = True):
    """One whole match of ``game`` on the server at ``port`` (a tap's port): a host
    connection creates the table and sits at seat 0, a spectator watches, a server bot
    takes seat 1, ``mafia-bot`` plays the other seats. With ``detours`` the host also
    adds and removes a bot, asks something refused, drops its connection after the start,
    comes back with ``reconnect`` and leaves (a bot then plays seat 0 for good), and the
    spectator asks for the table list and acts (refused). Returns ``(result, table_id)``."""
    from botclient import main as botmain

    n = SCENARIO_SEATS[game]
    host_in, spec_in = Inbox(), Inbox()
    host = yield connect(reactor, "127.0.0.1", port, "Host", host_in)
    spec = yield connect(reactor, "127.0.0.1", port, "Watcher", spec_in)
    conns = [host, spec]
    try:
        yield host.request("list_tables")
        opts = {"seed": seed, "rounds": 1, "bot_think_ms": 0, **(options or {})}
        reply = yield host.request("create_table", game=game, seats=n, name=f"schema {game}",
                                   options=opts)
        tid = reply["table"]["id"]
        yield spec.request("join", table=tid, spectate=True)
        if detours:  # the host (the table's creator) may manage bots before sitting
            yield host.request("add_bot", table=tid, seat=n - 1)
            yield host.request("remove_bot", table=tid, seat=n - 1)
        joined = yield host.request("join", table=tid, seat=0)
        token = joined["token"]
        if detours:
            for ask in (spec.request("action", table=tid, action={"type": "pass"}),
                        host.request("join", table=tid)):
                try:
                    yield ask
                except ServerError:
                    pass
        if n > 2:
            yield host.request("add_bot", table=tid)
        args = botmain.parse_args(["--connect", f"127.0.0.1:{port}", "--join", str(tid),
                                   "--timeout", "90", "--config", str(config_path)])
        played = botmain.play(reactor, args)
        yield host_in.wait(lambda m: m["type"] == "match_started")
        if detours:
            yield spec.request("list_tables")
            host.transport.loseConnection()  # the seat is held; a stand-in plays it
            yield task.deferLater(reactor, 0.3, lambda: None)
            back_in = Inbox()
            back = yield connect(reactor, "127.0.0.1", port, "Host", back_in)
            conns.append(back)
            yield back.request("reconnect", token=token, step=0)
            yield back_in.wait(lambda m: m["type"] == "match_started" and m.get("resumed"))
            yield back.request("leave", table=tid)  # a bot plays seat 0 for good
        else:
            yield host.request("leave", table=tid)
        result = yield played
        yield spec_in.wait(lambda m: m["type"] == "match_over")
        return result, tid
    finally:
        for c in conns:
            if c.transport is not None:
                c.transport.loseConnection()


# -- checking recorded lines -----------------------------------------------------------------
@dataclasses.dataclass
class Seen:
    """What a recording contained: message types and fields per direction, and per game
    the events (type -> fields), view keys (dotted paths) and result keys."""

    client: dict[str, set[str]] = dataclasses.field(default_factory=dict)
    server: dict[str, set[str]] = dataclasses.field(default_factory=dict)
    events: dict[str, dict[str, set[str]]] = dataclasses.field(default_factory=dict)
    views: dict[str, set[str]] = dataclasses.field(default_factory=dict)
    results: dict[str, set[str]] = dataclasses.field(default_factory=dict)
    problems: list[str] = dataclasses.field(default_factory=list)
    count: int = 0


def _keys(obj: Any, path: str, out: set[str]) -> None:
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(f"{path}.{k}" if path else k)
            _keys(v, f"{path}.{k}" if path else k, out)
    elif isinstance(obj, list):
        for v in obj:
            _keys(v, path + "[]", out)


def check_lines(lines: list[Line], seen: Seen | None = None) -> Seen:
    """Parse each line strictly and validate it; collect what was seen."""
    seen = seen or Seen()
    for line in lines:
        seen.count += 1
        try:
            msg = strict_parse(line.data)
        except ValueError as e:
            if line.direction == "s2c":
                seen.problems.append(f"server wrote invalid JSON: {e}")
            continue
        if line.direction == "c2s":
            bad = errors("client_message", msg)
            if bad:
                seen.problems.append(f"client line {line.data[:200]!r}: {bad}")
            if isinstance(msg, dict) and isinstance(msg.get("type"), str):
                seen.client.setdefault(msg["type"], set()).update(msg)
            continue
        bad = errors("server_message", msg)
        if bad:
            seen.problems.append(f"server line {line.data[:300]!r}: {bad}")
        kind = msg.get("type")
        seen.server.setdefault(kind, set()).update(msg)
        if kind == "error" and msg.get("code") == "internal":
            seen.problems.append(f"internal error: {line.data[:300]!r}")
        view = msg.get("view")
        if isinstance(view, dict):
            game = view.get("game")
            _keys(view, "", seen.views.setdefault(game, set()))
            for e in msg.get("events", []) + msg.get("missed", []):
                seen.events.setdefault(game, {}).setdefault(e["type"], set()).update(e)
        if kind == "match_over":
            result = msg["result"]
            seen.results.setdefault(result["game"], set()).update(result)
    return seen


def undocumented(seen: Seen) -> list[str]:
    """Every type, field, event, event field and view key seen that the schema or the
    document (PROTOCOL.md or the game's appendix, in backticks) does not name."""
    missing = []
    for direction, kinds in (("client", seen.client), ("server", seen.server)):
        for kind, fields in kinds.items():
            props = defn(f"{direction}/{kind}")["properties"] if kind in defn(direction) else None
            if props is None:
                missing.append(f"{direction} message {kind!r} is not in the schema")
                continue
            for name in {kind} | fields:
                if name not in doc_tokens():
                    missing.append(f"{direction} message {kind}: {name!r} is not in PROTOCOL.md")
            missing += [f"{direction} message {kind}: field {f!r} not in the schema"
                        for f in fields - set(props)]
    for game, events in seen.events.items():
        tokens = doc_tokens(game)
        for kind, fields in events.items():
            if kind not in defn(f"{game}/events"):
                missing.append(f"{game} event {kind!r} is not in the schema")
                continue
            props = defn(f"{game}/events/{kind}")["properties"]
            for name in {kind} | fields:
                if name not in tokens:
                    missing.append(f"{game} event {kind}: {name!r} is not in the document")
            missing += [f"{game} event {kind}: {name!r} is not in the schema"
                        for name in fields - set(props)]
    for game, keys in seen.views.items():
        tokens = doc_tokens(game)
        for key in keys:
            last = key.rsplit(".", 1)[-1].replace("[]", "")
            if last not in tokens:
                missing.append(f"{game} view key {key!r} is not in the document")
    for game, keys in seen.results.items():
        props = defn(f"{game}/result")["properties"]
        for key in keys:
            if key not in doc_tokens(game) or key not in props:
                missing.append(f"{game} result key {key!r} is not documented")
    return missing


# -- the tests --------------------------------------------------------------------------------
def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(schema())
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_error_codes_are_the_servers():
    assert defn("server/error")["properties"]["code"]["enum"] == list(ERROR_CODES)
    tokens = doc_tokens()
    assert [c for c in ERROR_CODES if c not in tokens] == []


def test_the_requests_are_the_servers():
    assert set(defn("client")) == set(CLIENT_MESSAGES)
    for kind, fields in CLIENT_MESSAGES.items():
        props = defn(f"client/{kind}")["properties"]
        assert set(props) - {"v", "type", "seq"} == set(fields), kind
        required = set(defn(f"client/{kind}")["required"]) - {"type"}
        assert required == {name for name, (_, req) in fields.items() if req}, kind


def _action_field_schema(hint: Any) -> dict[str, Any]:
    import types
    import typing

    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_action_field_schema(a) for a in typing.get_args(hint)]}
    if hint is type(None):
        return {"type": "null"}
    if origin is tuple:
        return {"type": "array", "items": _action_field_schema(typing.get_args(hint)[0]), "maxItems": 64}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer", "minimum": -(2**31 - 1), "maximum": 2**31 - 1}
    if hint is str:
        return {"type": "string", "maxLength": 200}
    raise AssertionError(f"unsupported action field type {hint!r}")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_actions_are_its_action_set(game):
    import typing

    rules = GAMES[game]
    actions = defn(f"{game}/actions")
    wanted = [t for t in rules.ACTIONS.types() if not rules.ACTIONS._by_type[t].SYSTEM_ONLY]
    assert list(actions) == wanted
    assert defn(f"{game}/action")["properties"]["type"]["enum"] == wanted
    for t in wanted:
        cls = rules.ACTIONS._by_type[t]
        hints = typing.get_type_hints(cls)
        props = actions[t]["properties"]
        assert props["type"] == {"const": t}
        assert {k: v for k, v in props.items() if k != "type"} == {
            f.name: _action_field_schema(hints[f.name]) for f in dataclasses.fields(cls)}, t
        assert t in doc_tokens(game), f"{game} action {t!r} is not in its appendix"
        for f in dataclasses.fields(cls):
            assert f.name in doc_tokens(game), f"{game} action {t}: field {f.name!r} undocumented"


def test_every_game_has_its_appendix_linked_from_protocol_md():
    text = DOC_PATH.read_text(encoding="utf-8")
    for game in GAMES:
        assert (APPENDIX / f"{game}.md").exists(), game
        assert f"(protocol/{game}.md)" in text, game


def _request_calls() -> list[tuple[str, str, set[str]]]:
    """Every ``<x>.request("type", field=...)`` call in client/ and botclient/:
    ``(where, type, keyword names)``."""
    out = []
    for path in sorted(list((ROOT / "client").rglob("*.py")) + list((ROOT / "botclient").rglob("*.py"))):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "_host_request" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                # the lobby's host controls: request(kind, table=<the lobby's>, **fields)
                names = {k.arg for k in node.keywords} | {"table"}
                out.append((f"{path.relative_to(ROOT)}:{node.lineno}", node.args[0].value, names))
                continue
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "request" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                if any(k.arg is None for k in node.keywords):
                    continue  # request(kind, **fields): a wrapper, its callers are listed
                names = {k.arg for k in node.keywords}
                out.append((f"{path.relative_to(ROOT)}:{node.lineno}", node.args[0].value, names))
    return out


#: A plausible value per request field, for the requests found in the client's code.
SAMPLE = {"name": "Ann", "game": "omerta", "seats": 4, "options": {}, "table": 3, "seat": 0,
          "spectate": True, "token": "tok", "step": 12, "features": ["delta"],
          "locked": True, "emote": "clap", "key": "k3y-of-the-client_0123", "level": "hard"}


def test_the_requests_the_pygame_client_and_mafia_bot_build_are_valid():
    from twisted.internet.testing import StringTransport

    calls = _request_calls()
    assert {kind for _, kind, _ in calls} >= {"hello", "create_table", "join", "add_bot",
                                              "remove_bot", "leave", "list_tables", "reconnect",
                                              "start", "set_options", "lock", "pass_host",
                                              "move_to_spectators", "emote", "rematch"}
    proto = ClientProtocol()
    proto.makeConnection(StringTransport())
    written: list[bytes] = []
    for where, kind, names in calls:
        assert kind in defn("client"), f"{where}: unknown request {kind!r}"
        assert names <= set(defn(f"client/{kind}")["properties"]), f"{where}: {names}"
        proto.request(kind, **{n: SAMPLE[n] for n in names})
    # an action with its stamps, an action without, the answer to a ping
    proto.send_action(3, {"type": "snap", "slot": 5}, t_press=1234.5, t_shown=1000.25)
    proto.send_action(3, {"type": "play", "card": 7})
    proto.dataReceived(b'{"v":1,"type":"ping","id":4,"ts":99.5}\n')
    written = [ln for ln in proto.transport.value().split(b"\n") if ln]
    assert len(written) == len(calls) + 3
    for line in written:
        msg = strict_parse(line)
        assert errors("client_message", msg) == [], line
    # mafia-bot's own actions come from legal: every legal action of every game is valid
    # (checked on the wire by the match tests below), and its create_table options are
    from botclient import main as botmain

    args = botmain.parse_args(["--connect", "127.0.0.1:1", "--create", "omerta", "--players", "3",
                               "--seed", "5", "--rounds", "2", "--think-ms", "10"])
    options = {"bot_think_ms": int(args.think_ms), "seed": args.seed, "rounds": args.rounds}
    assert errors("table_options", options) == []


@pytest_twisted.inlineCallbacks
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_match_over_tcp_is_valid_and_documented(tmp_path, game):
    from twisted.internet import reactor

    server = yield start_server(reactor, server_config(tmp_path), discovery=False)
    tap = Tap(reactor, server.port)
    listening = reactor.listenTCP(0, tap, interface="127.0.0.1")
    try:
        result, _ = yield play_scenario(reactor, listening.getHost().port, game, seed=7,
                                        config_path=bot_config(tmp_path))
        assert result["game"] == game and result["fixed_deal"] is True
        yield task.deferLater(reactor, 0.05, lambda: None)
    finally:
        yield listening.stopListening()
        yield server.stop()
    seen = check_lines(tap.lines)
    assert seen.problems == [], seen.problems[:5]
    assert set(seen.server) >= {"welcome", "tables", "table", "joined", "left", "ack", "error",
                                "ping", "clock", "match_started", "update", "match_over"}
    assert set(seen.client) >= {"hello", "pong", "list_tables", "create_table", "join", "leave",
                                "add_bot", "remove_bot", "action", "reconnect"}
    assert seen.events.get(game) and seen.views.get(game)
    assert undocumented(seen) == []
    print(f"{game}: {seen.count} lines validated; server sent {sorted(seen.server)}")
