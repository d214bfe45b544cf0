"""The rules texts (``ohhell/i18n/rules/<lang>.md``) and the glossary they share.

Every language has a text with the English one's structure (the same headings, the same
numbers section by section, so the worked examples agree), names every variant by the
option the command line takes, uses its glossary's words for trump, trick and bid, renders
as Markdown without leaking syntax, and has no English left outside option names.
"""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt
from rich.console import Console
from rich.markdown import Markdown

from ohhell.i18n import DEFAULT, LANGUAGES, rules as i18n_rules
from ohhell.rules import FLAGS, NO_TRUMP_OPTIONS, SCHEDULES

GLOSSARY = i18n_rules.RULES_DIR.parent / "GLOSSARY.md"
OTHERS = [lang for lang in LANGUAGES if lang != DEFAULT]

#: the terms GLOSSARY.md must give in every language (issue 14: the card-game words)
TERMS = ("game", "hand", "deal", "dealer", "trick", "trump", "no trump", "bid", "follow suit",
         "lead", "hook", "score", "clubs", "diamonds", "hearts", "spades",
         "ace", "king", "queen", "jack")

#: English words that must not be left in a translation (outside `code`); whole words
ENGLISH = ("the", "and", "of", "with", "player", "players", "card", "cards", "trick", "tricks",
           "bid", "bids", "dealer", "suit", "suits", "hand", "hands", "score", "scores",
           "points", "must", "each", "which", "when", "game", "settings", "option", "win",
           "wins", "follow", "lead", "deck", "round", "trump", "example", "glossary")
#: names that stay as they are in every language (the game's names, the people of the examples)
NAMES = ("Up and Down the River", "Oh Hell", "Oh Pshaw", "Blackout", "La Podrida",
         "Evelyn", "Frank", "George", "Helen")


def text(lang: str) -> str:
    return i18n_rules.rules_path(lang).read_text(encoding="utf-8")


def sections(md: str) -> list[tuple[str, str]]:
    """(heading line, body) for each heading, the text before the first under ''."""
    out: list[tuple[str, list[str]]] = [("", [])]
    for line in md.splitlines():
        if re.match(r"#{1,6} ", line):
            out.append((line, []))
        else:
            out[-1][1].append(line)
    return [(h, "\n".join(body)) for h, body in out]


def glossary() -> dict[str, dict[str, str]]:
    """GLOSSARY.md's table: term -> {lang: word}."""
    rows = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines()
            if line.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    assert header[0] == "term" and header[1:] == list(LANGUAGES), header
    table = {}
    for row in rows[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        table[cells[0]] = dict(zip(header[1:], cells[1:]))
    return table


def word(cell: str) -> str:
    """The form to look for: a cell's text before any note or alternative."""
    return re.split(r" \(| / ", cell)[0].strip().lower()


def without_code(md: str) -> str:
    return re.sub(r"`[^`]*`", " ", md)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_language_has_its_rules(lang):
    path = i18n_rules.rules_path(lang)
    assert path.exists(), f"{path} is missing"
    md = i18n_rules.rules_markdown(lang)
    assert md == text(lang)
    assert md.startswith("# ") and "Oh Hell" in md.splitlines()[0]


def test_a_language_without_a_text_falls_back_to_english(monkeypatch, tmp_path):
    (tmp_path / "en.md").write_text("# English\n", encoding="utf-8")
    monkeypatch.setattr(i18n_rules, "RULES_DIR", tmp_path)
    assert i18n_rules.rules_markdown("eu") == "# English\n"
    with pytest.raises(ValueError, match="no such language 'xx'"):
        i18n_rules.rules_markdown("xx")


@pytest.mark.parametrize("lang", OTHERS)
def test_same_structure_as_english(lang):
    """Same headings (level by level) in the same order as the English text."""
    en = [h.split(" ", 1)[0] for h, _ in sections(text(DEFAULT))]
    other = [h.split(" ", 1)[0] for h, _ in sections(text(lang))]
    assert other == en, f"{lang}: headings {other} differ from English {en}"
    # the lists (bullets) of each section have as many items as in English
    for (h_en, b_en), (h, b) in zip(sections(text(DEFAULT)), sections(text(lang))):
        count = lambda body: len(re.findall(r"^\s*- ", body, re.M))  # noqa: E731
        assert count(b) == count(b_en), f"{lang}: section {h!r} has {count(b)} items, " \
                                        f"English {h_en!r} has {count(b_en)}"


@pytest.mark.parametrize("lang", OTHERS)
def test_same_numbers_as_english_section_by_section(lang):
    """The worked examples, the table of hands and every other number agree with English."""
    for (h_en, b_en), (h, b) in zip(sections(text(DEFAULT)), sections(text(lang))):
        digits_en = re.findall(r"\d+", h_en + "\n" + b_en)
        digits = re.findall(r"\d+", h + "\n" + b)
        assert digits == digits_en, f"{lang}: section {h!r} has numbers {digits}, " \
                                    f"English {h_en!r} has {digits_en}"


def test_the_scoring_examples_are_the_rules_examples():
    """The English examples say what the rules say (docs/rules.md §6)."""
    md = text(DEFAULT)
    for example in ("Evelyn bids 4 and wins 4 tricks: she scores 14 points (10 + 4)",
                    "Frank bids 0 and wins 0 tricks: he scores 10 points (10 + 0)",
                    "George bids 3 and wins 4 tricks: he scores 0 points",
                    "George bids 3 and wins 4 tricks: he scores 4 points",
                    "7 tricks are played: she scores 12 points (5 + 7)"):
        assert example in md


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_variant_is_named_by_its_option(lang):
    """Each option the command line takes appears, in `code`, in every language."""
    md = text(lang)
    options = [f"--{f.replace('_', '-')}" for f in FLAGS] + ["--schedule", "--no-trump"]
    for name in (*SCHEDULES, *NO_TRUMP_OPTIONS, *options, "la-podrida"):
        assert f"`{name}`" in md, f"{lang}: `{name}` is not named"


def test_the_glossary_has_every_term_in_every_language():
    table = glossary()
    for term in TERMS:
        assert term in table, f"GLOSSARY.md has no row for {term!r}"
        for lang in LANGUAGES:
            assert table[term][lang], f"GLOSSARY.md: {term!r} has no {lang} word"
        assert table[term][DEFAULT] == term


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("term", ["trump", "trick", "bid", "dealer", "hook"])
def test_each_text_uses_its_glossary_words(lang, term):
    """The body (not only the glossary at the end) says trump, trick and bid as GLOSSARY.md does."""
    body = "\n".join(h + "\n" + b for h, b in sections(text(lang))[:-1]).lower()
    w = word(glossary()[term][lang])
    assert body.count(w) >= 2, f"{lang}: the glossary's {term!r} ({w!r}) is used " \
                               f"{body.count(w)} times"


@pytest.mark.parametrize("lang", OTHERS)
def test_glossary_words_of_one_language_are_distinct(lang):
    """No word stands for two ideas (a trick and a hand, say) within one language."""
    table = glossary()
    words = [word(table[t][lang]) for t in ("game", "hand", "trick", "trump", "bid", "dealer",
                                            "suit", "hook", "score")]
    assert len(set(words)) == len(words), f"{lang}: {words}"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_renders_as_markdown_without_leaking_syntax(lang):
    md = text(lang)
    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in (t.children or ())}
    assert {"heading_open", "bullet_list_open", "table_open", "code_inline"} <= kinds
    console = Console(record=True, width=100, color_system=None, file=open("/dev/null", "w"))
    console.print(Markdown(md))
    rendered = console.export_text()
    for line in rendered.splitlines():
        assert not line.lstrip().startswith("#"), f"{lang}: raw heading {line!r}"
        assert not re.match(r"^\s*\|.*\|\s*$", line), f"{lang}: raw table row {line!r}"
        assert "**" not in line, f"{lang}: raw bold {line!r}"
    assert "15" in rendered and "13" in rendered       # the table of hands is there


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_left(lang):
    prose = without_code(text(lang))
    for name in NAMES:
        prose = prose.replace(name, " ")
    allowed = {word(glossary()[t][lang]) for t in TERMS}
    found = sorted({w for w in ENGLISH if w not in allowed
                    and re.search(rf"(?<![\w-]){w}(?![\w-])", prose, re.I)})
    assert not found, f"{lang}: English words left: {found}"


#: what each variant's "In the settings:" line names, in order: (catalog, label) of the web
#: page's and the terminal's own labels for that setting
SETTING_LABELS = [[("web", "Hands"), ("ohhell", "Schedule")], [("web", "No trump in"), ("ohhell", "No trump")],
                  [("web", "Hook")], [("web", "Simultaneous bidding")], [("web", "Must trump")],
                  [("web", "A missed bid scores 1 per trick")], [("web", "A made zero scores 5 + cards")]]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_settings_the_rules_name_are_the_ones_on_screen(lang):
    """Each variant tells where to find it in the settings, by the label the lobby and the
    terminal's setup screen show in that language (the catalogs' words, so the two agree)."""
    from ohhell.i18n import translator
    named = []
    for heading, body in sections(text(lang)):
        if heading.startswith("### "):
            first = body.strip().split("\n\n")[0].replace("\n", " ")
            named.append(re.findall(r"\*\*(.+?)\*\*", first))
    want = [[translator(lang, domain).gettext(label) for domain, label in group] for group in SETTING_LABELS]
    assert named == want


#: words a catalog must not use, by language: the seeds' mistakes GLOSSARY.md lists, and the
#: other words for an idea the glossary gives one word to (so the screens, the terminal and
#: the rules agree).  Regular expressions over each translation, placeholders cut out.
NOT_THE_GAMES_WORDS = {
    "ceb": [r"\bbid\b", r"\btrick\b", r"\bdealer\b", r"\bsuit\b", r"tigbahin", r"lingkuranan", r"\blansis",
            r"\blimbong", r"trumpeta", r"\bpusta", r"tigbaligya", r"\bbanaw\b", r"\bpuso\b"],
    "ms": [r"(?<!anda )\bbida\b(?! dahulu)", r"pengagih", r"mengagih", r"\bterup\b", r"tangkapan", r"\bhelah", r"muslihat",
           r"terompet", r"\bpeniaga", r"\bwajik\b", r"\bkeriting\b", r"ikut jenis"],
    "sq": [r"\bmarrje", r"\bmarrja", r"\bmashtrim", r"\btruk\b", r"\bkostum", r"\btregtar", r"\bdamë\b", r"\bfant\b",
           r"\bofert(?:o|uar)"],   # to bid is ofroj (ofron, ofroi, ofruar), not ofertoj
    "eu": [r"apustu", r"apustat", r"eskualdi", r"txartel", r"trikimailu", r"\btrumoi", r"saltzaile", r"egutegia",
           r"\bxango\b", r"\bandere\b"],
    # Marathi: हुक (a hook) in any form (हुकमुळे), but not हुकूम, हुकमाचा, हुकमी (trump's words)
    "mr": [r"डाव(?!ी|पेच)", r"युक्ती", r"ट्रम्प", r"बिड", r"विक्रेता", r"हुक(?!ूम|म[ाी])"],
}


@pytest.mark.parametrize("lang", OTHERS)
def test_the_catalogs_use_the_glossarys_words(lang):
    """A bid, a trick, a hand, the dealer, trump and the hook have one word each in every
    catalog of a language (the glossary's), never a seed's mistranslation or a loanword the
    rules text does not use."""
    from babel.messages.pofile import read_po

    from ohhell.i18n import DOMAINS, po_path
    found = []
    for domain in DOMAINS:
        with open(po_path(lang, domain), "rb") as f:
            cat = read_po(f, locale=lang)
        for m in cat:
            if not m.id:
                continue
            for said in ([m.string] if isinstance(m.string, str) else list(m.string)):
                plain = re.sub(r"\{[^{}]*\}|\[/?[a-z]+\]|--[a-z-]+|`[^`]*`", " ", said or "")
                plain = re.sub(r"\b(rule hook on|hook|dealer N|dealer)\b(?=[ |(])", " ", plain) \
                    if lang == "ceb" else plain      # the scorekeeper's commands stay as typed
                for pattern in NOT_THE_GAMES_WORDS.get(lang, ()):
                    if re.search(pattern, plain, re.IGNORECASE):
                        found.append(f"{domain}: {pattern!r} in {said[:90]!r}")
    assert found == []


@pytest.mark.parametrize("lang", OTHERS)
def test_the_rules_texts_use_the_glossarys_words(lang):
    """The rules texts avoid the same words as the catalogs (the game's names and option
    names in `code` aside), so the Rules page and the screens agree."""
    prose = without_code(text(lang))
    found = [f"{pattern!r} in {prose[max(0, m.start() - 30):m.end() + 30]!r}"
             for pattern in NOT_THE_GAMES_WORDS.get(lang, ())
             for m in re.finditer(pattern, prose, re.IGNORECASE)]
    assert found == []
