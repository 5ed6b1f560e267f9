"""A web surface nobody on the Wi-Fi can abuse (docs/PROTOCOL.md "Private tables", "Web
controller"): private tables refused without their room code over TCP and the WebSocket
and joined with it, random codes listed nowhere, wrong codes slowed per address (HTTP
429, shared with ``join``), the WebSocket refused to foreign pages (``Origin``), a cap of
connections per address that also holds after hello, the HTTP security headers and 404s
for malformed paths, and names cleaned of control and format characters.

Real TCP, WebSocket and HTTP connections to an in-process server where the behaviour is
about the wire; ``task.Clock`` and ``StringTransport`` for the timing and the door.
"""
from __future__ import annotations

import json
import re
import socket
from typing import Any

import pytest
import pytest_twisted
from twisted.internet import defer, task, threads

from client.net import ServerError, connect
from server.app import start_server
from server.lobby import CODE_REFILL_S, CODE_TRIES, Lobby, Refused
from server.ratelimit import AddressAllowance
from server.web import rooms
from server.web.origins import OriginPolicy, origin_key
from shared.config import merge
from shared.protocol import clean_name
from tests.test_liveness import Peer, make
from tests.test_loopback import Inbox
from tests.wsclient import WSClient


# -- helpers: a real server, TCP clients, WebSocket clients, raw HTTP ---------------------------
def _config(tmp_path: Any, host: str = "127.0.0.1", **server: Any) -> dict[str, Any]:
    web = server.pop("web", {})
    return merge({"server": {"host": host, "port": 0, "data_dir": str(tmp_path), **server},
                  "web": {"port": 0, **web}})


@defer.inlineCallbacks
def _tcp(reactor: Any, running: Any, name: str):
    inbox = Inbox()
    conn = yield connect(reactor, "127.0.0.1", running.port, name, inbox)
    return conn


def _refused(d: defer.Deferred) -> defer.Deferred:
    """The ``ServerError`` code a request failed with (the test fails if it succeeded)."""
    def ok(reply: Any) -> None:
        raise AssertionError(f"expected an error, got {reply}")

    return d.addCallbacks(ok, lambda f: f.trap(ServerError) and f.value.code)


def http_get(port: int, path: bytes, host: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    """A raw ``GET path`` (bytes sent as they are): ``(status, headers lower-cased, body)``."""
    with socket.create_connection((host, port), timeout=5) as s:
        s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: " + f"{host}:{port}".encode() +
                  b"\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding") == "chunked":
        out, rest = b"", body
        while rest:
            size, _, rest = rest.partition(b"\r\n")
            n = int(size, 16)
            if n == 0:
                break
            out, rest = out + rest[:n], rest[n + 2:]
        body = out
    return int(lines[0].split()[1]), headers, body


def lan_address() -> str | None:
    """This machine's address on its LAN (not loopback), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


# -- private tables (a table option; its room code lets in) ---------------------------------------
@pytest_twisted.inlineCallbacks
def test_a_private_table_refuses_tcp_and_websocket_without_its_code_and_lets_in_with_it(tmp_path):
    from twisted.internet import reactor

    running = yield start_server(reactor, _config(tmp_path), discovery=False)
    try:
        host = yield _tcp(reactor, running, "Host")
        made = yield host.request("create_table", game="omerta", seats=4, name="Friends",
                                  options={"private": True})
        table = made["table"]
        assert table["private"] is True and rooms.normalise(table["room"]) == table["room"]
        tid, code = table["id"], table["room"]
        yield host.request("join", table=tid, seat=0)  # the host needs no code at his own table
        stranger = yield _tcp(reactor, running, "Stranger")
        listed = (yield stranger.request("list_tables"))["tables"]
        assert [t["private"] for t in listed] == [True] and "room" not in listed[0]
        wrong = "BCDFG" if code != "BCDFG" else "BCDFH"
        # over TCP: no code, a wrong code, watching without the code: refused
        assert (yield _refused(stranger.request("join", table=tid))) == "private_table"
        assert (yield _refused(stranger.request("join", table=tid, room=wrong))) == "private_table"
        assert (yield _refused(stranger.request("join", table=tid, spectate=True))) == "private_table"
        assert running.lobby.tables[tid].seats[1].conn is None and len(running.lobby.tables[tid].spectators) == 0
        # ... and with it (as typed: lower case, a dash), a seat and a spectator place
        friend = yield _tcp(reactor, running, "Friend")
        joined = yield friend.request("join", table=tid, room=f"{code[:2].lower()}-{code[2:]}")
        assert joined["seat"] == 1 and joined["token"]
        watcher = yield _tcp(reactor, running, "Watcher")
        assert (yield watcher.request("join", table=tid, spectate=True, room=code))["seat"] is None
        # over the WebSocket: the same
        phone = WSClient(running.web_port)
        yield phone.opened
        yield phone.request("hello", name="Phone")
        refused = yield phone.request("join", table=tid, seat=2)
        assert refused["type"] == "error" and refused["code"] == "private_table"
        refused = yield phone.request("join", table=tid, seat=2, room=wrong)
        assert refused["code"] == "private_table" and "wrong room code" in refused["message"]
        refused = yield phone.request("join", table=tid, spectate=True)
        assert refused["code"] == "private_table"
        joined = yield phone.request("join", table=tid, seat=2, room=code)
        assert joined["type"] == "joined" and joined["seat"] == 2
        # whoever is at the table is told the code in its table messages
        pushed = yield phone.wait_for(lambda m: m.get("type") == "table")
        assert pushed["table"]["room"] == code
        # an open table stays as easy to join as before: no code
        other = yield host.request("create_table", game="famiglia", seats=2)
        assert other["table"]["private"] is False
        assert (yield stranger.request("join", table=other["table"]["id"]))["seat"] == 0
        for c in (host, stranger, friend, watcher):
            c.transport.loseConnection()
        phone.proto.sendClose()
    finally:
        yield running.stop()


def _lobby() -> tuple[Lobby, task.Clock]:
    clock = task.Clock()
    clock.advance(100)
    return Lobby(merge({}), clock), clock


class _Conn:
    """A connection as the lobby sees it (what ``Table.join`` and ``push`` use)."""

    def __init__(self, name: str, address: str = "192.168.1.30"):
        self.name, self.peer_host = name, address
        self.pushed: list[tuple[str, dict[str, Any]]] = []

    def push(self, msg_type: str, **fields: Any) -> None:
        self.pushed.append((msg_type, fields))

    def push_raw(self, data: bytes) -> None:
        self.pushed.append(("raw", {"data": data}))

    def set_playing(self, playing: bool) -> None:
        pass


def test_the_host_makes_a_waiting_table_private_in_the_lobby_and_open_again():
    lobby, _clock = _lobby()
    host, guest = _Conn("Host"), _Conn("Guest")
    table = lobby.create_table(host, "omerta", 3, "T", {})
    reply = lobby.handle(host, {"type": "set_options", "table": table.id, "options": {"private": True}})
    assert reply is not None and reply[1]["table"]["private"] and reply[1]["table"]["room"] == table.room
    with pytest.raises(Exception) as e:
        lobby.handle(guest, {"type": "join", "table": table.id})
    assert getattr(e.value, "code", None) == "private_table"
    lobby.handle(host, {"type": "set_options", "table": table.id, "options": {"private": False}})
    assert lobby.handle(guest, {"type": "join", "table": table.id})[0] == "joined"
    with pytest.raises(Exception) as e:
        lobby.handle(host, {"type": "set_options", "table": table.id, "options": {"private": "yes"}})
    assert getattr(e.value, "code", None) == "bad_option"


def test_a_join_asked_again_with_its_key_needs_no_code_and_a_restored_table_keeps_it(tmp_path):
    lobby, clock = _lobby()
    lobby.data_dir = tmp_path
    host, friend = _Conn("Host"), _Conn("Friend")
    table = lobby.create_table(host, "omerta", 3, "T", {"private": True})
    key = "k" * 24
    first = lobby.handle(friend, {"type": "join", "table": table.id, "room": table.room, "key": key})
    again = _Conn("Friend", "192.168.1.31")  # the reply was lost: a new connection asks again
    assert lobby.handle(again, {"type": "join", "table": table.id, "key": key})[1]["seat"] == first[1]["seat"]
    # a server restarted on the same data keeps the table's code (waiting table on disk)
    restarted = Lobby(merge({}), clock, data_dir=tmp_path)
    restarted.restore()
    assert restarted.tables[table.id].room == table.room and restarted.tables[table.id].private


# -- room codes: listed nowhere, guessed slowly ----------------------------------------------------
@pytest_twisted.inlineCallbacks
def test_no_request_lists_room_codes(tmp_path):
    from twisted.internet import reactor

    from server.discovery import DiscoveryProtocol

    running = yield start_server(reactor, _config(tmp_path), discovery=False)
    try:
        host = yield _tcp(reactor, running, "Host")
        codes = []
        for private in (False, True):
            made = yield host.request("create_table", game="famiglia", seats=2, options={"private": private})
            codes.append(made["table"]["room"])
        stranger = yield _tcp(reactor, running, "Stranger")
        listed = yield stranger.request("list_tables")
        answer = DiscoveryProtocol(running.lobby, running.port).answer()
        status, _, body = yield threads.deferToThread(http_get, running.web_port, b"/api/rooms")
        assert status == 404
        for code in codes:
            assert code not in json.dumps(listed) and code.encode() not in answer and code.encode() not in body
        # codes are drawn, not a function of the id: table 1 of other servers has other codes
        assert [t["id"] for t in listed["tables"]] == [1, 2]
        firsts = {_lobby()[0].create_table(_Conn("x"), "famiglia", 2, "T", {}).room for _ in range(6)}
        assert len(firsts) >= 5 and codes[0] not in firsts
        for c in (host, stranger):
            c.transport.loseConnection()
    finally:
        yield running.stop()


@pytest_twisted.inlineCallbacks
def test_wrong_codes_get_429_after_the_rate_and_join_spends_the_same_tries(tmp_path):
    from twisted.internet import reactor

    running = yield start_server(reactor, _config(tmp_path), discovery=False)
    try:
        host = yield _tcp(reactor, running, "Host")
        made = yield host.request("create_table", game="famiglia", seats=2, options={"private": True})
        code, tid = made["table"]["room"], made["table"]["id"]
        ok = yield threads.deferToThread(http_get, running.web_port, f"/api/room/{code}".encode())
        assert ok[0] == 200 and json.loads(ok[2])["table"]["id"] == tid  # a right code spends nothing
        wrong = [c for c in ("BCDFG", "BCDFH", "BCDFJ", "BCDFK", "BCDFL", "BCDFM", "BCDFN", "BCDFP", "BCDFQ",
                             "BCDFR", "BCDFS", "BCDFT") if c != code]
        for guess in wrong[:CODE_TRIES - 1]:
            status, _, body = yield threads.deferToThread(http_get, running.web_port, f"/api/room/{guess}".encode())
            assert status == 404 and json.loads(body)["error"] == "unknown_room"
        # the last try goes to a join over TCP: the same allowance
        guesser = yield _tcp(reactor, running, "Guesser")
        assert (yield _refused(guesser.request("join", table=tid, room=wrong[-1]))) == "private_table"
        status, headers, body = yield threads.deferToThread(http_get, running.web_port,
                                                            f"/api/room/{wrong[-2]}".encode())
        assert status == 429 and json.loads(body)["error"] == "too_many_codes"
        assert 1 <= int(headers["retry-after"]) <= CODE_REFILL_S
        # over the limit even the right code is not looked at, by HTTP or by join
        assert (yield threads.deferToThread(http_get, running.web_port, f"/api/room/{code}".encode()))[0] == 429
        assert (yield _refused(guesser.request("join", table=tid, room=code))) == "too_many_codes"
        for c in (host, guesser):
            c.transport.loseConnection()
    finally:
        yield running.stop()


def test_a_try_comes_back_after_the_refill_time_per_address():
    clock = task.Clock()
    tries = AddressAllowance(clock, 3, 30.0)
    for _ in range(3):
        assert tries.allowed("10.0.0.5")
        tries.spend("10.0.0.5")
    assert not tries.allowed("10.0.0.5") and tries.allowed("10.0.0.6")  # per address
    assert tries.retry_after_s("10.0.0.5") == pytest.approx(30.0)
    clock.advance(29.9)
    assert not tries.allowed("10.0.0.5")
    clock.advance(0.1)
    assert tries.allowed("10.0.0.5") and tries.retry_after_s("10.0.0.5") == 0
    tries.spend("10.0.0.5")
    assert not tries.allowed("10.0.0.5")
    clock.advance(90)
    assert tries.allowed("10.0.0.5")
    # an address whose tries are all back is forgotten (the memory stays bounded)
    tries.PRUNE_ABOVE = 1
    tries.spend("10.0.0.7")
    tries.spend("10.0.0.8")
    assert "10.0.0.5" not in tries._left


def test_join_at_a_private_table_spends_tries_only_for_wrong_codes():
    lobby, clock = _lobby()
    host = _Conn("Host")
    table = lobby.create_table(host, "omerta", 5, "T", {"private": True})
    for n in range(CODE_TRIES):
        with pytest.raises(Exception) as e:
            lobby.handle(_Conn(f"g{n}"), {"type": "join", "table": table.id, "room": "ZZZZZ"})
        assert e.value.code == "private_table"
    with pytest.raises(Exception) as e:
        lobby.handle(_Conn("late"), {"type": "join", "table": table.id, "room": table.room})
    assert e.value.code == "too_many_codes" and "30 s" in e.value.message
    assert lobby.handle(_Conn("other", "192.168.1.77"), {"type": "join", "table": table.id, "room": table.room})
    clock.advance(CODE_REFILL_S)
    assert lobby.handle(_Conn("late"), {"type": "join", "table": table.id, "room": table.room})[0] == "joined"


# -- the Origin allow-list ------------------------------------------------------------------------
@pytest_twisted.inlineCallbacks
def test_a_foreign_origin_gets_a_clear_close_and_the_own_page_gets_in(tmp_path):
    from twisted.internet import reactor

    config = _config(tmp_path, web={"allowed_origins": ["http://mafia.lan:8080"]})
    running = yield start_server(reactor, config, discovery=False)
    port = running.web_port
    try:
        for origin in ("http://evil.example", f"http://evil.example:{port}", "null",
                       f"https://127.0.0.1:{port}", "http://mafia.lan:8081"):
            foreign = WSClient(port, origin=origin)
            yield foreign.opened
            foreign.message("hello", name="Evil")
            code = yield foreign.closed
            reason = foreign.close_reason
            assert code == 1008 and "origin not allowed" in reason, origin
            assert foreign.frames == []  # nothing of the protocol reached it
        for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}", "http://mafia.lan:8080", None):
            page = WSClient(port, origin=origin)
            yield page.opened
            welcome = yield page.request("hello", name="Phone")
            assert welcome["type"] == "welcome", origin
            page.proto.sendClose()
    finally:
        yield running.stop()


def test_the_origin_policy_trusts_the_connections_own_address_not_the_host_header():
    policy = OriginPolicy(["http://mafia.lan:7780"])
    lan = ("192.168.1.5", 7780)
    assert policy.refusal("", *lan) is None  # a program: no Origin header
    assert policy.refusal("http://192.168.1.5:7780", *lan) is None
    assert policy.refusal("http://192.168.1.5:7780/", *lan) is None
    assert policy.refusal("http://mafia.lan:7780", *lan) is None
    assert policy.refusal("HTTP://MAFIA.LAN:7780", *lan) is None
    assert policy.refusal("http://192.168.1.5:7781", *lan)  # another service of that machine
    assert policy.refusal("http://192.168.1.6:7780", *lan)
    assert policy.refusal("http://rebound.example:7780", *lan)  # DNS rebinding: a foreign name
    assert policy.refusal("http://127.0.0.1:7780", *lan)  # loopback pages only over loopback
    assert policy.refusal("http://127.0.0.1:9999", "127.0.0.1", 7780) is None  # a relay on this machine
    assert policy.refusal("file://", *lan) and policy.refusal("null", *lan) and policy.refusal("garbage", *lan)
    assert policy.refusal("http://[fe80::1]:7780", "fe80::1", 7780) is None
    assert policy.refusal("http://user@192.168.1.5:7780", *lan)
    assert origin_key("http://a.b") == ("http", "a.b", 80)
    with pytest.raises(ValueError, match="web.allowed_origins"):
        OriginPolicy(["mafia.lan"])


# -- per-address connection caps -------------------------------------------------------------------
def test_one_address_cannot_fill_the_server_greeted_or_not():
    factory, clock = make(max_connections_per_address=3, max_connections=20, max_unauthenticated_per_address=16)
    mine = [Peer(factory, "192.0.2.7") for _ in range(3)]
    for p in mine:
        assert p.request("hello", name="tab")["type"] == "welcome"
    refused = Peer(factory, "192.0.2.7")
    assert isinstance(refused.proto, Refused) and refused.closed
    (error,) = refused.read()
    assert error["code"] == "too_many_connections"
    assert "server.max_connections_per_address" in error["message"] and "close" in error["message"]
    # the others of the LAN and this machine itself still get in
    assert Peer(factory, "192.0.2.8").request("hello", name="friend")["type"] == "welcome"
    local = [Peer(factory, "127.0.0.1") for _ in range(5)]
    assert all(p.request("hello", name="bot")["type"] == "welcome" for p in local)
    # one of the address's connections closes: room for one more
    mine[0].transport.loseConnection()
    assert Peer(factory, "192.0.2.7").request("hello", name="tab")["type"] == "welcome"
    # a socket of that address still waiting for its hello makes room for a newcomer
    factory, clock = make(max_connections_per_address=3, max_connections=20)
    idle = Peer(factory, "192.0.2.7")
    clock.advance(0.1)
    greeted = [Peer(factory, "192.0.2.7") for _ in range(2)]
    for p in greeted:
        p.request("hello", name="tab")
    newcomer = Peer(factory, "192.0.2.7")
    assert not isinstance(newcomer.proto, Refused) and idle.closed and not any(p.closed for p in greeted)
    assert factory.by_address["192.0.2.7"] == {p.proto for p in greeted + [newcomer]}


@pytest_twisted.inlineCallbacks
def test_signed_in_websockets_of_one_address_are_capped_and_say_what_to_do(tmp_path):
    from twisted.internet import reactor

    lan = lan_address()
    if lan is None:
        pytest.skip("no LAN address to connect from (only loopback, which is not capped)")
    running = yield start_server(reactor, _config(tmp_path, host=lan, max_connections_per_address=4),
                                 discovery=False)
    clients: list[WSClient] = []
    try:
        for _ in range(4):
            c = WSClient(running.web_port, host=lan, bind=lan)
            clients.append(c)
            yield c.opened
            assert (yield c.request("hello", name="tab"))["type"] == "welcome"
        extra = WSClient(running.web_port, host=lan, bind=lan)
        clients.append(extra)
        yield extra.opened
        error = yield extra.wait_for(lambda m: m.get("type") == "error")
        assert error["code"] == "too_many_connections" and "max_connections_per_address" in error["message"]
        code = yield extra.closed
        reason = extra.close_reason
        assert code == 1013 and "max_connections_per_address" in reason
    finally:
        for c in clients:
            if c.opened.called and not c.closed.called:
                c.proto.sendClose()
        yield running.stop()


# -- HTTP headers and malformed paths --------------------------------------------------------------
@pytest_twisted.inlineCallbacks
def test_every_answer_has_the_security_headers_and_malformed_paths_are_404(tmp_path):
    from twisted.internet import reactor
    from twisted.logger import LogLevel, globalLogPublisher

    bad: list[dict[str, Any]] = []

    def observe(event: dict[str, Any]) -> None:
        if event.get("log_level") in (LogLevel.critical, LogLevel.error) or "log_failure" in event:
            bad.append(event)

    globalLogPublisher.addObserver(observe)
    running = yield start_server(reactor, _config(tmp_path), discovery=False)
    port = running.web_port
    try:
        for path in (b"/", b"/app.js", b"/style.css", b"/api/room/BCDFG", b"/api/strings/en", b"/nothing"):
            status, headers, _ = yield threads.deferToThread(http_get, port, path)
            assert status in (200, 404), path
            csp = headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "script-src 'self';" in csp and "unsafe" not in csp
            assert f"connect-src 'self' ws://127.0.0.1:{port};" in csp
            assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
            assert headers["server"] == "Mafia Table" and not any(ch.isdigit() for ch in headers["server"])
        for path in (b"/index.html%00", b"/%00", b"/app.js%00.html", b"/%ff", b"/index.html%0a", b"/%7f",
                     b"/static/%2e%2e/%2e%2e/etc/passwd", b"/..%2f..%2fetc%2fpasswd", b"/api/room/%00",
                     b"/api/room/%ff%fe", b"/api/strings/%00", b"/api/rooms", b"/icon.svg/x", b"/%"):
            status, headers, body = yield threads.deferToThread(http_get, port, path)
            assert status == 404, (path, status)
            assert headers["x-content-type-options"] == "nosniff" and b"Traceback" not in body
        assert bad == [], [e.get("log_format") for e in bad]
        # the page needs no inline script or style: the CSP does not have to allow one
        _, _, page = yield threads.deferToThread(http_get, port, b"/")
        html = page.decode()
        assert "<script src=" in html and "<script>" not in html and " style=" not in html
        assert not re.search(r"<[^>]*\son\w+\s*=", html)  # no inline event handler
    finally:
        globalLogPublisher.removeObserver(observe)
        yield running.stop()


# -- names ---------------------------------------------------------------------------------------
def test_names_lose_control_and_format_characters():
    assert clean_name("A\x00n\x07n\x1b[31m\x7f", 40) == "Ann[31m"
    assert clean_name("\u202eevil\u202c \u2066Bob\u2069", 40) == "evil Bob"
    assert clean_name("Z\u200bo\u200ce\u200d\u2060\ufeff\u00ad", 40) == "Zoe"
    assert clean_name("  Lena\t\n\u2028 la\u00a0Rossa ", 40) == "Lena la Rossa"
    assert clean_name("Léa 🎲", 40) == "Léa 🎲"  # letters and emoji of every script stay
    assert clean_name("\x00\u202e\u200b", 40) == ""
    assert clean_name("x" * 50 + "\u200b", 40) == "x" * 40


@pytest_twisted.inlineCallbacks
def test_names_are_cleaned_over_the_wire(tmp_path):
    from twisted.internet import reactor

    running = yield start_server(reactor, _config(tmp_path), discovery=False)
    try:
        inbox = Inbox()
        ann = yield connect(reactor, "127.0.0.1", running.port, "\u202eA\x00n\x1bn\u200b", inbox)
        assert ann.welcome["name"] == "Ann"
        ghost = yield connect(reactor, "127.0.0.1", running.port, "\u200b\u202e\x07", Inbox())
        assert ghost.welcome["name"] == "Player"  # nothing visible left: the default name
        made = yield ann.request("create_table", game="famiglia", seats=2, name="\u2066Friday\x00\u2069 night")
        assert made["table"]["name"] == "Friday night"
        for c in (ann, ghost):
            c.transport.loseConnection()
    finally:
        yield running.stop()
