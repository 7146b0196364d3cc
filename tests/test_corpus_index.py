"""`rag eval --corpus` indexes: an unfinished build is removed, a complete one reused."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag.corpus import reader
from rag.corpus.reader import corpus_files
from rag.evaluation.corpus_index import corpus_engine, corpus_key
from rag.index import file_records
from rag.settings import Settings
from tests.conftest import SMALL, write_corpus
from tests.fakes import HashEmbedder


def test_unfinished_index_is_rebuilt_and_complete_one_reused(tmp_path: Path) -> None:
    write_corpus(tmp_path / "data", "small", SMALL[:2])
    extra = write_corpus(tmp_path / "extra", "more", SMALL[2:])
    settings = Settings(home=tmp_path / "home", data_dir=tmp_path / "data")
    files = corpus_files([tmp_path / "data", extra])
    home = settings.home / "eval-index" / corpus_key(files, settings.model_path(), settings.embed_backend)
    # What a killed build leaves: the folder, part of a store, no completion marker.
    (home / "chroma").mkdir(parents=True)
    (home / "chroma" / "chroma.sqlite3").write_bytes(b"half a database")

    engine, info = corpus_engine(settings, [extra], embedder=HashEmbedder())
    assert Path(info["index"]) == home and (home / "complete.json").exists()
    assert info["papers"] == len(SMALL) == len(engine.papers)

    stray = home / "kept"
    stray.write_text("x")
    _, again = corpus_engine(settings, [extra], embedder=HashEmbedder())
    assert stray.exists() and again["papers"] == len(SMALL)  # complete: reused, not rebuilt


def test_a_reused_index_is_brought_up_to_date(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Same files, new labelling rules: the reused index is relabelled, never served stale.
    write_corpus(tmp_path / "data", "small", SMALL[:2])
    extra = write_corpus(tmp_path / "extra", "more", SMALL[2:])
    settings = Settings(home=tmp_path / "home", data_dir=tmp_path / "data")
    corpus_engine(settings, [extra], embedder=HashEmbedder())
    monkeypatch.setattr(file_records, "rules", lambda: "new-rules")
    monkeypatch.setattr(reader, "make_label", lambda abstract, title=None: "Relabelled")
    engine, _ = corpus_engine(settings, [extra], embedder=HashEmbedder())
    assert {p.label for p in engine.retriever.snapshot.papers.values()} == {"Relabelled"}
