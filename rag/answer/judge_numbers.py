"""Numbers of a claim and its evidence, with equivalent forms ("7-fold" = "a factor of 7" = "7x",
"half" = "50%" = "0.5", "four dozen" = "48", "eight" = "8", "an order of magnitude" = "10")."""

from __future__ import annotations

import re
from collections import Counter

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
_MAGNITUDE = re.compile(r"\b(an|one|two|three|four|five|six)\s+orders?\s+of\s+magnitude\b")


def _forms(value: float) -> set[float]:
    """A value and the forms it is also written in (a share as a percentage and back)."""
    out = {round(value, 6)}
    if 0 < value < 1:
        out.add(round(value * 100, 6))
    if 0 < value <= 100:
        out.add(round(value / 100, 6))
    return out


def values(text: str) -> Counter[float]:
    """The numbers of a text as values, each counted as often as it is written."""
    t = plain(text).lower()
    found: Counter[float] = Counter()
    for m in _NUM.finditer(t):
        v = float(m.group(1).replace(",", ""))
        found[v * 1000 if m.group(2) else v] += 1
    for m in _WORD_NUM.finditer(t):
        v = float(_WORDS[m.group(1)])
        found[v * _MULTIPLIERS[m.group(2)] if m.group(2) else v] += 1
    for m in _MAGNITUDE.finditer(t):
        found[10.0 ** _WORDS.get(m.group(1), 1)] += 1
    return found


def missing_number(claim: str, evidence: str) -> str | None:
    """The first number of the claim that the evidence does not hold (in any equivalent
    form, and as often as the claim writes it), else None."""
    ev = values(evidence)
    ev_forms: Counter[float] = Counter()
    for v, n in ev.items():
        for f in _forms(v):
            ev_forms[f] = max(ev_forms[f], n)
    for v, n in values(claim).items():
        forms = _forms(v)
        if not any(ev_forms[f] for f in forms):
            return _show(v)
        if n > max(ev_forms[f] for f in forms) and v >= 2:
            return _show(v)
    return None


def _show(v: float) -> str:
    return str(int(v)) if v == int(v) else f"{v:g}"
