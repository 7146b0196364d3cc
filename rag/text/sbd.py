"""pysbd's sentence segmenter, with its regular expressions compiled once.

pysbd builds a pattern per abbreviation it finds ("(?:^|\\s|\\r|\\n)e.g", ...) and calls the
module-level `re` functions with it; with hundreds of such patterns, `re`'s own cache of 512
overflows and they are compiled again for every abstract (60 % of the segmenter's time on real
abstracts). The pysbd modules get a `re` whose functions look patterns up in a larger cache:
the same patterns, the same results (a test compares the spans with pysbd's own).
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


def segmenter() -> Any:
    """An English pysbd segmenter giving character spans, its modules on the cached `re`."""
    import pysbd

    seg = pysbd.Segmenter(language="en", clean=False, char_span=True)
    for name, module in list(sys.modules.items()):
        if name.startswith("pysbd") and getattr(module, "re", None) is re:
            module.re = _RE  # type: ignore[attr-defined]
    return seg
