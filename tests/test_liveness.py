"""Liveness of the server (docs/PROTOCOL.md "Transport and framing"): the hello timeout,
the per-address limit of connections waiting for their hello (idle sockets never keep a
player out, whatever ``max_connections`` says), the heartbeat that declares a silent
seated player away (seat held, stand-in), and the bound on what waits in the server for
a client that stops reading (dropped, its memory returned). Fake clock and
StringTransport where possible, plus real loopback TCP for the flood and the slow reader.
"""
from __future__ import annotations

import gc
import json
import socket
import time
import weakref
from typing import Any

import pytest_twisted
from twisted.internet import defer, task
from twisted.internet.address import IPv4Address
from twisted.internet.testing import StringTransport

from server.lobby import Lobby, LobbyFactory, Refused
from shared.config import merge


class Transport(StringTransport):
    """A StringTransport whose close ends the connection the way TCP does: the
    protocol's ``connectionLost`` runs (at once for an abort, and for a close too)."""

    def __init__(self, host: str = "192.168.1.1"):
        super().__init__(peerAddress=IPv4Address("TCP", host, 40000))
        self.proto: Any = None
        self.aborted = False

    def loseConnection(self) -> None:
        if self.disconnecting:
            return
        super().loseConnection()
        if self.proto is not None:
            self.proto.connectionLost(None)

    def abortConnection(self) -> None:
        self.aborted = True
        self.loseConnection()


class Peer:
    """One connection built by the factory, as a client at ``host`` would make it."""

    def __init__(self, factory: LobbyFactory, host: str = "192.168.1.1"):
        self.transport = Transport(host)
        self.proto = factory.buildProtocol(IPv4Address("TCP", host, 40000))
        self.seq = 0
        self.inbox: list[dict[str, Any]] = []
        if self.proto is not None:
            self.transport.proto = self.proto
            self.proto.makeConnection(self.transport)

    def send(self, msg_type: str, **fields: Any) -> int:
        self.seq += 1
        self.proto.dataReceived(json.dumps({"type": msg_type, "seq": self.seq, **fields}).encode() + b"\n")
        return self.seq

    def read(self, answer_pings: bool = True) -> list[dict[str, Any]]:
        data = self.transport.value()
        self.transport.clear()
        msgs = [json.loads(line) for line in data.split(b"\n") if line]
        for m in msgs:
            if m["type"] == "ping" and answer_pings and not self.transport.disconnecting:
                self.proto.dataReceived(json.dumps({"type": "pong", "id": m["id"], "tc": m["ts"]}).encode() + b"\n")
        self.inbox += [m for m in msgs if m["type"] not in ("ping", "clock")]
        return msgs

    def request(self, msg_type: str, **fields: Any) -> dict[str, Any]:
        seq = self.send(msg_type, **fields)
        self.read()
        return [m for m in self.inbox if m.get("re") == seq][-1]

    @property
    def closed(self) -> bool:
        return self.transport.disconnecting


def make(**server: Any) -> tuple[LobbyFactory, task.Clock]:
    clock = task.Clock()
    clock.advance(1000)
    lobby = Lobby(merge({"server": {"name": "Test", **server}}), clock, testing=True)
    return LobbyFactory(lobby), clock


# -- the hello timeout -----------------------------------------------------------------
def test_a_connection_without_hello_is_told_and_closed_after_the_timeout():
    factory, clock = make(hello_timeout_s=10.0)
    idle, talker, greeted = Peer(factory), Peer(factory), Peer(factory)
    greeted.request("hello", name="ann")
    talker.send("list_tables")  # talks, but not hello: still waiting for it
    clock.advance(9.9)
    assert not idle.closed and not talker.closed
    clock.advance(0.2)
    assert idle.closed and talker.closed and not greeted.closed
    error = [m for m in idle.read() if m["type"] == "error"]
    assert error[-1]["code"] == "hello_timeout" and "hello" in error[-1]["message"]
    assert factory.open_connections == 1 and factory.waiting_hello() == 0


# -- idle sockets never keep a player out ----------------------------------------------
def test_idle_sockets_over_the_per_address_limit_close_the_oldest_and_a_player_gets_in():
    factory, clock = make(max_unauthenticated_per_address=16, max_connections=64)
    flood = []
    for _ in range(1000):
        flood.append(Peer(factory, "127.0.0.1"))
        clock.advance(0.001)
    open_idle = [p for p in flood if not p.closed]
    assert open_idle == flood[-16:]  # the 16 newest wait; every older one was closed
    assert [m["code"] for m in flood[0].read()] == ["hello_timeout"]
    assert factory.waiting_hello() == 16 and factory.open_connections == 16
    # a player of the same machine connects, says hello and plays
    ann = Peer(factory, "127.0.0.1")
    assert ann.request("hello", name="ann")["type"] == "welcome"
    tid = ann.request("create_table", game="famiglia", seats=2, options={"seed": 3, "bot_think_ms": 0})["table"]["id"]
    ann.request("add_bot", table=tid)
    assert ann.request("join", table=tid)["type"] == "joined"
    started = [m for m in ann.inbox if m["type"] == "match_started"]
    assert started and started[-1]["legal"]
    reply = ann.request("action", table=tid, action=started[-1]["legal"][0])
    assert reply["type"] == "ack"
    assert sum(not p.closed for p in flood) == 15  # ann's own socket made room
    clock.advance(10.5)  # and the hello timeout closes the rest
    assert all(p.closed for p in flood) and not ann.closed


def test_a_full_server_closes_its_oldest_idle_connection_for_a_newcomer():
    factory, clock = make(max_unauthenticated_per_address=16, max_connections=40)
    # idle sockets from many machines of the LAN fill every connection the server allows
    idle = [Peer(factory, f"10.0.{i // 16}.{i % 16 + 1}") for i in range(36)]
    players = [Peer(factory, "10.1.0.1") for _ in range(4)]
    for p in players:
        p.request("hello", name="p")
    assert factory.open_connections == 40
    refused = Peer(factory, "10.2.0.1")  # all of them younger than 1 s: refused, and told why
    assert isinstance(refused.proto, Refused) and refused.closed and factory.open_connections == 40
    (error,) = refused.read()
    assert error["code"] == "server_full" and "server.max_connections" in error["message"]
    clock.advance(1.5)
    bob = Peer(factory, "10.2.0.1")
    assert bob.proto is not None and idle[0].closed and not any(p.closed for p in idle[1:])
    assert bob.request("hello", name="bob")["type"] == "welcome"
    assert not any(p.closed for p in players)  # greeted connections are never closed for room
    for p in idle[1:]:
        p.request("hello", name="late")
    refused = Peer(factory, "10.3.0.1")  # full of greeted connections: refused
    assert isinstance(refused.proto, Refused) and refused.closed
    assert [m["code"] for m in refused.read()] == ["server_full"]


@pytest_twisted.inlineCallbacks
def test_hundreds_of_idle_tcp_sockets_do_not_keep_a_player_out(tmp_path):
    """Real loopback TCP: 400 sockets that never say hello (more than max_connections),
    then a player connects, creates a table with a server bot and plays it to the end."""
    from twisted.internet import reactor

    from client.net import connect
    from server.app import start_server

    config = merge({"server": {"host": "127.0.0.1", "port": 0, "max_connections": 100,
                               "data_dir": str(tmp_path)}})
    running = yield start_server(reactor, config, discovery=False)
    factory = running.tcp.factory
    socks: list[socket.socket] = []
    started = time.monotonic()
    try:
        for _ in range(20):  # 400 sockets, 20 at a time; the reactor accepts in between
            for _ in range(20):
                s = socket.socket()
                s.setblocking(False)
                s.connect_ex(("127.0.0.1", running.port))
                socks.append(s)
            yield task.deferLater(reactor, 0.01, lambda: None)
        for _ in range(100):
            if factory.waiting_hello() >= 16 or time.monotonic() - started > 10:
                break
            yield task.deferLater(reactor, 0.01, lambda: None)
        assert factory.waiting_hello() <= 16 and factory.open_connections <= 16
        ann = yield connect(reactor, "127.0.0.1", running.port, "ann", timeout=5)
        reply = yield ann.request("create_table", game="famiglia", seats=2,
                                  options={"seed": 7, "bot_think_ms": 0})
        tid = reply["table"]["id"]
        yield ann.request("add_bot", table=tid)
        over: defer.Deferred = defer.Deferred()

        class Player:
            def on_message(self, msg: dict[str, Any]) -> None:
                if msg["type"] in ("match_started", "update") and msg.get("legal"):
                    ann.send_action(tid, msg["legal"][0]).addErrback(lambda f: None)
                elif msg["type"] == "match_over" and not over.called:
                    over.callback(msg["result"])

            def on_disconnect(self, reason: Any) -> None:
                if not over.called:
                    over.errback(reason)

        ann.listener = Player()
        yield ann.request("join", table=tid)
        over.addTimeout(20, reactor)
        result = yield over
        assert result["game"] == "famiglia"
        # the flood never took more than the room kept for connections waiting for hello
        assert factory.waiting_hello() <= 16 and factory.open_connections <= 16 + 1
        ann.transport.loseConnection()
    finally:
        for s in socks:
            s.close()
        yield running.stop()
        yield task.deferLater(reactor, 0.05, lambda: None)


# -- heartbeats ------------------------------------------------------------------------
def seated_with_two_bots(factory: LobbyFactory) -> tuple[Peer, Any]:
    ann = Peer(factory)
    ann.request("hello", name="ann")
    tid = ann.request("create_table", game="omerta", seats=3,
                      options={"seed": 4, "bot_think_ms": 0, "rounds": 1, "first_player": 1})["table"]["id"]
    ann.request("join", table=tid)
    ann.request("add_bot", table=tid)
    ann.request("add_bot", table=tid)
    return ann, factory.lobby.tables[tid]


def test_a_silent_seated_connection_is_declared_away_and_a_stand_in_plays():
    factory, clock = make(heartbeat_timeout_s=4.0)
    ann, table = seated_with_two_bots(factory)
    assert table.status == "playing"
    ann.read()
    went_silent = clock.seconds()
    while not ann.transport.aborted and clock.seconds() - went_silent < 10:
        clock.advance(0.1)  # ann's client is frozen: it answers no ping
    detected = clock.seconds() - went_silent
    assert ann.transport.aborted and ann.proto.away_declared
    assert 4.0 <= detected <= 5.1, detected  # pings (the heartbeat) come once a second
    seat = table.seats[0]
    assert seat.away and seat.token is not None and seat.conn is None  # held for her
    # the match waited for her first look: a stand-in plays it once the drop grace is over
    assert table.summary()["seats"][0]["stand_in_at"] == round((clock.seconds() + 5.0) * 1000, 3)
    for _ in range(200):
        clock.advance(0.05)
        if any(e["seat"] == 0 for e in table.log):
            break
    assert any(e["seat"] == 0 for e in table.log) and seat.stand_in == "takeover"
    # she comes back with her token
    back = Peer(factory)
    back.request("hello", name="ann")
    assert back.request("reconnect", token=seat.token, step=0)["type"] == "joined"
    assert not seat.away


def test_a_connection_answering_pings_or_a_stalled_server_is_not_declared_away():
    factory, clock = make(heartbeat_timeout_s=4.0)
    ann, table = seated_with_two_bots(factory)
    for _ in range(200):  # 20 s of play, ann's client answering every ping
        clock.advance(0.1)
        ann.read()
    assert not ann.closed
    clock.advance(60)  # the server itself stalled (a test clock jumping, a slow disk)
    clock.advance(0.1)
    assert not ann.closed
    ann.read()
    idle = Peer(factory)  # a greeted connection at no running match is never declared away
    idle.request("hello", name="idle")
    for _ in range(100):
        clock.advance(0.1)
        ann.read()
    assert not idle.closed


# -- slow readers ----------------------------------------------------------------------
def test_the_bound_counts_the_bytes_the_server_holds():
    factory, clock = make(max_output_buffer_kb=128)
    a = Peer(factory)
    a.request("hello", name="a")
    a.proto.pauseProducing()
    pad = "x" * 30_000
    sent = 0
    while not a.closed and sent < 100:
        a.proto.push("update", pad=pad)
        sent += 1
    assert a.transport.aborted and 4 <= sent <= 5  # 128 KiB: the fifth 30 kB message is one too many
    assert a.proto.pending_bytes() <= 128 * 1024


@pytest_twisted.inlineCallbacks
def test_a_never_reading_tcp_client_is_dropped_and_its_memory_returned(tmp_path):
    from twisted.internet import reactor

    from server.app import start_server

    config = merge({"server": {"host": "127.0.0.1", "port": 0, "max_output_buffer_kb": 128,
                               "data_dir": str(tmp_path)}})
    running = yield start_server(reactor, config, discovery=False)
    lobby = running.lobby
    s = socket.create_connection(("127.0.0.1", running.port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 * 1024)
    try:
        s.sendall(b'{"type":"hello","seq":1,"name":"sloth"}\n')  # then it never reads
        for _ in range(200):
            if lobby.connections:
                break
            yield task.deferLater(reactor, 0.01, lambda: None)
        (proto,) = list(lobby.connections)
        ref = weakref.ref(proto)
        pad = "y" * 50_000
        pushed = peak = 0
        started = time.monotonic()
        while ref() is not None and not ref()._aborted and time.monotonic() - started < 10:
            ref().push("update", pad=pad)
            pushed += 1
            peak = max(peak, ref().pending_bytes())
            yield task.deferLater(reactor, 0.001, lambda: None)
        assert ref() is not None and ref()._aborted, "the slow reader was not dropped"
        assert peak <= 128 * 1024  # what waited in the server never went over the bound
        # the kernel holds a little too (small send buffer), never a whole match
        assert pushed * 50_000 < 1024 * 1024, pushed
        del proto
        for _ in range(50):
            yield task.deferLater(reactor, 0.01, lambda: None)
            gc.collect()
            if ref() is None:
                break
        assert ref() is None, gc.get_referrers(ref())  # nothing keeps it (nor its buffer) alive
        assert not lobby.connections and running.tcp.factory.open_connections == 0
    finally:
        s.close()
        yield running.stop()
