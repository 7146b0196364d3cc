"""Answer-level metrics on hand-made rows: errors, wrong paper, cited-gold precision, focus,
length, refusals of answerable questions and exact sets of ordinal followups."""

import pytest

from rag.evaluation.metrics import aggregate, score_row

FOO = "FooNet reaches 6,658 points."
BAR = "BarGAN makes images."
ABSTRACTS = {"a#1": f"We propose FooNet. {FOO}", "a#2": f"{BAR} It is fast.", "a#3": "Lending is unfair."}
QUOTES = {"a#1": FOO, "a#2": BAR, "a#3": "Lending is unfair."}


def row(answer: str, cited: list[str], sources: list[str], refused: bool = False, error: str | None = None) -> dict:
    return {
        "answer": answer,
        "refused": refused,
        "latency_ms": 10.0,
        "error": error,
        "citations": [{"n": i + 1, "paper_id": p, "label": p, "quote": QUOTES[p]} for i, p in enumerate(cited)],
        "sources": [{"paper_id": s, "score": 1.0} for s in sources],
    }


def case(
    id: str, kind: str, gold: list[str], facts: tuple[str, ...] | list[str] = (), tags: tuple[str, ...] | list[str] = ()
) -> dict:
    return {"id": id, "type": kind, "gold_ids": gold, "answer_facts": list(facts), "tags": list(tags)}


TABLE = [
    # (case, row, wrong_paper, answer_focus, answer_length)
    (case("s1", "single", ["a#1"], ["6,658"]), row(f"{FOO} [1]", ["a#1"], ["a#1"]), False, True, 1),
    (case("s2", "single", ["a#1"], ["6,658"]), row(f"We propose FooNet. [1] {FOO} [1]", ["a#1"], ["a#1"]), False, False, 2),
    (case("s3", "single", ["a#1"], ["6,658"]), row(f"{BAR} [1]", ["a#2"], ["a#2", "a#1"]), True, False, 1),
    (case("s4", "single", ["a#1"], ["6,658"]), row("No.", [], ["a#1"], refused=True), None, None, None),
    (case("f1", "followup", ["a#1", "a#2"], ["FooNet"], ["ordinal"]), row(f"{FOO} [1] {BAR} [2]", ["a#1", "a#2"], ["a#1", "a#2"]), False, True, "-"),
    (case("f2", "followup", ["a#1"], [], ["ordinal"]), row(f"{FOO} [1] {BAR} [2]", ["a#1", "a#2"], ["a#2", "a#1"]), False, None, 2),
    (case("m", "multi", ["a#1", "a#2"], ["FooNet"]), row(f"{FOO} [1] Lending. [2]", ["a#1", "a#3"], ["a#1", "a#2", "a#3"]), "-", "-", "-"),
    (case("u", "unanswerable", []), row("No.", [], ["a#3"], refused=True), "-", "-", "-"),
    # errors: hit@1 would be 0 and the unanswerable one "not refused" if they counted
    (case("e1", "single", ["a#1"], ["6,658"]), row("", [], ["a#2"], error="RuntimeError: boom"), None, None, None),
    (case("e2", "unanswerable", []), row("", [], [], refused=True, error="TimeoutError"), "-", "-", "-"),
]  # fmt: skip
SCORES = [score_row(c, r, ABSTRACTS) for c, r, *_ in TABLE]


@pytest.mark.parametrize(("i", "key"), [(i, k) for i in range(len(TABLE)) for k in range(3)])
def test_per_row_scores(i: int, key: int) -> None:
    name = ("wrong_paper", "answer_focus", "answer_length")[key]
    expected = TABLE[i][2 + key]
    if expected == "-":  # not applicable to this kind of question
        assert name not in SCORES[i]
    else:
        assert SCORES[i][name] == expected


def test_error_rows_are_neither_refusals_nor_answers() -> None:
    e1, e2 = SCORES[-2:]
    assert e1["error"] and e2["error"] and not e1["refused"] and not e2["refused"]
    assert e1["reason"] == e2["reason"] == "error"
    assert "cited_gold" not in e1


@pytest.mark.parametrize(
    ("metric", "expected"),
    [
        ("n", 10.0),
        ("errors", 2.0),
        ("hit@1", 5 / 7),  # s1 s2 s4 f1 m; the errored e1 (miss) not counted
        ("refusal_precision", 1 / 2),  # u and s4 refused
        ("refusal_recall", 1.0),  # the errored e2 is no missed refusal
        ("wrong_paper_rate", 1 / 5),  # s3 of s1 s2 s3 f1 f2
        ("cited_gold_precision", 6 / 9),  # micro: (1+1+0+2+1+1) / (1+1+1+2+2+2)
        ("answer_focus", 2 / 4),  # s1 f1 of s1 s2 s3 f1
        ("answer_length", 6 / 4),  # s1 s2 s3 f2 (single-gold, answered)
        ("answerable_refused", 1 / 7),  # s4
        ("followup_exact_set", 1 / 2),  # f1 yes, f2 cites a non-gold paper too
    ],
)
def test_aggregate(metric: str, expected: float) -> None:
    assert aggregate(SCORES)[metric] == pytest.approx(expected)


@pytest.mark.parametrize(
    ("kind", "tags", "gold", "r", "exact"),
    [
        ("followup", ["ordinal"], ["a#1", "a#2"], row(f"{FOO} [1]", ["a#1"], ["a#1"]), False),  # subset
        ("followup", ["ordinal"], ["a#1"], row(f"{FOO} [1]", ["a#1"], ["a#1"]), True),
        ("followup", ["ordinal"], ["a#1"], row("No.", [], ["a#1"], refused=True), False),
        ("followup", ["ordinal"], ["a#1"], row("", [], [], error="boom"), False),
        ("multi", ["ordinal"], ["a#1", "a#2"], row(f"{FOO} [1] {BAR} [2]", ["a#2", "a#1"], ["a#1"]), True),
        ("followup", ["switch"], ["a#1"], row(f"{FOO} [1]", ["a#1"], ["a#1"]), "-"),
    ],
)
def test_followup_exact_set(kind: str, tags: list[str], gold: list[str], r: dict, exact: object) -> None:
    s = score_row(case("x", kind, gold, tags=tags), r, ABSTRACTS)
    assert s.get("followup_exact_set", "-") == exact


def test_no_answered_rows_no_answer_rates() -> None:
    scores = [SCORES[3], SCORES[7], SCORES[8]]  # refused, refused, error
    agg = aggregate(scores)
    assert "wrong_paper_rate" not in agg and "cited_gold_precision" not in agg and "answer_focus" not in agg
    assert agg["answerable_refused"] == 1.0 and agg["errors"] == 1.0
