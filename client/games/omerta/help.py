"""Omerta's rules help (:class:`client.gamedef.HelpSection`) and the tip of a card
under the mouse: the goal, a turn, the snap, declaring Omerta and every character with
its power, drawn with the game's own card faces."""
from __future__ import annotations

from typing import Any, Mapping

from client.gamedef import HelpCard, HelpSection
from client.games.omerta.cards import character_name
from client.i18n import tr

#: Every character and its points (RULES §2.1), in the order the help lists them.
CHARACTERS: tuple[tuple[str, int], ...] = (
    ("henchman", 15), ("lady", 15), ("mole", 15), ("snitch", 20), ("driver", 20), ("safecracker", 15),
    ("hitwoman", 15), ("witness", 10), ("alibi", 0), ("mamma", 15), ("police_patrol", 15),
)


def character(name: str, points: int) -> dict[str, Any]:
    return {"kind": "character", "name": name, "value": None, "points": points}


def bottle(value: int) -> dict[str, Any]:
    return {"kind": "bottle", "name": None, "value": value, "points": value}


def sections() -> list[HelpSection]:
    r = "rules_om."
    return [
        HelpSection(tr("help.goal"), tr(r + "goal"),
                    (HelpCard(bottle(3), tr(r + "bottle"), tr(r + "bottle_text")),)),
        HelpSection(tr("help.turn"), tr(r + "turn")),
        HelpSection(tr(r + "snap_title"), tr(r + "snap"),
                    (HelpCard(bottle(7), tr(r + "bottle") + " 7", tr(r + "snap_card")),)),
        HelpSection(tr(r + "omerta_title"), tr(r + "omerta")),
        HelpSection(tr(r + "chars_title"), tr(r + "chars"),
                    tuple(HelpCard(character(n, p), tr(r + "pts", name=character_name(n), points=str(p)),
                                   tr(r + n)) for n, p in CHARACTERS)),
    ]


def card_help(card: Mapping[str, Any] | None) -> str | None:
    """What ``card`` does, one line (a character's power; a bottle's points)."""
    if not isinstance(card, Mapping):
        return None
    if card.get("kind") == "character" and card.get("name"):
        name = str(card["name"])
        return f"{character_name(name)} ({card.get('points', '?')}) — {tr('rules_om.' + name)}"
    if card.get("kind") == "bottle":
        return f"{tr('rules_om.bottle')} {card.get('value')} — {tr('rules_om.bottle_text')}"
    return None
