"""Famiglia's rules help (:class:`client.gamedef.HelpSection`): the goal, a turn's four
phases, recruiting with a pair and the four families, drawn with the game's own faces."""
from __future__ import annotations

from typing import Any, Mapping

from client.gamedef import HelpCard, HelpSection
from client.games.famiglia.cards import family_name
from client.i18n import tr

#: Victory points by value (RULES §1.1): La Famiglia, and the other families.
VP_FAMIGLIA = (1, 3, 6, 10, 15)
VP_OTHER = (0, 1, 3, 6, 10)
FAMILIES = ("famiglia", "accountant", "brute", "mercenary")


def card(family: str, value: int) -> dict[str, Any]:
    vp = (VP_FAMIGLIA if family == "famiglia" else VP_OTHER)[value]
    return {"id": -1, "code": f"{family}{value}", "family": family, "value": value, "vp": vp}


def sections() -> list[HelpSection]:
    r = "rules_fam."
    return [
        HelpSection(tr("help.goal"), tr(r + "goal"),
                    (HelpCard(card("famiglia", 4), f"{family_name('famiglia')} 4", tr("fam.vp", n="15")),)),
        HelpSection(tr("help.turn"), tr(r + "turn")),
        HelpSection(tr(r + "recruit_title"), tr(r + "recruit"),
                    (HelpCard(card("accountant", 1), tr(r + "pair_a")),
                     HelpCard(card("accountant", 1), tr(r + "pair_b")),
                     HelpCard(card("accountant", 2), tr(r + "pair_c")))),
        HelpSection(tr(r + "families_title"), tr(r + "families"),
                    tuple(HelpCard(card(f, 3), family_name(f), tr(r + f)) for f in FAMILIES)),
    ]


def card_help(c: Mapping[str, Any] | None) -> str | None:
    if not isinstance(c, Mapping) or c.get("family") not in FAMILIES:
        return None
    return f"{family_name(str(c['family']))} — {tr('rules_fam.' + str(c['family']))}"
