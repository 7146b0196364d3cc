"""The support judge's rules: each finds one meaning-bearing difference between a claim and
the evidence sentence it cites (negation, opposite predicate) and returns the reason, or
None. Pure functions over `judge_text.tokens`; names are in `judge_terms`, overclaims in
`judge_overclaim`."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from importlib import resources

from rag.answer.judge_roles import exchanged, roles
from rag.answer.judge_text import (
    IMPLICIT_NEGATIVES,
    KEEP_VERBS,
    LOSS_VERBS,
    Tok,
    _stemmer,
    is_free_compound,
    is_negation,
    stems,
    tokens,
    window,
)

# Anchors of a predicate stay inside its clause; "as"/"when" also start a new one here
# ("accuracy drops as complexity grows" has two predicates about different things).
_ANCHOR_STOP = frozenset({"as", "when", "whereas", "while"})
_PASSIVE_AUX = frozenset("is are was were be been being gets get".split())
_PASSIVE_FLIP = frozenset("outperformed surpassed exceeded beaten beat".split())

WIDE_OVERLAP = 2  # words of a longer negated span the claim must restate (calibrated)


@lru_cache(maxsize=1)
def opposites() -> dict[str, list[tuple[int, int]]]:
    """Surface word -> [(line, side)] from data/opposites.tsv."""
    table: dict[str, list[tuple[int, int]]] = {}
    text = resources.files("rag.answer").joinpath("data/opposites.tsv").read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    for i, line in enumerate(lines):
        for side, words in enumerate(line.split("\t")[:2]):
            for w in words.split():
                table.setdefault(w.lower(), []).append((i, side))
    return table


def _anchors(toks: tuple[Tok, ...], i: int, n: int = 3, clause: bool = True) -> set[str]:
    """Content stems around a predicate, within its clause; a predicate alone in its clause
    ("a valuable (but underutilized) resource") is about the words around the clause."""
    out: set[str] = set()
    for step in (1, -1):
        j, got = i + step, 0
        while 0 <= j < len(toks) and got < n and not (clause and _stops_anchor(toks[j])):
            if toks[j].content and toks[j].word not in opposites():
                out.add(toks[j].stem[:5])
                if "-" in toks[j].word:  # "post-hoc" anchors as "post hoc" does
                    out.add(stem_of(toks[j].word.split("-")[0])[:5])
                    out |= hyphen_parts(toks[j].word)
                got += 1
            j += step
    return out if out or not clause else _anchors(toks, i, n, clause=False)


def _stops_anchor(tok: Tok) -> bool:
    return tok.word in _ANCHOR_STOP or (tok.boundary and not tok.word.isalpha()) or tok.word in {"but", "which"}


# --- negation ------------------------------------------------------------------------
_NEG_PREFIX = re.compile(r"^(?:non-?|un|in|im|ir|il|dis)(?=[a-z]{4})")


def _prefixed(tok: Tok, vocab: set[str]) -> str | None:
    """The stem of "biased" for "unbiased" when it is a word of either text (a negation by prefix)."""
    m = _NEG_PREFIX.match(tok.word)
    base = stem_of(tok.word[m.end() :]) if m else None
    return base if base in vocab else None


_BOUNDS = frozenset("more less greater fewer larger smaller higher lower later earlier".split())


def _neg_scopes(toks: tuple[Tok, ...], vocab: set[str], after: int = 4) -> list[tuple[str, set[str]]]:
    out = []
    for i, t in enumerate(toks):
        if is_free_compound(t.word):  # only the word before "-free" is negated
            out.append((t.word, {stem_of(t.word.rsplit("-", 1)[0].split("-")[-1])}))
            continue
        base = _prefixed(t, vocab)
        if base:
            out.append((t.word, {base} | window(toks, i, after=after)))
            continue
        if not is_negation(t):
            continue
        if t.word == "not" and i + 1 < len(toks) and toks[i + 1].word in {"only", "just", "merely"}:
            continue  # "not only X but also Y" asserts X
        if t.word == "no" and i + 2 < len(toks) and toks[i + 1].word in _BOUNDS and toks[i + 2].word == "than":
            continue  # "no greater than 2d+1" is a bound ("at most"), not a negation
        if t.word == "no" and i + 1 < len(toks) and toks[i + 1].word == "matter":
            continue  # "no matter how large K is" concedes ("however large"), it negates nothing
        # "none of which target X": the relative pronoun opens the negated clause, not a new one
        k = i + 2 if [x.word for x in toks[i + 1 : i + 3]] in (["of", "which"], ["of", "whom"]) else i
        if i + 1 < len(toks) and toks[i + 1].word == "yet":
            k = i + 1  # "not yet achieve X": the adverb, not the conjunction that ends a clause
        out.append((t.word, window(toks, k, after=after)))
    return out


def _heads(toks: tuple[Tok, ...], scopes: list[tuple[str, set[str]]]) -> list[tuple[str, set[str], str]]:
    """(word, scope, the first content stem it negates) of each scope."""
    out = []
    for word, scope in scopes:
        i = next(k for k, t in enumerate(toks) if t.word == word)
        m = _NEG_PREFIX.match(word)
        if is_free_compound(word):
            head = next(iter(scope))
        elif m and not is_negation(toks[i]):
            head = stem_of(word[m.end() :])
        else:
            head = next((t.stem for t in toks[i + 1 :] if t.content), "")
        out.append((word, scope, head))
    return out


@lru_cache(maxsize=1)
def _opposite_stems() -> dict[str, set[tuple[int, int]]]:
    """Stem -> the (line, side) of the lexicon it stands on."""
    out: dict[str, set[tuple[int, int]]] = {}
    for word, places in opposites().items():
        out.setdefault(stem_of(word), set()).update(places)
    return out


def _antonym_in(head: str, toks: tuple[Tok, ...]) -> bool:
    """The other text says the opposite of the negated word (so the negation restates it)."""
    table = _opposite_stems()
    other = {(line, 1 - side) for line, side in table.get(head, ())}
    return bool(other) and any((line, side) in other for t in toks for line, side in opposites().get(t.word, ()))


_IMPLICIT_STEMS = frozenset(_stemmer().stemWords(sorted(IMPLICIT_NEGATIVES)))


_LOSS_STEMS = frozenset(_stemmer().stemWords(sorted(LOSS_VERBS)))


def _implicit(toks: tuple[Tok, ...], words: frozenset[str] = IMPLICIT_NEGATIVES) -> list[set[str]]:
    """The words around each implicit negative ("hidden", "prevents", "instead")."""
    return [window(toks, i, before=3, after=3) for i, t in enumerate(toks) if t.word in words]


def _licensed(scope: set[str], head: str, toks: tuple[Tok, ...], own: tuple[Tok, ...]) -> bool:
    """A negation restated by an implicit negative of the other text (`toks`) about the same
    words, not when it negates an implicit negative ("does not ignore X" is no "ignores X");
    or a negated loss verb restated by a keeping verb ("without sacrificing X": "preserving X").
    An implicit negative the negating text (`own`) has too restates only itself: "unseen data"
    in both texts does not license "does not generalize to unseen data"."""
    if head in _LOSS_STEMS and any(scope & w for w in _implicit(toks, KEEP_VERBS)):
        return True
    others = IMPLICIT_NEGATIVES - {t.word for t in own}
    return head not in _IMPLICIT_STEMS and any(scope & w for w in _implicit(toks, others))


def negation(claim: str, evidence: str) -> str | None:
    """A negation in one text whose scope the other text states without one: the text with
    more negations has one whose scope the other states and does not negate (by a negation
    word, a prefix, "-free", or an implicit negative such as "hidden" or "prevents")."""
    c_toks, e_toks = tokens(claim), tokens(evidence)
    c_stems, e_stems = stems(claim), stems(evidence)
    vocab = c_stems | e_stems
    c_scopes, e_scopes = _neg_scopes(c_toks, vocab), _neg_scopes(e_toks, vocab)
    if len(c_scopes) > len(e_scopes):
        for word, scope, head in _heads(c_toks, c_scopes):
            if _antonym_in(head, e_toks):  # "not easy" for "hard": entailed ("not harder" is not "easier")
                continue
            if (
                scope & e_stems
                and not any(head in es for _, es in e_scopes)
                and not _licensed(scope, head, e_toks, c_toks)
            ):
                return f"negation mismatch: '{word}' not in evidence"
    if len(e_scopes) > len(c_scopes):
        wide = _neg_scopes(e_toks, vocab, after=8)
        for (word, scope, head), (_, far) in zip(_heads(e_toks, e_scopes), wide, strict=True):
            hit = scope & c_stems or len(far & c_stems) >= WIDE_OVERLAP
            if hit and not any(far & cs for _, cs in c_scopes) and not _licensed(far, head, c_toks, e_toks):
                return f"negation mismatch: evidence says '{word}'"
    return None


# --- direction -----------------------------------------------------------------------
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
        for line, side in table.get(word, []):
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
_PREDICATE_NEGATORS = frozenset("not never cannot can't don't doesn't didn't isn't aren't won't unable".split())


def _negated(toks: tuple[Tok, ...], i: int) -> bool:
    """A negation word before token i with only function words between ("does not increase",
    "cannot be improved"; not "does not always translate to improved")."""
    for k in range(i - 1, max(-1, i - 4), -1):
        if toks[k].word in _SEMI_MODALS and toks[k + 1].word == "to":
            continue  # "does not need to approximate" = "does not have to approximate"
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
    c_preds, e_preds = _predicates(tokens(claim)), _predicates(tokens(evidence))
    for e_word, line, e_side, e_anchor, e_roles in e_preds:
        if all({p[2] for p in preds if p[1] == line} == {0, 1} for preds in (c_preds, e_preds)):
            continue  # both texts name both sides ("sparse … than dense"): their order is the roles' business
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
    return None


def stem_of(word: str) -> str:
    return str(_stemmer().stemWord(word.lower()))


def hyphen_parts(word: str) -> set[str]:
    """The 5-letter stem prefixes of a hyphenated word's parts of three letters or more."""
    return {stem_of(p)[:5] for p in word.split("-") if len(p) > 2}
