"""A change of the sentence rules reaches an existing index, re-embedding only new sentence
texts; vectors of another model are never reused; a recorded paper is not split again."""

from __future__ import annotations

import json
from pathlib import Path

from rag.corpus.reader import read_corpus_file
from rag.engine import Engine
from rag.index.chunks import (
    Chunk,
    Record,
    content_hash,
    paper_hash,
    paper_node,
    same_model,
    sentence_node,
    split_chunks,
)
from rag.index.file_records import RECORDS, known_hashes
from rag.index.ingest import collect_garbage
from rag.index.plan import Plan, plan_changes, reusable_hashes
from rag.settings import Settings
from rag.types import Paper
from tests.conftest import SMALL, write_corpus
from tests.test_ingest import CountingEmbedder


def make(tmp_path: Path) -> tuple[Engine, CountingEmbedder, Path, list[Paper]]:
    emb = CountingEmbedder()
    engine = Engine(Settings(home=tmp_path / "home"), embedder=emb)
    corpus = write_corpus(tmp_path / "c", "small", SMALL)
    engine.ingest([corpus])
    emb.embedded.clear()
    return engine, emb, corpus, read_corpus_file(corpus)


def rewrite_as_old(engine: Engine, paper: Paper, chunks: list[Chunk], *, legacy: bool, model: str) -> None:
    """Store `paper` as an older version of the code would have: with other chunks, under a
    hash without chunks (`legacy`) or with them, as of the model `model`."""
    h = content_hash(paper, model) if legacy else paper_hash(paper, model, chunks)
    nodes = [sentence_node(paper, h, i, s, e, t) for i, (s, e, t) in enumerate(chunks)]
    for n, v in zip(nodes, engine.embedder.embed([t for _, _, t in chunks]), strict=True):
        n.embedding = v.tolist()
    pn = paper_node(paper, h, len(chunks), "" if legacy else content_hash(paper, model))
    pn.embedding = nodes[0].embedding
    engine.store.add_sentences(nodes)
    engine.store.commit_papers([pn])
    collect_garbage(engine.store)  # as committed by that version: no chunk of today's rules left
    engine.store.record_stamp()


def age_records(home: Path) -> None:
    """The file records an older version of the sentence rules left."""
    path = home / RECORDS
    records = json.loads(path.read_text())
    for rec in records.values():
        rec["rules"] = "older"
        rec.pop("content", None)
    path.write_text(json.dumps(records))


def stored_chunks(engine: Engine, pid: str) -> list[tuple[int, int, str]]:
    nodes, _ = engine.store.read_sentences({"paper_id": pid})
    got = sorted(nodes, key=lambda n: int(n.metadata["sent_index"]))
    return [(int(n.metadata["start"]), int(n.metadata["end"]), n.text) for n in got]


def test_changed_sentence_rules_reach_the_index_reusing_vectors(tmp_path: Path) -> None:
    engine, emb, corpus, papers = make(tmp_path)
    paper = papers[1]
    now = split_chunks(paper, emb)
    assert len(now) >= 3
    merged = [(now[0][0], now[1][1], f"{now[0][2]} {now[1][2]}"), *now[2:]]  # a missed boundary
    rewrite_as_old(engine, paper, merged, legacy=True, model=emb.name)
    age_records(engine.settings.home)
    emb.embedded.clear()

    report = engine.ingest([corpus])

    assert (report.updated, report.unchanged, report.errors) == (1, 3, [])
    assert stored_chunks(engine, paper.paper_id) == now
    assert sorted(emb.embedded) == sorted([now[0][2], now[1][2]])  # only the texts never embedded
    assert report.chunks_reused == len(now) - 2
    assert len(engine.store.sentence_ids()) == sum(len(split_chunks(p, emb)) for p in papers)  # old ones gone
    snap = engine.retriever.snapshot
    assert now[0][2] in {n.text for n in snap.sentences.values()}


def test_an_index_from_before_chunk_hashes_upgrades_without_embedding(tmp_path: Path) -> None:
    engine, emb, corpus, papers = make(tmp_path)
    for p in papers:
        rewrite_as_old(engine, p, split_chunks(p, emb), legacy=True, model=emb.name)
    age_records(engine.settings.home)
    emb.embedded.clear()

    report = engine.ingest([corpus])

    assert (report.updated, report.chunks_embedded, report.errors) == (len(papers), 0, [])
    assert emb.embedded == []
    again = engine.ingest([corpus])
    assert (again.unchanged, again.updated, again.chunks_embedded) == (len(papers), 0, 0)


def test_vectors_of_another_model_are_not_reused(tmp_path: Path) -> None:
    engine, emb, corpus, papers = make(tmp_path)
    paper = papers[0]
    rewrite_as_old(engine, paper, split_chunks(paper, emb), legacy=True, model="another-model")
    age_records(engine.settings.home)
    emb.embedded.clear()

    report = engine.ingest([corpus])

    assert report.updated == 1
    assert sorted(emb.embedded) == sorted(t for _, _, t in split_chunks(paper, emb))


def record(paper: Paper, model: str, *, legacy: bool, chunks: list[Chunk] | None = None) -> Record:
    node = paper_node(paper, "", 0)
    c = content_hash(paper, model)
    meta = {**node.metadata, "content_hash": "" if legacy else c}
    meta["paper_hash"] = c if legacy else paper_hash(paper, model, chunks or [])
    return Record(paper.paper_id, paper.abstract, meta)


def test_same_model_is_proved_from_the_stored_fields() -> None:
    p = Paper(paper_id="x#1", source="x", position=1, abstract="One. Two.", label="X", title="T", authors=["A"])
    for legacy in (True, False):
        assert same_model(record(p, "m", legacy=legacy), "m")
        assert not same_model(record(p, "m", legacy=legacy), "other")
    edited = p.model_copy(update={"abstract": "One. Two. Three."})
    plan = Plan(new=[(edited, "new", [])])
    manifest = {"x#1": record(p, "m", legacy=True)}
    assert reusable_hashes(plan, manifest, "m") == sorted(["new", content_hash(p, "m")])
    assert reusable_hashes(plan, manifest, "other") == ["new"]


def test_a_recorded_paper_is_not_split_again(tmp_path: Path) -> None:
    engine, emb, corpus, papers = make(tmp_path)
    extra = "We study a new question. It has a short answer."
    write_corpus(tmp_path / "c", "small", [*SMALL, extra])
    parsed = {"small": read_corpus_file(corpus)}
    split: list[str] = []

    def chunker(p: Paper) -> list[Chunk]:
        split.append(p.paper_id)
        return split_chunks(p, emb)

    known = known_hashes(engine.settings.home, emb.name)
    plan = plan_changes(parsed, engine.store.manifest(), emb.name, chunker, known)

    assert split == ["small#5"]
    assert (plan.added, plan.unchanged) == (1, len(papers))
    assert plan.hashes["small"]["small#1"][1] == paper_hash(papers[0], emb.name, split_chunks(papers[0], emb))
    assert known_hashes(engine.settings.home, "another-model") == {}
