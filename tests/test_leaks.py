"""Leaks between two eval sets: same or near-identical questions, gold sets, evidence."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.evaluation.evalset import EvalCase, longest_shared_ngram
from rag.evaluation.leaks import check_leaks, jaccard

SHARED = "It reaches 90% accuracy on ImageNet."
ABSTRACTS = {
    "a#1": f"FooNet is a vision model. {SHARED}",
    "a#2": f"BarGAN generates images. {SHARED}",
    "a#3": "An unrelated abstract about lending.",
}


def case(
    id: str, question: str, gold: tuple[str, ...] = ("a#1",), evidence: str = "", why: str | None = None
) -> EvalCase:
    kind = "multi" if len(gold) > 1 else "single"
    return EvalCase(id=id, type=kind, question=question, gold_ids=list(gold), evidence=evidence, shared_evidence=why)


@pytest.mark.parametrize(
    ("a", "b", "j", "run"),
    [
        ("What accuracy does FooNet reach?", "What accuracy does FooNet reach?", 1.0, 5),
        ("FooNet accuracy", "BarGAN accuracy", 1 / 3, 1),
        ("the of and", "the of and", 0.0, 3),  # stopwords only: no content words
        ("", "", 0.0, 0),
        ("a b c d e f g", "x a b c d e f y", 0.0, 6),
    ],
)
def test_jaccard_and_shared_run(a: str, b: str, j: float, run: int) -> None:
    assert jaccard(a, b) == pytest.approx(j)
    assert longest_shared_ngram(a, b) == run


@pytest.mark.parametrize(
    ("mine", "theirs", "problem"),
    [
        ("What accuracy does FooNet reach?", "What accuracy does FooNet reach?", "d: same question as t"),
        ("  What accuracy does FooNet reach?", "What accuracy does FooNet reach?  ", "d: same question as t"),
        # Jaccard 1.0, shared run 2
        ("What accuracy does FooNet reach on ImageNet?", "On ImageNet, which accuracy is reached by FooNet?", "d: near-identical to t (jaccard 1.00, shared run 2 words)"),
        # Jaccard 2/7, shared run 7
        ("What is the name of the dataset used to pretrain FooNet?", "What is the name of the dataset BarGAN generates images for?", "d: near-identical to t (jaccard 0.29, shared run 7 words)"),
        # Jaccard exactly 3/5 is a leak
        ("FooNet accuracy ImageNet", "FooNet accuracy ImageNet BarGAN lending", "d: near-identical to t (jaccard 0.60, shared run 3 words)"),
        ("What accuracy does FooNet reach?", "Which images does BarGAN generate?", None),
        ("What is the name of FooNet?", "What is the name of the dataset?", None),  # run 5, jaccard 1/3
    ],
)  # fmt: skip
def test_questions(mine: str, theirs: str, problem: str | None) -> None:
    problems, notes = check_leaks([case("d", mine)], [case("t", theirs, ("a#2",))], ABSTRACTS)
    assert (problems, notes) == ([problem] if problem else [], [])


@pytest.mark.parametrize(
    ("mine", "theirs", "leak"),
    [
        (("a#1", "a#2"), ("a#2", "a#1"), True),  # same set, any order
        (("a#1", "a#2"), ("a#1", "a#3"), False),
        (("a#1", "a#2"), ("a#1", "a#2", "a#3"), False),
    ],
)
def test_multi_gold_sets(mine: tuple[str, ...], theirs: tuple[str, ...], leak: bool) -> None:
    problems, _ = check_leaks(
        [case("d", "Compare FooNet and BarGAN.", mine)], [case("t", "Which two lend?", theirs)], ABSTRACTS
    )
    assert problems == (["d: same multi-paper gold set as t"] if leak else [])


@pytest.mark.parametrize(
    ("my_gold", "my_why", "their_gold", "their_why", "problems", "notes"),
    [
        ("a#1", None, "a#1", None, ["d: same evidence sentence on a#1 as t"], []),
        ("a#1", "a contrast pair", "a#1", None, [], ["d: shares its evidence on a#1 with t (a contrast pair)"]),
        ("a#1", None, "a#1", "reused on purpose", [], ["d: shares its evidence on a#1 with t (reused on purpose)"]),
        ("a#1", None, "a#2", None, [], []),  # same sentence, different papers: no leak
    ],
)
def test_shared_evidence(my_gold, my_why, their_gold, their_why, problems, notes) -> None:  # type: ignore[no-untyped-def]
    mine = case("d", "What accuracy does FooNet reach?", (my_gold,), SHARED, my_why)
    theirs = case("t", "How good are the generated images?", (their_gold,), SHARED.upper(), their_why)
    assert check_leaks([mine], [theirs], ABSTRACTS) == (problems, notes)


def test_no_other_set_no_leaks() -> None:
    assert check_leaks([case("d", "What accuracy does FooNet reach?", evidence=SHARED)], [], ABSTRACTS) == ([], [])


texts = st.text(st.sampled_from("abc de.,?-ABC"), max_size=40)


@settings(derandomize=True, deadline=10000)
@given(texts, texts)
def test_similarity_is_symmetric_and_bounded(a: str, b: str) -> None:
    assert 0.0 <= jaccard(a, b) == jaccard(b, a) <= 1.0
    assert longest_shared_ngram(a, b) == longest_shared_ngram(b, a)
    assert jaccard(a, a) in (0.0, 1.0)
