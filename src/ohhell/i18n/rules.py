"""The rules of Oh Hell as players read them, in each language.

One Markdown file per language, ``ohhell/i18n/rules/<lang>.md``: the base game and
every variant ohhell plays (``../RULES.md`` of the project is the reference these
follow).  The web's Rules page and ``ohhell rules`` show the same text.
"""

from __future__ import annotations

from pathlib import Path

from . import DEFAULT, LANGUAGES

__all__ = ["RULES_DIR", "rules_path", "rules_markdown"]

RULES_DIR = Path(__file__).resolve().parent / "rules"


def rules_path(lang: str) -> Path:
    if lang not in LANGUAGES:
        raise ValueError(f"no such language {lang!r}: ohhell speaks {', '.join(LANGUAGES)}")
    return RULES_DIR / f"{lang}.md"


def rules_markdown(lang: str = DEFAULT) -> str:
    """The rules in ``lang`` (Markdown); English where that language's text is missing."""
    path = rules_path(lang)
    if not path.exists():
        path = rules_path(DEFAULT)
    return path.read_text(encoding="utf-8")
