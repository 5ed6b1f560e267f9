"""shared/rules.py hot paths (issue 14): an action's JSON form is built once and shared
for encoding, while to_dict still hands out a copy; private_seats tells which seats
need events of their own (the others share the spectators' list)."""
from __future__ import annotations

from shared.games.omerta.actions import Peek, Snap
from shared.rules import Event, events_for, private_seats


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


def test_private_seats_are_those_an_event_is_to_or_holds_a_secret_for():
    public = [Event("turn", {"seat": 1}), Event("discard", {"seat": 1, "card": 4})]
    assert private_seats(public) == set() and private_seats([]) == set()
    drawn = Event("drawn", {"seat": 1}, secret={"card": 5}, secret_to=1)
    look = Event("look", {"card": 5}, to=2)
    assert private_seats(public + [drawn]) == {1}
    assert private_seats(public + [look]) == {2}
    assert private_seats([drawn, *public, look]) == {1, 2}
    # every other seat sees exactly what a spectator sees: the list they share
    for events in (public, public + [drawn, look]):
        for seat in set(range(4)) - private_seats(events):
            assert events_for(events, seat) == events_for(events, None)
    assert events_for([drawn], 1) != events_for([drawn], None)
    assert events_for([look], 2) != events_for([look], None)


def test_parse_checks_every_field_kind_with_a_message_naming_it():
    """ActionSet.parse (its checkers are built once per action type): every field kind
    it supports, what it refuses and the sentence it gives."""
    from dataclasses import dataclass

    import pytest

    from shared.rules import Action, ActionSet, BadAction

    @dataclass(frozen=True)
    class Mixed(Action):
        TYPE = "mixed"
        n: int
        name: str
        flag: bool
        slots: tuple[int, ...]
        maybe: int | None = None

    @dataclass(frozen=True)
    class Tick(Action):
        TYPE = "tick"
        SYSTEM_ONLY = True

    actions = ActionSet([Mixed, Tick])
    ok = {"type": "mixed", "n": -3, "name": "x", "flag": False, "slots": [1, 2]}
    assert actions.parse(ok) == Mixed(-3, "x", False, (1, 2), None)
    assert actions.parse({**ok, "maybe": 7}).maybe == 7
    assert actions.parse({**ok, "maybe": None}).maybe is None
    assert actions.parse({"type": "tick"}, from_client=False) == Tick()
    refused = [
        ([1], "an action must be a JSON object"),
        ({"type": "nope"}, "unknown action type 'nope'"),
        ({"type": 5}, "unknown action type 5"),
        ({"type": "tick"}, "action 'tick' is applied by the table only"),
        ({**ok, "zz": 1, "aa": 2}, "unexpected field(s) ['aa', 'zz'] for 'mixed'"),
        ({"type": "mixed", "name": "x", "flag": False, "slots": []}, "missing field 'n' for 'mixed'"),
        ({**ok, "n": True}, "mixed.n: expected an integer"),
        ({**ok, "n": 2**31}, "mixed.n: expected an integer"),
        ({**ok, "n": 1.0}, "mixed.n: expected an integer"),
        ({**ok, "name": "y" * 201}, "mixed.name: expected a string"),
        ({**ok, "flag": 0}, "mixed.flag: expected true or false"),
        ({**ok, "slots": 3}, "mixed.slots: expected a list"),
        ({**ok, "slots": list(range(65))}, "mixed.slots: expected a list"),
        ({**ok, "slots": [1, "2"]}, "mixed.slots: expected an integer"),
        ({**ok, "maybe": "7"}, "mixed.maybe: '7' has the wrong type"),
    ]
    for data, message in refused:
        with pytest.raises(BadAction) as e:
            actions.parse(data)
        assert str(e.value) == message, data
