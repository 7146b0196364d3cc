"""Eval-set schema and the --check validator."""

import json
from pathlib import Path

import pytest

from rag.corpus.reader import corpus_files, read_corpus_file
from rag.evaluation.evalset import EvalSetError, check_set, load_set, longest_shared_ngram
from rag.evaluation.leaks import check_leaks
from tests.conftest import DATA, EVAL, TESTDATA

ABSTRACTS = {p.paper_id: p.abstract for f in corpus_files([DATA]) for p in read_corpus_file(f)}


@pytest.mark.parametrize(
    "path", [EVAL / "dev.jsonl", EVAL / "dev_fresh.jsonl", EVAL / "test.jsonl", TESTDATA / "unanswerable_extra.jsonl"]
)
def test_shipped_sets_pass_the_check(path: Path) -> None:
    problems, _ = check_set(load_set(path), ABSTRACTS)
    assert problems == []


@pytest.mark.parametrize("dev", ["dev.jsonl", "dev_fresh.jsonl", "dev_corpus.jsonl", "dev_scale.jsonl"])
def test_dev_does_not_leak_into_test(dev: str) -> None:
    """Tuned on dev, reported on test: no question, multi-paper gold set, unanswerable or
    (paper, evidence sentence) pair of a dev set may reappear in test unless marked (what
    `rag eval --check eval/dev.jsonl --against eval/test.jsonl` reports)."""
    problems, _ = check_leaks(load_set(EVAL / dev), load_set(EVAL / "test.jsonl"), ABSTRACTS)
    assert problems == []


def test_short_dev_does_not_leak_into_short_test() -> None:
    """The short sets are tuned on and reported on the same way (`short_dev` / `short_test`)."""
    problems, _ = check_leaks(load_set(EVAL / "short_dev.jsonl"), load_set(EVAL / "short_test.jsonl"), ABSTRACTS)
    assert problems == []


def test_sets_are_big_and_cover_the_corpus() -> None:
    cases = load_set(EVAL / "dev.jsonl") + load_set(EVAL / "test.jsonl")
    by_type: dict[str, int] = {}
    for c in cases:
        by_type[c.type] = by_type.get(c.type, 0) + 1
    assert len(cases) >= 130
    assert by_type["single"] >= 70 and by_type["multi"] >= 15 and by_type["unanswerable"] >= 25
    assert by_type["followup"] >= 12
    singles = [c for c in cases if c.type == "single"]
    assert sum(not c.lexical for c in singles) >= len(singles) / 2
    numeric = [
        c
        for c in singles
        if any(ch.isdigit() for f in c.answer_facts for ch in f)
        or any(w in " ".join(c.answer_facts).lower() for w in ("one ", "dozen", "eight", "trillion"))
    ]
    assert len(numeric) >= 15
    assert {g for c in cases for g in c.gold_ids} == set(ABSTRACTS)


def write(tmp_path: Path, rows: list[dict]) -> Path:  # type: ignore[type-arg]
    p = tmp_path / "set.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return p


GOOD = {
    "id": "q1",
    "type": "single",
    "question": "What does GENIE balance?",
    "gold_ids": ["000_3578a6a037ed62e9#1"],
    "answer_facts": ["gradient alignment"],
    "evidence": "",
    "lexical": True,
}


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({**GOOD, "type": "weird"}, ":1: type"),
        ({**GOOD, "gold_ids": []}, "needs gold_ids"),
        ({**GOOD, "type": "unanswerable"}, "empty gold_ids"),
        ({**GOOD, "type": "followup"}, "history"),
        ({k: v for k, v in GOOD.items() if k != "question"}, ":1: question"),
    ],
)
def test_schema_errors_name_the_line(tmp_path: Path, bad: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(EvalSetError) as err:
        load_set(write(tmp_path, [bad]))
    assert message in str(err.value)


def test_drafts_are_skipped_and_extra_fields_ignored(tmp_path: Path) -> None:
    draft = {"id": "d", "type": "single", "question": "?", "needs_review": True, "comment": "wrong"}
    cases = load_set(write(tmp_path, [{**GOOD, "extra": 1}, draft]))
    assert [c.id for c in cases] == ["q1"]


def test_check_flags_bad_evidence_facts_ids_and_copied_questions(tmp_path: Path) -> None:
    genie = ABSTRACTS["000_3578a6a037ed62e9#1"]
    copied = genie.split(". ")[1]
    rows = [
        {**GOOD, "id": "e", "evidence": "A sentence that is not there."},
        {**GOOD, "id": "f", "answer_facts": ["quantum teleportation"]},
        {**GOOD, "id": "g", "gold_ids": ["nope#1"]},
        {**GOOD, "id": "h", "question": copied, "lexical": False},
    ]
    problems, _ = check_set(load_set(write(tmp_path, rows)), ABSTRACTS)
    text = "\n".join(problems)
    assert "e: evidence not verbatim" in text and "f: fact 'quantum teleportation'" in text
    assert "g: unknown paper id" in text and "h: marked lexical=false" in text
    assert longest_shared_ngram("a b c d", "x a b c y") == 3


def test_an_authors_row_finds_its_facts_in_the_papers_record(tmp_path: Path) -> None:
    record = {"000_3578a6a037ed62e9#1": "One-Step Generalization Ratio Guided Optimization Sumin Cho Kwangsu Kim"}
    row = {**GOOD, "id": "w", "question": "Who wrote GENIE?", "answer_facts": ["Sumin Cho"], "evidence": ""}
    tagged = load_set(write(tmp_path, [{**row, "tags": ["authors"]}]))
    assert check_set(tagged, ABSTRACTS, records=record)[0] == []
    untagged = load_set(write(tmp_path, [row]))  # an abstract's fact must be in the abstract
    assert check_set(untagged, ABSTRACTS, records=record)[0] == ["w: fact 'Sumin Cho' not in a gold abstract"]
