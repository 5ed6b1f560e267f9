"""Mafiosi's rules help (:class:`client.gamedef.HelpSection`): the goal, the bouncer and
a trick, what must be played, scoring, and every kind of card with its points (the
game's own faces)."""
from __future__ import annotations

from typing import Any, Mapping

from client.gamedef import HelpCard, HelpSection
from client.i18n import tr
from shared.games.mafiosi.cards import card_id, card as rules_card

KINDS = (("muscle", "7H"), ("jack", "JS"), ("queen", "QD"), ("king", "KC"), ("joker", "JK1"))


def face(code: str) -> dict[str, Any]:
    return rules_card(card_id(code)).to_dict()


def sections() -> list[HelpSection]:
    r = "rules_maf."
    return [
        HelpSection(tr("help.goal"), tr(r + "goal")),
        HelpSection(tr("help.turn"), tr(r + "turn")),
        HelpSection(tr(r + "duties_title"), tr(r + "duties"),
                    (HelpCard(face("AH"), tr(r + "ace"), tr(r + "ace_text")),
                     HelpCard(face("QH"), tr(r + "queen"), tr(r + "queen_duty")))),
        HelpSection(tr(r + "score_title"), tr(r + "score"),
                    tuple(HelpCard(face(code), tr(r + k), tr(r + k + "_text")) for k, code in KINDS)),
    ]


def card_help(c: Mapping[str, Any] | None) -> str | None:
    if not isinstance(c, Mapping) or c.get("kind") != "card":
        return None
    rank = c.get("rank")
    k = {"J": "jack", "Q": "queen", "K": "king", "joker": "joker"}.get(str(rank), "muscle")
    return f"{tr('rules_maf.' + k)} — {tr('rules_maf.' + k + '_text')}"
