"""Famiglia on the client: the table (:mod:`.table`), its layout, drawing, card faces,
effects, narration, controls, choice picker, results and strings."""
from __future__ import annotations

from client.gamedef import ClientGame, folder_of
from client.games.famiglia import cards, help as rules_help
from client.games.famiglia.results import FamigliaResultsScene
from client.games.famiglia.table import FamigliaTableScene

GAME = ClientGame(
    name="famiglia",
    table_scene=FamigliaTableScene,
    results_scene=FamigliaResultsScene,
    faces=cards.FACES,
    strings=folder_of(__file__),
    help=rules_help.sections,
    card_help=rules_help.card_help,
)
