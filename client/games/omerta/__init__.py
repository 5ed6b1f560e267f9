"""Omerta on the client: the table (:mod:`.table`), its layout, drawing, card faces,
effects, narration, controls, choice picker, round results and strings."""
from __future__ import annotations

from client.gamedef import ClientGame, folder_of
from client.games.omerta import cards, help as rules_help
from client.games.omerta.results import ResultsScene
from client.games.omerta.table import OmertaTableScene

GAME = ClientGame(
    name="omerta",
    table_scene=OmertaTableScene,
    results_scene=ResultsScene,
    faces=cards.FACES,
    strings=folder_of(__file__),
    help=rules_help.sections,
    card_help=rules_help.card_help,
    couch=True,
    quick_game=True,
    title_cards=(None, {"kind": "bottle", "value": 7, "points": 7},
                 {"kind": "character", "name": "hitwoman", "points": 15},
                 {"kind": "bottle", "value": 3, "points": 3}, None),
)
