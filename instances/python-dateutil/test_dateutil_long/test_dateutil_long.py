"""Long, deep executions of python-dateutil, for harder items.

Each test drives one area of the package through dozens of calls over inputs
the test builds with explicit loops (arithmetic progressions, small-modulus
patterns, strings assembled from the loop index), and most carry state from
one call into the next: a parsed result becomes the next call's default, a
date is walked forward by a chain of relativedeltas, one rruleset collects
many rules and exclusions before it is queried. The asserts check aggregates.

Everything is deterministic and machine-independent: parser.parse always gets
`default=` (and every year is written with four digits), every rrule gets
`dtstart=`, rrulestr is never given DTSTART/UNTIL/RDATE/EXDATE lines (those go
through parse without a default), and time zones are fixed offsets or
`tz.tzstr` of POSIX strings, never the system's zoneinfo or local zone. Named
zones in parsed strings are always resolved through an explicit `tzinfos`.
"""

import datetime as dt
from itertools import pairwise

from dateutil import easter, tz, utils
from dateutil.parser import ParserError, isoparse, isoparser, parse, parserinfo
from dateutil.relativedelta import FR, MO, SA, SU, TH, TU, WE, relativedelta
from dateutil.rrule import (
    DAILY,
    MONTHLY,
    WEEKLY,
    YEARLY,
    rrule,
    rruleset,
    rrulestr,
)

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
FULL_MONTHS = ["January", "February", "March", "April", "May", "June", "July",
               "August", "September", "October", "November", "December"]
DAYNAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
            "Saturday", "Sunday"]
WEEKDAYS = [MO, TU, WE, TH, FR, SA, SU]
RFC_DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
GERMAN_MONTHS = ["jan", "feb", "mar", "apr", "mai", "jun", "jul", "aug", "sep",
                 "okt", "nov", "dez"]
GERMAN_DAYS = ["mo", "di", "mi", "do", "fr", "sa", "so"]


def naive(*fields):
    # a datetime without tzinfo, on purpose: the package's naive code paths
    return dt.datetime(*fields)  # noqa: DTZ001


def test_parse_many_formats_with_carried_default():
    # every result becomes the default of the next parse: fields a string
    # leaves out are taken from the previous result
    prev = naive(2000, 1, 1, 0, 0, 0)
    results = []
    for i in range(48):
        y = 1990 + (i * 7) % 35
        m = 1 + (i * 5) % 12
        d = 1 + (i * 11) % 28
        hh = (i * 7 + 3) % 24
        mi = (i * 13) % 60
        ss = (i * 17) % 60
        form = i % 8
        if form == 0:
            text = f"{y:04d}-{m:02d}-{d:02d}T{hh:02d}:{mi:02d}:{ss:02d}"
        elif form == 1:
            text = f"{d} {MONTHS[m - 1]} {y} {hh}:{mi:02d}"
        elif form == 2:
            h12 = hh % 12 or 12
            text = f"{FULL_MONTHS[m - 1]} {d}, {y} at {h12}:{mi:02d}{'pm' if hh >= 12 else 'am'}"
        elif form == 3:
            text = f"{y:04d}{m:02d}{d:02d}T{hh:02d}{mi:02d}{ss:02d}"
        elif form == 4:
            text = f"{m}/{d}/{y}"
        elif form == 5:
            text = f"{MONTHS[m - 1]} {y}"
        elif form == 6:
            text = f"{y}.{m:02d}.{d:02d} {hh}h{mi}m"
        else:
            # a weekday name and a time only, no date
            text = f"{DAYNAMES[(i * 3) % 7]} {hh}:{mi:02d}:{ss:02d}"
        prev = parse(text, default=prev)
        results.append(prev)

    assert len(results) == 48
    assert results[-1] == naive(1997, 3, 4, 20, 11, 19)
    assert sum(r.year for r in results) == 96164
    assert sum(r.day for r in results) == 688
    assert sum(r.second for r in results) == 1278
    assert sum(r.weekday() for r in results) == 144
    # how often the carried value moved backwards in time
    assert sum(1 for a, b in pairwise(results) if b < a) == 9


def test_parse_ambiguous_numbers_dayfirst_yearfirst_and_errors():
    default = naive(2010, 6, 15, 12, 0)
    seps = ["/", "-", ".", " "]
    outcomes = []
    errors = 0
    for i in range(44):
        a = 1 + (i * 7 + 3) % 13
        b = 1 + (i * 5) % 31
        year = 1995 + (i * 3) % 30
        pos = (0, 2, 2, 0, 1)[i % 5]
        parts = [str(a), str(b)]
        parts.insert(pos, str(year))
        text = seps[i % 4].join(parts)
        dayfirst = bool(i % 2)
        yearfirst = bool((i // 2) % 2)
        try:
            got = parse(text, default=default, dayfirst=dayfirst, yearfirst=yearfirst)
        except ParserError:
            errors += 1
            outcomes.append(None)
        else:
            outcomes.append((got.year, got.month, got.day))
    ok = [o for o in outcomes if o is not None]
    assert errors == 10
    assert len(ok) == 34
    assert sum(o[1] for o in ok) == 222
    assert sum(o[2] for o in ok) == 544
    # results whose day could also have been read as a month
    assert sum(1 for o in ok if o[2] <= 12) == 13

    # fuzzy parsing: words around the date are skipped and handed back
    skipped_words = 0
    fuzzy_days = 0
    for i in range(12):
        d = 1 + (i * 5) % 28
        m = FULL_MONTHS[(i * 7) % 12]
        h = 1 + i % 11
        text = f"Meeting on the {d}th of {m} {2000 + i} at {h} pm, bring notes"
        got, tokens = parse(text, default=default, fuzzy_with_tokens=True)
        skipped_words += sum(len(t.split()) for t in tokens)
        fuzzy_days += got.day + got.hour
    assert skipped_words == 96
    assert fuzzy_days == 385


def test_parse_named_zones_and_offsets_through_tzinfos():
    zones = {
        "AAA": 3600,
        "BBB": -7 * 3600,
        "CCC": tz.tzoffset("CCC", 5 * 3600 + 1800),
        "DDD": tz.tzstr("DDD3DDE,M3.2.0,M11.1.0"),
        # listed so that a "UTC" name never reaches the lookup of the
        # machine's own zone names (time.tzname)
        "UTC": tz.UTC,
    }
    names = ["AAA", "BBB", "CCC", "DDD"]
    default = naive(2015, 1, 1)
    utc_minutes = 0
    offsets = []
    naive_count = 0
    for i in range(40):
        y = 2001 + i % 20
        m = 1 + (i * 5) % 12
        d = 1 + (i * 3) % 28
        hh = (i * 7) % 24
        kind = i % 5
        sign = "+" if i % 2 else "-"
        base = f"{y}-{m:02d}-{d:02d} {hh:02d}:{(i * 11) % 60:02d}"
        if kind == 0:
            text = f"{base} {names[i % 4]}"
        elif kind == 1:
            text = f"{base} {sign}{(i * 3) % 12:02d}{(i * 15) % 60:02d}"
        elif kind == 2:
            text = f"{base} {sign}{(i * 5) % 12:02d}:30"
        elif kind == 3:
            text = f"{base}Z"
        else:
            text = f"{base} UTC+{i % 9}"
        got = parse(text, default=default, tzinfos=zones)
        if got.tzinfo is None:
            naive_count += 1
            continue
        offsets.append(got.utcoffset())
        in_utc = got.astimezone(tz.UTC)
        utc_minutes += in_utc.hour * 60 + in_utc.minute
        # the same text with ignoretz drops the zone
        assert parse(text, default=default, tzinfos=zones, ignoretz=True).tzinfo is None
    assert naive_count == 0
    assert len(offsets) == 40
    assert sum(o.total_seconds() for o in offsets) == -57600
    assert utc_minutes == 30180


def test_isoparse_chain_of_formats():
    cur = naive(2019, 12, 28, 22, 15, 0)
    parsed = []
    rejected = 0
    for i in range(45):
        form = i % 9
        sign = "+" if i % 2 else "-"
        y, m, d = cur.year, cur.month, cur.day
        iy, iw, idw = cur.isocalendar()
        t_ext = f"{cur.hour:02d}:{cur.minute:02d}:{cur.second:02d}"
        t_basic = f"{cur.hour:02d}{cur.minute:02d}{cur.second:02d}"
        if form == 0:
            text = f"{y:04d}-{m:02d}-{d:02d}T{t_ext}"
        elif form == 1:
            text = f"{y:04d}{m:02d}{d:02d}T{t_basic}"
        elif form == 2:
            text = f"{iy:04d}-W{iw:02d}-{idw}T{t_ext}"
        elif form == 3:
            text = f"{iy:04d}W{iw:02d}{idw}T{t_basic}"
        elif form == 4:
            text = f"{y:04d}-{cur.timetuple().tm_yday:03d}T{t_ext}"
        elif form == 5:
            text = f"{y:04d}-{m:02d}-{d:02d} {t_ext}.{(i * 12345) % 1000000:06d}"
        elif form == 6:
            text = f"{y:04d}-{m:02d}-{d:02d}T{t_ext},{i % 10}Z"
        elif form == 7:
            text = f"{y:04d}-{m:02d}-{d:02d}T{t_ext}{sign}{(i % 12):02d}:{(i * 15) % 60:02d}"
        else:
            text = f"{y:04d}-{m:02d}-{d:02d}T{cur.hour:02d}{sign}{(i % 12):02d}"
        got = isoparse(text)
        parsed.append(got)
        if got.tzinfo is not None:
            got = got.astimezone(tz.UTC).replace(tzinfo=None)
        # step forward by an amount that depends on the index
        cur = got + dt.timedelta(days=(i * 7 + 3) % 11 * 5, hours=(i * 5) % 13,
                                 minutes=(i * 13) % 60, seconds=(i * 29) % 60)
        cur = cur.replace(microsecond=0)
        # a malformed neighbour of the same text
        if i % 5 == 0:
            bad = [text + "T", text.replace("T", "T25", 1), f"{y:04d}-13-01",
                   f"{y:04d}-W54-1", f"{y:04d}-367", f"{y:04d}-{m:02d}-{d:02d}T24:30"][i % 6]
            try:
                isoparse(bad)
            except ValueError:
                rejected += 1
    assert cur == naive(2023, 1, 28, 23, 32, 16)
    assert rejected == 9
    assert sum(p.microsecond for p in parsed) == 3419675
    assert sum(1 for p in parsed if p.tzinfo is not None) == 15

    # the component parsers, each result feeding the next string
    iso = isoparser(sep=" ")
    day = dt.date(2020, 2, 27)
    minutes = 0
    for i in range(20):
        day = iso.parse_isodate(day.isoformat()) + dt.timedelta(days=(i * 3) % 7 + 1)
        t = iso.parse_isotime(f"{(i * 5) % 24:02d}{(i * 7) % 60:02d}")
        minutes += t.hour * 60 + t.minute
        off = iso.parse_tzstr(f"{'+-'[i % 2]}{i % 14:02d}{(i * 15) % 60:02d}")
        minutes += int(off.utcoffset(None).total_seconds() // 60)
    assert day == dt.date(2020, 5, 16)
    assert minutes == 13600


def test_relativedelta_walk_with_weekdays_and_differences():
    cur = dt.date(2020, 1, 31)
    prev = cur
    clipped = 0
    month_total = 0
    day_total = 0
    for i in range(50):
        kwargs = {"months": (i * 5) % 7 - 3}
        if i % 4:
            kwargs["days"] = (i * 3) % 5 - 2
        n = (1, -1, 2, None)[i % 4]
        kwargs["weekday"] = WEEKDAYS[i % 7](n) if n else WEEKDAYS[i % 7]
        if i % 6 == 0:
            kwargs["day"] = 31
        if i % 9 == 4:
            kwargs["years"] = 1
            kwargs["leapdays"] = -1
        rd = relativedelta(**kwargs)
        cur = cur + rd
        diff = relativedelta(cur, prev)
        assert prev + diff == cur
        month_total += diff.years * 12 + diff.months
        day_total += diff.days
        if "day" in kwargs and cur.day < 31:
            clipped += 1
        prev = cur
    assert cur == dt.date(2026, 7, 27)
    assert clipped == 9
    assert month_total == 77
    assert day_total == 22


def test_relativedelta_algebra_and_normalization():
    acc = relativedelta()
    for i in range(40):
        rd = relativedelta(
            months=i % 5 - 2,
            weeks=(i * 3) % 4,
            hours=(i * 7 + 3) % 11 * 9,
            minutes=(i * 13) % 90,
            seconds=i * 37,
            microseconds=(i * 7919) % 1500000,
        )
        acc = acc + rd if i % 3 else acc - rd
        if i % 10 == 9:
            acc = acc * 0.5
        if i % 8 == 7:
            acc = -acc
    assert acc == relativedelta(days=-12, hours=-4, minutes=+8, seconds=-1,
                                microseconds=-257862)
    assert acc.weeks == -1
    assert bool(acc)
    assert abs(acc) == relativedelta(days=12, hours=4, minutes=8, seconds=1,
                                     microseconds=257862)

    # fractional days cascade down into hours, minutes and seconds
    halves = relativedelta()
    for i in range(16):
        halves += relativedelta(days=(i % 4) * 0.25, hours=(i % 3) * 0.5,
                                months=i % 2)
    assert halves.normalized() == relativedelta(months=8, days=6, hours=7, minutes=30)

    # yearday / nlyearday are converted to month, day and leapdays
    base_leap = dt.date(2024, 1, 1)
    base_plain = dt.date(2023, 1, 1)
    shifted = []
    invalid = 0
    for i in range(24):
        yd = 1 + (i * 37) % 400
        try:
            rd1 = relativedelta(yearday=yd)
            rd2 = relativedelta(nlyearday=yd)
        except ValueError:
            invalid += 1
            continue
        shifted.append((base_leap + rd1) - (base_leap + rd2))
        shifted.append((base_plain + rd1) - (base_plain + rd2))
    assert invalid == 2
    assert len(shifted) == 44
    assert sum(s.days for s in shifted) == -16


def test_rrule_byxxx_combinations():
    start = naive(2021, 3, 1, 9, 30)
    counts = []
    firsts = []
    lasts = []
    for i in range(36):
        freq = (YEARLY, MONTHLY, WEEKLY, DAILY)[i % 4]
        kwargs = {"dtstart": start + dt.timedelta(days=i * 17), "count": 3 + i % 5,
                  "interval": 1 + (i // 4) % 3}
        combo = i % 9
        if combo == 0:
            # three consecutive months: every interval reaches one of them
            kwargs["bymonth"] = (1 + i % 12, 1 + (i + 1) % 12, 1 + (i + 2) % 12)
            kwargs["bymonthday"] = (1, 15, -1)
        elif combo == 1:
            kwargs["byweekday"] = (WEEKDAYS[i % 7], WEEKDAYS[(i + 3) % 7])
        elif combo == 2:
            kwargs["byweekday"] = WEEKDAYS[i % 5](1 + i % 2)
            if freq in (WEEKLY, DAILY):
                kwargs["byweekday"] = WEEKDAYS[i % 5]
        elif combo == 3:
            kwargs["byweekday"] = (MO, TU, WE, TH, FR)
            kwargs["bysetpos"] = (1, -1)
        elif combo == 4:
            kwargs["byyearday"] = (1 + i, 100 + i, -(1 + i % 30))
        elif combo == 5:
            kwargs["byweekno"] = (1 + i % 52, 20)
            kwargs["byweekday"] = WEEKDAYS[i % 7]
        elif combo == 6:
            kwargs["byhour"] = (8, 12 + i % 6)
            kwargs["byminute"] = (0, 30)
        elif combo == 7:
            kwargs["bymonthday"] = (-1, -7, 13)
            kwargs["byweekday"] = FR
        else:
            kwargs["byeaster"] = (i % 7) - 3
        rule = rrule(freq, **kwargs)
        got = list(rule)
        counts.append(len(got))
        firsts.append(got[0])
        lasts.append(got[-1])
    assert sum(counts) == 178
    assert sum(f.day for f in firsts) == 547
    assert sum(last.month for last in lasts) == 222
    assert max(lasts) == naive(2039, 4, 8, 9, 30)
    assert sum(last.hour * 60 + last.minute for last in lasts) == 20640

    # an open-ended rule queried with between / after / before
    rule = rrule(WEEKLY, byweekday=(MO, TH), byhour=(9, 18), byminute=0, bysecond=0,
                 dtstart=naive(2022, 1, 3, 9, 0))
    probe = naive(2022, 1, 5, 7, 45)
    hits = 0
    for i in range(20):
        nxt = rule.after(probe, inc=bool(i % 2))
        prv = rule.before(probe + dt.timedelta(days=2), inc=bool(i % 3 == 0))
        window = rule.between(probe, probe + dt.timedelta(days=(i % 5) + 3), inc=True)
        hits += len(window) + (prv is not None)
        probe = nxt + dt.timedelta(hours=(i * 7) % 30)
    assert probe == naive(2022, 2, 22, 7, 0)
    assert hits == 71


def test_rruleset_many_rules_exrules_and_exdates():
    start = naive(2023, 1, 2, 10, 0)
    rset = rruleset()
    for i in range(10):
        if i % 3 == 0:
            rule = rrule(WEEKLY, interval=1 + i % 3, byweekday=WEEKDAYS[i % 7],
                         dtstart=start + dt.timedelta(days=i))
        elif i % 3 == 1:
            rule = rrule(MONTHLY, bymonthday=(1 + (i * 7) % 28, -1), dtstart=start)
        else:
            rule = rrule(DAILY, interval=5 + i, dtstart=start + dt.timedelta(hours=i))
        rset.rrule(rule)
    for i in range(4):
        rset.exrule(rrule(WEEKLY, byweekday=WEEKDAYS[5 + i % 2], interval=1 + i,
                          dtstart=start))
    for i in range(15):
        rset.rdate(start + dt.timedelta(days=(i * 11) % 90, hours=i % 4))
        rset.exdate(start + dt.timedelta(days=(i * 13) % 90))
    window = rset.between(start, start + dt.timedelta(days=90), inc=True)
    assert len(window) == 79
    assert window[-1] == naive(2023, 3, 31, 10, 0)
    assert sum(w.day for w in window) == 1254
    assert sum(1 for w in window if w.hour != 10) == 40
    # walk forward with after(): each answer is the next probe
    probe = start
    steps = []
    for i in range(30):
        probe = rset.after(probe, inc=(i % 4 == 0))
        steps.append(probe)
    assert steps[-1] == naive(2023, 1, 28, 18, 0)
    assert len(set(steps)) == 23
    assert rset.before(start + dt.timedelta(days=45)) == naive(2023, 2, 15, 10, 0)


def test_rrulestr_rules_and_string_round_trip():
    dtstart = naive(2024, 2, 10, 8, 0)
    total = 0
    same = 0
    for i in range(30):
        freq = ("YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY")[i % 5]
        parts = [f"FREQ={freq}", f"COUNT={2 + i % 6}", f"INTERVAL={1 + (i * 3) % 4}"]
        if i % 3 == 0:
            if freq in ("YEARLY", "MONTHLY"):
                # numbered weekdays: the first of one, the last of another
                parts.append(f"BYDAY=+1{RFC_DAYS[i % 7]},-1{RFC_DAYS[(i + 2) % 7]}")
            else:
                parts.append(f"BYDAY={RFC_DAYS[i % 7]},{RFC_DAYS[(i + 4) % 7]}")
        if i % 4 == 1:
            parts.append(f"BYMONTH={1 + i % 12},{1 + (i * 5) % 12}")
        if i % 5 == 2:
            parts.append(f"BYMONTHDAY={1 + i % 28},-1")
        if i % 6 == 3:
            parts.append(f"WKST={RFC_DAYS[(i * 2) % 7]}")
        if i % 7 == 4:
            parts.append(f"BYHOUR={i % 24},{(i * 5) % 24}")
        text = ";".join(parts)
        if i % 2:
            text = "RRULE:" + text
        rule = rrulestr(text, dtstart=dtstart)
        got = list(rule)
        total += len(got)
        # str() writes DTSTART and RRULE lines; re-parse only the RRULE line
        again = rrulestr(str(rule).split("\n")[1], dtstart=dtstart)
        same += list(again) == got
    assert total == 135
    assert same == 30

    # a set: several RRULE and EXRULE lines, forced into an rruleset
    lines = []
    for i in range(8):
        lines.append(f"RRULE:FREQ=DAILY;INTERVAL={2 + i};COUNT={10 + i}")
        if i % 3 == 0:
            lines.append(f"EXRULE:FREQ=WEEKLY;BYDAY={RFC_DAYS[i % 7]};COUNT=5")
    rset = rrulestr("\n".join(lines), dtstart=dtstart, forceset=True)
    dates = list(rset)
    assert len(dates) == 52
    assert dates[-1] == naive(2024, 7, 3, 8, 0)

    # malformed rules: each raises ValueError from inside rrulestr
    bad = 0
    for i in range(12):
        text = ["FREQ=FORTNIGHTLY", "FREQ=DAILY;COUNT=x", "FREQ=DAILY;BOGUS=1",
                "FREQ=WEEKLY;BYDAY=XX", "FREQ=WEEKLY;BYDAY=", "", "RRULE;X=1:FREQ=DAILY",
                "FREQ=MONTHLY;BYMONTHDAY=1,,2"][i % 8]
        try:
            rrulestr(text, dtstart=dtstart)
        except ValueError:
            bad += 1
    assert bad == 12


def test_easter_methods_and_derived_holidays():
    months = {3: 0, 4: 0, 5: 0}
    offsets = 0
    rejected = 0
    for i in range(60):
        year = 1583 + (i * 37) % 440
        method = 1 + i % 3
        e = easter.easter(year, method)
        months[e.month] += 1
        # Ash Wednesday and Pentecost relative to that Easter
        ash = e + relativedelta(days=-46)
        pentecost = e + relativedelta(weeks=7)
        offsets += (pentecost - ash).days + ash.weekday()
        if i % 15 == 0:
            try:
                easter.easter(year, 4 + i // 15)
            except ValueError:
                rejected += 1
    assert months == {3: 9, 4: 48, 5: 3}
    assert offsets == 5872
    assert rejected == 4
    # byeaster rrule agrees with easter() for Western Easter
    rule = rrule(YEARLY, byeaster=0, dtstart=naive(1990, 1, 1), count=25)
    agree = sum(d.date() == easter.easter(d.year) for d in rule)
    assert agree == 25


def test_tzstr_posix_rules_across_a_year():
    total_offset = 0
    dst_hours = 0
    ambiguous = 0
    missing = 0
    rejected = 0
    for i in range(24):
        std = 1 + i % 9
        # alphabetic zone names, unique per iteration
        sn = "S" + chr(65 + i) + "T"
        dn = "D" + chr(65 + i) + "T"
        form = i % 4
        if form == 0:
            text = f"{sn}{std}{dn},M{3 + i % 2}.{1 + i % 4}.0,M{10 + i % 2}.{1 + i % 5}.0"
        elif form == 1:
            text = f"{sn}{std}{dn},M3.2.0/{1 + i % 3},M11.1.0/{i % 4}:30"
        elif form == 2:
            text = f"{sn}-{std}{dn},J{60 + i},J{280 + i}"
        else:
            text = f"{sn}{std}:30{dn}{std - 1},{80 + i},{300 - i}"
        zone = tz.tzstr(text)
        for month in range(1, 13):
            when = dt.datetime(2021, month, 15, 12, tzinfo=zone)
            total_offset += int(when.utcoffset().total_seconds() // 60)
            dst_hours += int(when.dst().total_seconds() // 3600)
        on, off = zone.transitions(2021)
        # probe the hours around each transition
        for h in range(-2, 3):
            if not tz.datetime_exists(on + dt.timedelta(hours=h), zone):
                missing += 1
            if tz.datetime_ambiguous(off + dt.timedelta(hours=h), zone):
                ambiguous += 1
        if i % 4 == 3:
            try:
                tz.tzstr(f"{sn}{std}{dn},M3.2.0")
            except ValueError:
                rejected += 1
    assert total_offset == -35790
    assert dst_hours == 176
    assert missing == 30
    assert ambiguous == 30
    assert rejected == 6

    # an instant hops through fixed-offset zones and the DST zone, each hop
    # converting the previous result
    zone_tz = tz.tzstr("WLK5WLD,M3.2.0,M11.1.0")
    fixed = [tz.tzoffset(f"F{k}", (k * 45 - 300) * 60) for k in range(12)]
    moment = dt.datetime(2021, 3, 13, 23, 0, tzinfo=zone_tz)
    names = []
    for i in range(36):
        target = fixed[(i * 5) % 12] if i % 3 else zone_tz
        moment = moment.astimezone(target) + dt.timedelta(minutes=(i * 37) % 90)
        names.append(moment.tzname())
        # drop the zone and put it back with default_tzinfo
        moment = utils.default_tzinfo(moment.replace(tzinfo=None), target)
    assert moment.replace(tzinfo=None) == naive(2021, 3, 15, 7, 15)
    assert moment.tzname() == "F7"
    assert names.count("WLD") == 10
    assert names.count("WLK") == 2
    assert utils.within_delta(moment, dt.datetime(2021, 3, 15, tzinfo=tz.UTC),
                              dt.timedelta(days=2))

    # wall times across the spring-forward night: those in the gap move
    resolved = []
    for i in range(36):
        wall = dt.datetime(2021, 3, 14, 0, 0, tzinfo=zone_tz) + dt.timedelta(minutes=i * 13)
        fixed_up = tz.resolve_imaginary(wall)
        if fixed_up != wall:
            resolved.append(fixed_up.minute)
    assert len(resolved) == 4
    assert sum(resolved) == 118


def test_parserinfo_subclass_and_custom_words():
    # German month and weekday words added to the English ones
    class Info(parserinfo):
        JUMP = (*parserinfo.JUMP, "um", "den")
        MONTHS = tuple((*names, g) for names, g in zip(parserinfo.MONTHS, GERMAN_MONTHS))
        WEEKDAYS = tuple((*names, g) for names, g in zip(parserinfo.WEEKDAYS, GERMAN_DAYS))

    info = Info(dayfirst=True)
    default = naive(2012, 12, 12, 0, 0)
    days = 0
    months = 0
    for i in range(30):
        d = 1 + (i * 7) % 28
        m = 1 + (i * 5) % 12
        y = 1980 + i
        hm = f"{(i * 3) % 24}:{(i * 7) % 60:02d}"
        form = i % 4
        if form == 0:
            text = f"den {d}. {GERMAN_MONTHS[m - 1]} {y} um {hm}"
        elif form == 1:
            # day first: the info was built with dayfirst=True
            text = f"{d:02d}.{m:02d}.{y}"
        elif form == 2:
            text = f"{GERMAN_DAYS[i % 7]}, {d} {GERMAN_MONTHS[m - 1]} {y}"
        else:
            # weekday and time only: the date comes from the previous result
            text = f"{GERMAN_DAYS[(i * 2) % 7]} um {hm}"
        default = parse(text, parserinfo=info, default=default)
        days += default.day
        months += default.month
    assert default == naive(2009, 2, 8, 12, 16)
    assert days == 304
    assert months == 190
