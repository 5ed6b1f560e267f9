"""Issue 14: delta updates (docs/PROTOCOL.md *Session* "Features" and *Playing* "Delta
updates"), over real TCP.

A whole match of every game: seat 0 is a client that asked for ``delta`` and rebuilds
each view with :class:`client.net.ClientProtocol`, seat 1 a client that did not (full
views, as old clients and the phone page get), the other seats server bots. After every
step the rebuilt view of the delta client must be exactly the view the server would send
a full client at that step (each ``game.view`` of the match replayed from its actions),
and the full client's views must be the same replay: the two are the same protocol.
Every ``update`` line written to the delta client is a delta, smaller than the full one,
and valid against docs/protocol.schema.json.
"""
from __future__ import annotations

import json
from typing import Any

import pytest
import pytest_twisted
from twisted.internet import defer, protocol, task

from client.net import ClientProtocol
from server.app import start_server
from server.match.delivery import view_delta
from shared.config import merge
from shared.games import GAMES
from tests.test_protocol_schema import errors

FAST_BOTS = {"reaction_median_ms": 120, "reaction_floor_ms": 100, "reaction_cap_ms": 160,
             "think_ms": 0}
SEATS = {"omerta": 4, "famiglia": 2, "family_business": 4, "mafiosi": 3}


def norm(value: Any) -> Any:
    """As it is on the wire."""
    return json.loads(json.dumps(value))


class Player:
    """A client seat that records every view it ends up with (by step) and plays the
    first legal action that is not a claim (a pass in a window)."""

    def __init__(self, reactor: Any, drop_step: int | None = None):
        self.reactor = reactor
        self.proto: ClientProtocol | None = None
        self.table: int | None = None
        self.views: dict[int, Any] = {}
        self.covered: set[int] = set()  # the steps the updates covered (feature "steps")
        self.merged = 0
        self.raw_updates: list[dict[str, Any]] = []
        self.over: defer.Deferred = defer.Deferred()
        self.errors: list[str] = []
        self.drop_step = drop_step
        self.resumed = 0
        self.resumed_at = 0
        self.missed_on_resync: list[Any] = []
        self._acted_at = -1

    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind in ("match_started", "update"):
            self.views[msg["step"]] = (norm(msg["view"]), norm(msg["legal"]))
            first = msg.get("from_step", msg["step"])
            self.covered.update(range(first, msg["step"] + 1))
            self.merged += first < msg["step"]
            if msg.get("resumed"):
                self.resumed += 1
                self.resumed_at = msg["step"]
                self.missed_on_resync = msg["missed"]
            self.decide(msg["view"], msg["legal"], msg["step"])
        elif kind == "match_over" and not self.over.called:
            self.over.callback(msg["result"])

    def on_disconnect(self, reason: Any) -> None:
        pass

    def decide(self, view: dict[str, Any], legal: list[dict[str, Any]], step: int) -> None:
        if not legal or step <= self._acted_at:
            return
        w = view.get("window")
        claims = set(w.get("claim_types", ())) if isinstance(w, dict) else set()
        options = [a for a in legal if a["type"] not in claims]
        if not options:
            return
        self._acted_at = 10**9  # one action in flight at a time

        def acked(reply: dict[str, Any]) -> None:
            self._acted_at = reply["step"] - 1  # decide again from the update it caused

        def refused(f: Any) -> None:
            self.errors.append(str(f.value))
            self._acted_at = step

        self.proto.send_action(self.table, options[0]).addCallbacks(acked, refused)


class Recording(ClientProtocol):
    """The client's protocol, keeping the raw ``update`` lines it reads, and able to lose
    one on purpose (a gap in ``step``)."""

    player: Player

    def lineReceived(self, line: bytes) -> None:
        msg = json.loads(line)
        if msg.get("type") == "update":
            drop = self.player.drop_step
            if drop is not None and msg.get("from_step", msg.get("step")) <= drop <= msg.get("step"):
                self.player.drop_step = None
                return  # lost: the next delta shows a gap
            self.player.raw_updates.append(msg)
        super().lineReceived(line)


@defer.inlineCallbacks
def connect_player(reactor: Any, port: int, name: str, features: tuple[str, ...],
                   drop_step: int | None = None):
    player = Player(reactor, drop_step)
    from twisted.internet import endpoints

    factory = protocol.Factory.forProtocol(lambda: Recording(player))
    proto = yield endpoints.TCP4ClientEndpoint(reactor, "127.0.0.1", port).connect(factory)
    proto.player = player
    welcome = yield proto.request("hello", name=name, **({"features": list(features)} if features else {}))
    player.proto = proto
    return player, welcome


def replayed_views(table: Any, seat: int) -> list[Any]:
    """The view of ``seat`` at every step of the table's match (index = step)."""
    game = table.game
    state = game.new_match(table.engine_config, table.seed)
    out = [norm(game.view(state, seat))]
    for acting, action in table.actions:
        state, _ = game.apply(state, acting, action)
        out.append(norm(game.view(state, seat)))
    return out


@pytest_twisted.inlineCallbacks
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_delta_client_ends_every_step_with_the_full_clients_view(tmp_path, game):
    from twisted.internet import reactor

    config = merge({"server": {"host": "127.0.0.1", "port": 0, "data_dir": str(tmp_path / "data")},
                    "bots": FAST_BOTS})
    server = yield start_server(reactor, config, discovery=False)
    try:
        delta, welcome = yield connect_player(reactor, server.port, "delta",
                                              ("delta", "steps", "nonsense"), drop_step=5)
        assert welcome["features"] == ["delta", "steps"]  # unknown names are ignored
        full, welcome_full = yield connect_player(reactor, server.port, "full", ())
        assert "features" not in welcome_full
        reply = yield delta.proto.request("create_table", game=game, seats=SEATS[game], name="delta",
                                          options={"seed": 11, "bot_think_ms": 0})
        tid = reply["table"]["id"]
        delta.table = full.table = tid
        yield delta.proto.request("join", table=tid, seat=0)
        yield full.proto.request("join", table=tid, seat=1)
        for _ in range(SEATS[game] - 2):
            yield delta.proto.request("add_bot", table=tid)
        table = server.lobby.tables[tid]
        yield defer.DeferredList([delta.over, full.over]).addTimeout(60, reactor)
        yield task.deferLater(reactor, 0.05, lambda: None)
        steps = len(table.actions)
        assert steps > 10
        for player, seat in ((delta, 0), (full, 1)):
            reference = replayed_views(table, seat)
            lost = range(5, player.resumed_at) if player is delta else ()  # before the resync
            missing = [k for k in range(1, steps + 1) if k not in player.covered and k not in lost]
            assert not missing, missing[:5]
            for step, (view, legal) in sorted(player.views.items()):
                assert view == reference[step], (seat, step)
        # the delta client's final view is exactly the full view of its seat
        assert delta.views[steps][0] == norm(table.game.view(table.state, 0))
        # it got deltas, smaller than the whole views, valid against the schema; it lost
        # step 5, saw the gap at step 6, asked for a resync and got the whole view again
        assert delta.resumed == 1 and delta.missed_on_resync  # the events it lost came back
        assert all("view" not in u and "view_set" in u for u in delta.raw_updates)
        assert all("view" in u and "legal" in u for u in full.raw_updates)
        assert sum(len(json.dumps(u)) for u in delta.raw_updates) < 0.85 * sum(
            len(json.dumps(u)) for u in full.raw_updates)
        for u in delta.raw_updates[:50] + full.raw_updates[:50]:
            assert errors("server_message", u) == [], u
        assert errors("client_message", {"type": "resync", "seq": 3, "table": tid}) == []
        assert errors("client_message", {"type": "hello", "name": "x", "features": ["delta"]}) == []
        assert not [e for e in delta.errors + full.errors if "illegal_action" in e and "claim" not in e]
        for p in (delta, full):
            p.proto.transport.loseConnection()
    finally:
        yield server.stop()
        yield task.deferLater(reactor, 0.05, lambda: None)


def test_view_delta_rebuilds_the_new_view():
    old = {"a": 1, "b": [1, 2], "c": {"x": 1}, "gone": True}
    new = {"a": 1, "b": [1, 2, 3], "c": {"x": 1}, "d": None}
    changed, unset = view_delta(old, new)
    assert changed == {"b": [1, 2, 3], "d": None} and unset == ["gone"]
    rebuilt = {**old, **changed}
    for k in unset:
        del rebuilt[k]
    assert rebuilt == new


def test_features_and_resync_are_checked_strictly():
    from shared.protocol import ProtocolError, check_fields

    check_fields({"type": "hello", "name": "a", "features": ["delta", "future"]})
    check_fields({"type": "resync", "table": 3, "step": 4})
    for bad in ({"type": "hello", "name": "a", "features": [1]},
                {"type": "hello", "name": "a", "features": "delta"},
                {"type": "hello", "name": "a", "features": ["x"] * 17},
                {"type": "hello", "name": "a", "features": ["x" * 41]},
                {"type": "resync"},
                {"type": "resync", "table": 3, "step": "4"}):
        with pytest.raises(ProtocolError) as e:
            check_fields(bad)
        assert e.value.code == "bad_message", bad
