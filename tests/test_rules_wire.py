"""shared/rules.py hot paths (issue 14): an action's JSON form is built once and shared
for encoding, while to_dict still hands out a copy; all_public tells when one events
list serves every seat."""
from __future__ import annotations

from shared.games.omerta.actions import Peek, Snap
from shared.rules import Event, all_public, events_for


def test_wire_is_built_once_and_to_dict_is_a_copy_nobody_can_spoil():
    snap = Snap(3)
    assert snap.wire() is snap.wire() and snap.wire() == {"type": "snap", "slot": 3}
    mine = snap.to_dict()
    mine["slot"] = 9
    assert snap.wire() == {"type": "snap", "slot": 3} and snap.to_dict() == {"type": "snap", "slot": 3}
    peek = Peek((1, 2))
    listed = peek.to_dict()
    listed["slots"].append(7)  # a list field is copied too
    assert peek.to_dict() == peek.wire() and 7 not in peek.wire()["slots"]
    assert snap == Snap(3) and hash(snap) == hash(Snap(3)) and repr(snap) == "Snap(slot=3)"


def test_all_public_only_when_no_event_is_private_or_secret():
    public = [Event("turn", {"seat": 1}), Event("discard", {"seat": 1, "card": 4})]
    assert all_public(public) and all_public([])
    assert not all_public(public + [Event("drawn", {"seat": 1}, secret={"card": 5}, secret_to=1)])
    assert not all_public(public + [Event("look", {"card": 5}, to=2)])
    # what one shared list would have been for each seat anyway
    assert all(events_for(public, seat) == events_for(public, None) for seat in range(4))
