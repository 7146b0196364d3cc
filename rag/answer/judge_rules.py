"""The support judge's negation rule and the lexicon of opposites: each rule finds one
meaning-bearing difference between a claim and the evidence sentence it cites and returns the
reason, or None. Pure functions over `judge_text.tokens`; opposite predicates are in
`judge_direction`, names in `judge_terms`, overclaims in `judge_overclaim`."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

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


# --- negation ------------------------------------------------------------------------
_NEG_PREFIX = re.compile(r"^(?:non-?|un|in|im|ir|il|dis)(?=[a-z]{4})")


def _prefixed(tok: Tok, vocab: set[str]) -> str | None:
    """The stem of "biased" for "unbiased" when it is a word of either text (a negation by prefix)."""
    m = _NEG_PREFIX.match(tok.word)
    base = stem_of(tok.word[m.end() :]) if m else None
    return base if base in vocab else None


_BOUNDS = frozenset("more less greater fewer larger smaller higher lower later earlier".split())


_Scope = tuple[str, set[str], int]  # a negation word, the stems it negates, its token index


def _neg_scopes(toks: tuple[Tok, ...], vocab: set[str], after: int = 4) -> list[_Scope]:
    out = []
    for i, t in enumerate(toks):
        if is_free_compound(t.word):  # only the word before "-free" is negated
            out.append((t.word, {stem_of(t.word.rsplit("-", 1)[0].split("-")[-1])}, i))
            continue
        base = _prefixed(t, vocab)
        if base:
            out.append((t.word, {base}, i))
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
        out.append((t.word, window(_until_next(toks, i), k, after=after), i))
    return out


def _until_next(toks: tuple[Tok, ...], i: int) -> tuple[Tok, ...]:
    """The text up to the next negation after token i: a negation's reach ends where another
    begins ("fail to capture features not prevalent in training"). So does "neither"'s at
    "nor" after a predicate ("requires neither A nor B" negates A and B each on its own;
    "neither A nor B dominates" negates the verb after both, so it is left whole)."""
    whole = toks[i].word == "neither" and not (i > 0 and toks[i - 1].content)
    stop = (j for j in range(i + 1, len(toks)) if is_negation(toks[j]) and not (whole and toks[j].word == "nor"))
    return toks[: next(stop, len(toks))]


def _heads(toks: tuple[Tok, ...], scopes: list[_Scope]) -> list[tuple[str, set[str], str]]:
    """(word, scope, the first content stem it negates) of each scope."""
    out = []
    for word, scope, i in scopes:
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
                and not any(head in es for _, es, _ in e_scopes)
                and not _licensed(scope, head, e_toks, c_toks)
            ):
                return f"negation mismatch: '{word}' not in evidence"
    if len(e_scopes) > len(c_scopes):
        wide = _neg_scopes(e_toks, vocab, after=8)
        for (word, scope, head), (_, far, _) in zip(_heads(e_toks, e_scopes), wide, strict=True):
            hit = scope & c_stems or len(far & c_stems) >= WIDE_OVERLAP
            if hit and not any(far & cs for _, cs, _ in c_scopes) and not _licensed(far, head, c_toks, e_toks):
                return f"negation mismatch: evidence says '{word}'"
    return None


def stem_of(word: str) -> str:
    return str(_stemmer().stemWord(word.lower()))


def hyphen_parts(word: str) -> set[str]:
    """The 5-letter stem prefixes of a hyphenated word's parts of three letters or more."""
    return {stem_of(p)[:5] for p in word.split("-") if len(p) > 2}
