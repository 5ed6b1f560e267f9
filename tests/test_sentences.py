"""Server sentences travel as codes with parameters (shared.sentences): every code the
server may send has an English and a French text in the clients' tables, the server
builds its sentences through the registry only, and clients translate them."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from client import i18n
from server.web.site import client_strings
from shared.protocol import ProtocolError
from shared.rules import IllegalAction
from shared.sentences import SENTENCES, Sentence, known, placeholders, say

ROOT = Path(__file__).resolve().parent.parent


def _table(lang: str) -> dict[str, str]:
    data = json.loads((ROOT / "client" / f"mafia.{lang}.json").read_text(encoding="utf-8"))[lang]
    return data["server"]


def test_every_code_has_its_english_text_in_the_client_table():
    assert _table("en") == SENTENCES


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_code_has_a_text_with_the_same_placeholders_in_both_clients(lang):
    pygame_table = _table(lang)
    phone_table = client_strings(lang)  # what the phone page fetches: /api/strings/<lang>
    for code, english in SENTENCES.items():
        assert pygame_table.get(code), (lang, code)
        assert placeholders(pygame_table[code]) == placeholders(english), (lang, code)
        assert phone_table.get(f"server.{code}") == pygame_table[code], (lang, code)


def test_the_phone_page_looks_sentences_up_by_code():
    app = (ROOT / "server" / "web" / "static" / "app.js").read_text(encoding="utf-8")
    assert re.search(r'"server\." \+ ', app), "the page translates server.<code>"


def _literal_messages(path: Path) -> list[str]:
    """Calls in ``path`` that give ProtocolError or IllegalAction a sentence as a string
    literal (or f-string), bypassing the registry."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        args = node.args
        if node.func.id == "ProtocolError" and len(args) >= 2:
            text = args[1]
        elif node.func.id == "IllegalAction" and args:
            text = args[0]
        else:
            continue
        if isinstance(text, ast.JoinedStr) or (isinstance(text, ast.Constant) and isinstance(text.value, str)
                                               and known(text.value) is None and node.func.id == "ProtocolError"):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_the_server_says_nothing_outside_the_registry():
    files = sorted((ROOT / "server").rglob("*.py")) + [ROOT / "shared" / "windows.py"]
    assert [hit for f in files for hit in _literal_messages(f)] == []


def test_say_checks_the_code_and_its_parameters():
    assert say("too_slow", ms=14).english() == "too slow by 14 ms"
    assert say("too_slow", ms=14).wire() == {"code": "too_slow", "params": {"ms": 14}}
    with pytest.raises(KeyError):
        say("no_such_sentence")
    with pytest.raises(ValueError):
        say("too_slow")
    with pytest.raises(ValueError):
        say("too_slow", ms=1, extra=2)


def test_a_sentence_may_hold_another_one():
    why = say("paused", reason=say("cannot_save", error="no space left on device"))
    assert why.english() == ("the server cannot save this match: no space left on device; "
                             "the match resumes by itself")
    assert why.wire()["params"]["reason"] == {"code": "cannot_save",
                                              "params": {"error": "no space left on device"}}


def test_errors_and_rules_carry_their_sentence():
    e = ProtocolError("seat_taken", say("seat_taken", seat=2))
    assert e.message == "seat 2 is taken"
    assert e.fields() == {"code": "seat_taken", "message": "seat 2 is taken",
                          "sentence": {"code": "seat_taken", "params": {"seat": 2}}}
    assert "sentence" not in ProtocolError("bad_action", "a rule's own words").fields()
    # a game's reason given as text is translated when the registry knows it
    assert IllegalAction("it is not your turn").sentence == Sentence("not_your_turn")
    assert IllegalAction("a Snitch gives exactly two cards").sentence is None


@pytest.fixture
def french():
    i18n.setup("fr")
    yield
    i18n.setup("en")


def test_the_pygame_client_translates_by_code_and_falls_back_to_the_english(french):
    assert i18n.server_text({"code": "too_slow", "params": {"ms": 1012}}, "too slow by 1012 ms") == \
        "trop lent de 1012 ms"
    nested = say("paused", reason=say("restart_wait", s=20)).wire()
    assert i18n.server_text(nested, "x") == ("le serveur a redémarré : il attend les joueurs jusqu'à 20 s ; "
                                             "la partie reprendra d'elle-même")
    assert i18n.server_text({"code": "from_a_newer_server", "params": {}}, "as sent") == "as sent"
    assert i18n.server_text(None, "as sent") == "as sent"
    assert i18n.server_text({"code": "too_slow", "params": {"ms": [1]}}, "as sent") == "as sent"


def test_protocol_md_lists_every_code():
    doc = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `(\w+)` \| [^|]* \| ", doc.split("### Server sentences", 1)[1].split("\n## ", 1)[0],
                            re.M))
    assert listed == set(SENTENCES)
