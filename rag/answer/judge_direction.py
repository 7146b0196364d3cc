"""The direction rules: a claim whose predicate is the opposite of the evidence's about the
same things ("reduces memory" -> "increases memory"), passive and negated forms read on the
right side; a noun qualified the other way ("better models" -> "weaker models"); what both
sides of an opposition are said of exchanged ("A converges while B diverges" reversed); and an
opposite the claim adds by coordination ("discrete and continuous"). Pure functions over
`judge_text.tokens` and the lexicon of `judge_rules.opposites`."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import pairwise

from rag.answer.judge_roles import exchanged, roles
from rag.answer.judge_rules import hyphen_parts, opposites, stem_of
from rag.answer.judge_text import BE_FORMS, Tok, tokens

# Anchors of a predicate stay inside its clause; "as"/"when" also start a new one here
# ("accuracy drops as complexity grows" has two predicates about different things).
_ANCHOR_STOP = frozenset({"as", "when", "whereas", "while"})
_PASSIVE_AUX = BE_FORMS | {"gets", "get"}
_PASSIVE_FLIP = frozenset("outperformed surpassed exceeded beaten beat".split())
# Connectives say how clauses relate, not what a predicate is about ("and hence longer, rules").
_CONNECTIVES = frozenset("hence thus therefore consequently accordingly".split())


def _anchors(toks: tuple[Tok, ...], i: int, n: int = 3, clause: bool = True) -> set[str]:
    """Content stems around a predicate, within its clause; a predicate alone in its clause
    ("a valuable (but underutilized) resource") is about the words around the clause."""
    out: set[str] = set()
    for step in (1, -1):
        j, got = i + step, 0
        while 0 <= j < len(toks) and got < n and not (clause and _stops_anchor(toks[j])):
            if toks[j].content and toks[j].word not in opposites() and toks[j].word not in _CONNECTIVES:
                out.add(toks[j].stem[:5])
                if "-" in toks[j].word:  # "post-hoc" anchors as "post hoc" does
                    out.add(stem_of(toks[j].word.split("-")[0])[:5])
                    out |= hyphen_parts(toks[j].word)
                got += 1
            j += step
    return out if out or not clause else _anchors(toks, i, n, clause=False)


def _stops_anchor(tok: Tok) -> bool:
    return tok.word in _ANCHOR_STOP or (tok.boundary and not tok.word.isalpha()) or tok.word in {"but", "which"}


@lru_cache(maxsize=1)
def _bound_lines() -> frozenset[int]:
    """The lexicon's upper/lower (bound) line, where "lower" names a bound, not a comparison."""
    return frozenset(line for line, side in opposites().get("upper", []) if side == 0)


def _places(word: str) -> list[tuple[int, int]]:
    """The lexicon's (line, side) of a word, or of its first hyphen part ("low-frequency")."""
    table = opposites()
    return table.get(word, table.get(word.split("-")[0], []))


def _with_opposite(toks: tuple[Tok, ...], i: int, line: int, side: int) -> bool:
    """Token i is coordinated with the other side of its line ("high and low", "linear or
    non-linear"), either way round."""
    return any(
        0 <= k < len(toks) and toks[j].word in {"and", "or"} and (line, 1 - side) in _places(toks[k].word)
        for j, k in ((i + 1, i + 2), (i - 1, i - 2))
    )


def _predicates(toks: tuple[Tok, ...]) -> list[tuple[str, int, int, set[str], tuple[set[str], set[str]]]]:
    """(word, lexicon line, side, anchors, roles) of each opposable word; a passive
    "is outperformed by" counts as the other side."""
    table = opposites()
    out = []
    for i, t in enumerate(toks):
        word, extra = t.word, set()
        if word not in table and "-" in word:  # "low-rank": the first part in the lexicon is the
            parts = word.split("-")  # predicate ("over-pessimism": the last), the rest anchors
            k = next((k for k, p in enumerate(parts) if p in table), 0)
            word = parts[k]
            extra = {stem_of(p)[:5] for j, p in enumerate(parts) if j != k and len(p) > 2}
        comparative = i + 1 < len(toks) and toks[i + 1].word == "than"
        for line, side in table.get(word, []):
            if comparative and line in _bound_lines():
                continue  # "lower than" compares; it is no lower bound
            if _with_opposite(toks, i, line, side):
                continue  # "high- and low-performing languages": a range, no direction
            passive = (
                t.word in _PASSIVE_FLIP
                and i + 1 < len(toks)
                and toks[i + 1].word == "by"
                and any(toks[k].word in _PASSIVE_AUX for k in range(max(0, i - 3), i))
            )
            # "at most X" is a ceiling, on the side of "no more than X"; "at least X" a floor
            bound = t.word in {"most", "least"} and i > 0 and toks[i - 1].word == "at"
            flip = (passive != _negated(toks, i)) != bound  # "does not allow" is on the side of "prevents"
            out.append((t.word, line, 1 - side if flip else side, _anchors(toks, i) | extra, roles(toks, i)))
    return out


_SEMI_MODALS = frozenset("need needs needed able".split())
_LIGHT_VERBS = frozenset("lead leads led result results resulted translate translates translated".split())
_FAIL = frozenset("fail fails failed failing".split())
_PREDICATE_NEGATORS = frozenset("not never cannot can't don't doesn't didn't isn't aren't won't unable".split())


def _negated(toks: tuple[Tok, ...], i: int) -> bool:
    """A negation word before token i with only function words between ("does not increase",
    "cannot be improved"; not "does not always translate to improved")."""
    for k in range(i - 1, max(-1, i - 4), -1):
        if toks[k].word in _SEMI_MODALS and toks[k + 1].word == "to":
            continue  # "does not need to approximate" = "does not have to approximate"
        if toks[k].word in _LIGHT_VERBS and toks[k + 1].word in {"to", "in", "into"}:
            continue  # "did not lead to enhanced X" = "did not enhance X"
        if toks[k].word in _FAIL and toks[k + 1].word == "to":
            return True  # "fail to beat" = "do not exceed"
        if toks[k].boundary or toks[k].content:
            return False
        if toks[k].word in _PREDICATE_NEGATORS:
            return not (k + 1 < len(toks) and toks[k + 1].word in {"only", "just", "merely"})
        if toks[k].word in _NARROW_NEGATORS:
            return _NARROW_NEGATORS[toks[k].word](toks, i)
    return False


# "without"/"no" before an adjective negate the noun ("without discrete tokens", "no labeled
# data"), so they flip only a gerund ("without compromising X" = "preserving X") or a
# comparative ("no better than" = "not better than").
_NARROW_NEGATORS: dict[str, Callable[[tuple[Tok, ...], int], bool]] = {
    "without": lambda toks, i: toks[i].word.endswith("ing"),
    "no": lambda toks, i: i + 1 < len(toks) and toks[i + 1].word == "than",
}


def direction(claim: str, evidence: str) -> str | None:
    """The claim's predicate about the same things as an evidence predicate is its opposite
    (or the same with subject and object exchanged: "B outperforms A" for "A outperforms B").
    Each evidence predicate is matched to the claim predicate of its lexicon line that shares
    the most anchor words (a tie goes to the same side)."""
    c_toks, e_toks = tokens(claim), tokens(evidence)
    c_preds, e_preds = _valued(_predicates(c_toks)), _valued(_predicates(e_toks))
    for e_word, line, e_side, e_anchor, e_roles in e_preds:
        if all({p[2] for p in preds if p[1] == line} == {0, 1} for preds in (c_preds, e_preds)):
            # both texts name both sides ("sparse … than dense"): their order is the roles'
            # business, but not which subject each is said of (and, below, which noun each qualifies)
            swapped = _resubjected(line, c_toks, e_toks)
            if swapped:
                return swapped
            continue
        best: tuple[int, int, str] | None = None
        for c_word, c_line, c_side, c_anchor, c_roles in c_preds:
            if c_line != line:
                continue
            overlap = len(e_anchor & c_anchor)
            # the roles exchanged turn the same side into the opposite and back
            same = (c_side == e_side) != exchanged(e_roles, c_roles)
            key = (overlap, int(same), c_word)
            if overlap and (best is None or key[:2] > best[:2]):
                best = key
        if best is not None and not best[1]:
            return f"opposite predicate: {e_word}/{best[2]}"
    return _requalified(_modified(c_toks), _modified(e_toks))


# Quantities where less is better ("lower error" = "better"; 5-letter stem prefixes).
_COSTS = frozenset("error loss regre cost laten overh runti perpl".split())
_Pred = tuple[str, int, int, set[str], tuple[set[str], set[str]]]


@lru_cache(maxsize=1)
def _quality_lines() -> frozenset[int]:
    """The lexicon's lines with "better" on side 0 (improve/degrade, outperform, well/poorly)."""
    return frozenset(line for line, side in opposites()["better"] if side == 0)


def _valued(preds: list[_Pred]) -> list[_Pred]:
    """Each predicate of size about a cost also as a judgement of quality: "lower error" says
    "better", "higher latency" says "worse" (side 0 of a size line is up). A text that moves
    costs both ways ("A reduces the error while B increases it") is left to the size lines."""
    costs = [p for p in preds if p[1] in _magnitude_lines() and p[3] & _COSTS]
    if len({p[2] for p in costs}) != 1:
        return preds
    return preds + [(w, q, 1 - side, anchor, r) for w, _, side, anchor, r in costs for q in sorted(_quality_lines())]


def added_opposite(claim: str, evidence: str) -> str | None:
    """ "discrete and continuous distributions" where the evidence has only "discrete": the
    claim coordinates a word with its opposite, widening what the evidence says to both."""
    table = opposites()
    e_places = {p for t in tokens(evidence) for p in table.get(t.word, [])}
    toks = tokens(claim)
    for i in range(len(toks) - 2):
        if toks[i + 1].word not in {"and", "or"}:
            continue
        for b in toks[i + 2 : i + 4]:  # "discrete and (the) continuous"
            for line, side in table.get(toks[i].word, []):
                if (line, 1 - side) not in table.get(b.word, []):
                    continue
                missing = [w for w, sd in ((toks[i].word, side), (b.word, 1 - side)) if (line, sd) not in e_places]
                if len(missing) == 1:
                    return f"overclaim: adds '{missing[0]}'"
    return None


def _modified(toks: tuple[Tok, ...]) -> dict[tuple[int, str], set[int]]:
    """(lexicon line, head noun stem) -> the sides of the lexicon words that directly modify
    that noun ("high-frequency subject", "lower bias")."""
    out: dict[tuple[int, str], set[int]] = {}
    for m, h in pairwise(toks):
        # "the linear and the non-linear functions": both sides may modify the one noun (key "")
        head = h.stem if h.content else "" if h.word in {"and", "or", ","} else None
        if head is None:
            continue
        for line, side in _places(m.word):
            out.setdefault((line, head), set()).add(side)
    return out


@lru_cache(maxsize=1)
def _magnitude_lines() -> frozenset[int]:
    """The lexicon's lines of size and amount (higher, more, larger, increase: side 0 is up),
    whose words say the same of a noun ("a smaller bound" = "a lower bound")."""
    return frozenset(
        line for w in ("higher", "more", "larger", "increase") for line, side in opposites()[w] if not side
    )


def _requalified(c_mod: dict[tuple[int, str], set[int]], e_mod: dict[tuple[int, str], set[int]]) -> str | None:
    """A noun the evidence qualifies by one side of an opposition that the claim qualifies by
    the other only ("better models" -> "weaker models"); the words of size count as one
    opposition ("a higher bound" -> "a smaller bound")."""

    def sides_of(mod: dict[tuple[int, str], set[int]]) -> dict[tuple[int, str], set[int]]:
        out: dict[tuple[int, str], set[int]] = {}
        for (line, head), sides in mod.items():
            if head:
                out.setdefault((-1 if line in _magnitude_lines() else line, head), set()).update(sides)
        return out

    c_sides = sides_of(c_mod)
    # "the linear and the non-linear functions": both sides may qualify the one noun
    paired = {-1 if line in _magnitude_lines() else line for line, head in [*c_mod, *e_mod] if not head}
    for (line, head), e_sides in sides_of(e_mod).items():
        if line in paired:
            continue
        if len(e_sides) == 1 and c_sides.get((line, head)) == {1 - next(iter(e_sides))}:
            return f"opposite predicate: '{head}' qualified the other way"
    return None


def _subjects(toks: tuple[Tok, ...], line: int) -> dict[int, set[str]]:
    """Side of `line` -> the words just before its predicates ("the extra-gradient method
    converges", "Pass@1 reliably improves"): up to two words of the clause that are neither
    function words nor adverbs, numbers and letters included."""
    table = opposites()
    out: dict[int, set[str]] = {0: set(), 1: set()}
    for i, t in enumerate(toks):
        for ln, side in table.get(t.word, []):
            if ln != line or t.word == "most":  # "most models" quantifies, it compares nothing
                continue
            k, got = i - 1, 0
            while k >= 0 and got < 2 and not toks[k].boundary:
                w = toks[k]
                if (w.content or _symbol(w.word)) and not w.word.endswith("ly"):
                    out[side].add(w.stem)
                    got += 1
                k -= 1
    return out


def _symbol(word: str) -> bool:
    """A number or a one-letter symbol ("Pass@k", "1"), which names a thing in a subject."""
    return not word.isalpha() or (len(word) == 1 and word not in {"a", "i"})


def _resubjected(line: int, c_toks: tuple[Tok, ...], e_toks: tuple[Tok, ...]) -> str | None:
    """Both texts have both sides of `line`, but what the evidence says of one subject the
    claim says of the other ("A converges while B diverges" -> "B converges while A diverges")."""
    (e0, e1), (c0, c1) = _subjects(e_toks, line).values(), _subjects(c_toks, line).values()
    only0, only1 = e0 - e1, e1 - e0
    if only0 & c1 and only1 & c0 and not (only0 & c0 or only1 & c1):
        return "opposite predicate: exchanged subjects"
    return None
