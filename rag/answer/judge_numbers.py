"""Numbers of a claim and its evidence, with equivalent forms ("7-fold" = "a factor of 7" = "7x",
"half" = "50%" = "0.5", "four dozen" = "48", "eight" = "8", "an order of magnitude" = "10")."""

from __future__ import annotations

import re
from collections import Counter

from rag.answer.judge_text import plain
from rag.answer.judge_values import (
    APPROX,
    APPROX_RE,
    APPROXIMATELY,
    counts,
    digits,
    forms,
    list_sizes,
    percentages,
    show,
    values,
)


def _approx_missing(claim: str, ev: Counter[float]) -> str | None:
    """A magnitude word of the claim ("millions of") that no evidence value reaches."""
    for m in APPROX_RE.finditer(plain(claim).lower()):
        low = APPROX[m.group(1)]
        if not any(low <= v < low * 1000 for v in ev):
            return m.group(1)
    return None


def _miscounted(claim: str, evidence: str) -> str | None:
    """A number the claim puts before a word the evidence counts with other numbers only
    ("17 tasks" where the evidence has "7 tasks"): numbers exchanged between things. A hedged
    rounding ("about 293 times" for "293.3 times") counts the same."""
    ev = counts(evidence)
    rounded = _rounded(claim, evidence)
    for stem, (word, vals) in counts(claim).items():
        if stem in ev and not any(forms(v) & set().union(*map(forms, ev[stem][1])) or v in rounded for v in vals):
            return f"{show(min(vals))} {word}"
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
    ev.update(APPROX[m.group(1)] for m in APPROX_RE.finditer(plain(evidence).lower()))  # "thousands of" too
    approx = _approx_missing(claim, ev)
    if approx:
        return approx
    ev_forms: Counter[float] = Counter()
    for v, n in ev.items():
        for f in forms(v):
            ev_forms[f] = max(ev_forms[f], n)
    restated: set[float] | None = None  # worked out once, for the first value the evidence lacks
    for v, n in values(claim).items():
        written = forms(v)
        if not any(ev_forms[f] for f in written):
            restated = _restated(claim, evidence) if restated is None else restated
            if v in restated:
                continue
            return show(v)
        if n > max(ev_forms[f] for f in written) and (v >= 2 or (v > 1 and v != int(v))):  # "1.5-bit … 1.5-bit"
            return show(v)
    return _miscounted(claim, evidence) or _changed_formula(claim, evidence) or _changed_order(claim, evidence)


def _restated(claim: str, evidence: str) -> set[float]:
    """Values of the claim that restate the evidence without writing its numbers: a rounded
    share ("a third" for 33%), a list's size as a count ("three datasets"; never a percentage),
    a bound every share of the evidence meets ("fewer than half"), a name's number written
    glued ("GPT-4" for "GPT4"), a hedged rounding ("about 293" for "293.3")."""
    shares = percentages(evidence)
    sizes = list_sizes(evidence) & {v for _, vals in counts(claim).values() for v in vals}
    bounded = {v for v, bound in _bounds(claim).items() if _within(bound, v, shares)}
    near = {v for v in values(claim) if _near_share(v, shares)}
    return near | sizes | bounded | _glued(claim, evidence) | _rounded(claim, evidence)


# "about 293 times" for "293.3 times": a hedged number, the evidence's rounded.
_HEDGED = re.compile(rf"\b(?:{'|'.join(sorted(APPROXIMATELY))})\s+(\d+(?:\.\d+)?)\b|~\s?(\d+(?:\.\d+)?)")


def _rounded(claim: str, evidence: str) -> set[float]:
    """Numbers the claim hedges ("about 293") that round an evidence value with decimals."""
    hedged = {float(m.group(1) or m.group(2)) for m in _HEDGED.finditer(digits(plain(claim)).lower())}
    if not hedged:
        return set()
    ev = [v for v in values(evidence) if v != int(v)]
    return {h for h in hedged for v in ev if h != v and any(round(v, k) == h for k in range(3))}


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
    text = digits(plain(claim)).lower()
    for m in _BOUND.finditer(text):
        share = _SHARE.match(text, m.end())
        word = values(text[m.end() :].split(" ", 1)[0])
        # a share: "0.4", "90%", "half" ("twice as fast" is a factor)
        v = float(share.group(1)) if share else next(iter(word), 2.0)
        if v < 1 or (share and share.group(2)):
            out[v] = m.group(1)
    return out


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
