"""Long, deep executions of humanize, for harder items.

Each test drives one area of the package through dozens of calls over inputs
that the test builds with explicit loops (geometric progressions, small-modulus
patterns, values crossing unit thresholds, negative and zero values), often
carrying state from one call into the next: an output is fed back in, or a
running value evolves from step to step. The asserts check aggregates.

Everything is deterministic: no clock (humanize.time._now is pinned wherever
the package would consult it, and naturaltime always gets `when=`), no random
numbers, no machine locale; translations are activated only inside a
try/finally that deactivates them.
"""

import datetime as dt

import humanize
import humanize.time as htime
import pytest
from humanize.filesize import naturalsize

# naive on purpose: naturaltime converts aware datetimes through the machine's
# local timezone
FIXED_NOW = dt.datetime(2024, 1, 1, 0, 0, 0)  # noqa: DTZ001
WHEN = dt.datetime(2024, 3, 15, 12, 0, 0)  # noqa: DTZ001


def _pin_now(monkeypatch):
    # precisedelta, and any negative delta, ask humanize.time._now() for "now"
    monkeypatch.setattr(htime, "_now", lambda: FIXED_NOW)


def test_intword_geometric_progression_and_rounding_edges():
    outputs = []
    unchanged = 0
    value = 1
    for k in range(40):
        signed = -value if k % 3 == 2 else value
        fmt = "%.1f" if k % 2 == 0 else "%.2f"
        arg = str(signed) if k % 5 == 4 else signed
        text = humanize.intword(arg, fmt)
        # feed the word back in: only plain digit strings parse again
        if humanize.intword(text) == text:
            unchanged += 1
        outputs.append(text)
        value *= 7

    edges = []
    for j in range(2, 8):
        # just under a power of 1000: the cut decides whether rounding reaches it
        cut = 4 if j % 2 else 5
        edges.append(humanize.intword(10 ** (3 * j) - 10 ** (3 * j - cut)))

    joined = " | ".join(outputs)
    assert len(outputs) == 40
    assert unchanged == 40
    assert sum(text.startswith("-") for text in outputs) == 13
    assert joined.count("thousand") == 4
    assert joined.count("quadrillion") == 4
    assert outputs[-1].endswith("nonillion")
    assert edges[0] == "1.0 million"
    assert edges.count("1.0 trillion") == 1
    assert sum("999.9" in e for e in edges) == 3


def test_intcomma_running_total_round_trip():
    total = 0
    texts = []
    same = 0
    for i in range(45):
        step = (i * 7 + 3) % 11 - 5
        total = (total * 7 + step * 1013) % 10_000_019 - 4_000_000
        ndigits = (None, 0, 2)[i % 3]
        value = total / 8 if i % 4 == 1 else total
        if i % 9 == 8:
            value = f"{i}k"  # not a number: returned as given
        elif i % 10 == 6:
            value = str(value)
        text = humanize.intcomma(value, ndigits)
        # the formatted string goes back through the string branch
        back = humanize.intcomma(text)
        same += back == text
        texts.append(text)

    joined = "".join(texts)
    assert len(texts) == 45
    assert same == 38
    assert joined.count(",") == 67
    assert sum(t.endswith("k") for t in texts) == 5
    assert sum(t.startswith("-") for t in texts) == 15
    assert texts[0] == "5,997,993"


def test_ordinal_and_apnumber_sweep():
    ordinals = []
    words = []
    for n in range(-13, 131, 3):
        gender = "female" if n % 2 else "male"
        arg = n
        if n % 5 == 0:
            arg = str(n)
        if n % 7 == 0:
            arg = n + 0.5
        if n % 11 == 0:
            arg = f"{n}.5"  # int() refuses it: returned unchanged
        ordinals.append(humanize.ordinal(arg, gender))
        words.append(humanize.apnumber(arg))

    joined = " ".join(ordinals)
    assert len(ordinals) == 48
    assert joined.count("st") == 3
    assert joined.count("nd") == 5
    assert joined.count("rd") == 3
    assert joined.count("th") == 33
    assert sum(o.endswith(".5") for o in ordinals) == 4
    assert [w for w in words if w.isalpha()] == ["two", "five", "eight"]
    assert ordinals[4] == "-1th"


def test_fractional_accumulating_and_scientific_powers():
    x = 0.0
    fractions = []
    for i in range(36):
        x += ((i * 7 + 3) % 11 - 6) / 8
        v = x / 3 if i % 6 == 5 else x
        text = humanize.fractional(v)
        # "a b/c" does not parse as a float: handed back unchanged
        assert humanize.fractional(text) == text
        fractions.append(text)

    sci = []
    for k in range(-10, 14):
        v = 7.0**k * (-1 if k % 4 == 1 else 1)
        text = humanize.scientific(v, (k + 10) % 4)
        assert humanize.scientific(text) == text
        sci.append(text)

    joined = " ".join(fractions)
    assert len(fractions) == 36
    assert sum(" " in f for f in fractions) == 23
    assert sum("/" not in f for f in fractions) == 1
    assert joined.count("-") == 33
    assert joined.count("/8") == 15
    assert joined.count("/3") == 1
    assert fractions[-1] == "-1 1/3"
    assert sum("⁻" in s for s in sci) == 10
    assert sum(s.startswith("-") for s in sci) == 6
    assert sci[10] == "1.00 x 10⁰"


def test_metric_progression_across_prefixes():
    outputs = []
    v = 2e-32
    for k in range(44):
        precision = 1 + k % 4
        signed = -v if k % 5 == 3 else v
        unit = "VWFg"[k % 4] if k % 3 else ""
        outputs.append(humanize.metric(signed, unit, precision))
        v *= 7

    edges = []
    for j in range(-4, 8):
        # mantissas just under 1000, alternating, at every third power of ten
        mantissa = 999.9 if j % 2 == 0 else 999.4
        edges.append(humanize.metric(mantissa * 10.0 ** (3 * j), "Hz"))

    joined = " ".join(outputs)
    assert len(outputs) == 44
    assert sum(" x 10" in o for o in outputs) == 3
    assert joined.count(" z") == 4
    assert joined.count(" μ") == 3
    assert sum(o.startswith("-") for o in outputs) == 9
    assert outputs[39] == "18.19"
    assert sum(e.startswith("1.00 ") for e in edges) == 6
    assert sum(e.startswith("999 ") for e in edges) == 6
    assert edges[-1] == "999 ZHz"


def test_naturalsize_three_modes_over_powers_of_seven():
    outputs = []
    refused = 0
    v = 1
    for k in range(36):
        mode = k % 3
        fmt = "%.1f" if k % 4 else "%.3f"
        arg = -v if k % 7 == 3 else v
        if k % 5 == 2:
            arg = str(arg)
        text = naturalsize(arg, binary=mode == 1, gnu=mode == 2, format=fmt)
        if k % 6 == 5:
            # a formatted size is not a number: float() raises inside naturalsize
            with pytest.raises(ValueError):
                naturalsize(text)
            refused += 1
        outputs.append(text)
        v *= 7

    with pytest.raises(TypeError):
        naturalsize(None)

    joined = " ".join(outputs)
    assert len(outputs) == 36 and refused == 6
    assert joined.count("iB") == 11
    assert joined.count("Byte") == 3
    assert sum(o[-1].isalpha() and " " not in o for o in outputs) == 12
    assert sum(o.startswith("-") for o in outputs) == 5
    assert outputs[-1] == "306.0R"


def test_naturaldelta_growing_durations(monkeypatch):
    _pin_now(monkeypatch)
    secs = 1
    phrases = []
    for i in range(50):
        # grows by half each step, plus a small periodic bump
        secs = secs * 3 // 2 + (i * 7 + 3) % 11
        months = i % 4 != 3
        value = -float(secs) if i % 5 == 4 else dt.timedelta(seconds=secs)
        phrases.append(humanize.naturaldelta(value, months=months))

    small = []
    us = 1
    for i in range(24):
        unit = ("seconds", "milliseconds", "microseconds")[i % 3]
        small.append(
            humanize.naturaldelta(dt.timedelta(microseconds=us), minimum_unit=unit)
        )
        us = us * 7 % 1_999_999

    odd = [humanize.naturaldelta(v) for v in ("nan", "12.5", None, "7", [3])]
    with pytest.raises(OverflowError):
        humanize.naturaldelta(float("inf"))

    joined = " ".join(phrases)
    assert len(phrases) == 50
    assert joined.count("seconds") == 4
    assert joined.count("minute") == 10
    assert joined.count("hour") == 7
    assert joined.count("day") == 9
    assert joined.count("month") == 8
    assert joined.count("year") == 14
    assert phrases[-1] == "230 years"
    assert small.count("a moment") == 6
    assert small.count("a second") == 9
    assert sum(s.endswith("milliseconds") for s in small) == 8
    assert odd == ["nan", "12.5", "None", "7 seconds", "[3]"]


def test_naturaltime_wandering_offsets(monkeypatch):
    _pin_now(monkeypatch)
    phrases = []
    off = 0
    for i in range(40):
        # offset in minutes, kept within about a year either side of WHEN
        off = (off * 5 + ((i * 7 + 3) % 11) * 37) % 1_051_201 - 525_600
        moment = WHEN + dt.timedelta(minutes=off) // (7 ** (i % 5))
        unit = "milliseconds" if i % 6 == 5 else "seconds"
        phrases.append(
            humanize.naturaltime(
                moment, months=i % 4 != 1, minimum_unit=unit, when=WHEN
            )
        )

    signed = []
    for i in range(-10, 11, 2):
        signed.append(humanize.naturaltime(dt.timedelta(hours=i * 7), when=WHEN))
        signed.append(
            humanize.naturaltime(
                abs(i) ** 3 * 60, future=i > 0, months=i % 4 != 0, when=WHEN
            )
        )

    joined = " ".join(phrases)
    assert len(phrases) == 40
    assert joined.count("from now") == 17
    assert joined.count(" ago") == 23
    assert joined.count("hour") == 15
    assert joined.count("day") == 13
    assert joined.count("month") == 7
    assert phrases[0] == "a year ago"
    assert signed.count("now") == 2
    assert sum(s.endswith("from now") for s in signed) == 10
    assert signed[0] == "2 days from now"


def test_precisedelta_grid_of_units_suppressions_and_formats(monkeypatch):
    _pin_now(monkeypatch)
    units = (
        "seconds",
        "microseconds",
        "milliseconds",
        "minutes",
        "hours",
        "days",
        "months",
        "years",
    )
    suppressions = (
        (),
        ("days",),
        ("months", "years"),
        ("hours", "minutes"),
        ("seconds",),
        ("minutes", "hours", "days"),
    )
    formats = ("%0.2f", "%d", "%0.1f")
    texts = []
    refused = []
    for i in range(48):
        delta = dt.timedelta(
            days=(i * 53) % 800,
            hours=(i * 7 + 3) % 11,
            minutes=(i * 13) % 60,
            seconds=(i * 29) % 60,
            microseconds=(i * i * 977) % 1_000_000,
        )
        try:
            texts.append(
                humanize.precisedelta(
                    delta,
                    minimum_unit=units[i % 8],
                    suppress=suppressions[i % 6],
                    format=formats[i % 3],
                )
            )
        except ValueError:
            refused.append(i)

    # negative numbers of seconds, growing by 7x
    numbers = [
        humanize.precisedelta(-(7**k) / 10, minimum_unit="milliseconds")
        for k in range(12)
    ]

    joined = " | ".join(texts)
    assert refused == [14, 38]
    assert len(texts) == 46
    assert sum(" and " in t for t in texts) == 35
    assert joined.count("year") == 23
    assert joined.count("microseconds") == 8
    assert texts[1] == (
        "1 month, 538 hours, 13 minutes, 29 seconds and 977 microseconds"
    )
    assert texts[7] == "1 year and 30683047873 microseconds"
    assert all(n.endswith("milliseconds") for n in numbers)
    assert numbers[-1].startswith("6 years, 3 months")
    assert sum(n.count(",") for n in numbers) == 18


def test_clamp_formats_then_natural_list_of_prefixes():
    formats = ("{:.1f}", "{:.0%}", humanize.intword, humanize.intcomma, "{:+.2e}")
    clamped = []
    for i in range(40):
        v = ((i * 7 + 3) % 11 - 5) * 4 ** (i % 6) / 2
        floor = (-3, None, -100, 0)[i % 4]
        ceil = (None, 500, 8, None, 2)[i % 5]
        clamped.append(humanize.clamp(v, format=formats[i % 5], floor=floor, ceil=ceil))

    special = [
        humanize.clamp(None),
        humanize.clamp(float("nan")),
        humanize.clamp(float("-inf")),
    ]
    with pytest.raises(ValueError, match="Invalid format"):
        humanize.clamp(1.5, format=42)

    # natural lists of ever longer prefixes of the clamped texts
    lists = [humanize.natural_list(clamped[:n]) for n in range(0, 41, 3)]

    assert sum(c.startswith("<") for c in clamped) == 9
    assert sum(c.startswith(">") for c in clamped) == 4
    assert sum(c.endswith("%") for c in clamped) == 8
    assert special == [None, "NaN", "-Inf"]
    assert lists[0] == ""
    assert lists[1] == "-1.0, 1000% and 8"
    assert sum(" and " in s for s in lists) == 13
    assert lists[-1].count(", ") == 37


def test_intcomma_round_trip_across_locales():
    locales = ("de_DE", "fr_FR", "en_GB", "it_IT", "hu_HU", "lv", "pt_BR", None)
    separators = []
    outputs = []
    mismatches = 0
    try:
        for j, locale in enumerate(locales):
            humanize.activate(locale)
            separators.append(
                humanize.thousands_separator() + humanize.decimal_separator()
            )
            value = 13 + j
            for k in range(6):
                value = value * 37 + k
                ndigits = (None, 2)[k % 2]
                number = value if k % 2 == 0 else value / 4
                text = humanize.intcomma(number, ndigits)
                # parse the localized text back and format it again
                back = humanize.intcomma(text, ndigits)
                mismatches += back != text
                outputs.append(text)
    finally:
        humanize.deactivate()

    joined = " ".join(outputs)
    assert len(outputs) == 48
    assert mismatches == 0
    assert separators == [".,", " .", ",.", ".,", " ,", " ,", ".,", ",."]
    assert joined.count(",") == 36
    assert joined.count(".") == 38
    assert humanize.intcomma(1234567.5) == "1,234,567.5"
