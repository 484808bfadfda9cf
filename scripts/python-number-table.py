#!/usr/bin/env python3
"""Python's own verdicts on number spellings: what int(s) and float(s) make of each.

Regenerate the table (deterministic, fixed seed) with the Python whose
behaviour the compat scorer reproduces (3.11: Unicode 14.0.0, a 4300-digit
limit on int-from-str conversion):

    python3 scripts/python-number-table.py > test/fixtures/python-numbers.jsonl

The block starts embedded in src/stages/score/python/numbers.ts come from the
same interpreter:

    python3 scripts/python-number-table.py --digit-zeros

Each output line is {"s": the string, "int": str(int(s)) or null when int()
raises ValueError, "float": repr(float(s)) or null when float() raises}.
test/unit/python-numbers.test.ts checks pyInt and pyFloat against every row.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import unicodedata

SEED = 20260812
INT_DIGIT_LIMIT = sys.get_int_max_str_digits()

SPACES = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
# Invisible or space-like, yet not str.isspace(): int() and float() refuse them.
NOT_SPACES = ["\u200b", "\ufeff", "\u180e", "\u2060", "\u00ad", "\x00", "\x7f", "\u200c", "\u200d"]
# Signs, points and exponents from other scripts: Python takes only the ASCII ones.
LOOKALIKES = [
    "\uff0b",
    "\uff0d",
    "\u2212",
    "\ufe63",
    "\uff0e",
    "\u066b",
    "\u00b7",
    "\uff45",
    "\uff25",
    "\uff3f",
    "\uff0c",
    "\u066c",
]
# Numeric, but not decimal digits (category No, Nl, Lo): refused.
NOT_DIGITS = ["\u00b2", "\u00bd", "\u2155", "\u2460", "\u216b", "\u3007", "\u96f6", "\u4e00", "\u0f33", "\U00010107"]


def digit_zeros() -> list[int]:
    """Code points of every decimal digit zero: each starts a run of ten digits 0-9."""
    zeros = [
        c
        for c in range(sys.maxunicode + 1)
        if unicodedata.category(chr(c)) == "Nd" and unicodedata.decimal(chr(c)) == 0
    ]
    for zero in zeros:
        assert all(unicodedata.decimal(chr(zero + d)) == d for d in range(10)), hex(zero)
    assert sum(unicodedata.category(chr(c)) == "Nd" for c in range(sys.maxunicode + 1)) == 10 * len(zeros)
    return zeros


ZEROS = digit_zeros()


def spell(text: str, zero: int) -> str:
    """The ASCII digits of text in the script whose zero is at code point zero."""
    return "".join(chr(zero + int(ch)) if ch.isdigit() else ch for ch in text)


def mixed(text: str, rng: random.Random) -> str:
    """Each ASCII digit of text in a script drawn at random."""
    return "".join(chr(rng.choice(ZEROS) + int(ch)) if ch.isdigit() else ch for ch in text)


def plain_numbers(rng: random.Random) -> list[str]:
    out = ["0", "00", "-0", "+0", "007", "-007", "0.0", "-0.0", "1.", "-1.", ".5", "-.5", "+.5", "5e0"]
    for _ in range(400):
        digits = str(rng.randrange(10 ** rng.randint(1, 30)))
        out.append(rng.choice(["", "+", "-"]) + "0" * rng.choice([0, 0, 0, 1, 3]) + digits)
    for _ in range(400):
        value = rng.uniform(-1e6, 1e6) * 10 ** rng.randint(-30, 30)
        out.append(rng.choice([repr(value), f"{value:.{rng.randint(0, 20)}f}", f"{value:e}", f"{value:E}"]))
    for digits in (16, 17, 18, 19, 20, 25, 40, 400):
        out.append(str(rng.randrange(10 ** (digits - 1), 10**digits)))
        out.append("-" + str(rng.randrange(10 ** (digits - 1), 10**digits)))
    out += [str(2**53), str(2**53 + 1), str(-(2**53) - 1), str(2**63), str(2**64 + 1), "9007199254740993.0"]
    out += [
        "1e308",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "1e309",
        "-1e400",
        "1e-320",
        "5e-324",
        "2e-324",
        "1e-400",
        "-1e-400",
    ]
    out += [
        "0." + "0" * 400 + "1",
        "1" + "0" * 400 + ".5",
        "0.1" + "0" * 50 + "1e-5",
        "1e0000000000000000000005",
        "1e-99999999999999999999",
    ]
    return out


def exponent_forms() -> list[str]:
    out = []
    for mantissa in ["1", "1.", ".1", "1.5", "0", "00", "-2", "+3.25", ""]:
        for e in ["e", "E"]:
            for exp in ["5", "+5", "-5", "05", "-05", "", "+", "-", "1_0", "+-5", "5.0", "e5", "0"]:
                out.append(mantissa + e + exp)
    return out + ["1e5e5", "1ee5", "e", "E", ".e5", "1.e5", "1.5e", "1 e5", "1e 5", "1e5 "]


def underscores() -> list[str]:
    valid = [
        "1_0",
        "1_000_000",
        "-1_0",
        "+1_0",
        "0_0",
        "1_0.0_1",
        "1_0e1_0",
        "1.0_1",
        "1e-1_0",
        "0_7",
        "1_2_3_4_5_6_7_8_9",
    ]
    invalid = [
        "_1",
        "1_",
        "1__0",
        "_",
        "__",
        "-_1",
        "+_1",
        "_-1",
        "1_.5",
        "1._5",
        "1.5_",
        "._5",
        "1_e5",
        "1e_5",
        "1e5_",
        "1e-_5",
        "1e_-5",
        "1_e-5",
        "in_f",
        "_inf",
        "inf_",
        "n_an",
        "nan_",
        "1_._0",
        "1 _0",
        "1_ 0",
        " _1",
        "1_ ",
        "0x_1",
        "1_000__000",
        "1_0_",
        "._",
        "_.",
        "_e5",
        "1.0__1",
    ]
    return valid + invalid


def special_values() -> list[str]:
    out = []
    for word in ["inf", "nan", "infinity"]:
        spellings = {
            "".join(ch.upper() if mask >> i & 1 else ch for i, ch in enumerate(word)) for mask in range(2 ** len(word))
        }
        for spelling in sorted(spellings):
            out += [spelling, "-" + spelling, "+" + spelling]
    out += [
        "infinit",
        "infinityy",
        "infinty",
        "nana",
        "nan0",
        "inf0",
        "0inf",
        "in f",
        "+-inf",
        "-+nan",
        "--inf",
        "++nan",
    ]
    out += [
        "Infinity",
        "-Infinity",
        "NaN",
        "nan()",
        "nan(1)",
        "snan",
        "-snan",
        "qnan",
        "infinite",
        "INF.0",
        "inf.",
        "nan.",
        "1inf",
        "infe5",
    ]
    out += [
        "\uff49\uff4e\uff46",
        "\uff4e\uff41\uff4e",
        "\u0131nf",
        "\u0130NF",
        "na\u0144",
        " inf ",
        "\u3000-inf\u3000",
        "-\u00a0inf",
    ]
    return out


def odd_spellings() -> list[str]:
    out = ["", "+", "-", ".", "+.", "-.", "..", "1..0", "1.0.0", "+-1", "-+1", "--1", "++1", "1-", "1+", "+ 1", "- 1"]
    out += [
        "0x10",
        "0X1f",
        "0b101",
        "0o17",
        "017",
        "1j",
        "1J",
        "1L",
        "1,000",
        "1'000",
        "1 000",
        "1/2",
        "1e5j",
        "0x1p3",
        "#1",
        "1#",
    ]
    out += ["true", "None", "null", "\u0661\u066c\u0660\u0660\u0660", "1\x00", "\x001", "1\x00\x00"]
    for lookalike in LOOKALIKES:
        out += [lookalike + "1", "1" + lookalike + "5", lookalike, "1" + lookalike]
    for char in NOT_DIGITS:
        out += [char, "1" + char, char + ".5", "-" + char]
    out += ["\ud800", "1\ud800", "\udfff1", "\U0001d7ce\ud800"]
    return out


def whitespace(rng: random.Random) -> list[str]:
    out = []
    for space in SPACES + NOT_SPACES:
        for number in ["1", "-2.5", "inf", "1_0"]:
            out += [space + number, number + space, space + number + space, "1" + space + "2", space]
        out.append(space * 3 + "\u0663" + space * 2)

    def pad() -> str:
        return "".join(rng.choice(SPACES) for _ in range(rng.randint(0, 4)))

    for _ in range(150):
        out.append(pad() + rng.choice(["12", "-1e3", "+.5", "nan", "\u0661\u0662", "1_2", "x"]) + pad())
    return out


def digit_blocks(rng: random.Random) -> list[str]:
    out = []
    for zero in ZEROS:
        out += [chr(zero + d) for d in range(10)]
        for text in ["1234567890", "-1_000", "+0.5", "3.14e-2", "1e3", "007", "9" * 20, "1_5.2_5"]:
            out.append(spell(text, zero))
        out.append(spell("12", zero) + "." + spell("5", zero) + "e" + spell("1", zero))
        out.append(" " + spell("42", zero) + "\u3000")
    for _ in range(400):
        text = rng.choice(["1234", "-98.6", "1_234", "6.02e23", "+5", "0", "1e-5", "12_", "1__2", ".5", "5."])
        out.append(mixed(text, rng))
    return out


def fuzz(rng: random.Random) -> list[str]:
    """Short random strings from the pieces numbers are made of: the corners no list thinks of."""
    pieces = [
        "0",
        "1",
        "7",
        "9",
        "\u0661",
        "\uff15",
        "\U0001d7d7",
        "_",
        ".",
        "e",
        "E",
        "+",
        "-",
        " ",
        "\u00a0",
        "\x1f",
        "i",
        "n",
        "f",
        "a",
        "t",
        "y",
        "x",
        "\u200b",
    ]
    return ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 7))) for _ in range(2500)]


def long_numbers(rng: random.Random) -> list[str]:
    limit = INT_DIGIT_LIMIT

    def digits(n: int) -> str:
        return str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(n - 1))

    out = [digits(n) for n in (limit - 1, limit, limit + 1)]
    out += ["-" + digits(limit), "+" + digits(limit + 1), "0" * (limit + 1), "0" * limit, "0" * (limit - 1) + "_1"]
    out += [" " + digits(limit) + " ", "1_" * (limit // 2) + "0", "1_" * (limit - 1) + "1", "1_" * limit + "1"]
    out += [digits(limit) + ".5", digits(limit + 1) + "e-4000", "0." + digits(limit + 1), digits(limit + 1) + "x"]
    out += [spell(digits(limit), 0x966), spell(digits(limit + 1), 0x966), spell(digits(10_000), 0x966), digits(10_000)]
    out += [mixed(digits(limit), rng), "1" * 10_000 + "_"]
    return out


def verdicts(s: str) -> dict:
    row: dict = {"s": s, "int": None, "float": None}
    try:
        row["int"] = str(int(s))
    except ValueError:
        pass
    try:
        row["float"] = repr(float(s))
    except ValueError:
        pass
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--digit-zeros", action="store_true", help="print the decimal digit zeros (for numbers.ts) instead"
    )
    if parser.parse_args().digit_zeros:
        print(", ".join(f"0x{zero:x}" for zero in ZEROS))
        return
    rng = random.Random(SEED)
    spellings = [
        *plain_numbers(rng),
        *exponent_forms(),
        *underscores(),
        *special_values(),
        *odd_spellings(),
        *whitespace(rng),
        *digit_blocks(rng),
        *fuzz(rng),
        *long_numbers(rng),
    ]
    for s in dict.fromkeys(spellings):
        sys.stdout.write(json.dumps(verdicts(s)) + "\n")


if __name__ == "__main__":
    main()
