"""pysbd's sentence segmenter, with its regular expressions compiled once.

pysbd builds a pattern per abbreviation it finds ("(?:^|\\s|\\r|\\n)e.g", ...) and calls the
module-level `re` functions with it; with hundreds of such patterns, `re`'s own cache of 512
overflows and they are compiled again for every abstract (60 % of the segmenter's time on real
abstracts). The pysbd modules get a `re` whose functions look patterns up in a larger cache:
the same patterns, the same results (a test compares the spans with pysbd's own).

pysbd then finds each sentence's span by compiling the escaped sentence as a new pattern and
scanning the whole text with it (another compile per sentence: half its remaining time at
ingest). `_Segmenter` finds the same spans with `str.find`.
"""

from __future__ import annotations

import re
import sys
import types
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=8192)
def _compiled(pattern: str, flags: int) -> re.Pattern[str]:
    return re.compile(pattern, flags)


def _pattern(pattern: Any, flags: int) -> re.Pattern[str]:
    return pattern if isinstance(pattern, re.Pattern) else _compiled(pattern, flags)


class _CachedRe(types.ModuleType):
    """`re` with the pattern functions pysbd calls going through `_compiled`."""

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)

    @staticmethod
    def compile(pattern: Any, flags: int = 0) -> re.Pattern[str]:
        return _pattern(pattern, flags)

    @staticmethod
    def sub(pattern: Any, repl: Any, string: str, count: int = 0, flags: int = 0) -> str:
        return _pattern(pattern, flags).sub(repl, string, count)

    @staticmethod
    def subn(pattern: Any, repl: Any, string: str, count: int = 0, flags: int = 0) -> tuple[str, int]:
        return _pattern(pattern, flags).subn(repl, string, count)

    @staticmethod
    def findall(pattern: Any, string: str, flags: int = 0) -> list[Any]:
        return _pattern(pattern, flags).findall(string)

    @staticmethod
    def finditer(pattern: Any, string: str, flags: int = 0) -> Any:
        return _pattern(pattern, flags).finditer(string)

    @staticmethod
    def search(pattern: Any, string: str, flags: int = 0) -> re.Match[str] | None:
        return _pattern(pattern, flags).search(string)

    @staticmethod
    def match(pattern: Any, string: str, flags: int = 0) -> re.Match[str] | None:
        return _pattern(pattern, flags).match(string)

    @staticmethod
    def split(pattern: Any, string: str, maxsplit: int = 0, flags: int = 0) -> list[Any]:
        return _pattern(pattern, flags).split(string, maxsplit)


_RE = _CachedRe("re")


def char_spans(sentences: list[str], text: str) -> list[tuple[str, int, int]]:
    """(sentence with its trailing whitespace, start, end) as pysbd's `sentences_with_char_spans`
    gives them for non-empty sentences: each one's first non-overlapping occurrence that ends
    after the previous one."""
    out: list[tuple[str, int, int]] = []
    prior_end = 0
    for sent in sentences:
        pos = 0
        while (i := text.find(sent, pos)) >= 0:
            j = i + len(sent)
            while j < len(text) and text[j].isspace():  # `\s*` in pysbd's pattern
                j += 1
            if j > prior_end:
                out.append((text[i:j], i, j))
                prior_end = j
                break
            pos = j
    return out


def segmenter() -> Any:
    """An English pysbd segmenter giving character spans, its modules on the cached `re`."""
    import pysbd
    from pysbd.utils import TextSpan

    class _Segmenter(pysbd.Segmenter):  # type: ignore[misc]
        def sentences_with_char_spans(self, sentences: list[str]) -> list[Any]:
            if not all(sentences):  # never seen; pysbd's own pattern handles it
                return super().sentences_with_char_spans(sentences)
            return [TextSpan(s, i, j) for s, i, j in char_spans(sentences, self.original_text)]

    seg = _Segmenter(language="en", clean=False, char_span=True)
    for name, module in list(sys.modules.items()):
        if name.startswith("pysbd") and getattr(module, "re", None) is re:
            module.re = _RE  # type: ignore[attr-defined]
    return seg
