"""Family Business on the client: the table (:mod:`.table`), its layout, drawing, card
faces, effects, narration, controls, choice picker, results and strings."""
from __future__ import annotations

from client.gamedef import ClientGame, folder_of
from client.games.family_business import cards, help as rules_help
from client.games.family_business.results import FBResultsScene
from client.games.family_business.table import FamilyBusinessTableScene

GAME = ClientGame(
    name="family_business",
    table_scene=FamilyBusinessTableScene,
    results_scene=FBResultsScene,
    faces=cards.FACES,
    strings=folder_of(__file__),
    help=rules_help.sections,
    card_help=rules_help.card_help,
    couch=True,
)
