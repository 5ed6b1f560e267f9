"""Family Business's rules help (:class:`client.gamedef.HelpSection`): the goal, a turn,
the Mob War, counters and every action card with its effect (the game's own faces)."""
from __future__ import annotations

from typing import Any, Mapping

from client.gamedef import HelpCard, HelpSection
from client.games.family_business.cards import card_name, effect_text
from client.i18n import tr
from shared.games.family_business.cards import ACTION_TYPES, COUNTS_1989


def action(code: str) -> dict[str, Any]:
    name, category, _ = ACTION_TYPES[code]
    return {"id": -1, "kind": "action", "code": code, "name": name, "category": category}


def mobster() -> dict[str, Any]:
    return {"id": 0, "kind": "mobster", "gang": 0, "gang_name": "Capone Mob", "name": "Al Capone"}


def sections() -> list[HelpSection]:
    r = "rules_fb."
    codes = [c for c, _n in COUNTS_1989]
    counters = [c for c in codes if ACTION_TYPES[c][1] == "counter"]
    return [
        HelpSection(tr("help.goal"), tr(r + "goal"),
                    (HelpCard(mobster(), tr(r + "mobster"), tr(r + "mobster_text")),)),
        HelpSection(tr("help.turn"), tr(r + "turn")),
        HelpSection(tr(r + "counter_title"), tr(r + "counter"),
                    tuple(HelpCard(action(c), card_name(action(c)), effect_text(c)) for c in counters)),
        HelpSection(tr(r + "cards_title"), "",
                    tuple(HelpCard(action(c), card_name(action(c)), effect_text(c))
                          for c in codes if c not in counters)),
    ]


def card_help(c: Mapping[str, Any] | None) -> str | None:
    if not isinstance(c, Mapping) or c.get("kind") != "action" or c.get("code") not in ACTION_TYPES:
        return None
    return f"{card_name(c)} — {effect_text(str(c['code']))}"
