"""Property-based fuzzing of the protocol over a real connection, during a real match
(issue 15, "A protocol a stranger can implement and nobody can break").

A server runs in this process. ``mafia-bot`` plays a whole Omerta match on it (two TCP
bots and one server bot, a fixed seed): once without noise, once while a fuzz
connection sends random and mutated messages built from docs/protocol.schema.json --
wrong types, missing and extra fields, huge, negative and non-finite numbers, deep
nesting, lone surrogates, invalid UTF-8, unknown types, odd envelopes, valid-looking
actions with bad values, claims with odd stamps, legal actions of its own table and
lobby requests aimed at the bots' table. The fuzz connection sits at its own Omerta
table (with two server bots) so that its actions and claims reach the game code.

Every message gets a reply or a documented error, never ``internal``; every line the
server writes (to anybody: a tap records every connection) is strict JSON and valid
against the schema; no critical entry reaches the Twisted log; and the match beside ends
with the same result as without the noise. The number of messages sent is printed.

The server's abuse limits (``server.protocol.MAX_ERRORS``, ``MAX_MESSAGES_PER_S``) are
lifted for the run, else the fuzz connection would be closed after 50 refused messages
(that limit has its own tests). CI runs ``FUZZ_BATCHES`` batches (derandomized, see
tests/conftest.py); ``PROTOCOL_FUZZ_BATCHES=<n>`` runs more, and
benchmarks/protocol_fuzz.py prints the figures of a longer run.
"""
from __future__ import annotations

import json
import math
import os
import threading
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twisted.internet import defer, protocol, threads
from twisted.logger import LogLevel, globalLogPublisher
from twisted.protocols.basic import LineReceiver

from server import protocol as server_protocol
from server.app import start_server
from shared.config import merge
from shared.protocol import ERROR_CODES
from tests.test_protocol_schema import (FAST_BOTS, Tap, check_lines, defn, errors,
                                        strict_parse)

#: Batches of messages in the CI run (each 1-12 messages).
FUZZ_BATCHES = int(os.environ.get("PROTOCOL_FUZZ_BATCHES", "300"))
#: seq values of the fuzzer's own probes; generated messages never use them.
PROBE_SEQ = 2**52
SEED = 11
#: Rounds of the match beside: long enough for the noise to overlap it.
ROUNDS = 3
#: Large claim bounds: the noise may slow the reactor, the bots' claims must still be
#: judged by their drawn reaction times (as in tests/test_loopback_restart.py).
TIMING = {"rtt_bound_floor_ms": 1000, "rtt_bound_cap_ms": 1000}


# -- messages from the schema ---------------------------------------------------------------
def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node and len(node) == 1:
        node = defn(node["$ref"].removeprefix("#/$defs/"))
    return node


_STRATEGIES: dict[tuple[int, int], st.SearchStrategy] = {}


def from_schema(node: dict[str, Any], depth: int = 0) -> st.SearchStrategy:
    """A strategy of (mostly) valid instances of a schema node (the subset the protocol
    schema uses); built once per node."""
    key = (id(node), depth)
    if key not in _STRATEGIES:
        _STRATEGIES[key] = _from_schema(node, depth)
    return _STRATEGIES[key]


def _from_schema(node: dict[str, Any], depth: int) -> st.SearchStrategy:
    node = _resolve(node)
    if "const" in node:
        return st.just(node["const"])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    if "anyOf" in node:
        return st.one_of([from_schema(n, depth) for n in node["anyOf"]])
    if "$ref" in node:
        return from_schema({"$ref": node["$ref"]}, depth)
    kind = node.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**node, "type": k}, depth) for k in kind])
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        lo, hi = node.get("minimum", -(2**53)), node.get("maximum", 2**53)
        small_lo = max(lo, -5)
        return st.one_of(st.integers(small_lo, max(small_lo, min(hi, 60))), st.integers(lo, hi))
    if kind == "number":
        return st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False))
    if kind == "string":
        return st.text(max_size=min(40, node.get("maxLength", 40)))
    if kind == "array":
        return st.lists(from_schema(node.get("items", {}), depth + 1), max_size=3 if depth < 3 else 0)
    if kind == "object" or "properties" in node:
        props = node.get("properties", {})
        required = [k for k in node.get("required", []) if k in props]
        optional = [k for k in props if k not in required]
        if depth > 4:
            return st.fixed_dictionaries({k: st.none() for k in required})
        return st.fixed_dictionaries({k: from_schema(props[k], depth + 1) for k in required},
                                     optional={k: from_schema(props[k], depth + 1) for k in optional})
    return json_values


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**60), 2**60), st.floats(), st.text(max_size=20)),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.text(max_size=8), children, max_size=4)),
    max_leaves=12)

#: Numbers that break naive servers: non-finite, huge, negative, beyond 2^53, bools.
ODD_NUMBERS = st.sampled_from([
    float("nan"), float("inf"), float("-inf"), 1e308, -1e308, 1.7976931348623157e308, 5e-324,
    2**53, 2**53 + 1, -(2**53) - 1, 2**63, 10**400, -1, -10**9, 0, 0.5, -0.0, True, False,
    "12", None, [], {}])
#: Stamps of a claim (t_press / t_shown): absent, odd, or plausible.
STAMPS = st.one_of(ODD_NUMBERS, st.floats(allow_nan=False, allow_infinity=False),
                   st.integers(-10**15, 10**15))


def dumps(msg: Any) -> bytes:
    """Python's own encoder, on purpose: it writes NaN, Infinity, 10**400 and lone
    surrogates (\\ud800) that strict JSON forbids."""
    return json.dumps(msg, allow_nan=True).encode()


@st.composite
def mutated(draw: Any, base: st.SearchStrategy) -> bytes:
    """A message from ``base``, maybe broken: a field dropped, added, or given a wrong,
    odd or deep value; a wrong envelope; a lone surrogate."""
    msg = dict(draw(base))
    how = draw(st.sampled_from(["keep", "drop", "extra", "wrong", "odd", "deep", "envelope",
                                "surrogate", "keep"]))
    keys = [k for k in msg if k != "type"]
    if how == "drop" and keys:
        del msg[draw(st.sampled_from(keys))]
    elif how == "extra":
        msg[draw(st.text(min_size=1, max_size=10))] = draw(json_values)
    elif how == "wrong" and keys:
        msg[draw(st.sampled_from(keys))] = draw(json_values)
    elif how == "odd" and keys:
        msg[draw(st.sampled_from(keys))] = draw(ODD_NUMBERS)
    elif how == "deep" and keys:
        depth = draw(st.sampled_from([15, 16, 17, 100, 3000]))
        value: Any = 1
        for _ in range(depth):
            value = [value]
        msg[draw(st.sampled_from(keys))] = value
    elif how == "envelope":
        field = draw(st.sampled_from(["v", "seq", "type"]))
        msg[field] = draw(st.one_of(ODD_NUMBERS, st.text(max_size=12), st.just(1), st.just(2)))
    elif how == "surrogate":
        target = draw(st.sampled_from(keys or ["type"]))
        msg[target] = "\ud800" + str(msg.get(target, ""))[:10]
    if "seq" in msg and isinstance(msg["seq"], int) and PROBE_SEQ <= msg["seq"] < PROBE_SEQ + 10**7:
        msg["seq"] = 1
    try:
        return dumps(msg)
    except (RecursionError, ValueError):
        return b'{"type":"list_tables"}'


RAW_LINES = st.sampled_from([
    b"NaN", b"[]", b"12", b'"hello"', b"{}", b'{"type":1}', b'{"type":null}', b"{", b'{"type":"hello"',
    b'{"type":"list_tables","v":true}', b'{"type":"list_tables","v":1.0}', b'{"type":"list_tables","v":"1"}',
    b'{"type":"list_tables","seq":1e400}', b'{"type":"pong","id":1,"tc":Infinity}',
    b'{"type":"pong","id":1,"tc":-Infinity}', b'{"type":"pong","id":1e3,"tc":1}',
    b'{"type":"hello","name":"\\udfff"}', b'{"type":"list_tables","seq":99999999999999999999}',
    b'\xff\xfe{"type":"list_tables"}', b'{"type":"list_tables"}\xc3', b'{"type":"\xed\xa0\x80"}',
    b"[" * 10000 + b"]" * 10000, b'{"a":' * 20 + b"1" + b"}" * 20, b"   ", b"\r",
    b'{"type":"list_tables","type":"hello"}', b'{"type":"action","table":1,"action":{"type":"snap","slot":NaN}}',
])


#: Placeholders the strategies write (strategies may not read the match's state);
#: :func:`render` puts the real tables and token in their place.
TABLE_MARKS = (-7770001, -7770002)
TOKEN_MARK = "TOKEN-PLACEHOLDER"


def client_requests() -> st.SearchStrategy[bytes]:
    """Requests built from the schema's client messages, aimed at the real tables (the
    bots' and the fuzzer's own) now and then, then mutated."""
    kinds = list(defn("client"))

    @st.composite
    def request(draw: Any) -> dict[str, Any]:
        kind = draw(st.sampled_from(kinds + ["no_such_type", "discover", "welcome"]))
        if kind not in defn("client"):
            return {"type": kind, "seq": draw(st.integers(0, 10**6))}
        msg = dict(draw(from_schema(defn(f"client/{kind}"))))
        if "table" in msg and draw(st.booleans()):
            msg["table"] = draw(st.sampled_from(TABLE_MARKS))
        if kind == "reconnect" and draw(st.booleans()):
            msg["token"] = TOKEN_MARK
        return msg

    return mutated(request())


@st.composite
def own_actions(draw: Any) -> tuple[str, Any]:
    """An action at the fuzzer's own table, as a recipe: a legal one (the match goes
    on), a legal claim with odd stamps, a legal action with an odd value, or an action
    from the schema (see :func:`render`)."""
    how = draw(st.sampled_from(["legal", "stamped", "bent", "schema", "legal"]))
    recipe = {"how": how, "pick": draw(st.integers(0, 10**6)), "field": draw(st.integers(0, 10)),
              "value": draw(st.one_of(ODD_NUMBERS, json_values)),
              "schema": draw(from_schema(defn("omerta/action"))),
              "seq": draw(st.integers(0, 10**6)), "stamps": {}}
    if how != "legal":
        for stamp in ("t_press", "t_shown"):
            if draw(st.booleans()):
                recipe["stamps"][stamp] = draw(STAMPS)
    return "action", recipe


def pongs() -> st.SearchStrategy[tuple[str, Any]]:
    """A pong answering the ping the fuzz connection held back, with an odd ``tc``."""
    return st.tuples(st.just("pong"), STAMPS)


_REQUESTS = client_requests()


def batches() -> st.SearchStrategy[list[tuple[str, Any]]]:
    line = st.one_of(st.tuples(st.just("line"), _REQUESTS),
                     st.tuples(st.just("line"), RAW_LINES), own_actions(), own_actions(), pongs())
    return st.lists(line, min_size=1, max_size=12)


def render(item: tuple[str, Any], env: "FuzzEnv") -> bytes:
    """The bytes of one fuzz line, with the real tables, token and legal actions."""
    kind, data = item
    if kind == "pong":
        held, env.held_ping = env.held_ping, None
        return dumps({"type": "pong", "id": held if held is not None else 1, "tc": data})
    if kind == "line":
        for mark, table in zip(TABLE_MARKS, (env.bots_table, env.own_table)):
            data = data.replace(str(mark).encode(), str(table or 987654).encode())
        return data.replace(TOKEN_MARK.encode(), (env.token or "none").encode())
    legal = list(env.legal)
    if data["how"] == "schema" or not legal:
        action = data["schema"]
    else:
        action = dict(legal[data["pick"] % len(legal)])
        fields = [k for k in action if k != "type"]
        if data["how"] == "bent" and fields:
            action[fields[data["field"] % len(fields)]] = data["value"]
    msg = {"type": "action", "seq": data["seq"], "table": env.own_table or 987654,
           "action": action, **data["stamps"]}
    try:
        return dumps(msg)
    except (ValueError, RecursionError):
        return dumps({"type": "action", "table": env.own_table, "action": action})


# -- the fuzz connection ----------------------------------------------------------------------
class FuzzClient(LineReceiver):
    """Sends raw lines; after each, a probe ``list_tables`` whose reply marks the end of
    the answers to it (the server answers lines in order). Answers pings, keeps the legal
    actions of its own table."""

    delimiter = b"\n"
    MAX_LENGTH = 1 << 22

    def __init__(self, env: "FuzzEnv"):
        self.env = env
        self.probe = PROBE_SEQ
        self.waiting: dict[int, defer.Deferred] = {}
        self.current: list[dict[str, Any]] = []
        self.lost = defer.Deferred()

    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)

    def connectionLost(self, reason: Any = None) -> None:
        self.env.closed += 1
        for d in self.waiting.values():
            d.errback(ConnectionError("the server closed the fuzz connection"))
        self.waiting = {}

    def lineReceived(self, line: bytes) -> None:
        env = self.env
        try:
            msg = strict_parse(line)
        except ValueError as e:
            env.invalid.append(str(e))
            return
        env.received += 1
        if not isinstance(msg, dict):
            env.invalid.append(f"not an object: {line[:100]!r}")
            return
        if msg.get("type") == "ping":
            if env.held_ping is None:  # kept for a fuzzed pong (see pongs())
                env.held_ping = msg["id"]
                return
            self.sendLine(json.dumps({"type": "pong", "id": msg["id"], "tc": 0.0}).encode())
            return
        if msg.get("type") in ("match_started", "update") and msg.get("table") == env.own_table:
            env.legal = msg.get("legal", [])
            env.own_over = False
        if msg.get("type") == "match_over" and msg.get("table") == env.own_table:
            env.own_over = True
        re = msg.get("re")
        if re in self.waiting:
            self.waiting.pop(re).callback(msg)
            return
        self.current.append(msg)

    def request(self, kind: str, **fields: Any) -> defer.Deferred:
        self.probe += 1
        d: defer.Deferred = defer.Deferred()
        self.waiting[self.probe] = d
        self.sendLine(json.dumps({"type": kind, "seq": self.probe, **fields}).encode())
        return d

    @defer.inlineCallbacks
    def send_fuzz(self, line: bytes):
        """Send one fuzz line; return the messages that came back before the probe's
        reply (the answer to the line and any pushes)."""
        self.current = []
        self.transport.write(line + b"\n")
        self.env.sent += 1
        yield self.request("list_tables")
        return self.current


class FuzzEnv:
    """The running server, the fuzz connection and its own table, and the figures."""

    def __init__(self) -> None:
        self.client: FuzzClient | None = None
        self.bots_table: int | None = None
        self.own_table: int | None = None
        self.own_over = False
        self.token: str | None = None
        self.legal: list[dict[str, Any]] = []
        self.held_ping: int | None = None
        self.sent = self.received = self.closed = 0
        self.sent_during_match = 0
        self.bots_done = False
        self.internal: list[str] = []
        self.undocumented: list[str] = []
        self.known: list[str] = []  # replies showing a known, reported defect (xfail tests)
        self.invalid: list[str] = []
        self.critical: list[str] = []
        self.port = 0

    def observe_log(self, event: dict[str, Any]) -> None:
        if event.get("log_level") in (LogLevel.critical,):
            from twisted.logger import formatEvent

            self.critical.append(formatEvent(event)[:500])

    @defer.inlineCallbacks
    def open(self, reactor: Any):
        """Connect, say hello, and sit at an own Omerta table with two server bots."""
        self.client = yield protocol.ClientCreator(reactor, FuzzClient, self).connectTCP(
            "127.0.0.1", self.port)
        yield self.client.request("hello", name="fuzz")
        yield self.new_table()

    @defer.inlineCallbacks
    def new_table(self):
        assert self.client is not None
        try:
            reply = yield self.client.request("create_table", game="omerta", seats=3,
                                              options={"seed": 5, "bot_think_ms": 0})
        except Exception:
            return
        if reply.get("type") != "table":
            return  # server_full: the fuzz made many tables
        self.own_table = reply["table"]["id"]
        self.legal = []
        joined = yield self.client.request("join", table=self.own_table, seat=0)
        self.token = joined.get("token")
        yield self.client.request("add_bot", table=self.own_table)
        yield self.client.request("add_bot", table=self.own_table)

    @defer.inlineCallbacks
    def run_batch(self, batch: list[tuple[str, Any]]):
        assert self.client is not None
        for item in batch:
            line = render(item, self)
            if not self.bots_done:
                self.sent_during_match += 1
            answers = yield self.client.send_fuzz(line)
            for msg in answers:
                bad = errors("server_message", msg, limit=1)
                if bad:
                    self.undocumented.append(f"{line[:120]!r} -> {json.dumps(msg)[:150]}: {bad}")
                if msg.get("type") == "error":
                    if msg.get("code") == "internal":
                        self.internal.append(f"{line[:200]!r} -> {msg.get('message')}")
                    elif msg.get("code") not in ERROR_CODES:
                        self.undocumented.append(f"{line[:120]!r} -> code {msg.get('code')!r}")
        if self.own_over or self.own_table is None:
            yield self.new_table()

    def figures(self) -> dict[str, Any]:
        return {"messages_sent": self.sent, "sent_during_match": self.sent_during_match,
                "lines_received": self.received, "internal_replies": len(self.internal),
                "invalid_lines": len(self.invalid), "critical_logs": len(self.critical),
                "undocumented_replies": len(self.undocumented),
                "known_defect_replies": len(self.known)}


def unknown_problems(problems: list[str]) -> list[str]:
    """The problems of :func:`check_lines` (every defect the fuzz found is fixed: none is
    tolerated any more)."""
    return list(problems)


# -- one run --------------------------------------------------------------------------------
def _config(tmp_path: Path) -> tuple[dict[str, Any], Path]:
    config = merge({"server": {"host": "127.0.0.1", "port": 0, "data_dir": str(tmp_path / "data")},
                    "bots": FAST_BOTS, "timing": TIMING})
    path = tmp_path / "bots.yaml"
    path.write_text(json.dumps({"bots": FAST_BOTS, "timing": TIMING}), encoding="utf-8")
    return config, path


def _bots(reactor: Any, port: int, config_path: Path) -> defer.Deferred:
    from botclient import main as botmain

    args = botmain.parse_args(["--connect", f"127.0.0.1:{port}", "--create", "omerta", "--players",
                               "3", "--server-bots", "1", "--seed", str(SEED), "--rounds", str(ROUNDS),
                               "--timeout", "120", "--config", str(config_path)])
    return botmain.play(reactor, args)


@defer.inlineCallbacks
def fuzz_run(reactor: Any, tmp_path: Path, n_batches: int, settings_kw: dict[str, Any]):
    """The clean match, then the same match with the fuzz beside it. Returns
    ``(clean_result, noisy_result, env, tap)``."""
    config, config_path = _config(tmp_path)
    env = FuzzEnv()
    globalLogPublisher.addObserver(env.observe_log)
    limits = (server_protocol.MAX_ERRORS, server_protocol.MAX_MESSAGES_PER_S)
    server_protocol.MAX_ERRORS, server_protocol.MAX_MESSAGES_PER_S = 10**9, 10**9
    server = yield start_server(reactor, config, discovery=False)
    tap = Tap(reactor, server.port)
    listening = reactor.listenTCP(0, tap, interface="127.0.0.1")
    port = listening.getHost().port
    try:
        clean = yield _bots(reactor, port, config_path)
        env.port = port
        yield env.open(reactor)
        noisy_d = _bots(reactor, port, config_path)

        def finished(result: Any) -> Any:
            env.bots_done = True
            return result

        noisy_d.addBoth(finished)
        while env.bots_table is None:  # the bots' table: the one playing that is not ours
            reply = yield env.client.request("list_tables")
            playing = [t["id"] for t in reply["tables"] if t["status"] == "playing"
                       and t["id"] != env.own_table and t["name"].startswith("Bot")]
            env.bots_table = max(playing) if playing else None
            if env.bots_table is None:
                yield threads.deferToThread(lambda: threading.Event().wait(0.02))

        @settings(max_examples=n_batches, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck), **settings_kw)
        @given(batch=batches())
        def fuzz(batch: list[tuple[str, Any]]) -> None:
            threads.blockingCallFromThread(reactor, env.run_batch, batch)

        yield threads.deferToThread(fuzz)
        noisy = yield noisy_d
        yield threads.deferToThread(lambda: threading.Event().wait(0.1))
    finally:
        if env.client is not None and env.client.transport is not None:
            env.client.transport.loseConnection()
        yield listening.stopListening()
        yield server.stop()
        server_protocol.MAX_ERRORS, server_protocol.MAX_MESSAGES_PER_S = limits
        globalLogPublisher.removeObserver(env.observe_log)
    return clean, noisy, env, tap


@pytest_twisted.inlineCallbacks
def test_fuzzed_messages_beside_a_real_match_never_break_anything(tmp_path):
    from twisted.internet import reactor

    clean, noisy, env, tap = yield fuzz_run(reactor, tmp_path, FUZZ_BATCHES, {})
    print(f"\nprotocol fuzz: {json.dumps(env.figures())}")
    assert env.sent > FUZZ_BATCHES and env.sent_during_match > 50, env.figures()
    assert env.internal == [], env.internal[:5]
    assert env.invalid == [], env.invalid[:5]
    assert env.critical == [], env.critical[:3]
    assert env.undocumented == [], env.undocumented[:5]
    seen = check_lines([ln for ln in tap.lines if ln.direction == "s2c"])
    assert unknown_problems(seen.problems) == [], seen.problems[:5]
    assert noisy == clean, (noisy, clean)


# -- defects the fuzzing and the schema found (server/ and shared/ are not ours to fix) ------
def _greeted():
    """A greeted connection on an in-process lobby (tests/test_protocol.py's harness) and
    the ids of its clock-sync burst."""
    from twisted.internet import task

    from server.lobby import Lobby
    from tests.test_protocol import Client

    clock = task.Clock()
    clock.advance(1000)
    client = Client(Lobby(merge({"server": {"name": "Test"}}), clock, testing=True), None)
    client.send_raw(b'{"type":"hello","seq":1,"name":"ann"}\n')
    pings = [strict_parse(line)["id"] for line in client.transport.value().split(b"\n")
             if line and strict_parse(line)["type"] == "ping"]
    client.transport.clear()
    return client, pings


def test_a_pong_with_a_huge_finite_tc_is_not_internal():
    client, pings = _greeted()
    critical: list[Any] = []

    def observe(event: dict[str, Any]) -> None:
        if event.get("log_level") == LogLevel.critical:
            critical.append(event)

    globalLogPublisher.addObserver(observe)
    try:
        for pid in pings[:2]:
            client.send_raw(b'{"type":"pong","seq":%d,"id":%d,"tc":1e308}\n' % (pid + 100, pid))
    finally:
        globalLogPublisher.removeObserver(observe)
    replies = [strict_parse(line) for line in client.transport.value().split(b"\n") if line]
    assert [m for m in replies if m.get("code") == "internal"] == [] and critical == []
    offset = client.proto.clock_offset_ms
    assert offset is None or math.isfinite(offset)


def test_an_unknown_field_in_a_request_is_bad_message():
    client, _ = _greeted()
    msg = {"type": "list_tables", "seq": 7, "bogus": 1}
    assert errors("client_message", msg)  # the schema refuses it
    client.send_raw(json.dumps(msg).encode() + b"\n")
    replies = [strict_parse(line) for line in client.transport.value().split(b"\n") if line]
    reply = next(m for m in replies if m.get("re") == 7)
    assert reply["type"] == "error" and reply["code"] == "bad_message", reply


@pytest.mark.parametrize("line", [b'{"type":"no_such_type","seq":true}',
                                  b'{"type":"list_tables","seq":false}'])
def test_a_boolean_seq_is_not_echoed_as_re(line):
    client, _ = _greeted()
    client.send_raw(line + b"\n")
    replies = [strict_parse(ln) for ln in client.transport.value().split(b"\n") if ln]
    assert replies and all(errors("server_message", m) == [] for m in replies), replies
