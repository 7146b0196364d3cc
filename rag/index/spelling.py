"""Paper names as users type them: "LLMSRBench" or "LLM SRBench" for "LLM-SRBench", "MGD^3" for
"MGD$^3$", "Adasplsh" for "AdaSplash". A question is read with the indexed name before it is
answered, and the answer says so (a search engine's "showing results for"): refusing it, or
answering from whichever paper shares its other words, helps no one."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from rag.text.normalize import content_stems

# A name as typed: letters, digits and the marks names carry ("MGD^3", "LLM-SRBench", "C++").
_TOKEN = re.compile(r"[\w$^\\{}+\-–—]+(?:\.\w+)*")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_NOT_ALNUM = re.compile(r"[\W_]+")
_DIGITS = re.compile(r"\d")
SPAN_WORDS = 3  # "LLM SR Bench": a name typed as up to three words
TYPO_MIN = 6  # shorter names are a letter away from too many words
RARE_DF = 2  # a lowercase name names a paper only when abstracts do not use it as a word


def fold(text: str) -> str:
    """A name without markup, dashes or spaces, case kept: "MGD$^3$" and "MGD^3" -> "MGD3"."""
    return _NOT_ALNUM.sub("", _LATEX_COMMAND.sub("", unicodedata.normalize("NFKC", text)))


class Speller:
    """Reads the names in a question as the indexed labels they stand for. `labels`: paper id ->
    label of the papers whose label names them; `df`: document frequency of content stems
    (a word the abstracts use is a word, not a misspelt name)."""

    def __init__(self, labels: Mapping[str, str], df: Mapping[str, int]) -> None:
        self._df = df
        self._exact: dict[str, set[str]] = {}
        self._lower: dict[str, set[str]] = {}
        for label in set(labels.values()):
            key = fold(label)
            if len(key) >= 3:
                self._exact.setdefault(key, set()).add(label)
                self._lower.setdefault(key.lower(), set()).add(label)
        typo_keys = [k for k in self._lower if len(k) >= TYPO_MIN]
        self._label_stems = {st[0] for k in typo_keys if (st := content_stems(k))}
        # One edit changes the length by one at most: each search looks at three lengths only.
        self._by_length: dict[int, list[str]] = {}
        for k in typo_keys:
            self._by_length.setdefault(len(k), []).append(k)
        self._spaced: dict[int, dict[int, list[str]]] = {}  # several words: labels of as many, by length
        for label in set(labels.values()):
            k = fold(label).lower()
            if len(label.split()) > 1 and len(k) >= TYPO_MIN:
                self._spaced.setdefault(len(label.split()), {}).setdefault(len(k), []).append(k)

    def respell(self, question: str, keep: list[tuple[int, int]] | None = None) -> tuple[str, list[tuple[str, str]]]:
        """The question with each name read as its label, and the (typed, label) pairs read;
        words inside the `keep` spans (quoted phrases, asked word for word) are left as typed."""
        spans = [
            (m.start(), m.end())
            for m in _TOKEN.finditer(question)
            if not any(a <= m.start() < b for a, b in keep or [])
        ]
        read: list[tuple[int, int, str]] = []
        i = 0
        while i < len(spans):
            found = self._at(question, spans, i)
            if found is None:
                i += 1
                continue
            n, label = found
            read.append((spans[i][0], spans[i + n - 1][1], label))
            i += n
        out, pairs = question, []
        for a, b, label in reversed(read):
            pairs.append((question[a:b], label))
            out = out[:a] + label + out[b:]
        return out, pairs[::-1]

    def _at(self, question: str, spans: list[tuple[int, int]], i: int) -> tuple[int, str] | None:
        """The label the words starting at span `i` spell, and how many words, or None."""
        texts = []
        for n in range(min(SPAN_WORDS, len(spans) - i), 0, -1):
            if not any(question[spans[k][1] : spans[k + 1][0]].strip() for k in range(i, i + n - 1)):
                texts.append((n, question[spans[i][0] : spans[i + n - 1][1]]))  # words apart by spaces only
        for n, text in texts:
            label = self._variant(text)
            if label is not None:
                return (n, label) if label != text else None
        for n, text in texts:
            label = self._typo(text)
            if label is not None:
                return n, label
        return None

    def _variant(self, text: str) -> str | None:
        """The one label `text` writes with other marks or spacing (or, typed all in lowercase,
        a label abstracts do not use as a word)."""
        key = fold(text)
        labels = self._exact.get(key, set())
        if not labels and text == text.lower() and key.lower() in self._lower and not self._common(key):
            labels = self._lower.get(key.lower(), set())
        return next(iter(labels)) if len(labels) == 1 else None

    def _typo(self, text: str) -> str | None:
        """The one label `text` misspells by one letter (dropped, doubled, swapped or wrong), same
        first letter and digits, when a word of `text` is no word of the abstracts. One only:
        "CacheFlipper" is two from "CacheZipper", and may well be another method."""
        key = fold(text).lower()
        words = text.split()
        by_length = self._by_length if len(words) == 1 else self._spaced.get(len(words), {})
        keys = [k for n in (len(key) - 1, len(key), len(key) + 1) for k in by_length.get(n, [])]
        # A letter dropped from a name of TYPO_MIN letters leaves one fewer.
        if not keys or len(key) < TYPO_MIN - 1 or not key[0].isalpha() or all(self._is_word(w) for w in words):
            return None
        near = process.extract(key, keys, scorer=DamerauLevenshtein.distance, score_cutoff=1, limit=4)
        # Case alone is no slip: "Medusa" in a question may be a baseline of that name, not the
        # paper labelled "MEDUSA" (lowercase typing is `_variant`'s).
        labels = {
            label
            for k, d, _ in near
            if d == 1 and k[0] == key[0] and _DIGITS.findall(k) == _DIGITS.findall(key)
            for label in self._lower[k]
        }
        return next(iter(labels)) if len(labels) == 1 else None

    def _is_word(self, word: str) -> bool:
        """The abstracts use `word` as written ("Q-learning" is a word; "Q-lerning" and
        "VES-Gama" are not, though "learning" and "VES" are)."""
        stems = content_stems(word)  # the whole word first, then its hyphenated parts
        if not stems:
            return True
        # "ONERULLER" stems as "ONERULER" does: a rare name's stem is that name, not a word.
        return self._df.get(stems[0], 0) > (RARE_DF if stems[0] in self._label_stems else 0)

    def _common(self, key: str) -> bool:
        """A stem of `key` is in more than RARE_DF abstracts."""
        stems = content_stems(key)
        return not stems or any(self._df.get(s, 0) > RARE_DF for s in stems)
