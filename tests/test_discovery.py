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
        found = yield discover(reactor, port=udp.getHost().port, timeout=0.3, mdns=False)
    finally:
        yield udp.stopListening()
    assert found == [{"name": "Kitchen", "host": "127.0.0.1", "tcp_port": 7790, "tables": [], "id": lobby.server_id}]


@pytest_twisted.inlineCallbacks
def test_discover_with_nobody_answering_is_an_empty_list():
    from twisted.internet import reactor

    probe = reactor.listenUDP(0, DiscoveryProtocol(_lobby(), 1), interface="127.0.0.1")
    port = probe.getHost().port
    yield probe.stopListening()  # a port where nobody listens any more
    found = yield discover(reactor, port=port, timeout=0.2, mdns=False)
    assert found == []


@pytest_twisted.inlineCallbacks
def test_the_query_is_sent_again_while_the_search_lasts():
    """A datagram lost on a busy Wi-Fi is not the end of the search."""
    from twisted.internet import reactor

    lobby = _lobby("Attic")
    asked = []

    class Counting(DiscoveryProtocol):
        def datagramReceived(self, data, addr):
            asked.append(data)
            super().datagramReceived(data, addr)

    udp = reactor.listenUDP(0, Counting(lobby, 7791), interface="127.0.0.1")
    try:
        found = yield discover(reactor, port=udp.getHost().port, timeout=1.0, mdns=False)
    finally:
        yield udp.stopListening()
    assert len(asked) == 2 and [s["name"] for s in found] == ["Attic"]  # at 0 s and at 0.8 s


def test_a_server_found_over_mdns_is_asked_for_its_tables_and_kept_once():
    from client.net import _DiscoveryClient

    client = _DiscoveryClient(7778)
    client.transport = _Udp()
    client.mdns_found({"name": "Den", "host": "192.0.2.7", "tcp_port": 7777, "id": "abc"})
    client.mdns_found({"name": "Den", "host": "192.0.2.7", "tcp_port": 7777, "id": "abc"})  # updated
    assert client.transport.sent == [({"v": 1, "type": "discover"}, ("192.0.2.7", 7778))]  # asked once
    assert list(client.found.values()) == [{"name": "Den", "host": "192.0.2.7", "tcp_port": 7777, "tables": [],
                                            "id": "abc", "via": "mdns"}]
    table = {"id": 1, "name": "Friday"}
    answer = {"v": 1, "type": "server", "id": "abc", "name": "Den", "tcp_port": 7777, "tables": [table]}
    client.datagramReceived(json.dumps(answer).encode(), ("192.0.2.7", 7778))
    assert list(client.found.values()) == [{"name": "Den", "host": "192.0.2.7", "tcp_port": 7777,
                                            "tables": [table], "id": "abc"}]
    client.mdns_found({"name": "Den", "host": "192.0.2.7", "tcp_port": 7777, "id": "abc"})
    assert client.found[("abc", 7777)]["tables"] == [table]  # the answer with tables stays


def test_the_service_name_fits_a_dns_label_and_tells_two_servers_apart():
    from server.discovery import MAX_LABEL, instance_name

    a, b = instance_name("Mafia Table", "0123456789"), instance_name("Mafia Table", "abcdef0123")
    assert a != b and a == "Mafia Table (012345)"
    long = instance_name("Zoé's " + "very " * 30 + "long table", "0123456789")
    assert len(long.encode()) <= MAX_LABEL and long.endswith(" (012345)")


def _lan_ip():
    from shared.addresses import lan_addresses

    return next((a for a in lan_addresses() if ":" not in a), None)


@pytest_twisted.inlineCallbacks
def test_a_server_is_found_over_mdns_alone(tmp_path, monkeypatch):
    """The broadcast finds nothing (nobody answers UDP on the port asked): the server's
    mDNS announcement is what finds it, with its LAN address and TCP port."""
    import pytest
    from twisted.internet import reactor

    from server.app import start_server

    if _lan_ip() is None:
        pytest.skip("no LAN address: mDNS has no interface to go through")
    monkeypatch.setenv("MAFIA_TABLE_MDNS", "1")
    config = merge({"server": {"host": "0.0.0.0", "port": 0, "discovery_port": 0, "name": "Cellar",
                               "data_dir": str(tmp_path)}})
    running = yield start_server(reactor, config)
    try:
        assert running.mdns is not None
        yield running.mdns.ready  # the announcement probes the network for about 1.5 s first
        probe = reactor.listenUDP(0, DiscoveryProtocol(_lobby(), 1), interface="127.0.0.1")
        silent = probe.getHost().port
        yield probe.stopListening()
        found = yield discover(reactor, port=silent, timeout=2.5)
    finally:
        yield running.stop()
    ours = [s for s in found if s.get("id") == running.lobby.server_id]
    assert ours and ours[0]["tcp_port"] == running.port and ours[0]["via"] == "mdns"
    assert ours[0]["name"] == "Cellar" and ours[0]["host"] != "127.0.0.1"




def test_a_server_found_over_mdns_alone_says_picking_it_shows_its_tables():
    from client import i18n
    from client.scenes.join import server_line

    i18n.setup("en")
    line = server_line({"name": "Cellar", "host": "192.0.2.2", "tcp_port": 7777, "tables": [], "via": "mdns"})
    assert line == "Cellar — 192.0.2.2:7777: pick it to see its tables"


def test_mdns_is_off_for_a_loopback_server_and_when_the_environment_says_so(monkeypatch):
    from server.app import MDNS_ENV, mdns_wanted

    monkeypatch.setenv(MDNS_ENV, "1")
    assert mdns_wanted({"host": "0.0.0.0"}) and not mdns_wanted({"host": "0.0.0.0", "mdns": False})
    assert not mdns_wanted({"host": "127.0.0.1"})  # nobody else could connect anyway
    monkeypatch.setenv(MDNS_ENV, "0")
    assert not mdns_wanted({"host": "0.0.0.0"})


def test_remembered_servers_come_first_answering_or_not():
    from client.net import _with_remembered

    found = {("a", 7777): {"name": "Attic", "host": "192.0.2.9", "tcp_port": 7777, "tables": [], "id": "a"},
             ("b", 7777): {"name": "Barn", "host": "192.0.2.3", "tcp_port": 7777, "tables": [], "id": "b"}}
    out = _with_remembered(found, [("192.0.2.50", 7777), ("192.0.2.9", 7777)])
    assert [(s["host"], s.get("via"), s.get("recent")) for s in out] == [
        ("192.0.2.50", "recent", True), ("192.0.2.9", None, True), ("192.0.2.3", None, None)]


@pytest_twisted.inlineCallbacks
def test_the_scan_finds_a_server_that_answers_no_broadcast():
    """Nothing answered the search: a TCP scan of the /24 finds the game port open; the
    host that also answers the datagram comes with its name and tables, the other as
    its address."""
    import ipaddress

    from twisted.internet import protocol, reactor

    from client.net import scan

    lobby = _lobby("Garage")
    tcp = reactor.listenTCP(0, protocol.Factory.forProtocol(protocol.Protocol), interface="127.0.0.9")
    port = tcp.getHost().port
    other = reactor.listenTCP(port, protocol.Factory.forProtocol(protocol.Protocol), interface="127.0.0.10")
    udp = reactor.listenUDP(0, DiscoveryProtocol(lobby, port), interface="127.0.0.9")
    try:
        found = yield scan(reactor, port, network=ipaddress.ip_network("127.0.0.0/28"), timeout=0.5,
                           port=udp.getHost().port)
    finally:
        for p in (tcp, other, udp):
            yield p.stopListening()
    assert [(s["name"], s["host"], s["tcp_port"], s.get("via")) for s in found] == [
        ("Garage", "127.0.0.9", port, None), ("127.0.0.10", "127.0.0.10", port, "scan")]


def test_the_scan_covers_the_lan_addresss_24_and_not_loopback():
    from client.net import local_subnet

    assert str(local_subnet("192.168.1.37")) == "192.168.1.0/24"
    assert local_subnet("127.0.0.1") is None and local_subnet("fd00::2") is None


def test_the_join_screen_asks_remembered_servers_and_scans_when_nothing_answers(tmp_path, monkeypatch):
    from twisted.internet import defer

    from client import net
    from client.scenes.join import JoinScene, remember_server
    from tests.test_client_app import make_app

    app = make_app(tmp_path)
    asked, scanned = [], []
    monkeypatch.setattr(net, "discover", lambda reactor, port, remembered=(): asked.append(list(remembered))
                        or defer.succeed([]))
    monkeypatch.setattr(net, "local_subnet", lambda address=None: "192.0.2.0/24")
    monkeypatch.setattr(net, "scan", lambda reactor, tcp_port, network, port: scanned.append((tcp_port, network))
                        or defer.succeed([{"name": "Den", "host": "192.0.2.8", "tcp_port": tcp_port, "tables": []}]))
    for address in ("192.0.2.5:7777", "192.0.2.6:7777", "192.0.2.5:7777"):
        remember_server(app.settings, address)
    assert app.settings.recent_servers == ["192.0.2.5:7777", "192.0.2.6:7777"]
    scene = app.reset(JoinScene(app))
    assert asked == [[("192.0.2.5", 7777), ("192.0.2.6", 7777)]]
    assert scene.searched_empty and "Scan the network" in scene.state
    scene.discover()  # the button now scans
    assert scanned == [(7777, "192.0.2.0/24")] and [s["name"] for s in scene.servers] == ["Den"]


def test_the_lan_address_comes_before_vpn_container_and_ipv6_ones():
    from shared.addresses import ranked

    pairs = [("lo", "127.0.0.1"), ("docker0", "172.17.0.1"), ("tailscale0", "100.101.1.2"),
             ("wlan0", "fe80::1%wlan0"), ("wlan0", "2001:db8::5"), ("wg0", "10.8.0.2"),
             ("eth0", "10.0.0.12"), ("wlan0", "192.168.1.37")]
    # the LAN's private ranges first, then the container, mesh-VPN and VPN adapters, IPv6 last
    assert ranked(pairs) == ["192.168.1.37", "10.0.0.12", "172.17.0.1", "100.101.1.2", "10.8.0.2", "2001:db8::5"]


def test_the_host_clicks_the_address_line_for_the_next_lan_address(tmp_path, monkeypatch):
    from client.scenes import lobby as lobby_mod
    from tests.test_client_host_controls import click, lobby

    monkeypatch.setattr(lobby_mod, "lan_addresses", lambda: ["192.168.1.37", "10.8.0.2"])
    from tests.test_client_emotes import make_app

    app = make_app(tmp_path)
    scene, link = lobby(app)
    link.address = ("127.0.0.1", 7777)
    scene.address = scene._address()
    scene.rebuild()
    assert scene.address == "192.168.1.37:7777"
    click(app, scene.controls["address"])
    app.display.render(1 / 60, flip=False)
    assert scene.address == "10.8.0.2:7777" and app.lan_choice == 1
    assert "10.8.0.2:7777 (address 2 of 2" in scene.controls["address"].text
