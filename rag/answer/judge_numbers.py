"""Numbers of a claim and its evidence, with equivalent forms ("7-fold" = "a factor of 7" = "7x",
"half" = "50%" = "0.5", "four dozen" = "48", "eight" = "8", "an order of magnitude" = "10")."""

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
# "thousands of", "millions of": a magnitude, met by any value from it up to 1,000 times it.
_APPROX = {"dozens": 12.0, "hundreds": 100.0, "thousands": 1e3, "millions": 1e6, "billions": 1e9}
_APPROX_RE = re.compile(r"\b(" + "|".join(_APPROX) + r")\b")
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


def _digits(text: str) -> str:
    """Numbers written with words or a scale ("thirty-two", "8.9 thousand", "7B") as digits."""
    text = _SCALED.sub(lambda m: f"{float(m.group(1)) * _SCALE[m.group(2) or m.group(3)]:.0f}", text)
    text = text.lower()
    text = _HALF_OF.sub(lambda m: f"{0.5 * _SCALE[m.group(1)]:.0f}", text)
    text = _AND_A_HALF.sub(lambda m: f"{_UNITS.get(m.group(1)) or int(m.group(1))}.5", text)
    text = _FRACTION.sub(lambda m: f"{(_UNITS.get(m.group(1)) or 1) / _PARTS[m.group(2)]:.4g}", text)
    return _COMPOUND.sub(lambda m: str(_TENS[m.group(1)] + _UNITS[m.group(2)]), text)


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
    t = _digits(plain(text))
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


def _approx_missing(claim: str, ev: Counter[float]) -> str | None:
    """A magnitude word of the claim ("millions of") that no evidence value reaches."""
    for m in _APPROX_RE.finditer(plain(claim).lower()):
        low = _APPROX[m.group(1)]
        if not any(low <= v < low * 1000 for v in ev):
            return m.group(1)
    return None


def _counts(text: str) -> dict[str, tuple[str, set[float]]]:
    """Word stem -> (the word, the values written right before it: "17 datasets")."""
    out: dict[str, tuple[str, set[float]]] = {}
    for m in _COUNTED.finditer(_digits(plain(text))):
        num, word = m.group(1), m.group(2)
        if _YEAR.fullmatch(num):
            continue
        value = float(_COUNT_WORDS[num]) if num in _COUNT_WORDS else float(num.replace(",", ""))
        out.setdefault(stem_of(word), (word, set()))[1].add(value)
    return out


def _miscounted(claim: str, evidence: str) -> str | None:
    """A number the claim puts before a word the evidence counts with other numbers only
    ("17 tasks" where the evidence has "7 tasks"): numbers exchanged between things."""
    ev = _counts(evidence)
    for stem, (word, vals) in _counts(claim).items():
        if stem in ev and not any(_forms(v) & set().union(*map(_forms, ev[stem][1])) for v in vals):
            return f"{_show(min(vals))} {word}"
    return None


# A formula with a number or an operator: "$2d+1$", "$O(\\sqrt{T})$" (not a bare "$d$").
_MATH = re.compile(r"\$([^$]+)\$")
_FORMULA_CHAR = re.compile(r"[\d+\-*/^=<>\\(]")


def _squash_math(text: str) -> str:
    return re.sub(r"[\s{}]|\\[,;! ]", "", text)


def _changed_formula(claim: str, evidence: str) -> str | None:
    """A formula of the claim that the evidence, which writes formulas too, does not have
    ("$2d-1$" for "$2d+1$": a sign or a constant changed inside the math)."""
    if not _formulas(evidence):
        return None
    squashed = _squash_math(evidence)
    return next((f"${f}$" for f in _formulas(claim) if _squash_math(f) not in squashed), None)


def _formulas(text: str) -> list[str]:
    return [m.group(1) for m in _MATH.finditer(text) if _FORMULA_CHAR.search(m.group(1))]


# "O(\sqrt{n})", "O(log n)", "Θ(n^2)", "Õ(d√T)": an asymptotic order, written in math or not.
_MATH_SIGNS = str.maketrans({"√": " sqrt ", "Õ": "O", "²": "^2", "³": "^3"})
_ORDER = re.compile(r"(?<![A-Za-z])(O|Theta|Omega)\s*\(")


def complexities(text: str) -> set[str]:
    """The asymptotic orders of a text, each as its letter and its argument without spaces."""
    t = plain(text.translate(_MATH_SIGNS))
    out = set()
    for m in _ORDER.finditer(t):
        depth, k = 1, m.end()
        while k < len(t) and depth:
            depth += {"(": 1, ")": -1}.get(t[k], 0)
            k += 1
        out.add(m.group(1) + "(" + re.sub(r"[\s()]+", "", t[m.end() : k - 1]) + ")")
    return out


def _changed_order(claim: str, evidence: str) -> str | None:
    r"""An asymptotic order of the claim the evidence, which states one, does not ("O(log n)"
    for "O(\sqrt{n})")."""
    have = complexities(evidence)
    return next((o for o in sorted(complexities(claim)) if have and o not in have), None)


def missing_number(claim: str, evidence: str) -> str | None:
    """The first number of the claim that the evidence does not hold (in any equivalent
    form, as often as the claim writes it, and before the same counted word), else None."""
    ev = values(evidence)
    ev.update(_APPROX[m.group(1)] for m in _APPROX_RE.finditer(plain(evidence).lower()))  # "thousands of" too
    approx = _approx_missing(claim, ev)
    if approx:
        return approx
    ev_forms: Counter[float] = Counter()
    for v, n in ev.items():
        for f in _forms(v):
            ev_forms[f] = max(ev_forms[f], n)
    restated: set[float] | None = None  # worked out once, for the first value the evidence lacks
    for v, n in values(claim).items():
        forms = _forms(v)
        if not any(ev_forms[f] for f in forms):
            restated = _restated(claim, evidence) if restated is None else restated
            if v in restated:
                continue
            return _show(v)
        if n > max(ev_forms[f] for f in forms) and (v >= 2 or (v > 1 and v != int(v))):  # "1.5-bit … 1.5-bit"
            return _show(v)
    return _miscounted(claim, evidence) or _changed_formula(claim, evidence) or _changed_order(claim, evidence)


def _restated(claim: str, evidence: str) -> set[float]:
    """Values of the claim that restate the evidence without writing its numbers: a rounded
    share ("a third" for 33%), a list's size as a count ("three datasets"; never a percentage),
    a bound every share of the evidence meets ("fewer than half"), a name's number written
    glued ("GPT-4" for "GPT4")."""
    shares = _percentages(evidence)
    sizes = list_sizes(evidence) & {v for _, vals in _counts(claim).values() for v in vals}
    bounded = {v for v, bound in _bounds(claim).items() if _within(bound, v, shares)}
    near = {v for v in values(claim) if _near_share(v, shares)}
    return near | sizes | bounded | _glued(claim, evidence)


_HYPHENATED = re.compile(r"\b([A-Za-z]+)-(\d+(?:\.\d+)?)\b")


def _glued(claim: str, evidence: str) -> set[float]:
    """Numbers of the claim's names ("GPT-4") that the evidence writes glued ("GPT4")."""
    return {
        float(m.group(2))
        for m in _HYPHENATED.finditer(plain(claim))
        if re.search(rf"\b{re.escape(m.group(1) + m.group(2))}\b", evidence, re.I)
    }


# "fewer than half", "over 90%": a bound the evidence's figures meet, not a figure of its own.
_BOUND = re.compile(r"\b(fewer than|less than|under|below|more than|over|above|at least|at most)\s+(?=\S)")
_UPPER = frozenset({"fewer than", "less than", "under", "below", "at most"})
_SHARE = re.compile(r"(\d+(?:\.\d+)?)\s?(%)?")


def _bounds(claim: str) -> dict[float, str]:
    """Value -> the bound word before it ("fewer than half": 0.5 -> "fewer than")."""
    out: dict[float, str] = {}
    text = _digits(plain(claim)).lower()
    for m in _BOUND.finditer(text):
        share = _SHARE.match(text, m.end())
        word = values(text[m.end() :].split(" ", 1)[0])
        # a share: "0.4", "90%", "half" ("twice as fast" is a factor)
        v = float(share.group(1)) if share else next(iter(word), 2.0)
        if v < 1 or (share and share.group(2)):
            out[v] = m.group(1)
    return out


_PERCENT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?%")


def _percentages(text: str) -> set[float]:
    """The shares a text gives, as percentages ("43%", "0.43"); counts are no shares."""
    t = _digits(plain(text))
    return {float(m.group(1)) for m in _PERCENT.finditer(t)} | {round(v * 100, 6) for v in values(text) if 0 < v < 1}


def _within(bound: str, v: float, shares: set[float]) -> bool:
    """Every share of the evidence lies on the bound's side of `v` (as a percentage):
    "fewer than half" for "3% … and 43%"."""
    if not shares:
        return False
    limit = v * 100 if v < 1 else v
    return all(x < limit if bound in _UPPER else x > limit for x in shares)


def _near_share(v: float, shares: set[float]) -> bool:
    """A share that is no round percentage ("a third") written rounded ("33%")."""
    pct = v * 100
    return 0 < v < 1 and pct != round(pct, 1) and float(round(pct)) in shares


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


def _show(v: float) -> str:
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if v >= scale:
            return f"{v / scale:g}{suffix}"
    return str(int(v)) if v == int(v) else f"{v:g}"
