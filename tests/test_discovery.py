"""LAN discovery: the server's UDP answer and the client's discover()."""
from __future__ import annotations

import json

import pytest_twisted
from twisted.internet import task

from client.net import discover
from server.discovery import MAX_ANSWER, DiscoveryProtocol
from server.lobby import Lobby
from shared.config import merge


class _Udp:
    def __init__(self):
        self.sent = []

    def write(self, data, addr):
        self.sent.append((json.loads(data), addr))


def _lobby(name="Den"):
    return Lobby(merge({"server": {"name": name}}), task.Clock())


def test_answers_discover_and_ignores_anything_else():
    lobby = _lobby()
    proto = DiscoveryProtocol(lobby, 7781)
    proto.transport = _Udp()
    proto.datagramReceived(b"hello?", ("10.0.0.2", 5000))
    proto.datagramReceived(b'{"type": "list_tables"}', ("10.0.0.2", 5000))
    assert proto.transport.sent == []
    proto.datagramReceived(b'{"v": 1, "type": "discover"}', ("10.0.0.2", 5000))
    [(answer, addr)] = proto.transport.sent
    assert addr == ("10.0.0.2", 5000)
    assert answer["type"] == "server" and answer["name"] == "Den" and answer["tcp_port"] == 7781
    assert answer["tables"] == [] and answer["id"] == lobby.server_id


def test_answer_fits_a_datagram_with_many_tables():
    lobby = _lobby()
    conn = type("C", (), {"conn_id": 1, "name": "x"})()
    lobby.config["server"]["max_tables"] = 500
    for i in range(300):
        lobby.create_table(conn, "omerta", 5, f"table number {i}", {})
    data = DiscoveryProtocol(lobby, 7777).answer()
    assert len(data) <= MAX_ANSWER and json.loads(data)["tables"]


@pytest_twisted.inlineCallbacks
def test_discover_finds_a_server_on_this_machine():
    from twisted.internet import reactor

    lobby = _lobby("Kitchen")
    udp = reactor.listenUDP(0, DiscoveryProtocol(lobby, 7790), interface="127.0.0.1")
    try:
        found = yield discover(reactor, port=udp.getHost().port, timeout=0.3)
    finally:
        yield udp.stopListening()
    assert found == [{"name": "Kitchen", "host": "127.0.0.1", "tcp_port": 7790, "tables": []}]


@pytest_twisted.inlineCallbacks
def test_discover_with_nobody_answering_is_an_empty_list():
    from twisted.internet import reactor

    probe = reactor.listenUDP(0, DiscoveryProtocol(_lobby(), 1), interface="127.0.0.1")
    port = probe.getHost().port
    yield probe.stopListening()  # a port where nobody listens any more
    found = yield discover(reactor, port=port, timeout=0.2)
    assert found == []

