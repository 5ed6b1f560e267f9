"""The phone WebSocket closes with the codes docs/PROTOCOL.md "Web controller" names,
never by resetting the connection (a phone would only see 1006): 1009 for a frame over
256 KiB (and after ``error too_long`` for one over 64 KiB), 1002 for a WebSocket
protocol error, 1013 after ``error server_full``; invalid UTF-8 in a text frame is an
ordinary ``error bad_json`` and the connection goes on. An in-process server over real
TCP, an autobahn client."""
from __future__ import annotations

import json

import pytest_twisted
from twisted.internet import defer

from server.web.bridge import MAX_FRAME
from shared.config import merge
from shared.protocol import MAX_LINE
from tests.wsclient import WSClient


@defer.inlineCallbacks
def _server(tmp_path, **server):
    from twisted.internet import reactor

    from server.app import start_server

    config = merge({"server": {"host": "127.0.0.1", "port": 0, "data_dir": str(tmp_path), **server},
                    "web": {"port": 0}})
    running = yield start_server(reactor, config, discovery=False)
    return running


@defer.inlineCallbacks
def _greeted(running, name="Phone"):
    c = WSClient(running.web_port)
    yield c.opened
    c.send({"type": "hello", "name": name, "seq": 1})
    yield c.wait_for(lambda m: m.get("type") == "welcome")
    return c


@pytest_twisted.inlineCallbacks
def test_close_codes_and_invalid_utf8(tmp_path):
    running = yield _server(tmp_path)
    try:
        # invalid UTF-8 in a text frame: bad_json, answered (re), and the connection stays
        c = yield _greeted(running)
        c.send(b'{"type":"list_tables","seq":2,"name":"\xff\xfe"}')
        err = yield c.wait_for(lambda m: m.get("type") == "error")
        assert err["code"] == "bad_json"
        c.send({"type": "list_tables", "seq": 3})
        assert (yield c.wait_for(lambda m: m.get("re") == 3))["type"] == "tables"
        assert not c.closed.called
        # a frame over the protocol's line limit: error too_long, then close 1009
        c.send(json.dumps({"type": "hello", "name": "x" * (MAX_LINE + 10)}).encode())
        yield c.wait_for(lambda m: m.get("code") == "too_long")
        assert (yield c.closed) == 1009
        # a frame over the WebSocket layer's limit: close 1009, no reset
        c = yield _greeted(running)
        c.send(b'{"type":"hello","name":"' + b"y" * MAX_FRAME + b'"}')
        assert (yield c.closed) == 1009
        # a WebSocket protocol error (a frame with reserved bits set): close 1002
        c = yield _greeted(running)
        c.proto.transport.write(b"\xf1\x80" + b"\x00" * 4)
        assert (yield c.closed) == 1002
    finally:
        yield running.stop()


@pytest_twisted.inlineCallbacks
def test_a_full_server_says_so_and_closes_with_1013(tmp_path):
    running = yield _server(tmp_path, max_connections=1)
    try:
        first = yield _greeted(running, "first")
        late = WSClient(running.web_port)
        yield late.opened
        assert (yield late.closed) == 1013
        (err,) = [m for m in late.frames if m.get("type") == "error"]
        assert err["code"] == "server_full" and "server.max_connections" in err["message"]
        assert not first.closed.called
        yield first.close()
    finally:
        yield running.stop()
