"""Server wiring: the embedded server's port fallback, and mafia-server's config."""
from __future__ import annotations

import pytest
import pytest_twisted
from twisted.internet import protocol

from client.net import ServerError, connect
from server import start_embedded
from server.main import load_config, parse_args
from shared.config import merge


@pytest_twisted.inlineCallbacks
def test_embedded_server_takes_the_next_free_port_and_serves(tmp_path):
    from twisted.internet import reactor

    busy = reactor.listenTCP(0, protocol.ServerFactory(), interface="127.0.0.1")
    taken = busy.getHost().port
    config = merge({"server": {"host": "127.0.0.1", "port": taken, "discovery_port": 0,
                               "data_dir": str(tmp_path)}})
    try:
        port = yield start_embedded(reactor, config)
        assert taken < port <= taken + 20
        client = yield connect(reactor, "127.0.0.1", port, "ann")
        assert client.welcome["name"] == "ann"
        reply = yield client.request("list_tables")
        assert reply["tables"] == []
        with pytest.raises(ServerError) as e:
            yield client.request("join", table=42)
        assert e.value.code == "unknown_table"
        client.transport.loseConnection()
    finally:
        yield busy.stopListening()


def test_config_loading(tmp_path):
    assert load_config(None)["server"]["port"] == 7777
    good = tmp_path / "c.yaml"
    good.write_text("timing:\n  collection_margin_ms: 40\n")
    assert load_config(str(good))["timing"]["collection_margin_ms"] == 40
    bad = tmp_path / "bad.yaml"
    bad.write_text("timing:\n  colection_margin_ms: 40\n")
    with pytest.raises(ValueError, match="colection_margin_ms"):
        load_config(str(bad))
    args = parse_args(["--port", "0", "--testing", "--host", "127.0.0.1"])
    assert args.port == 0 and args.testing and args.host == "127.0.0.1"
