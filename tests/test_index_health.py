"""Fast checks of the retrieval core, snapshot refresh/pinning and damaged-index detection."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rag.engine import Engine
from rag.errors import IndexCorrupt
from rag.index.health import open_store, wipe_store
from rag.index.loading import load_snapshot
from rag.retrieval.signals import bm25_scores
from tests.conftest import SMALL, write_corpus
from tests.fakes import HashEmbedder

MORE = [
    "We present TideCast, a transformer that forecasts coastal tide heights from satellite altimetry. "
    "TideCast lowers the forecast error by 21% against harmonic analysis at 40 stations."
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    write_corpus(tmp_path / "corpus", "more", MORE)
    fake_engine.ingest([tmp_path / "corpus"], progress=False)
    return fake_engine


def test_bm25_scores_unknown_or_stopword_queries(engine: Engine) -> None:
    snap = engine.retriever.snapshot
    assert snap.bm25_sentences is not None
    assert bm25_scores(snap.bm25_sentences, "the of and", None) is None
    assert bm25_scores(snap.bm25_sentences, "zzzqqq", None) is None
    scores = bm25_scores(snap.bm25_sentences, "protein backbones", None)
    assert scores is not None and len(scores) == len(snap.bm25_sentence_ids)
    # Still an answer from the dense side alone.
    assert engine.retriever.retrieve("the of and zzzqqq").hits


@pytest.mark.parametrize("mode", ["hybrid", "dense", "bm25"])
def test_filters_hold_on_every_signal(engine: Engine, mode: str) -> None:
    r = engine.retriever.retrieve("diffusion protein quantization tide", papers=["small#1", "more#1"], mode=mode)
    assert {h.paper_id for h in r.hits} == {"small#1", "more#1"}
    assert all(s.paper_id in {"small#1", "more#1"} for h in r.hits for s in h.sentences)
    r = engine.retriever.retrieve("forecast tide heights", files=["more"], mode=mode)
    assert [h.paper_id for h in r.hits] == ["more#1"]


def test_another_writer_is_seen_and_answers_stay_pinned(engine: Engine, tmp_path: Path) -> None:
    retriever = engine.retriever
    retriever.refresh_interval = 0.0
    before = retriever.snapshot
    other = Engine(engine.settings, embedder=HashEmbedder())
    extra = tmp_path / "extra"
    write_corpus(extra, "extra", ["We introduce GlacierNet, which maps glacier retreat from radar images."])
    with retriever.pinned() as snap:
        other.ingest([extra], progress=False)
        assert retriever.snapshot is snap is before  # one view for the whole answer
        assert "extra#1" not in retriever.snapshot.papers
    assert "extra#1" in retriever.snapshot.papers
    top = retriever.retrieve("glacier retreat radar").hits[0]
    assert top.paper_id == "extra#1" and top.bm25 > 0


def test_missing_sentences_are_reported_not_trusted(engine: Engine) -> None:
    store = engine.store
    victim = [i for i in store.sentence_ids() if i.startswith("small#2::")][:1]
    store.sentences.delete(ids=victim)
    with pytest.raises(IndexCorrupt, match="rag ingest --rebuild"):
        load_snapshot(store, Path(engine.settings.home))


def test_emptied_store_is_detected_and_rebuild_recovers(engine: Engine) -> None:
    s = engine.settings
    home = Path(s.home)
    for c in (engine.store.sentences, engine.store.papers):
        engine.store.client.delete_collection(c.name)
    with pytest.raises(IndexCorrupt, match=f"held {len(SMALL) + 1} papers"):
        open_store(home, **s.store_options())
    wipe_store(home, **s.store_options())
    fresh = Engine(s, embedder=HashEmbedder())
    assert fresh.ensure_index() is not None
    assert fresh.store.count()[0] == len(SMALL) + len(MORE)


def test_damaged_database_gives_one_line_and_rebuild_works(tmp_path: Path) -> None:
    """A truncated Chroma database, seen from fresh processes (as a user would)."""
    write_corpus(tmp_path / "corpus", "small", SMALL)
    home = tmp_path / "home"
    script = (
        "import sys; from pathlib import Path; import rag; from tests.fakes import HashEmbedder; "
        "from rag.engine import Engine; from rag.settings import Settings; "
        "e = Engine(Settings(home=Path(sys.argv[1]), data_dir=Path(sys.argv[2])), embedder=HashEmbedder()); "
        "e.ingest([Path(sys.argv[2])], progress=False)"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    subprocess.run([sys.executable, "-c", script, str(home), str(tmp_path / "corpus")], check=True, env=env)
    with open(home / "chroma" / "chroma.sqlite3", "r+b") as fh:
        fh.truncate(4096)
    env.update(RAG_HOME=str(home), RAG_DATA_DIR=str(tmp_path / "corpus"))
    status = subprocess.run(
        [sys.executable, "-m", "rag.cli", "status"], env=env, capture_output=True, text=True, timeout=120
    )
    assert status.returncode == 2
    assert "Traceback" not in status.stderr and len(status.stderr.strip().splitlines()) == 1
    assert "rag ingest --rebuild" in status.stderr
