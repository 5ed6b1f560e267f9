"""Translations of every string the player sees (English and French).

Uses python-i18n, the library pygame_gui's own i18n is built on: our strings live in
``client/mafia.<lang>.json`` under the ``mafia`` namespace, so a pygame_gui widget given
the text ``"mafia.quick_game"`` translates itself, and table drawing code calls
:func:`tr`. Placeholders are written ``%{name}``.
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
    if _DIR not in _i18n.load_path:
        _i18n.load_path.append(_DIR)
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


def key(name: str) -> str:
    """The full i18n key for a pygame_gui widget's ``text`` (it translates itself)."""
    return f"{NAMESPACE}.{name}"
