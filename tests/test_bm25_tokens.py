"""BM25 words are letters and digits: markdown emphasis does not glue underscores to a name."""

import json
from pathlib import Path

from rag.index.bm25 import PERSIST_FILE, TOKEN_PATTERN, build_bm25, load_bm25
from rag.index.chunks import Record
from rag.index.loading import _bm25
from rag.retrieval.signals import bm25_scores

DOCS = ["We introduce _Urania_, a framework for private insights.", "A bandit algorithm with regret bounds."]


def test_a_name_in_markdown_emphasis_is_found_typed_plain(tmp_path: Path) -> None:
    build_bm25(DOCS, tmp_path / "b")
    scores = bm25_scores(load_bm25(tmp_path / "b", len(DOCS)), "tl;dr of Urania?", None)
    assert scores is not None and scores[0] > 0 and scores[1] == 0


def test_an_index_written_with_the_old_word_pattern_is_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "b"
    build_bm25(DOCS, path)
    meta = json.loads((path / PERSIST_FILE).read_text(encoding="utf-8"))
    del meta["token_pattern"]  # as written before the pattern was saved
    (path / PERSIST_FILE).write_text(json.dumps(meta), encoding="utf-8")
    assert load_bm25(path, len(DOCS)).token_pattern != TOKEN_PATTERN  # queried as it was built
    rebuilt = _bm25([Record(f"p#{i}", t) for i, t in enumerate(DOCS)], path)
    assert rebuilt is not None and rebuilt.token_pattern == TOKEN_PATTERN
    assert load_bm25(path, len(DOCS)).token_pattern == TOKEN_PATTERN
