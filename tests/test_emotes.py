"""Emotes (issue 13, docs/PROTOCOL.md "Host, emotes, rematch"): a seated player's quick
reaction goes to every seat and spectator, the sender's copy being its reply (with its
``re``), is rate-limited per seat (3 in 5 s), and the connection stays open when
refused."""
from __future__ import annotations

from twisted.internet import task

from server.lobby import Lobby
from shared.config import merge
from shared.protocol import EMOTE_LIMIT, EMOTE_WINDOW_S, EMOTES
from tests.test_protocol import Client


def table_of_two():
    clock = task.Clock()
    clock.advance(1000)
    lobby = Lobby(merge({"server": {"name": "Test"}}), clock, testing=True)
    ann, bob, tv = Client(lobby, "ann"), Client(lobby, "bob"), Client(lobby, "tv")
    tid = ann.request("create_table", game="omerta", seats=3,
                      options={"start": "host"})["table"]["id"]
    ann.request("join", table=tid)
    bob.request("join", table=tid)
    tv.request("join", table=tid, spectate=True)
    for c in (ann, bob, tv):
        c.read()
        c.inbox.clear()
    return lobby, tid, ann, bob, tv


def send_emote(client, tid, emote):
    """An emote request: returns what came back (its reply is the sender's copy of the
    emote, with ``re``)."""
    client.seq += 1
    client.send({"type": "emote", "seq": client.seq, "table": tid, "emote": emote})
    return client.read()


def test_an_emote_reaches_every_seat_and_spectator_and_the_sender_gets_it_as_its_reply():
    lobby, tid, ann, bob, tv = table_of_two()
    back = send_emote(bob, tid, "well_played")
    expected = {"v": 1, "type": "emote", "table": tid, "seat": 1, "name": "bob",
                "emote": "well_played", "t_server": lobby.clock.seconds() * 1000.0}
    assert back == [{**expected, "re": bob.seq}]  # one message: the reply, nothing pushed besides
    assert ann.of("emote") == [expected] and tv.of("emote") == [expected]
    assert set(EMOTES) == {"clap", "laugh", "shock", "well_played"}


def test_spectators_and_unknown_emotes_are_refused():
    lobby, tid, ann, bob, tv = table_of_two()
    reply = tv.request("emote", table=tid, emote="clap")
    assert reply["type"] == "error" and reply["code"] == "not_seated"
    reply = ann.request("emote", table=tid, emote="wave")
    assert reply["type"] == "error" and reply["code"] == "bad_message"
    assert not bob.of("emote")


def test_more_than_three_emotes_in_five_seconds_are_refused_and_the_connection_stays():
    lobby, tid, ann, bob, tv = table_of_two()
    for i in range(EMOTE_LIMIT):
        assert [m["type"] for m in send_emote(ann, tid, "clap")] == ["emote"]
        lobby.clock.advance(1.0)
    refused = ann.request("emote", table=tid, emote="laugh")
    assert refused["type"] == "error" and refused["code"] == "too_many_emotes"
    assert not ann.closed
    assert len(bob.of("emote")) == EMOTE_LIMIT
    # bob's own budget is his own
    assert [m["type"] for m in send_emote(bob, tid, "shock")] == ["emote"]
    # the first one leaves the window 5 s after it was sent
    lobby.clock.advance(EMOTE_WINDOW_S - EMOTE_LIMIT + 0.01)
    back = send_emote(ann, tid, "laugh")
    assert [(m["type"], m["seat"], m.get("re")) for m in back] == [("emote", 1, None), ("emote", 0, ann.seq)]
    assert ann.request("list_tables")["type"] == "tables"  # still talking
