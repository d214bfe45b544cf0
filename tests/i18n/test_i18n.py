"""The language machinery: choosing a language, compiling catalogs, plurals, numbers,
and the catalogs themselves (complete, not fuzzy, placeholders as in English)."""

from __future__ import annotations

import gettext

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from hypothesis import given, strategies as st

from ohhell import i18n
from ohhell.i18n import catalogs


@pytest.mark.parametrize("tag,code", [
    ("ms-MY", "ms"), ("ceb_PH.UTF-8", "ceb"), ("EU", "eu"), ("mr-IN", "mr"), ("sq_AL@euro", "sq"),
    ("en-GB", "en"), ("de", None), ("C", None), ("POSIX", None), ("*", None), ("", None), (None, None),
])
def test_normalize(tag, code):
    assert i18n.normalize(tag) == code


@pytest.mark.parametrize("header,code", [
    ("de, ms;q=0.8, en;q=0.5", "ms"),
    ("en;q=0.4, eu;q=0.9", "eu"),
    ("mr", "mr"),
    ("fr-CH, fr;q=0.9", "en"),
    ("sq;q=0, ceb;q=0.1", "ceb"),
    ("ms;q=abc, eu", "eu"),
    ("", "en"),
    (None, "en"),
])
def test_negotiate(header, code):
    assert i18n.negotiate(header) == code


@given(st.text(max_size=300))
def test_negotiate_any_header_gives_an_offered_language(header):
    assert i18n.negotiate(header) in i18n.LANGUAGES


@pytest.mark.parametrize("env,code", [
    ({"LANG": "eu_ES.UTF-8"}, "eu"),
    ({"LANGUAGE": "de:ms", "LANG": "eu_ES.UTF-8"}, "ms"),
    ({"LC_ALL": "C", "LANG": "mr_IN.UTF-8"}, "en"),
    ({"LC_MESSAGES": "sq_AL.UTF-8", "LANG": "C.UTF-8"}, "sq"),
    ({}, "en"),
])
def test_from_environment(env, code):
    assert i18n.from_environment(env) == code


def test_a_language_not_offered_is_refused_clearly():
    with pytest.raises(ValueError, match="no such language 'xx'.*ceb"):
        i18n.set_language("xx")


def test_use_language_restores():
    before = i18n.get_language()
    with i18n.use_language("eu"):
        assert i18n.get_language() == "eu"
    assert i18n.get_language() == before


@pytest.fixture
def scratch_catalog(tmp_path, monkeypatch):
    """A Cebuano catalog of two messages in a scratch locale directory."""
    cat = Catalog(locale="ceb", domain="ohhell")
    cat.add("Trump", "Trumpo")
    cat.add(("{n} trick", "{n} tricks"), ("{n} ka trick", "{n} ka mga trick"))
    cat.add("Old", "Daan", flags=["fuzzy"])
    path = tmp_path / "ceb" / "LC_MESSAGES" / "ohhell.po"
    path.parent.mkdir(parents=True)
    with path.open("wb") as f:
        write_po(f, cat)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    yield path
    i18n.translations.cache_clear()


def test_catalog_compiles_and_words_by_language(scratch_catalog):
    with i18n.use_language("ceb"):
        assert i18n._("Trump") == "Trumpo"
        assert i18n._("Unknown") == "Unknown"
        assert i18n._("Old") == "Old"  # fuzzy translations are never shown
        # Cebuano's CLDR plural rule: 4, 6, 9 (and 14, 24...) take the "other" form
        assert i18n.ngettext("{n} trick", "{n} tricks", 1) == "{n} ka trick"
        assert i18n.ngettext("{n} trick", "{n} tricks", 3) == "{n} ka trick"
        assert i18n.ngettext("{n} trick", "{n} tricks", 4) == "{n} ka mga trick"
    assert i18n._("Trump") == "Trump"
    page = i18n.catalog_json("ceb", "ohhell")
    assert page["messages"] == {"Trump": "Trumpo", "{n} trick": ["{n} ka trick", "{n} ka mga trick"]}
    assert "n % 10" in page["plural"]


def test_english_and_missing_catalogs_give_the_source(scratch_catalog):
    assert isinstance(i18n.translations("en"), gettext.NullTranslations)
    assert i18n.translator("eu").gettext("Trump") == "Trump"


def test_numbers_are_written_per_language():
    assert i18n.format_number(1234.5, 1, lang="en") == "1,234.5"
    assert i18n.format_number(-3.25, 2, lang="eu") == "−3,25" or i18n.format_number(-3.25, 2, lang="eu") == "-3,25"
    assert i18n.format_number(1234.5, 1, lang="sq").replace("\u00a0", " ") == "1 234,5"
    assert i18n.format_number(7, lang="ms") == "7"


def test_placeholders():
    assert catalogs.placeholders("Seat {seat} bid {bid:d}, {{literal}}") == {"seat", "bid"}


def test_the_catalogs_are_complete():
    """Every message of every source is in every language's catalog, translated, not
    fuzzy, with the same placeholders as the English (scripts/i18n.py check)."""
    found = list(catalogs.problems())
    assert not found, f"{len(found)} catalog problem(s), e.g.:\n" + "\n".join(found[:40])



def test_cebuano_says_a_number_of_things_one_way():
    """Cebuano's CLDR plural rule splits the numbers by their last digit, not one from
    many: 1, 2, 3, 5, 7, 8, 10... take ``msgstr[0]``, 4, 6, 9, 14... ``msgstr[1]``. The
    words do not change with the number (*5 ka kuha*, *4 ka kuha*), so the two forms of
    every plural message are the same: a player would otherwise read "5 ka kuha" beside
    "4 ka mga kuha"."""
    from babel.messages.pofile import read_po
    differ = []
    for domain in i18n.DOMAINS:
        with open(i18n.po_path("ceb", domain), "rb") as f:
            cat = read_po(f, locale="ceb")
        differ += [f"{domain}: {m.id[0]!r}: {m.string!r}" for m in cat
                   if m.id and m.pluralizable and len(set(m.string)) > 1]
    assert differ == []


def test_a_page_is_worded_and_otherwise_left_as_it_was():
    from ohhell.i18n.html import marked_texts, translate_html
    page = ('<!doctype html>\n<html lang="en"><head><title>T &amp; U</title></head><body>'
            '<!-- keep --><b data-i18n> Language </b><input placeholder=\'Language\' '
            'data-i18n-attr="placeholder aria-label" aria-label="Language"/><p>&middot; x</p></body></html>')
    assert [m for _line, m in marked_texts(page)] == ["Language", "Language", "Language"]
    out = translate_html(page, "eu", extra_html_attrs='data-v="1"')
    assert out == ('<!doctype html>\n<html data-v="1" lang="eu"><head><title>T &amp; U</title></head><body>'
                   '<!-- keep --><b data-i18n> Hizkuntza </b><input placeholder="Hizkuntza" '
                   'data-i18n-attr="placeholder aria-label" aria-label="Hizkuntza"/><p>&middot; x</p></body></html>')
    assert translate_html(page, "en") == page
