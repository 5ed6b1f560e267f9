"""A client that reads promptly is never dropped for the replies of its own requests
(docs/PROTOCOL.md "Errors", "Lobby"): the server stops reading its requests while their
replies wait to be sent, so a burst of legal requests waits in the client's own socket
instead of counting as "stopped reading"; a ``tables`` reply is one page that fits in a
line, the rest asked with ``after``; a slow reader whose output still drains is kept.
Real loopback TCP and the WebSocket for the bursts, a fake clock for the rest."""
from __future__ import annotations

import json
from typing import Any

import pytest_twisted
from twisted.internet import defer, protocol, task
from twisted.internet.testing import StringTransport
from twisted.protocols.basic import LineReceiver

from server import protocol as sp
from server.lobby import TABLES_PAGE_BYTES
from shared.config import merge
from shared.protocol import MAX_LINE
from tests.test_protocol import Client, make_lobby
from tests.wsclient import WSClient as WebClient

#: Many tables with long names: 200 summaries are several pages.
TABLES = 200
BURST = 100


class Reader(LineReceiver):
    """A TCP client that reads everything at once, answers pings and keeps the rest;
    it takes lines no longer than the pygame client does (``MAX_LINE``)."""

    delimiter = b"\n"
    MAX_LENGTH = MAX_LINE

    def __init__(self) -> None:
        self.msgs: list[dict[str, Any]] = []
        self.too_long = False
        self.lost = defer.Deferred()

    def lineReceived(self, line: bytes) -> None:
        msg = json.loads(line)
        if msg["type"] == "ping":
            self.sendLine(json.dumps({"type": "pong", "id": msg["id"], "tc": 1.0}).encode())
        self.msgs.append(msg)

    def lineLengthExceeded(self, line: bytes) -> None:
        self.too_long = True
        self.transport.loseConnection()

    def connectionLost(self, reason: Any = None) -> None:
        self.lost.callback(None)

    def replies(self) -> dict[int, dict[str, Any]]:
        return {m["re"]: m for m in self.msgs if "re" in m}


def _open_tables(lobby: Any, n: int) -> None:
    class Creator:  # a connection that never sat down: its tables stay open
        conn_id = 0

    for i in range(n):
        lobby.create_table(Creator(), "family_business", 6, f"{i:03d} " + "a long table name " * 4, {})


@defer.inlineCallbacks
def _wait(reactor: Any, done: Any, timeout: float = 30.0):
    for _ in range(int(timeout / 0.02)):
        if done():
            return True
        yield task.deferLater(reactor, 0.02, lambda: None)
    return False


@pytest_twisted.inlineCallbacks
def test_a_burst_of_requests_whose_replies_dwarf_the_output_bound_is_answered(tmp_path):
    from twisted.internet import reactor

    from server.app import start_server

    config = merge({"server": {"host": "127.0.0.1", "port": 0, "max_output_buffer_kb": 128,
                               "data_dir": str(tmp_path)}, "web": {"port": 0}})
    running = yield start_server(reactor, config, discovery=False)
    try:
        _open_tables(running.lobby, TABLES)
        reader = yield protocol.ClientCreator(reactor, Reader).connectTCP("127.0.0.1", running.port)
        reader.sendLine(b'{"type":"hello","seq":0,"name":"burst"}')
        # a hundred pages of ~24 KiB asked in one write: 2.4 MB of replies for a 128 KiB bound
        reader.transport.write(b"".join(b'{"type":"list_tables","seq":%d}\n' % i for i in range(1, BURST + 1)))
        assert (yield _wait(reactor, lambda: len(reader.replies()) > BURST or reader.lost.called))
        assert not reader.lost.called and not reader.too_long, "a client that reads was dropped"
        replies = reader.replies()
        assert all(replies[i]["type"] == "tables" and replies[i]["next"] for i in range(1, BURST + 1))
        # the pages, asked one after the other, hold every table once, each within a line
        seen: list[int] = []
        after = None
        for seq in range(BURST + 1, BURST + 40):
            fields = {"type": "list_tables", "seq": seq, **({"after": after} if after is not None else {})}
            reader.sendLine(json.dumps(fields).encode())
            assert (yield _wait(reactor, lambda: seq in reader.replies()))
            page = reader.replies()[seq]
            assert ("scoreboard" in page) == (after is None)  # the scoreboard: first page only
            seen += [t["id"] for t in page["tables"]]
            after = page.get("next")
            if after is None:
                break
        assert sorted(seen) == seen == sorted(running.lobby.tables) and len(seen) == TABLES
        assert not reader.too_long
        page_bytes = len(json.dumps(replies[1]["tables"], separators=(",", ":")))
        assert 4 * 1024 < page_bytes <= TABLES_PAGE_BYTES
        # over the WebSocket, the same burst, one request per frame
        ws = WebClient(running.web_port)
        yield ws.opened
        ws.send({"type": "hello", "name": "phone burst", "seq": 0})
        yield ws.wait_for(lambda m: m.get("type") == "welcome")
        for i in range(1, BURST + 1):
            ws.send({"type": "list_tables", "seq": i})
        yield ws.wait_for(lambda m: m.get("re") == BURST, timeout=30)
        assert sorted(m["re"] for m in ws.frames if m.get("type") == "tables") == list(range(1, BURST + 1))
        assert not ws.closed.called
        yield ws.close()
        reader.transport.loseConnection()
        yield reader.lost
    finally:
        yield running.stop()


class Draining(StringTransport):
    """A transport whose buffer the test drains by hand (``pending_bytes``, as the
    WebSocket bridge's transport tells it)."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = 0

    def write(self, data: bytes) -> None:
        super().write(data)
        self.waiting += len(data)

    def pending_bytes(self) -> int:
        return self.waiting


def test_requests_wait_while_their_replies_wait_and_are_answered_in_order_after():
    lobby = make_lobby()
    c = Client(lobby)
    c.read()
    c.proto.pauseProducing()  # the transport's buffer is full
    c.send_raw(b"".join(b'{"type":"list_tables","seq":%d}\n' % i for i in range(10, 13)))
    assert not [m for m in c.read() if "re" in m]  # read, not answered yet
    # pongs never wait behind replies: the heartbeat and the clock go on
    c.proto.clocksync.silent_ms = 3000.0  # no pong for 3 s (the heartbeat drops at 4)
    c.proto.dataReceived(b'{"v":1,"type":"pong","id":1,"tc":5.0}\n')
    assert c.proto.clocksync.silent_ms == 0.0
    assert c.transport.producerState == "producing"  # a few requests: the socket is still read
    c.proto.resumeProducing()
    assert [m["re"] for m in c.read() if "re" in m] == [10, 11, 12]
    # WebSocket messages wait the same way, in order
    c.proto.pauseProducing()
    for i in (20, 21):
        c.proto.frameReceived(b'{"type":"list_tables","seq":%d}' % i)
    assert not [m for m in c.read() if "re" in m]
    c.proto.resumeProducing()
    assert [m["re"] for m in c.read() if "re" in m] == [20, 21]
    # a burst beyond 64 KiB of requests: the socket itself is not read until they are answered
    c.proto.pauseProducing()
    line = b'{"type":"list_tables","seq":%d' + b" " * 200 + b'}\n'  # 300 of them: no flood
    seqs = range(100, 100 + sp.READ_PAUSE_BYTES // 200 + 5)
    c.send_raw(b"".join(line % i for i in seqs))
    assert c.transport.producerState == "paused" and not [m for m in c.read() if "re" in m]
    c.proto.resumeProducing()
    assert [m["re"] for m in c.read() if "re" in m] == list(seqs)
    assert c.transport.producerState == "producing"


def test_a_slow_reader_whose_output_drains_is_kept_one_that_takes_nothing_is_dropped():
    lobby = make_lobby()
    proto = sp.ServerProtocol(lobby)
    t = Draining()
    proto.makeConnection(t)
    proto.dataReceived(b'{"type":"hello","name":"slow"}\n')
    proto.clocksync.stop()  # no pings in this test: they would only add to the buffer
    t.waiting = 0
    proto.pauseProducing()
    proto.push("update", pad="x" * 100_000)
    for _ in range(6):  # 30 s of a slow link: a little taken every 5 s
        lobby.clock.advance(5)
        t.waiting -= 10_000
    assert not proto._aborted
    # then nothing: the next check still sees the last bytes taken, the one after drops it
    lobby.clock.advance(sp.SLOW_CLIENT_S)
    assert not proto._aborted
    lobby.clock.advance(sp.SLOW_CLIENT_S)
    assert proto._aborted


def test_all_tables_follows_the_pages_for_the_clients():
    from client.net import all_tables

    lobby = make_lobby()
    _open_tables(lobby, 120)
    asked = []

    def request(msg_type, **fields):
        asked.append(fields.get("after"))
        return defer.succeed({"type": "tables", **lobby.tables_page(fields.get("after"))})

    got = all_tables(request)
    reply = got.result
    assert [t["id"] for t in reply["tables"]] == sorted(lobby.tables) and "next" not in reply
    assert "scoreboard" in reply and len(asked) >= 3 and asked[0] is None
