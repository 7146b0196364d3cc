"""Incremental, idempotent ingest on real Chroma with the fake embedder."""

from pathlib import Path

import numpy as np

from rag.engine import Engine
from rag.index.chunks import chunk_id, sentence_node
from rag.index.ingest import remove
from rag.settings import Settings
from rag.types import Paper
from tests.conftest import SMALL, write_corpus
from tests.fakes import HashEmbedder


class CountingEmbedder(HashEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.embedded: list[str] = []

    def embed(self, texts, *, progress=None):  # type: ignore[no-untyped-def]
        self.embedded += texts
        return super().embed(texts, progress=progress)


def make(tmp_path: Path) -> tuple[Engine, CountingEmbedder]:
    emb = CountingEmbedder()
    return Engine(Settings(home=tmp_path / "home"), embedder=emb), emb


def chunk_ids(engine: Engine) -> list[str]:
    return engine.store.sentence_ids()


def test_ingest_is_idempotent_and_incremental(tmp_path: Path) -> None:
    engine, emb = make(tmp_path)
    corpus = write_corpus(tmp_path / "c", "small", SMALL)
    first = engine.ingest([corpus])
    assert (first.added, first.papers, first.errors) == (4, 4, [])
    n_chunks = first.chunks
    assert n_chunks == len(emb.embedded) >= 12

    emb.embedded.clear()
    again = engine.ingest([corpus])
    assert (again.unchanged, again.added, again.chunks_embedded) == (4, 0, 0)
    assert emb.embedded == []
    assert len(chunk_ids(engine)) == n_chunks  # never duplicated

    # Change one abstract, drop another: only the changed one is embedded again.
    changed = [SMALL[0], SMALL[1] + " We also release the code.", SMALL[2]]
    write_corpus(tmp_path / "c", "small", changed)
    third = engine.ingest([corpus])
    assert (third.updated, third.removed, third.unchanged) == (1, 1, 2)
    assert all("FoldNet" in t or "code" in t or "protein" in t.lower() for t in emb.embedded)
    snap = engine.retriever.snapshot
    assert set(snap.papers) == {"small#1", "small#2", "small#3"}
    assert "small#4" not in {n.metadata["paper_id"] for n in snap.sentences.values()}
    assert len(chunk_ids(engine)) == len(snap.sentences)  # old versions garbage-collected
    assert "small#4" not in [h.paper_id for h in engine.retriever.retrieve("curiosity exploration games").hits]


def test_moved_papers_reuse_vectors(tmp_path: Path) -> None:
    engine, emb = make(tmp_path)
    corpus = write_corpus(tmp_path / "c", "small", SMALL)
    engine.ingest([corpus])
    emb.embedded.clear()
    write_corpus(tmp_path / "c", "small", [SMALL[1], SMALL[0], SMALL[2], SMALL[3]])  # ids #1 and #2 swap
    report = engine.ingest([corpus])
    assert report.updated == 2
    assert report.chunks_embedded == 0 and report.chunks_reused > 0


def test_bad_file_reported_others_kept(tmp_path: Path) -> None:
    engine, _ = make(tmp_path)
    good = write_corpus(tmp_path / "c", "good", SMALL[:2])
    bad = tmp_path / "c" / "bad.txt"
    bad.write_bytes(b"")
    report = engine.ingest([good, bad])
    assert report.papers == 2
    assert report.errors == [f"{bad}: empty file"]


def test_uncommitted_sentences_are_invisible_then_collected(tmp_path: Path) -> None:
    engine, _ = make(tmp_path)
    engine.ingest([write_corpus(tmp_path / "c", "small", SMALL)])
    # Simulate a crash after sentences were written but before the manifest commit.
    ghost = Paper(paper_id="ghost#1", source="ghost", position=1, abstract="Ghost paper about curiosity.")
    node = sentence_node(ghost, "deadbeef", 0, 0, 10, "Ghost paper about curiosity.")
    node.embedding = list(np.ones(256, dtype=float) / 16)
    engine.store.add_sentences([node])
    engine.retriever.refresh(force=True)
    assert chunk_id("ghost#1", "deadbeef", 0) not in engine.retriever.snapshot.sentences
    hits = engine.retriever.retrieve("ghost paper curiosity").hits
    assert "ghost#1" not in [h.paper_id for h in hits]
    engine.ingest([tmp_path / "c"])
    assert chunk_id("ghost#1", "deadbeef", 0) not in chunk_ids(engine)


def test_remove_file_and_paper(tmp_path: Path) -> None:
    engine, _ = make(tmp_path)
    engine.ingest([write_corpus(tmp_path / "c", "a", SMALL[:2]), write_corpus(tmp_path / "c", "b", SMALL[2:])])
    home = tmp_path / "home"
    assert remove(["a#1"], store=engine.store, home=home) == ["a#1"]
    assert remove([str(tmp_path / "c" / "b.txt")], store=engine.store, home=home) == ["b#1", "b#2"]
    engine.retriever.refresh(force=True)
    assert set(engine.retriever.snapshot.papers) == {"a#2"}
    assert {cid.split("::")[0] for cid in chunk_ids(engine)} == {"a#2"}


def test_long_sentence_is_split_not_truncated(tmp_path: Path) -> None:
    engine = Engine(Settings(home=tmp_path / "home"), embedder=HashEmbedder(max_tokens=12))
    long = "We " + " ".join(f"word{i}" for i in range(40)) + " end."
    report = engine.ingest([write_corpus(tmp_path / "c", "long", [long])])
    texts = " ".join(n.get_content() for n in engine.retriever.snapshot.sentences.values())
    assert report.chunks >= 4
    assert all(f"word{i}" in texts for i in range(40))
