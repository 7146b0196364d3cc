"""BM25 over sentences or abstracts: bm25s with llama-index's `BM25Retriever` settings, built,
persisted and loaded without llama-index (its import costs ~1 s in every process that answers).

The files are those `BM25Retriever.persist` writes (bm25s arrays plus `retriever.json`), minus
the corpus copy nobody reads; directories written by `BM25Retriever` load here too.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag.text.normalize import fold

# llama-index's `BM25Retriever` defaults: English stop words and Snowball stemmer, words of 2+
# chars; but a word is letters and digits only, so markdown emphasis ("_Urania_", "__init__")
# does not glue underscores to it (`\w` has them: "_urania_" matched no query).
TOKEN_PATTERN = r"(?u)(?<![^\W_])[^\W_]{2,}(?![^\W_])"
_OLD_TOKEN_PATTERN = r"(?u)\b\w\w+\b"  # indexes written before the pattern was saved
STOPWORDS = "en"
STEMMER_LANGUAGE = "english"
PERSIST_FILE = "retriever.json"
# bm25s sets its own logger to DEBUG on import; its debug lines are noise on our stderr.
logging.getLogger("bm25s").setLevel(logging.WARNING)


@dataclass
class Bm25Index:
    """A bm25s index and how its documents were tokenised (queries are tokenised the same way)."""

    bm25: Any  # bm25s.BM25
    stemmer: Any  # Stemmer.Stemmer
    token_pattern: str = TOKEN_PATTERN
    skip_stemming: bool = False
    folded: bool = True  # documents were indexed as `fold(text)`, so queries are folded too


def _stemmer() -> Any:
    import Stemmer

    return Stemmer.Stemmer(STEMMER_LANGUAGE)


def build_bm25(texts: list[str], path: Path) -> Bm25Index:
    """Index `texts` (document order = list order) and persist the index under `path`."""
    import bm25s

    stemmer = _stemmer()
    # bm25s draws progress bars it has no switch for; they are noise on our stderr.
    with contextlib.redirect_stderr(io.StringIO()):
        tokens = bm25s.tokenize(
            [fold(t) for t in texts],
            stopwords=STOPWORDS,
            stemmer=stemmer,
            token_pattern=TOKEN_PATTERN,
            show_progress=False,
        )
        bm25 = bm25s.BM25()
        bm25.index(tokens, show_progress=False)
        bm25.save(str(path))
    meta = {
        "similarity_top_k": min(100, len(texts)),
        "verbose": False,
        "corpus_weight_mask": None,
        "folded": True,
        "token_pattern": TOKEN_PATTERN,
    }
    (path / PERSIST_FILE).write_text(json.dumps(meta, indent=2), encoding="utf-8")
    return Bm25Index(bm25, stemmer)


def load_bm25(path: Path, n_docs: int) -> Bm25Index:
    """The index persisted under `path`; raises if it is damaged or not of `n_docs` documents."""
    import bm25s

    meta = json.loads((path / PERSIST_FILE).read_text(encoding="utf-8"))
    bm25 = bm25s.BM25.load(str(path), load_corpus=False, mmap=False)
    if int(bm25.scores.get("num_docs", -1)) != n_docs:
        raise ValueError(f"holds {bm25.scores.get('num_docs')} documents, expected {n_docs}")
    return Bm25Index(
        bm25,
        _stemmer(),
        token_pattern=str(meta.get("token_pattern", _OLD_TOKEN_PATTERN)),
        skip_stemming=bool(meta.get("skip_stemming", False)),
        folded=bool(meta.get("folded", False)),  # indexes written before folding: queries as typed
    )
