"""Version 29 of the support judge (round 10: its calibration part read one by one), each rule
in both directions where it has two: it catches the error and accepts the faithful twin.
Sentences written for this test, none from the pair files."""

from __future__ import annotations

from difflib import SequenceMatcher

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer import lexicon
from rag.answer.judge import judge
from rag.answer.judge_terms import term_swaps
from rag.answer.judge_text import align
from tests.test_judge_rules_more import COS, check_both_directions

# (evidence, faithful claim, unfaithful claim, reason prefix of the unfaithful one)
CASES = [
    # a size said of a cost is a judgement of quality: "lower error" is "better", not "worse"
    (
        "The proposed estimator attains a lower mean absolute error than the kernel baseline.",
        "The proposed estimator reaches a smaller mean absolute error than the kernel baseline.",
        "The proposed estimator attains a worse mean absolute error than the kernel baseline.",
        "opposite predicate: lower/worse",
    ),
    # a comparison's "than" several words after the comparative still gives it roles
    (
        "Quantized adapters reach higher accuracy on the reading benchmark than full-precision adapters.",
        "On the reading benchmark, quantized adapters achieve higher accuracy than full-precision adapters.",
        "Full-precision adapters reach higher accuracy on the reading benchmark than quantized adapters.",
        "opposite predicate: higher/higher",
    ),
    # "compared to" introduces the other side as "than" does
    (
        "Ensembles of small models answer faster compared to a single large model.",
        "Ensembles of small models answer faster than a single large model.",
        "A single large model answers faster compared to ensembles of small models.",
        "opposite predicate: faster/faster",
    ),
    # "and" coordinates the compared things; it does not end the object
    (
        "Learned routers outperform random routing and static expert assignment.",
        "Learned routers beat both random routing and static expert assignment.",
        "Random routing and static expert assignment outperform learned routers.",
        "opposite predicate: outperform/outperform",
    ),
    # a hedged number rounds the evidence's ("about 42" for "41.7"); a wrong one is still wrong
    (
        "The sampler needs 41.7 times fewer network evaluations.",
        "The sampler needs about 42 times fewer network evaluations.",
        "The sampler needs about 47 times fewer network evaluations.",
        "number not in evidence",
    ),
    # "conjectured" is a hedge in any form; a "can" both texts write does not keep it
    (
        "It is conjectured that no polynomial-time algorithm can recover the planted signal below this threshold.",
        "No polynomial-time algorithm is conjectured to be able to recover the planted signal below this threshold.",
        "It is proven that no polynomial-time algorithm can recover the planted signal below this threshold.",
        "overclaim: drops 'conjectured'",
    ),
    # words further on in the object of "rather than" are no exchange
    (
        "We want a rate that depends on the rank of the kernel, rather than samples which can be unbounded.",
        "The rate should depend on the kernel's rank rather than the possibly unbounded number of samples.",
        "The rate should depend on the number of samples rather than the rank of the kernel.",
        "opposite predicate: rather than/rather than (exchanged)",
    ),
]


@pytest.mark.parametrize(("evidence", "faithful", "unfaithful", "reason"), CASES)
def test_rule_in_both_directions(evidence: str, faithful: str, unfaithful: str, reason: str) -> None:
    check_both_directions(evidence, faithful, unfaithful, reason)


def test_a_text_moving_costs_both_ways_is_left_to_the_size_lines() -> None:
    ev = "Sketching slightly reduces the reconstruction error, while naive pruning increases the reconstruction error."
    claim = "Sketching slightly lowers the reconstruction error, whereas naive pruning raises it."
    assert judge(claim, ev, cosine=COS).supported


def test_losing_a_property_restates_no_longer_having_it() -> None:
    ev = "After pruning, the objective is no longer smooth, and the step size must shrink."
    assert judge(
        "After pruning, the objective loses its smoothness, so the step size must shrink.", ev, cosine=COS
    ).supported


def test_appears_in_is_no_hedge_but_appears_to_is() -> None:
    ev = "Duplicate code appears in unexpected places such as test fixtures and build scripts."
    assert judge(
        "Duplicate code shows up in unexpected places, for example test fixtures and build scripts.", ev, cosine=COS
    ).supported
    hedged = "The effect appears to vanish at larger model scales."
    bad = judge("The effect vanishes at larger model scales.", hedged, cosine=COS)
    assert not bad.supported and bad.reason == "overclaim: drops 'appears'"


@pytest.mark.parametrize(
    ("word", "technical"),
    [
        ("trust-region", True),
        ("score-function", True),
        ("well-known", False),
        ("large-scale", False),
        ("long-term", False),
    ],
)
def test_a_compound_of_two_nouns_is_a_term(word: str, technical: bool) -> None:
    assert lexicon.technical(word) is technical


def test_a_term_of_two_common_nouns_swapped_in_is_caught() -> None:
    ev = "The update relies on the reparameterization estimator, which is biased for discrete models."
    claim = "The update relies on the score-function estimator, which is biased for discrete models."
    assert term_swaps(claim, ev) == "name not in evidence: score-function (in place of 'reparameterization')"


def test_a_moved_verb_does_not_pull_the_alignment_off_a_swapped_term() -> None:
    # difflib aligns the moved "introduced" and leaves no replaced stretch to compare
    ev = "Then, we introduce a discrete ant colony optimization routine to search for adversarial prompts."
    claim = "A discrete simulated annealing routine is introduced to search for adversarial prompts."
    assert term_swaps(claim, ev, lambda a, b: 0.2) is not None


@given(st.lists(st.sampled_from("abcde"), max_size=9), st.lists(st.sampled_from("abcde"), max_size=9))
def test_align_is_a_longest_common_subsequence(a: list[str], b: list[str]) -> None:
    ops = align(a, b)
    assert [x for _, i1, i2, _, _ in ops for x in a[i1:i2]] == a
    assert [x for _, _, _, j1, j2 in ops for x in b[j1:j2]] == b
    assert all(a[i1:i2] == b[j1:j2] for tag, i1, i2, j1, j2 in ops if tag == "equal")
    matched = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag == "equal")
    assert matched >= sum(m.size for m in SequenceMatcher(a=a, b=b, autojunk=False).get_matching_blocks())
