"""Every string the player sees exists in English and French, and switching the
language re-translates the live menu."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from client import i18n

CLIENT = Path(__file__).resolve().parent.parent / "client"


def _flat(d, prefix=""):
    for k, v in d.items():
        if isinstance(v, dict):
            yield from _flat(v, prefix + k + ".")
        else:
            yield prefix + k, v


def _strings(lang):  # the client's strings and every game folder's (client/games/<game>/)
    out = {}
    for path in sorted(CLIENT.rglob(f"mafia.{lang}.json")):
        out.update(_flat(json.loads(path.read_text(encoding="utf-8"))[lang]))
    return out


EN, FR = _strings("en"), _strings("fr")
DYNAMIC = {  # keys built at run time: prefix -> the values the code may append
    "char.": ["henchman", "lady", "mole", "snitch", "driver", "safecracker", "hitwoman", "witness", "alibi",
              "mamma", "police_patrol"],
    "power.": ["henchman", "lady", "mole", "snitch", "driver", "safecracker", "mamma", "police_patrol"],
    "zone.": ["keyboard", "left", "right", "middle", "numpad"],
    "settings.lang_": ["auto", "en", "fr"],
    "join.status_": ["waiting", "playing", "over"],
    "game.": ["omerta", "famiglia"],
    "family.": ["famiglia", "accountant", "brute", "mercenary", "vp"],
    "fam.phase": ["1", "2", "3", "4"],
    "fam.intent.": ["renew", "accountant", "swap", "brute", "brute_card", "take_free", "take_pair"],
    "fam.can.": ["renew", "accountant", "brute", "recruit", "pass"],
    "fam.results.tie_": ["vp", "values"],
    "keyname.": ["space", "return", "tab", "left", "right", "up", "down", "right_shift", "escape", "keypad"],
}


def _keys_in_code():
    pattern = re.compile(r'''(?:tr\(|key\(|button\(self, [^,]+, |label\(self, [^,]+, )["']([a-z_]+\.[a-z_.]+)["']''')
    found = set()
    for path in CLIENT.rglob("*.py"):
        src = path.read_text(encoding="utf-8")
        found |= set(pattern.findall(src))
        found |= set(re.findall(r'''["']((?:act|prompt|claim|results|handover|settings|couch|menu|lobby|join|'''
                                r'''table|host|common|error|msg|status)\.[a-z_]+)["']''', src))
    return found


def test_english_and_french_have_the_same_strings_and_placeholders():
    assert set(EN) == set(FR)
    for k in EN:
        assert set(re.findall(r"%\{(\w+)\}", EN[k])) == set(re.findall(r"%\{(\w+)\}", FR[k])), k
        assert FR[k].strip(), k


def test_every_key_the_code_uses_is_translated():
    used = _keys_in_code()
    assert len(used) > 100
    missing = sorted(k for k in used if k not in EN and not k.endswith(".json"))
    assert not missing, missing
    for prefix, names in DYNAMIC.items():
        for name in names:
            assert prefix + name in EN and prefix + name in FR, prefix + name


def test_tr_fills_placeholders_in_both_languages():
    i18n.setup("fr")
    try:
        assert i18n.tr("claim.too_slow", ms="14") == "Trop lent de 14 ms."
        i18n.setup("en")
        assert i18n.tr("claim.too_slow", ms="14") == "Too slow by 14 ms."
    finally:
        i18n.setup("en")


def test_key_names_follow_the_language():
    from client.input import binding_for

    i18n.setup("fr")
    try:
        assert binding_for("keyboard").describe()["snap"] == "Espace"
        assert binding_for("numpad").describe()["snap"] == "Pavé 5"
        assert binding_for("left").describe()["snap"] == "S"
        i18n.setup("en")
        assert binding_for("keyboard").describe()["pass"] == "Enter"
        assert binding_for("right").describe()["reveal"] == "Right Shift"
    finally:
        i18n.setup("en")


@pytest.mark.parametrize("env,expected", [({"LANG": "fr_FR.UTF-8"}, "fr"), ({"LANG": "en_GB.UTF-8"}, "en"),
                                          ({"LC_ALL": "fr_CA"}, "fr")])
def test_auto_language_follows_the_system_locale(monkeypatch, env, expected):
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert i18n.resolve("auto") == expected


def test_switching_language_changes_the_menu(tmp_path):
    from client.app import App
    from client.scenes.menu import MenuScene
    from client.settings import Settings
    from shared.config import merge
    from twisted.internet import reactor

    app = App(merge({}), Settings(name="T", language="en"), reactor, settings_path=str(tmp_path / "s.json"))
    app.open_window()
    menu = app.push(MenuScene(app))

    def shown():
        app.display.render(1 / 60, flip=False)
        return {b.drawable_shape.theming["text"] for b in menu.ui if hasattr(b, "drawable_shape")}

    assert {"Quick game", "Host a table", "Join a table", "Settings", "Quit"} <= shown()
    app.display.set_language("fr")
    assert {"Partie rapide", "Ouvrir une table", "Rejoindre une table", "Réglages", "Quitter"} <= shown()
    assert "Quick game" not in shown()
    app.display.set_language("en")
    assert "Quick game" in shown()
