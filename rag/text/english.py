"""Whether a word is common in general English (rag/text/data/common_words.txt, generated from
spacy-lookups-data's word probabilities by eval/verifier/common_words.py): "really" or
"anyway" is, "upcycling" and "covariance" are not. For telling a plain word from a term or a
coined name, at every layer that reads words."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files


@lru_cache(maxsize=1)
def _common() -> frozenset[str]:
    text = files("rag.text").joinpath("data/common_words.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def is_common(word: str) -> bool:
    return word.lower() in _common()
