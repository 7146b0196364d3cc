"""The support judge's rules about terms: names of the claim missing from the evidence,
swapped terms of a noun compound, and runs of content the evidence does not have."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import pairwise

from rag.answer import lexicon
from rag.answer.judge_forms import acronyms
from rag.answer.judge_rules import hyphen_parts, opposites
from rag.answer.judge_text import Tok, align, stems, tokens
from rag.text.normalize import looks_plural


# --- names ---------------------------------------------------------------------------
def _evidence_words(evidence: str) -> set[str]:
    out: set[str] = set()
    for t in tokens(evidence):
        for w in {t.word, *t.word.split("-"), t.word.replace("-", ""), _GLUED_DIGITS.sub("", t.word)}:
            out.update({w, w.removesuffix("s"), w.removesuffix("es")})
    return out


# A version number glued to a name ("gpt4", "llama2") that the claim writes apart ("GPT-4").
_GLUED_DIGITS = re.compile(r"(?<=[a-z])\d+(?:\.\d+)?$")


def _is_name(part: str, first: bool) -> bool:
    if len(part) < 2 or part.isdigit():
        return False
    inner_caps = any(ch.isupper() for ch in part[1:])
    return inner_caps or (part[0].isupper() and not first)


_SELF_REFERENCE = re.compile(r"\b(?:we|our|us|it|its|this|the proposed|the resulting)\b", re.I)


def names(claim: str, evidence: str, aliases: str | None = None) -> str | None:
    """A capitalised, mixed-case or acronym term of the claim absent from the evidence.
    `aliases` (the cited paper's own name for its method) counts as present when the evidence
    refers to the paper's own work ("our method", "we", "it")."""
    have = _evidence_words(evidence)
    if aliases and _SELF_REFERENCE.search(evidence):
        have |= _evidence_words(aliases)
    toks = tokens(claim)
    initials = _initials(tokens(evidence), 6)  # "GP" for "Gaussian process"
    spelled = _spelled_out(toks, _acronyms(evidence))  # "Large Language Models" for "LLMs"
    for i, t in enumerate(toks):
        first = i == 0 or toks[i - 1].word in {".", ":", "!", "?", "("} or toks[i - 1].raw in {'"'}
        for part in re.split(r"[-']", t.raw):
            low = part.lower()
            if i in spelled or not _is_name(part, first):
                continue
            if sum(ch.isupper() for ch in part) >= 2 and low.removesuffix("s") in initials:
                continue
            if _derived(part, have):
                continue
            if not {low, low.removesuffix("s"), low.removesuffix("es")} & have:
                return f"name not in evidence: {part}"
    return None


def _derived(part: str, have: set[str]) -> bool:
    """A capitalised word derived from an evidence word or the other way round ("Bayesian" for
    "Bayes", "Markov" for "Markovian"); not for acronyms or mixed case, where a letter more is
    another name ("AdamW")."""
    if not (part[:1].isupper() and part[1:].islower() and len(part) >= 5):
        return False
    low = part.lower()
    return any(len(w) >= 4 and w.isalpha() and (low.startswith(w) or w.startswith(low)) for w in have)


def _words(toks: tuple[Tok, ...]) -> list[tuple[int, str]]:
    """(token index, word part) of each word, hyphenated words by their parts."""
    return [(i, p) for i, t in enumerate(toks) if t.word[:1].isalnum() for p in t.word.split("-") if p]


def _initials(toks: tuple[Tok, ...], longest: int) -> set[str]:
    """The initials of every run of 2..`longest` consecutive words: the acronyms they spell."""
    parts = [p for _, p in _words(toks)]
    return {"".join(p[0] for p in parts[a : a + n]) for a in range(len(parts)) for n in range(2, longest + 1)}


def _acronyms(text: str) -> set[str]:
    """Acronyms of a text ("LLMs" -> "llm", "MoE" -> "moe")."""
    return set(acronyms(text))


def _spelled_out(toks: tuple[Tok, ...], acronyms: set[str]) -> set[int]:
    """Token indexes of runs of capitalised words whose initials spell an acronym of the evidence."""
    words = [(i, p) for i, p in _words(toks) if toks[i].raw[:1].isupper()]
    out: set[int] = set()
    for a in range(len(words)):
        for n in range(2, 7):
            run = words[a : a + n]
            adjacent = all(run[k + 1][0] - run[k][0] <= 1 for k in range(len(run) - 1))
            if len(run) == n and adjacent and "".join(p[0] for _, p in run) in acronyms:
                out.update(i for i, _ in run)
    return out


# --- swapped terms -------------------------------------------------------------------
SWAP_SIMILARITY = 0.7  # phrase cosine below which a swapped term is another thing (calibrated)
Similar = Callable[[str, str], float]


def _noun_like(word: str) -> bool:
    """A word that can modify or head a noun compound: no adverb, gerund, comparative or
    plural/third-person form ("rewrites", "models" are verbs or heads, not modifiers)."""
    return not (looks_plural(word) or word.endswith(("ly", "ing", "ed")) or word in opposites() or len(word) < 3)


def _compound(toks: list[tuple[int, Tok]], lo: int, hi: int) -> bool:
    """Content tokens lo..hi (hi = the head) are adjacent words of one noun compound."""
    adjacent = all(toks[k + 1][0] == toks[k][0] + 1 for k in range(lo, hi))
    head = toks[hi][1].word
    return adjacent and all(_noun_like(t.word) for _, t in toks[lo:hi]) and head not in opposites()


@dataclass(frozen=True)
class _Replaced:
    """One stretch of the evidence's content words that the claim replaces by others."""

    e: list[tuple[int, Tok]]  # the evidence's content tokens (index in the sentence, token)
    c: list[tuple[int, Tok]]  # the claim's
    i1: int
    i2: int
    j1: int
    j2: int
    new: list[str]  # claim words of the stretch the evidence lacks
    gone: list[str]  # evidence words of the stretch the claim lacks


def clipped(a: str, b: str) -> bool:
    """One word is a clipping of the other ("exams" for "examinations", "stats" for
    "statistics"): the same word, shortened."""
    short, long = sorted((a.lower().removesuffix("s"), b.lower().removesuffix("s")), key=len)
    return len(short) >= 4 and short != long and long.startswith(short)


def _replacements(claim: str, evidence: str, longest: int = 3) -> Iterator[_Replaced]:
    """Stretches of at most `longest` content words where the claim says something else in
    the evidence's place (aligned on stems)."""
    c = [(i, t) for i, t in enumerate(tokens(claim)) if t.content]
    e = [(i, t) for i, t in enumerate(tokens(evidence)) if t.content]
    c_stems, e_stems = {t.stem for _, t in c}, {t.stem for _, t in e}
    e_prefixes = {st[:5] for st in stems(evidence)}
    for tag, i1, i2, j1, j2 in align([t.stem for _, t in e], [t.stem for _, t in c]):
        if tag != "replace" or i2 - i1 > longest or j2 - j1 > longest:
            continue
        gone = [t.word for _, t in e[i1:i2] if t.stem not in c_stems]
        new = [
            t.word
            for _, t in c[j1:j2]
            if t.stem not in e_stems
            and not hyphen_parts(t.word) & e_prefixes
            and not any(clipped(t.word, g) for g in gone)
        ]
        if new and gone:
            yield _Replaced(e, c, i1, i2, j1, j2, new, gone)


def swaps(claim: str, evidence: str, similar: Similar, threshold: float = SWAP_SIMILARITY) -> str | None:
    """A modifier of a noun compound replaced by another before the same head word ("grid
    cells" -> "place cells", "covariance matrix" -> "transition matrix") whose embedding is
    not close: a different concept, not a paraphrase."""
    for r in _replacements(claim, evidence):
        e, c, i1, i2, j1, j2 = r.e, r.c, r.i1, r.i2, r.j1, r.j2
        if i2 >= len(e) or j2 >= len(c) or e[i2][1].stem != c[j2][1].stem:
            continue
        if not (_compound(e, i1, i2) and _compound(c, j1, j2)):
            continue
        if any(
            all(lexicon.is_common(w) and "noun" not in lexicon.parts_of_speech(w) for w in side)
            for side in (r.new, r.gone)
        ):
            continue  # a plain verb or adjective swapped in or out ("assemble", "critical"): a paraphrase
        if any(all(lexicon.verbal(w) for w in side) for side in (r.new, r.gone)):
            continue  # a verb ("replicate" -> "reproduce") modifies no noun: no compound was swapped
        before = " ".join(t.word for _, t in e[i1 : i2 + 1])
        after = " ".join(t.word for _, t in c[j1 : j2 + 1])
        if similar(before, after) < threshold:
            return f"name not in evidence: {' '.join(r.new)}"
    return _whole_compound_swap(claim, evidence, similar, threshold)


def _whole_compound_swap(claim: str, evidence: str, similar: Similar, threshold: float) -> str | None:
    """A noun compound replaced whole by another, head included ("mathematical reasoning" ->
    "machine translation"), each of common words the term rule lets pass, whose embedding is
    not close: another concept, not a rewording."""
    for r in _replacements(claim, evidence):
        if len(r.new) < 2 or len(r.gone) < 2 or r.i2 - r.i1 < 2 or r.j2 - r.j1 < 2:
            continue
        if not (_compound(r.e, r.i1, r.i2 - 1) and _compound(r.c, r.j1, r.j2 - 1)):
            continue
        gone, new = r.e[r.i1 : r.i2], r.c[r.j1 : r.j2]
        if not all("noun" in lexicon.parts_of_speech(side[-1][1].word) for side in (gone, new)):
            continue
        before, after = (" ".join(t.word for _, t in side) for side in (gone, new))
        if similar(before, after) < threshold:
            return f"name not in evidence: {after} (in place of '{before}')"
    return None


SWAP_CONTEXT = 0.5  # share of the claim's content words that must be the evidence's


def term_swaps(claim: str, evidence: str, similar: Similar | None = None) -> str | None:
    """A technical term of the claim standing where the evidence has another term-like word
    ("covariance calibration" -> "batch normalization recalibration", "f-divergence" ->
    "integral probability metric"). Paraphrases swap verbs and plain words ("keeps",
    "setting", "abilities"); a rare noun in the place of another noun is a different thing,
    unless `similar` (an embedding cosine) finds the two close."""
    claim_stems = stems(claim)
    if len(claim_stems & stems(evidence)) < SWAP_CONTEXT * len(claim_stems):
        return None  # not a swap in the evidence's statement: the overlap gate judges it
    quantity = {w for m in _ORDERS.finditer(claim.lower()) for w in m.group(0).split()}
    for r in _replacements(claim, evidence):
        term = next((w for w in r.new if lexicon.technical(w) and w not in quantity), None)
        if term and (any(lexicon.names_a_thing(w) for w in r.gone) or _compound_noun(r.e[r.i1 : r.i2], r.gone)):
            if similar is not None and similar(" ".join(r.gone), " ".join(r.new)) >= SWAP_SIMILARITY:
                continue  # a synonym ("finding" -> "locating")
            return f"name not in evidence: {term} (in place of '{' '.join(r.gone)}')"
    return None


def _compound_noun(toks: list[tuple[int, Tok]], gone: list[str]) -> bool:
    """Adjacent words ending in a word that can be a noun ("optimal transport"), the claim
    lacking that one: after its modifier it names a thing, though WordNet also has it as a verb."""
    return (
        len(toks) >= 2
        and toks[-1][1].word in gone
        and toks[-1][0] == toks[-2][0] + 1
        and "noun" in lexicon.parts_of_speech(toks[-1][1].word)
        and not lexicon.verbal(toks[-2][1].word)
        and not toks[-2][1].word.endswith("s")
    )


# "two orders of magnitude" for "100 times" is a number written in words, no swapped term.
_ORDERS = re.compile(r"\borders? of magnitude\b")
_NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten dozen hundred thousand million".split())


def modifier_swaps(claim: str, evidence: str) -> str | None:
    """A noun modifying the same head replaced by another noun ("validation data" -> "training
    data", "inference compute" -> "training compute"): another kind of the thing, where a
    paraphrase would change the verb or an adjective ("entire signal" -> "full signal")."""
    for r in _replacements(claim, evidence, longest=2):
        e, c, i2, j2 = r.e, r.c, r.i2, r.j2
        if i2 >= len(e) or j2 >= len(c) or e[i2][1].stem != c[j2][1].stem or e[i2][1].word in _NUMBER_WORDS:
            continue
        if e[i2][0] != e[i2 - 1][0] + 1 or c[j2][0] != c[j2 - 1][0] + 1:
            continue  # not directly before the head
        if all(lexicon.noun_only(w) for w in r.new + r.gone):
            return f"name not in evidence: {' '.join(r.new)} (in place of '{' '.join(r.gone)}')"
    return _moved_modifier_swap(tokens(claim), tokens(evidence))


def _premodified(toks: tuple[Tok, ...]) -> dict[str, Tok]:
    """Head stem -> the content word directly before it, for heads the text has once."""
    count = Counter(t.stem for t in toks if t.content)
    return {
        h.stem: m
        for m, h in pairwise(toks)
        if m.content and h.content and count[h.stem] == 1 and h.word not in _NUMBER_WORDS
    }


def _prefixes(toks: tuple[Tok, ...]) -> set[str]:
    """The 5-letter stem prefixes of a text's content words and of their hyphenated parts."""
    return {t.stem[:5] for t in toks if t.content} | {p for t in toks for p in hyphen_parts(t.word)}


def _moved_modifier_swap(c_toks: tuple[Tok, ...], e_toks: tuple[Tok, ...]) -> str | None:
    """The same swap where the claim reorders the sentence around it, so the word alignment
    does not pair the two modifiers ("applied to the calibration set" -> "the training set is
    used"): a head both texts have once, each with a noun-only modifier the other text lacks."""
    c_mod, e_mod = _premodified(c_toks), _premodified(e_toks)
    c_have, e_have = _prefixes(c_toks), _prefixes(e_toks)
    for head in c_mod.keys() & e_mod.keys():
        new, gone = c_mod[head], e_mod[head]
        if new.stem[:5] in e_have or gone.stem[:5] in c_have or hyphen_parts(new.word) & e_have:
            continue
        if clipped(new.word, gone.word):
            continue
        if lexicon.noun_only(new.word) and lexicon.noun_only(gone.word):
            return f"name not in evidence: {new.word} (in place of '{gone.word}')"
    return None
