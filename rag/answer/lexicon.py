"""General-English word classes for the support judge: which parts of speech a word can be
(WordNet 3.0's lemma index as packaged by spacy-lookups-data) and whether it is a common
English word (`rag.text.english`). Together they tell a technical term ("covariance",
"regularization-based") from a plain word a paraphrase may swap in ("setting", "keeps")."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from importlib.resources import files

from rag.text.english import is_common

_SUFFIXES = (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"))


@lru_cache(maxsize=1)
def _pos_index() -> dict[str, frozenset[str]]:
    raw = files("spacy_lookups_data").joinpath("data/en_lemma_index.json.gz").read_bytes()
    out: dict[str, set[str]] = {}
    for pos, words in json.loads(gzip.decompress(raw)).items():
        for w in words:
            out.setdefault(w, set()).add(pos)
    return {w: frozenset(p) for w, p in out.items()}


def lemmas(word: str) -> set[str]:
    """The word and its candidate lemmas by suffix ("abilities" -> "ability", "tuned" -> "tune",
    "spanning" -> "span")."""
    out = {word} | {word[: -len(s)] + r for s, r in _SUFFIXES if word.endswith(s) and len(word) > len(s) + 2}
    return out | {w[:-1] for w in out if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiousl"}


def parts_of_speech(word: str) -> frozenset[str]:
    """WordNet's parts of speech of `word` (noun, verb, adj, adv) as written if WordNet has it
    ("training" is a noun), else of any of its lemmas; empty if unknown."""
    index, low = _pos_index(), word.lower()
    if low in index:
        return index[low]
    found = frozenset().union(*(index.get(w, frozenset()) for w in lemmas(low)))
    return found or (frozenset({"adj"}) if _comparative(low, index) else frozenset())


def superlative(word: str) -> bool:
    """ "highest", "richest": a superlative, which claims a rank (no plain paraphrase word)."""
    low = word.lower()
    return low.endswith("est") and low not in _pos_index() and _comparative(low, _pos_index())


_DEGREE = (("ier", "y"), ("iest", "y"), ("er", ""), ("er", "e"), ("est", ""), ("est", "e"))


def _comparative(word: str, index: dict[str, frozenset[str]]) -> bool:
    """ "wider", "richest", "bigger": the comparative or superlative of an adjective WordNet has
    (only adjectives: "optimizer" is no degree of "optimize")."""
    for suffix, base in _DEGREE:
        stem = word[: -len(suffix)] if word.endswith(suffix) and len(word) > len(suffix) + 2 else ""
        for w in (stem + base, stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else ""):
            if w and "adj" in index.get(w, frozenset()):
                return True
    return False


def names_a_thing(word: str) -> bool:
    """A hyphenated compound, a word WordNet has only as a noun, or a word unknown to WordNet
    (coined, technical): a word that can name a concept, not a verb or an adjective."""
    if "-" in word:
        return True
    pos = parts_of_speech(word)
    if pos:
        return pos == {"noun"}
    return word.isalpha() and len(word) >= 4 and not word.endswith("ly")  # "sublinearly": an adverb


def technical(word: str) -> bool:
    """A word that names a thing and is rare in general English (by some part, for compounds),
    or a compound of two nouns ("trust-region", "score-function": common words joined into a
    term; "well-known", "large-scale" have an adjective part)."""
    parts = word.lower().split("-")
    if len(parts) == 2 and all(p.isalpha() and parts_of_speech(p) and "adj" not in parts_of_speech(p) for p in parts):
        return all("noun" in parts_of_speech(p) for p in parts)
    return names_a_thing(word) and any(p.isalpha() and not is_common(p) for p in parts)


def noun_only(word: str) -> bool:
    """A word WordNet has, as written, only as a noun ("validation", "training"), and that is
    no third-person form of a verb ("stays" is also "it stays")."""
    low = word.lower()
    if _pos_index().get(low) != {"noun"}:
        return False
    bases = {low[:-1], low[:-2]} if low.endswith("s") else set()  # "stays" -> "stay"; "training" stays a noun
    return not any("verb" in _pos_index().get(w, frozenset()) for w in bases)


def verbal(word: str) -> bool:
    """A word WordNet has only as a verb or adverb ("derive", "rapidly")."""
    pos = parts_of_speech(word)
    return bool(pos) and pos <= {"verb", "adv"}
