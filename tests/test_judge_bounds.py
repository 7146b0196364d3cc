"""Judge v17: numbers written with words or a scale, formulas, bounds ("at most" = "no greater
than") and "fall short" as an implicit negative."""

import pytest

from rag.answer.judge import judge
from rag.answer.judge_direction import direction
from rag.answer.judge_numbers import missing_number
from rag.answer.judge_rules import negation
from rag.answer.judge_values import values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("covering thirty-two languages", 32.0),
        ("covering thirty two languages", 32.0),
        ("8.9 thousand annotations", 8900.0),
        ("a 2.3-trillion-token corpus", 2.3e12),
        ("a LLaMA 7B model", 7e9),
        ("1.5M images", 1.5e6),
        ("8.9K annotations", 8900.0),
    ],
)
def test_numbers_in_words_and_scales(text: str, value: float) -> None:
    assert value in values(text)


@pytest.mark.parametrize(
    ("claim", "evidence", "missing"),
    [
        ("It spans thirty-two European languages.", "It covers 32 European languages.", None),
        ("It spans thirty-three European languages.", "It covers 32 European languages.", "33"),
        ("It yields 8.9 thousand annotations.", "It results in 8.9K annotations.", None),
        ("A 70B model runs on one GPU.", "An 8B model runs on one GPU.", "70B"),
        ("Contexts reach 100 million tokens.", "Contexts reach 10 million tokens.", "100M"),
        # a formula of the claim must be one of the evidence's (spaces and braces aside)
        ("The dimension is at most $2d-1$.", "The dimension is at most $2d+1$.", "$2d-1$"),
        ("The dimension is at most $2d + 1$.", "The dimension is at most $2d+1$.", None),
        ("It converges at $O(1/T)$.", "It converges at $O(1/\\sqrt{T})$ over $T$ rounds.", "$O(1/T)$"),
        # two formulas in one sentence are read one by one, not across the text between them
        (
            "It reaches an $\\epsilon$-optimal policy in $O(1/\\epsilon^2)$.",
            "An $\\epsilon$-optimal policy in $O(1/\\epsilon^2)$.",
            None,
        ),
        ("It converges at a rate of 1/T.", "It converges at $O(1/T)$.", None),  # no formula in the claim
    ],
)
def test_missing_number(claim: str, evidence: str, missing: str | None) -> None:
    assert missing_number(claim, evidence) == missing


@pytest.mark.parametrize(
    ("claim", "evidence", "caught"),
    [
        # a bound, not a negation, and on the side of "at most"
        ("Its dual VC dimension is no greater than 2d+1.", "Its dual VC dimension is at most 2d+1.", False),
        ("It needs no fewer than ten samples.", "It needs at least ten samples.", False),
        ("Its dual VC dimension is greater than 2d+1.", "Its dual VC dimension is at most 2d+1.", True),
        ("It needs at most ten samples.", "It needs at least ten samples.", True),
    ],
)
def test_bounds(claim: str, evidence: str, caught: bool) -> None:
    reason = negation(claim, evidence) or direction(claim, evidence)
    assert (reason is not None) is caught, reason


def test_fall_short_restates_a_negation() -> None:
    evidence = "The analytical results however do not adequately address the performance guarantees."
    assert negation("Existing results fall short of adequately addressing performance guarantees.", evidence) is None
    assert negation("Existing results adequately address the performance guarantees.", evidence) is not None


def test_judge_rejects_a_changed_formula() -> None:
    evidence = "We prove that any extremal class has dual VC dimension at most $2d+1$."
    ok = judge("Any extremal class has dual VC dimension no greater than $2d+1$.", evidence, cosine=0.9)
    assert ok.supported, ok.reason
    v = judge("Any extremal class has dual VC dimension no greater than $2d-1$.", evidence, cosine=0.9)
    assert not v.supported and "$2d-1$" in (v.reason or "")
