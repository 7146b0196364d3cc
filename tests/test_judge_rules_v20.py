"""Version 20 of the support judge, each rule in both directions (it catches the error and
accepts the faithful twin). Sentences written for this test, none from the pair files."""

from __future__ import annotations

import pytest

from rag.answer.judge_terms import modifier_swaps, swaps
from tests.test_judge_rules_more import check_both_directions

# (evidence, faithful claim, unfaithful claim, reason prefix of the unfaithful one)
CASES = [
    # an implicit negative both texts have ("unseen") restates itself, not the claim's "not"
    (
        "The detector generalizes to unseen attack types.",
        "The detector also works on attack types it has not seen.",
        "The detector does not generalize to unseen attack types.",
        "negation mismatch",
    ),
    # "circumvents" negates as "avoids" does
    (
        "The estimator circumvents costly posterior sampling.",
        "The estimator avoids costly posterior sampling.",
        "The estimator performs costly posterior sampling.",
        "negation mismatch",
    ),
    # a hyphenated word anchors by its parts: "post-hoc" is "post hoc"
    (
        "The sequences are entangled, thereby becoming difficult to remove post-hoc.",
        "The sequences are entangled, which makes them hard to remove post hoc.",
        "The sequences are entangled, which makes them easy to remove post hoc.",
        "opposite predicate",
    ),
    # an advantage is the opposite of a limitation
    (
        "The analysis reveals a limitation of recurrent decoders.",
        "The analysis exposes a limitation of recurrent decoders.",
        "The analysis reveals an advantage of recurrent decoders.",
        "opposite predicate",
    ),
    # a predicate alone in its clause is about the words around the clause
    (
        "Public leaderboards are a rich (but underused) source of evidence.",
        "Public leaderboards are a rich source of evidence that remains underused.",
        "Public leaderboards are a rich and widely used source of evidence.",
        "opposite predicate",
    ),
]


@pytest.mark.parametrize(("evidence", "faithful", "unfaithful", "reason"), CASES)
def test_rule_both_directions(evidence: str, faithful: str, unfaithful: str, reason: str) -> None:
    check_both_directions(evidence, faithful, unfaithful, reason)


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        # reordered around the swap, so the word alignment does not pair the two modifiers
        (
            "The thresholds are then tuned on the validation split, after the procedures run.",
            "After the procedures run, we tune the thresholds on the calibration split.",
            "name not in evidence: validation (in place of 'calibration')",
        ),
        # the same modifier, reordered: no swap
        (
            "The thresholds are then tuned on the calibration split, after the procedures run.",
            "After the procedures run, we tune the thresholds on the calibration split.",
            None,
        ),
        # a modifier that is also a verb or adjective may be a paraphrase ("held-out split")
        (
            "The thresholds are then tuned on the held-out split, after the procedures run.",
            "After the procedures run, we tune the thresholds on the calibration split.",
            None,
        ),
    ],
)
def test_moved_modifier_swap(claim: str, evidence: str, expected: str | None) -> None:
    assert modifier_swaps(claim, evidence) == expected


def _far(a: str, b: str) -> float:
    return 0.3  # an embedding that finds every pair of phrases apart


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        # a verb in the evidence's place modifies no noun ("derive" -> "yield")
        (
            "Proxy attributes are used to yield actionable upper bounds.",
            "Proxy attributes are used to derive actionable upper bounds.",
            None,
        ),
        # a plain adjective swapped out is a paraphrase ("critical" -> "key")
        (
            "The approach improves two key time series tasks.",
            "The approach improves two critical time series tasks.",
            None,
        ),
        # a noun modifier swapped for another is another thing
        (
            "The model reproduces the firing of place cells.",
            "The model reproduces the firing of grid cells.",
            "name not in evidence: place",
        ),
    ],
)
def test_swapped_modifier_sides(claim: str, evidence: str, expected: str | None) -> None:
    assert swaps(claim, evidence, _far) == expected
