"""Mafiosi on the client: the table (:mod:`.table`), its layout, drawing, card faces (a
54-card deck with suit shapes and an optional four-colour deck), effects, narration,
controls, card picker, private views (:mod:`.handover`), the round-end board and final
reveal (:mod:`.results`), and strings."""
from __future__ import annotations

from client.gamedef import ClientGame, folder_of
from client.games.mafiosi import cards, help as rules_help
from client.games.mafiosi.results import MafiosiBoard
from client.games.mafiosi.table import MafiosiTableScene

GAME = ClientGame(
    name="mafiosi",
    table_scene=MafiosiTableScene,
    results_scene=MafiosiBoard,
    faces=cards.FACES,
    strings=folder_of(__file__),
    help=rules_help.sections,
    card_help=rules_help.card_help,
    couch=True,
)
