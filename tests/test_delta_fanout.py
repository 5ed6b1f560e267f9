"""Issue 14: the fan-out's shared deltas (server/table.py ``_fan_out`` with
``GameDef.seat_keys``). Four Omerta seats that all ask for ``delta`` play random legal
moves (turns, peeks, claims and passes) on ServerProtocols; after every reactor turn
each seat's rebuilt view must be exactly ``game.view(state, seat)`` and its legal
actions the table's. Seats' own keys (the card a seat drew, the safe during its
Safecracker look) change for one seat at a time: a delta that forgot them, or a seat
given the others' shared line, shows here."""
from __future__ import annotations

import json
import random
from typing import Any

import msgspec
from twisted.internet import task
from twisted.internet.testing import StringTransport

from server.lobby import Lobby
from server.protocol import ServerProtocol
from shared.config import merge
from shared.protocol import encode

_dec = msgspec.json.Decoder()


class DeltaSeat:
    def __init__(self, lobby: Lobby, name: str):
        self.proto = ServerProtocol(lobby)
        self.transport = StringTransport()
        self.proto.makeConnection(self.transport)
        self.seq = 0
        self.view: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] = []
        self.inflight = False
        self.send("hello", name=name, features=["delta"])

    def send(self, kind: str, **fields: Any) -> None:
        self.seq += 1
        self.proto.dataReceived(json.dumps({"type": kind, "seq": self.seq, **fields}).encode() + b"\n")

    def read(self) -> list[dict[str, Any]]:
        raw, out = self.transport.value(), []
        self.transport.clear()
        for line in raw.split(b"\n"):
            if not line:
                continue
            m = _dec.decode(line)
            if m["type"] == "ping":
                self.proto.dataReceived(b'{"type":"pong","id":%d,"tc":%r}\n' % (m["id"], m["ts"]))
            elif m["type"] == "match_started":
                self.view, self.legal = m["view"], m["legal"]
            elif m["type"] == "update":
                # the lines spliced from parts encoded once (server.table.UpdateLines) are
                # byte for byte what encoding the whole message writes
                fields = {k: v for k, v in m.items() if k not in ("v", "type")}
                assert encode("update", **fields) == line + b"\n", line
                if "view_set" in m:
                    self.view = {**self.view, **m["view_set"]}
                    for k in m.get("view_unset", ()):
                        del self.view[k]
                    self.legal = m.get("legal", self.legal)
                else:
                    self.view, self.legal = m["view"], m["legal"]
            elif m.get("re") == self.seq:
                self.inflight = False
            out.append(m)
        return out


def test_every_delta_seat_rebuilds_its_own_view_at_every_step():
    rng = random.Random(7)
    clock = task.Clock()
    clock.advance(1000)
    lobby = Lobby(merge({"server": {"name": "T"}}), clock, testing=True)
    seats = [DeltaSeat(lobby, f"p{i}") for i in range(4)]
    seats[0].send("create_table", game="omerta", seats=4, options={"rounds": 2, "seed": 11})
    table_id = next(m for m in seats[0].read() if m.get("re") == 1 + 1)["table"]["id"]
    for s in seats:
        s.send("join", table=table_id)
    table = lobby.tables[table_id]
    own_changes = shortcuts = 0
    for _ in range(3000):
        clock.advance(0.05)
        for s in seats:
            s.read()
        if table.status != "playing":
            break
        for i, s in enumerate(seats):
            expected = json.loads(json.dumps(table.game.view(table.state, i)))
            assert s.view == expected, f"seat {i} rebuilt another view at step {len(table.log)}"
            assert s.legal == [a.to_dict() for a in table._legal(i)], f"seat {i}: legal at {len(table.log)}"
            own_changes += s.view.get("drawn") is not None and s.view["drawn"]["card"] is not None
        for s in seats:
            if s.legal and not s.inflight:
                # rounds long enough to draw cards: declare Omerta now and then only
                options = [a for a in s.legal if a["type"] != "declare_omerta" or rng.random() < 0.03]
                s.inflight = True
                s.send("action", table=table_id, action=rng.choice(options or s.legal),
                       t_press=clock.seconds() * 1000, t_shown=clock.seconds() * 1000 - 300)
    assert table.status == "over", "the match did not end"
    assert len(table.log) > 100, len(table.log)
    assert own_changes > 20  # seats did see cards of their own (the path under test)


def test_update_lines_share_the_public_part_and_add_each_seats_own():
    """server.table.UpdateLines: every line decodes to the fields it was given; only a
    seat with nothing of its own gets the shared bytes."""
    from server.table import UpdateLines

    events = [{"type": "turn", "seat": 1}]
    lines = UpdateLines(7, events, {"turn": 1, "players": [1, 2]}, ["gone"], 1234.5, 9, None)
    plain = lines.line(None, {}, [], None)
    assert lines.line(None, {}, [], None) is plain  # encoded once
    assert _dec.decode(plain) == {"v": 1, "type": "update", "table": 7, "events": events,
                                  "view_set": {"turn": 1, "players": [1, 2]}, "view_unset": ["gone"],
                                  "t_server": 1234.5, "step": 9, "timer": None}
    own = _dec.decode(lines.line(None, {"drawn": {"card": 3}}, ["safe_cards"], [{"type": "snap", "slot": 2}]))
    assert own["view_set"] == {"turn": 1, "players": [1, 2], "drawn": {"card": 3}}
    assert own["view_unset"] == ["gone", "safe_cards"] and own["legal"] == [{"type": "snap", "slot": 2}]
    assert _dec.decode(lines.line(None, {"drawn": None}, [], None))["view_set"]["drawn"] is None
    private = [{"type": "look", "card": 4}]
    assert _dec.decode(lines.line(private, {}, [], None))["events"] == private
    assert lines.line(None, {}, [], None) is plain
    bare = UpdateLines(7, None, {}, [], 1.0, 1, {"deadline": 3.0})
    line = _dec.decode(bare.line([], {"hand": [1]}, [], []))
    assert line["view_set"] == {"hand": [1]} and "view_unset" not in line and line["legal"] == []
    assert line["timer"] == {"deadline": 3.0} and line["events"] == []
