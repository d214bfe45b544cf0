"""Every relative link in the repository's Markdown files leads somewhere: the file exists,
inside the repository, and an anchor names a heading of the file it points to."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_CODE = re.compile(r"`[^`\n]*`")
_INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
_HTML = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"", re.I)
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$", re.M)


def markdown_files() -> list[Path]:
    """The tracked Markdown files (every one under the root when git is not at hand)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "*.md"], cwd=ROOT, capture_output=True, check=True)
        files = [ROOT / p for p in out.stdout.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        files = [p for p in ROOT.rglob("*.md") if ".venv" not in p.parts and ".git" not in p.parts]
    return sorted(p for p in files if p.exists())


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading.

    >>> slug("1. The game record"), slug("`ohhell arena` and bots"), slug("What’s new?")
    ('1-the-game-record', 'ohhell-arena-and-bots', 'whats-new')
    """
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)     # a link's text only
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out = set()
    for m in _HEADING.finditer(text):
        s = slug(m.group(2))
        k = seen.get(s, 0)
        out.add(s if k == 0 else f"{s}-{k}")
        seen[s] = k + 1
    return out


def links(path: Path) -> list[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    text = _CODE.sub("", text)
    return [m.group(1) for rx in (_INLINE, _REFDEF, _HTML) for m in rx.finditer(text)]


def broken(path: Path) -> list[str]:
    """What is wrong with each relative link of one Markdown file."""
    problems = []
    for target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
            continue                                          # http:, https:, mailto: ...
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if ROOT not in dest.parents and dest != ROOT:
            problems.append(f"{target}: outside the repository")
            continue
        if not dest.exists():
            problems.append(f"{target}: no such file")
            continue
        if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{target}: no heading #{anchor} in {dest.relative_to(ROOT)}")
    return problems


FILES = markdown_files()


def test_there_are_markdown_files_with_links():
    assert ROOT / "README.md" in FILES
    assert sum(len(links(p)) for p in FILES) > 10


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_every_relative_link_resolves(path):
    assert broken(path) == []


def test_the_checker_catches_broken_links():
    doc = ROOT / "docs" / "rules.md"
    fake = doc.parent / "_link_check_probe.md"
    fake.write_text("# Probe\n[a](rules.md#2-the-dealer-and-the-number-of-cards) [b](nowhere.md) "
                    "[c](rules.md#no-such-heading) [d](../../outside.md) [e](#probe) [f](#nope) "
                    "`[g](in-code.md)` [h](https://example.com/x.md)\n", encoding="utf-8")
    try:
        assert broken(fake) == [
            "nowhere.md: no such file",
            "rules.md#no-such-heading: no heading #no-such-heading in docs/rules.md",
            "../../outside.md: outside the repository",
            "#nope: no heading #nope in docs/_link_check_probe.md",
        ]
    finally:
        fake.unlink()


def test_no_file_points_to_documents_outside_the_repository():
    """The rules and the interfaces live in docs/; the old names must not come back."""
    out = subprocess.run(["git", "grep", "-n", "-E", r"(^|[^/a-z])(RULES|INTERFACES)\.md", "--", ".",
                          ":!tests/test_docs_links.py"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode == 128:
        pytest.skip("not a git checkout")
    assert out.stdout == ""
