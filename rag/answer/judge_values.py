"""The numbers a text writes, as values: digits, number words, scales, shares and counts
("7-fold" = "a factor of 7" = "7x", "half" = "50%" = "0.5", "four dozen" = "48", "eight" = "8",
"an order of magnitude" = "10"), and the sizes of its enumerations."""

from __future__ import annotations

import re
from collections import Counter

from rag.answer.judge_rules import stem_of
from rag.answer.judge_text import plain

_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
    "million": 1e6, "billion": 1e9, "dozen": 12, "twice": 2, "double": 2, "doubles": 2, "doubled": 2,
    "triple": 3, "tripled": 3, "triples": 3, "half": 0.5, "halves": 0.5, "halved": 0.5, "quarter": 0.25,
    "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip
_MULTIPLIERS = {"dozen": 12, "hundred": 100, "thousand": 1000, "million": 1e6, "billion": 1e9}
_NUM = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(\s?[kK]\b)?")
_WORD_NUM = re.compile(
    r"\b(" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")(?:\s+(dozen|hundred|thousand))?\b"
)
# Words that hedge the number after them ("about 65%", "around twenty").
APPROXIMATELY = frozenset("about around roughly nearly almost approximately some circa".split())
# "thousands of", "millions of": a magnitude, met by any value from it up to 1,000 times it.
APPROX = {"dozens": 12.0, "hundreds": 100.0, "thousands": 1e3, "millions": 1e6, "billions": 1e9}
APPROX_RE = re.compile(r"\b(" + "|".join(APPROX) + r")\b")
# "7 tasks covering 17 datasets": a number right before a word counts that word.
# "a single line" and "one line" count too, though "one" alone is no number (it is a pronoun).
_COUNT_WORDS = _WORDS | {"single": 1, "one": 1}
_COUNTED = re.compile(
    r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|"
    + "|".join(sorted(_COUNT_WORDS, key=len, reverse=True))
    + r")\s+([a-z][a-z-]{2,})"
)
_MAGNITUDE = re.compile(r"\b(an|one|two|three|four|five|six)[\s-]orders?[\s-]of[\s-]magnitude\b")


# "thirty-two": a tens word and a units word.
_TENS = {w: _WORDS[w] for w in "twenty thirty forty fifty sixty seventy eighty ninety".split()}
_UNITS = {"one": 1} | {w: _WORDS[w] for w in "two three four five six seven eight nine".split()}
_COMPOUND = re.compile(rf"\b({'|'.join(_TENS)})[\s-]({'|'.join(_UNITS)})\b")
# "8.9 thousand", "2.3-trillion", "7B", "1.5M": a number times its scale.
_SCALE = {**_MULTIPLIERS, "trillion": 1e12, "M": 1e6, "B": 1e9}
# "half a million" = 500000; "two and a half times" = 2.5 times.
_HALF_OF = re.compile(r"\bhalf\s+an?\s+(thousand|million|billion|trillion)\b")
_AND_A_HALF = re.compile(rf"\b({'|'.join(_UNITS)}|\d+)\s+and\s+a\s+half\b")
_SCALED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?:[\s-](thousand|million|billion|trillion)\b|(M|B)\b)")
# "a fifth" = 0.2 = "20%", "three quarters" = 0.75 (as a share; "the fifth" stays an ordinal).
_PARTS = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fifth": 5, "fifths": 5, "tenth": 10,
    "tenths": 10,
}  # fmt: skip
_FRACTION = re.compile(rf"\b(a|one|two|three|four)[\s-]({'|'.join(_PARTS)})\b")
# A year before a noun ("the 2012 challenge data") names a date, it counts nothing.
_YEAR = re.compile(r"(?:19|20)\d\d")


def digits(text: str) -> str:
    """Numbers written with words or a scale ("thirty-two", "8.9 thousand", "7B") as digits."""
    text = _SCALED.sub(lambda m: f"{float(m.group(1)) * _SCALE[m.group(2) or m.group(3)]:.0f}", text)
    text = text.lower()
    text = _HALF_OF.sub(lambda m: f"{0.5 * _SCALE[m.group(1)]:.0f}", text)
    text = _AND_A_HALF.sub(lambda m: f"{_UNITS.get(m.group(1)) or int(m.group(1))}.5", text)
    text = _FRACTION.sub(lambda m: f"{(_UNITS.get(m.group(1)) or 1) / _PARTS[m.group(2)]:.4g}", text)
    return _COMPOUND.sub(lambda m: str(_TENS[m.group(1)] + _UNITS[m.group(2)]), text)


def forms(value: float) -> set[float]:
    """A value and the forms it is also written in (a share as a percentage and back)."""
    out = {round(value, 6)}
    if 0 < value < 1:
        out.add(round(value * 100, 6))
    if 0 < value <= 100:
        out.add(round(value / 100, 6))
    return out


def values(text: str) -> Counter[float]:
    """The numbers of a text as values, each counted as often as it is written."""
    t = digits(plain(text))
    found: Counter[float] = Counter()
    for m in _NUM.finditer(t):
        v = float(m.group(1).replace(",", ""))
        found[v * 1000 if m.group(2) else v] += 1
    for m in _MAGNITUDE.finditer(t):
        found[10.0 ** _WORDS.get(m.group(1), 1)] += 1
    t = _MAGNITUDE.sub(" ", t)  # "two orders of magnitude" is 100, not also 2
    for m in _WORD_NUM.finditer(t):
        v = float(_WORDS[m.group(1)])
        found[v * _MULTIPLIERS[m.group(2)] if m.group(2) else v] += 1
    return found


def counts(text: str) -> dict[str, tuple[str, set[float]]]:
    """Word stem -> (the word, the values written right before it: "17 datasets")."""
    out: dict[str, tuple[str, set[float]]] = {}
    for m in _COUNTED.finditer(digits(plain(text))):
        num, word = m.group(1), m.group(2)
        if _YEAR.fullmatch(num):
            continue
        value = float(_COUNT_WORDS[num]) if num in _COUNT_WORDS else float(num.replace(",", ""))
        out.setdefault(stem_of(word), (word, set()))[1].add(value)
    return out


_PERCENT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?%")


def percentages(text: str) -> set[float]:
    """The shares a text gives, as percentages ("43%", "0.43"); counts are no shares."""
    t = digits(plain(text))
    return {float(m.group(1)) for m in _PERCENT.finditer(t)} | {round(v * 100, 6) for v in values(text) if 0 < v < 1}


ITEM_WORDS = 4  # an item of an enumeration ("GSM8k", "21.5%", "graph neural networks")
_PRONOUNS = frozenset("it we they this these those he she which".split())


def list_sizes(text: str) -> set[float]:
    """Sizes of the enumerations of a text ("A, B, C, D, and E": 5; "A, B and C": 3): a count
    the claim gives for what the evidence lists ("all five datasets"). The text before a
    comma holds a list's first item; short items follow until "and"/"or" ends it."""
    out: set[float] = set()
    run = 1
    for seg in plain(text).split(",")[1:]:
        words = seg.split()
        if words and words[0] in {"and", "or"}:
            if run >= 2:  # "A, and B" is two clauses, not a list
                out.add(float(run + 1))
            run = 1  # the rest of this piece may hold the first item of another list
        elif words and words[0].lower() in _PRONOUNS:
            run = 1  # "it works": a clause, not an item
        elif 0 < len(words) <= ITEM_WORDS and ({"and", "or"} & set(words[1:-1] if len(words) > 2 else words[1:])):
            out.add(float(run + 2))  # "B and C" closes it without a comma
            run = 1
        elif 0 < len(words) <= ITEM_WORDS:
            run += 1
        else:
            run = 1
    return out


def show(v: float) -> str:
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if v >= scale:
            return f"{v / scale:g}{suffix}"
    return str(int(v)) if v == int(v) else f"{v:g}"
