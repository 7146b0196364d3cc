"""The snapshot persisted as plain arrays per manifest stamp: read instead of Chroma, exactly
the new manifest after another writer's ingest, damaged or partial files rebuilt, never half-read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rag.engine import Engine
from rag.index import arrays
from rag.index.loading import load_snapshot
from rag.index.snapshot import Snapshot
from rag.settings import Settings
from tests.conftest import SMALL, write_corpus
from tests.fakes import HashEmbedder

MORE = [
    "Sparse attention lets transformers read long documents. We introduce StrideAttn, which skips "
    "blocks of tokens. StrideAttn halves memory at 64k tokens.",
]


def _engine(tmp_path: Path) -> Engine:
    return Engine(Settings(home=tmp_path / "home"), embedder=HashEmbedder())


def _from_store(engine: Engine) -> Snapshot:
    """A snapshot read from Chroma only (the array files moved aside)."""
    base = engine.settings.home / "snapshot"
    aside = base.with_name("aside")
    base.rename(aside)
    try:
        return load_snapshot(engine.store, engine.settings.home)
    finally:
        import shutil

        shutil.rmtree(base, ignore_errors=True)
        aside.rename(base)


def _same(a: Snapshot, b: Snapshot) -> None:
    assert a.stamp == b.stamp and list(a.sentences) == list(b.sentences) and a.paper_ids == b.paper_ids
    assert {k: (r.text, r.metadata) for k, r in a.sentences.items()} == {
        k: (r.text, r.metadata) for k, r in b.sentences.items()
    }
    assert all(np.array_equal(a.vectors[k], b.vectors[k]) for k in a.vectors) and a.vectors.keys() == b.vectors.keys()
    assert np.array_equal(np.asarray(a.centroids), np.asarray(b.centroids))
    assert a.bm25_sentences is not None and b.bm25_sentences is not None
    assert int(a.bm25_sentences.bm25.scores["num_docs"]) == int(b.bm25_sentences.bm25.scores["num_docs"])
    # The vocabulary of persisted stems is the one computed from the papers.
    assert a.vocabulary.df == b.vocabulary.df and a.vocabulary.paper_stems == b.vocabulary.paper_stems


def test_ingest_writes_the_arrays_and_readers_skip_the_sentence_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = _engine(tmp_path)
    engine.ingest([write_corpus(tmp_path / "c", "small", SMALL)])
    stamp = engine.store.stamp()
    assert stamp and arrays.ready(engine.settings.home, engine.store.name, stamp)
    expected = _from_store(engine)
    reader = _engine(tmp_path)

    def no_read(*_a: object, **_k: object) -> None:
        raise AssertionError("sentences read from the store")

    monkeypatch.setattr(type(reader.store), "read_sentences", no_read)
    snap = reader.retriever.snapshot
    _same(snap, expected)
    assert snap.stems is not None  # read with the arrays, not recomputed
    assert isinstance(
        np.load(arrays.folder(engine.settings.home, "abstracts", stamp) / "vectors.npy", mmap_mode="r"), np.memmap
    )


def test_reload_after_another_writer_sees_exactly_the_new_manifest(tmp_path: Path) -> None:
    reader = _engine(tmp_path)
    reader.ingest([write_corpus(tmp_path / "c", "small", SMALL)])
    old = reader.retriever.snapshot
    writer = _engine(tmp_path)  # another instance (same store, own process state)
    writer.ingest([write_corpus(tmp_path / "c2", "more", MORE)])
    assert reader.retriever.refresh(force=True)
    new = reader.retriever.snapshot
    assert new.stamp != old.stamp and set(new.papers) == set(writer.store.manifest())
    _same(new, _from_store(writer))
    # Only the newest stamp's files are kept, and that stamp is the one published.
    folders = sorted(p.name for p in (tmp_path / "home" / "snapshot").iterdir() if p.is_dir())
    assert folders == [f"abstracts-{new.stamp}"]
    assert arrays.published(tmp_path / "home", "abstracts") == new.stamp


@pytest.mark.parametrize("damage", ["truncate-vectors", "flip-records", "no-meta", "wrong-centroids"])
def test_damaged_or_partial_files_are_rebuilt(tmp_path: Path, damage: str) -> None:
    engine = _engine(tmp_path)
    engine.ingest([write_corpus(tmp_path / "c", "small", SMALL)])
    home, stamp = engine.settings.home, engine.store.stamp()
    assert stamp
    base = arrays.folder(home, "abstracts", stamp)
    expected = _from_store(engine)
    if damage == "truncate-vectors":
        data = (base / "vectors.npy").read_bytes()
        (base / "vectors.npy").write_bytes(data[: len(data) // 2])
    elif damage == "flip-records":
        data = bytearray((base / "records.json").read_bytes())
        data[len(data) // 2] ^= 0x01
        (base / "records.json").write_bytes(bytes(data))
    elif damage == "no-meta":
        (base / "meta.json").unlink()
    else:
        np.save(base / "centroids.npy", np.zeros((1, 3), dtype=np.float32))
    assert arrays.load(home, "abstracts", stamp) is None  # detected, never half-read
    snap = _engine(tmp_path).retriever.snapshot
    _same(snap, expected)
    assert arrays.load(home, "abstracts", stamp) is not None  # written again, intact


def test_threads_saving_the_same_stamp_at_once_do_not_collide(tmp_path: Path) -> None:
    """An upload's ingest and a reader in one process may both write a stamp's files: each
    writes in its own scratch folder, one wins, and the result reads back whole."""
    import threading

    from rag.index.chunks import Record

    papers = {"p#1": Record("p#1", "abstract", {"label": "P"})}
    sentences = {f"p#1:{i}": Record(f"p#1:{i}", f"sentence {i}", {"paper_id": "p#1"}) for i in range(50)}
    vectors = {k: np.full(3, i, dtype=np.float32) for i, k in enumerate(sentences)}
    centroids = np.ones((1, 3), dtype=np.float32)
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def save() -> None:
        start.wait()
        try:
            arrays.save(tmp_path, "abstracts", "stamp1", papers, sentences, vectors, centroids)
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=save) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    loaded = arrays.load(tmp_path, "abstracts", "stamp1")
    assert loaded is not None and list(loaded[1]) == list(sentences)
    assert not list(arrays.folder(tmp_path, "abstracts", "stamp1").parent.glob(".*.tmp"))


def test_files_of_an_older_format_are_written_again_by_the_next_ingest(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    corpus = write_corpus(tmp_path / "c", "small", SMALL)
    engine.ingest([corpus])
    stamp = engine.store.stamp()
    assert stamp
    meta = arrays.folder(engine.settings.home, "abstracts", stamp) / "meta.json"
    meta.write_text(meta.read_text().replace(f'"format": {arrays.FORMAT}', '"format": 1'))
    assert not arrays.ready(engine.settings.home, "abstracts", stamp)
    engine.ingest([corpus])  # unchanged corpus: only the stale files are redone
    assert arrays.ready(engine.settings.home, "abstracts", stamp)


def test_a_writer_killed_between_saving_and_publishing_leaves_the_published_stamp_restorable(
    tmp_path: Path,
) -> None:
    """The published stamp's files outlive the next stamp's until that one is published: a
    crash repair in between restores from them (they used to be pruned at save time, and the
    repaired index came back empty)."""
    from rag.index.health import open_store
    from rag.index.repair import WRITING

    engine = _engine(tmp_path)
    home = engine.settings.home
    engine.ingest([write_corpus(tmp_path / "c", "small", SMALL)])
    stamp = arrays.published(home, "abstracts")
    assert stamp is not None
    loaded = arrays.load(home, "abstracts", stamp)
    assert loaded is not None
    papers, sentences, vectors, centroids, _, _ = loaded
    some = dict(list(sentences.items())[:3])
    arrays.save(home, "abstracts", "next", papers, some, vectors, centroids)  # the killed writer's
    assert arrays.ready(home, "abstracts", stamp)
    (home / WRITING).write_text("{}", encoding="utf-8")

    store = open_store(home, **engine.settings.store_options())
    assert store.count()[0] == len(papers)
    assert (home / "bm25" / f"abstracts-{stamp}").is_dir()  # readers of the published stamp keep BM25 too
    arrays.publish(home, "abstracts", "next")  # once a stamp is published, older ones go
    assert not arrays.folder(home, "abstracts", stamp).exists()
    assert not (home / "bm25" / f"abstracts-{stamp}").exists()


@pytest.mark.parametrize("from_arrays", [True, False])
def test_a_papers_rows_are_its_sentence_vectors_in_order(tmp_path: Path, from_arrays: bool) -> None:
    """`paper_rows`/`rows_of` index the matrix; they give exactly the vectors by id, in the
    abstract's order, whether the snapshot came from the array files or from the store."""
    engine = _engine(tmp_path)
    engine.ingest([write_corpus(tmp_path / "c", "small", SMALL)])
    snap = engine.retriever.snapshot if from_arrays else _from_store(engine)
    matrix = snap.dense_rows[1]
    for pid, nodes in snap.by_paper.items():
        ids = [n.node_id for n in nodes]
        expected = np.stack([snap.vectors[i] for i in ids])
        assert np.array_equal(matrix[snap.paper_rows[pid]], expected)
        assert np.array_equal(snap.rows_of(ids), expected)
