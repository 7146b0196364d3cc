"""The support judge's rules of the issue-15 follow-up, each in both directions (it catches
the error and accepts the faithful twin). General English, no model; made-up sentences."""

from __future__ import annotations

import pytest

from rag.answer.judge import judge
from tests.test_judge_rules_more import check_both_directions

COS = 0.85  # a high cosine: without the rules every one of these claims would pass

# (evidence, faithful claim, unfaithful claim, reason prefix of the unfaithful one)
CASES = [
    # antonyms added to the lexicon: broad/narrow, easy/challenging, preserved/compromised
    (
        "The benchmark spans a broad range of task difficulties.",
        "The benchmark covers a wide range of task difficulties.",
        "The benchmark spans a narrow band of task difficulties.",
        "opposite predicate",
    ),
    (
        "Memorized sequences become challenging to remove after training.",
        "Memorized sequences are hard to remove after training.",
        "Memorized sequences become easy to remove after training.",
        "opposite predicate",
    ),
    (
        "The guarantee is compromised when some features are corrupted.",
        "The guarantee breaks when some features are corrupted.",
        "The guarantee is preserved when some features are corrupted.",
        "opposite predicate",
    ),
    (
        "The privacy loss can grow superlinearly with the number of steps.",
        "The privacy loss may grow faster than linearly, superlinearly, with the number of steps.",
        "The privacy loss can grow sublinearly with the number of steps.",
        "opposite predicate",
    ),
    (
        "The sampler achieves comparable accuracy to the exact baseline.",
        "The sampler's accuracy is comparable to the exact baseline.",
        "The sampler achieves better accuracy than the exact baseline.",
        "opposite predicate",
    ),
    (
        "Their approximation power remains underexplored.",
        "Their approximation power is understudied so far.",
        "Their approximation power has been thoroughly explored.",
        "opposite predicate",
    ),
    (
        "We observe a 20% relative gain in recall.",
        "Recall rises by 20% in relative terms.",
        "We observe a 20% absolute gain in recall.",
        "opposite predicate",
    ),
    (
        "The models still fall short of the expert level.",
        "The models remain below the expert level, falling short of it.",
        "The models already exceed the expert level.",
        "opposite predicate",
    ),
    # exchanged order around a connective: "rather than", "then", "unlike"/"in contrast to"
    (
        "Recent studies focus on single tasks rather than a joint evaluation.",
        "Recent work targets single tasks rather than a joint evaluation.",
        "Recent studies focus on joint evaluation rather than single tasks.",
        "opposite predicate",
    ),
    (
        "The pipeline first runs a detector on the input and then fills the flagged cells by imputation.",
        "The pipeline first runs a detector and then imputes the flagged cells.",
        "The pipeline first fills the cells by imputation and then runs a detector on the input.",
        "opposite predicate",
    ),
    (
        "Unlike sparse games, dense games can be solved in polynomial time.",
        "In contrast to sparse games, dense games are solvable in polynomial time.",
        "Sparse games, in contrast to dense games, can be solved in polynomial time.",
        "opposite predicate",
    ),
    # "without" flips a gerund: "without compromising X" is "preserving X", not "compromising X"
    (
        "The pruning keeps the latency low without compromising the guarantee.",
        "The pruning keeps the latency low while preserving the guarantee.",
        "The pruning keeps the latency low while compromising the guarantee.",
        "negation mismatch",
    ),
]


@pytest.mark.parametrize(("evidence", "faithful", "unfaithful", "reason"), CASES)
def test_rule_both_directions(evidence: str, faithful: str, unfaithful: str, reason: str) -> None:
    check_both_directions(evidence, faithful, unfaithful, reason)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # "without"/"no" before an adjective negate the noun, not the adjective
        (
            "Models train on continuous values with no discrete tokens.",
            "Models train on continuous values without discrete tokens.",
        ),
        ("The method assumes no labeled data.", "The method does not assume any labeled data."),
        # "no better than" is "not better than"
        ("Sparse features are no better than neurons.", "Sparse features are not better than neurons."),
    ],
)
def test_narrow_negators_restate(claim: str, evidence: str) -> None:
    assert judge(claim, evidence, cosine=COS).supported
