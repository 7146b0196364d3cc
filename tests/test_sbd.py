"""pysbd on a cached `re` splits exactly as pysbd does on its own."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.corpus.reader import corpus_files, read_corpus_file
from rag.text.sbd import char_spans, segmenter
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


def _pysbd_char_spans(sentences: list[str], text: str) -> list[tuple[str, int, int]]:
    """pysbd's own `sentences_with_char_spans`, called on a plain segmenter."""
    import pysbd

    seg = pysbd.Segmenter(language="en", clean=False, char_span=True)
    seg.original_text = text
    return [(s.sent, s.start, s.end) for s in seg.sentences_with_char_spans(sentences)]


CHAR_SPAN_CASES = [
    (["A b.", "C d."], "A b. C d."),
    (["x.", "x."], "x. x.  x."),  # repeats: each takes the next occurrence
    (["x.", "y."], "y. x. y."),  # a later sentence found before the previous end is skipped
    (["a (b).", "[c]*"], "a (b).\n\n[c]* tail"),  # regex metacharacters are literal
    (["missing."], "nothing here"),
    (["a a", "a"], "a a a a"),  # overlapping candidates
]


@pytest.mark.parametrize(("sentences", "text"), CHAR_SPAN_CASES)
def test_char_spans_match_pysbds_own(sentences: list[str], text: str) -> None:
    assert char_spans(sentences, text) == _pysbd_char_spans(sentences, text)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="ab .\n", min_size=1, max_size=4), max_size=6),
    st.text(alphabet="ab .\n\t", max_size=30),
)
def test_char_spans_match_pysbds_own_on_generated_text(sentences: list[str], text: str) -> None:
    assert char_spans(sentences, text) == _pysbd_char_spans(sentences, text)
