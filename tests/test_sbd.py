"""pysbd on a cached `re` splits exactly as pysbd does on its own."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.corpus.reader import corpus_files, read_corpus_file
from rag.text.sbd import segmenter
from tests.conftest import DATA

TRICKY = [
    "We use e.g. ResNets, i.e. deep nets. Results improve by 3.5 pp. on Fig. 2 vs. Sec. 4.",
    "Dr. Smith et al. propose U.S. benchmarks. (i) first; (ii) second. It works!",
    "Mr. A.B. Jones at 5 p.m. met Prof. Lee. No. 7 is next... Really? Yes.",
]


def _spans(seg: object, text: str) -> list[tuple[int, int]]:
    return [(s.start, s.end) for s in seg.segment(text)]  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def both() -> tuple[object, object]:
    import pysbd

    cached = segmenter()
    assert all(m.re is not re for n, m in sys.modules.items() if n.startswith("pysbd") and hasattr(m, "re"))
    return cached, pysbd.Segmenter(language="en", clean=False, char_span=True)


def _plain_spans(plain: object, text: str) -> list[tuple[int, int]]:
    """pysbd's own result: its modules on the real `re` while it runs."""
    mods = [m for n, m in sys.modules.items() if n.startswith("pysbd") and hasattr(m, "re")]
    saved = [m.re for m in mods]
    for m in mods:
        m.re = re
    try:
        return _spans(plain, text)
    finally:
        for m, r in zip(mods, saved, strict=True):
            m.re = r


def test_same_spans_on_the_shipped_abstracts_and_tricky_text(both: tuple[object, object]) -> None:
    cached, plain = both
    texts = [p.abstract for f in corpus_files([DATA]) for p in read_corpus_file(f)] + TRICKY
    for text in texts:
        assert _spans(cached, text) == _plain_spans(plain, text)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["e.g.", "Dr.", "3.5", "U.S.", "(ii)", "word", "It", ".", "?", "Fig."]), max_size=20))
def test_same_spans_on_generated_text(both: tuple[object, object], parts: list[str]) -> None:
    cached, plain = both
    text = " ".join(parts)
    assert _spans(cached, text) == _plain_spans(plain, text)
