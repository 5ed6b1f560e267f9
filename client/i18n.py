"""Translations of every string the player sees (English and French).

Uses python-i18n, the library pygame_gui's own i18n is built on: the client's strings
live in ``client/mafia.<lang>.json`` and each game's in its folder's own
``client/games/<game>/mafia.<lang>.json`` (added by the registry, :func:`add_folder`),
all under the ``mafia`` namespace, so a pygame_gui widget given the text
``"mafia.quick_game"`` translates itself, and table drawing code calls :func:`tr`.
Placeholders are written ``%{name}``.
"""
from __future__ import annotations

import locale
import os
from functools import lru_cache

import i18n as _i18n

NAMESPACE = "mafia"
LANGUAGES = ("en", "fr")
_DIR = os.path.dirname(os.path.abspath(__file__))
_current = "en"
#: Folders holding ``mafia.<lang>.json`` files: the client's, then each game's.
_FOLDERS: list[str] = [_DIR]


def folders() -> list[str]:
    """Every folder strings are read from (the client's first)."""
    return list(_FOLDERS)


def add_folder(path: str) -> None:
    """Read strings from ``path``'s ``mafia.<lang>.json`` files too (a game's folder)."""
    path = os.path.abspath(path)
    if path not in _FOLDERS:
        _FOLDERS.append(path)
    if path not in _i18n.load_path:
        _i18n.load_path.append(path)
    _cached.cache_clear()


def remove_folder(path: str) -> None:
    """Stop reading strings from ``path`` (tests: a fake game unregistered)."""
    path = os.path.abspath(path)
    if path in _FOLDERS and path != _DIR:
        _FOLDERS.remove(path)
    if path in _i18n.load_path and path != _DIR:
        _i18n.load_path.remove(path)
    _cached.cache_clear()


def system_language() -> str:
    """``"fr"`` when the system locale is French, else ``"en"``."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:  # pragma: no cover
        loc = ""
    return "fr" if loc.lower().startswith("fr") else "en"


def resolve(language: str) -> str:
    """``"auto"`` -> the system language; unknown -> ``"en"``."""
    if language == "auto":
        return system_language()
    return language if language in LANGUAGES else "en"


def setup(language: str = "auto") -> str:
    """Register our translation files and select ``language``; returns the code used."""
    global _current
    for path in _FOLDERS:
        if path not in _i18n.load_path:
            _i18n.load_path.append(path)
    _i18n.set("file_format", "json")
    _i18n.set("fallback", "en")
    _i18n.set("error_on_missing_translation", False)
    _current = resolve(language)
    _i18n.set("locale", _current)
    return _current


def current() -> str:
    return _current


def tr(key: str, /, **fields: object) -> str:
    """The translation of ``mafia.<key>`` in the current language, ``%{x}`` filled.

    Cached per (language, key, fields): python-i18n searches and re-reads the
    translation files on every lookup of a key it does not have (a key name such as
    ``keyname.1``), which cost a few ms per frame when the table's help line was built."""
    try:
        return _cached(_current, key, tuple(sorted(fields.items())))
    except TypeError:  # an unhashable field value
        return _i18n.t(f"{NAMESPACE}.{key}", **fields)


@lru_cache(maxsize=4096)
def _cached(lang: str, key: str, fields: tuple[tuple[str, object], ...]) -> str:
    return _i18n.t(f"{NAMESPACE}.{key}", **dict(fields))


def singular(n: int) -> bool:
    """Whether a count of ``n`` takes the singular in the current language: 1 in
    English; 0 and 1 in French ("0 place prise", "1 place prise", "2 places prises")."""
    return n in (0, 1) if _current == "fr" else n == 1


def plural_key(key: str, n: int) -> str:
    """``key + "_one"`` when a count of ``n`` takes the singular in the current language
    and that string exists, else ``key`` (the plural): the key of a sentence about
    ``n`` things (``tr(plural_key("lobby.waiting", 1), ...)``)."""
    one = key + "_one"
    if singular(n) and tr(one) != f"{NAMESPACE}.{one}":
        return one
    return key


#: The space before a colon: French puts a non-breaking one ("Vito : clac"), English none.
_COLON_SPACE = {"fr": "\u00a0"}


def labelled(name: str, text: str = "") -> str:
    """``"name: text"`` with the current language's spacing before the colon (a
    non-breaking space in French); ``text`` empty gives the prefix ``"name: "``."""
    return f"{name}{_COLON_SPACE.get(_current, '')}: {text}"


def key(name: str) -> str:
    """The full i18n key for a pygame_gui widget's ``text`` (it translates itself)."""
    return f"{NAMESPACE}.{name}"


def server_text(sentence: object, message: str) -> str:
    """A server sentence in the current language: ``sentence`` is the wire's
    ``{"code", "params"}`` (docs/PROTOCOL.md "Server sentences"), translated as
    ``server.<code>`` with its parameters (a parameter that is itself a sentence is
    translated first); ``message``, the server's English, when the sentence is absent,
    malformed or of a code this client does not know."""
    text = _sentence_text(sentence, 0)
    return message if text is None else text


def _sentence_text(sentence: object, depth: int) -> str | None:
    if depth > 4 or not isinstance(sentence, dict):
        return None
    code, params = sentence.get("code"), sentence.get("params", {})
    if not isinstance(code, str) or not isinstance(params, dict):
        return None
    key = f"server.{code}"
    fields: dict[str, object] = {}
    for name, value in params.items():
        if isinstance(value, dict):
            value = _sentence_text(value, depth + 1)
            if value is None:
                return None
        elif not isinstance(value, (str, int, float)) or isinstance(value, bool):
            return None
        fields[str(name)] = value
    text = tr(key, **fields)
    return None if text == f"{NAMESPACE}.{key}" else text
