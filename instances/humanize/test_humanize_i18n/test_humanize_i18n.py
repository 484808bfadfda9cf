"""Tests for humanize.i18n: activating bundled translations and separators."""

import datetime as dt

import pytest

import humanize


@pytest.fixture(autouse=True)
def _reset_locale():
    humanize.deactivate()
    yield
    humanize.deactivate()


def test_default_separators():
    assert humanize.thousands_separator() == ","
    assert humanize.decimal_separator() == "."


def test_activate_english_is_null_translation():
    humanize.activate("en_US")
    assert humanize.intword(2_500_000) == "2.5 million"
    humanize.activate(None)
    assert humanize.ordinal(3) == "3rd"


def test_german_separators_and_intcomma():
    humanize.activate("de_DE")
    assert humanize.thousands_separator() == "."
    assert humanize.decimal_separator() == ","
    assert humanize.intcomma(1234567) == "1.234.567"
    assert humanize.intcomma(1234.5, 1) == "1.234,5"
    assert humanize.intcomma("1.234,5") == "1.234,5"


def test_german_intword():
    humanize.activate("de_DE")
    assert humanize.intword(1_200_000) == "1,2 Millionen"
    assert humanize.intword(1_000_000) == "1,0 Million"


def test_french_naturaldelta():
    humanize.activate("fr_FR")
    assert humanize.naturaldelta(dt.timedelta(seconds=30)) == "30 secondes"
    assert humanize.naturaldelta(dt.timedelta(days=3)) == "3 jours"


def test_french_ordinal_gender():
    humanize.activate("fr_FR")
    assert humanize.ordinal(1) == "1er"
    assert humanize.ordinal(1, gender="female") == "1ère"
    assert humanize.ordinal(2) == "2e"


def test_deactivate_restores_english():
    humanize.activate("de_DE")
    assert humanize.apnumber(5) != "five"
    humanize.deactivate()
    assert humanize.apnumber(5) == "five"
    assert humanize.intcomma(1234567) == "1,234,567"


def test_missing_locale_raises():
    with pytest.raises(FileNotFoundError):
        humanize.activate("xx_XX")
    with pytest.raises(FileNotFoundError):
        humanize.activate("es_ES", path="/nonexistent-humanize-locale-dir")
