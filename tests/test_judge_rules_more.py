"""The support judge's newer rules, each in both directions (it catches the error and accepts
the faithful twin): implicit negatives, "-free" compounds, a negated predicate, hyphenated
comparatives, more antonyms, both/either, acronyms. General English, no model."""

from __future__ import annotations

from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.answer.judge import judge

COS = 0.85  # a high cosine: without the rules every one of these claims would pass

# (evidence, faithful claim, unfaithful claim, reason prefix of the unfaithful one)
CASES = [
    # an implicit negative ("hidden") restates "without revealing"; a removed negation is caught
    (
        "The protocol trains the model without revealing the client data to the server.",
        "The client data stays hidden from the server while the protocol trains the model.",
        "The protocol trains the model by revealing the client data to the server.",
        "negation mismatch",
    ),
    # ...but a negated implicit negative is no restatement
    (
        "The scheduler ignores stale gradients.",
        "Stale gradients are ignored by the scheduler.",
        "The scheduler does not ignore stale gradients.",
        "negation mismatch",
    ),
    # a negated loss verb is restated by a keeping verb
    (
        "The pruning step halves the latency without sacrificing accuracy.",
        "The pruning step halves the latency while preserving accuracy.",
        "The pruning step halves the latency while sacrificing accuracy.",
        "negation mismatch",
    ),
    # a synonym of "avoids" restates it
    (
        "The solver avoids costly matrix inversions.",
        "The solver sidesteps costly matrix inversions.",
        "The solver performs costly matrix inversions.",
        "negation mismatch",
    ),
    # "-free" negates the word before it
    (
        "The sampler is training-free and runs on a single GPU.",
        "The sampler needs no training and runs on a single GPU.",
        "The sampler requires training and runs on a single GPU.",
        "negation mismatch",
    ),
    # "does not allow" is on the side of "prevents"
    (
        "Weight decay prevents the norm from exploding.",
        "Weight decay does not allow the norm to explode.",
        "Weight decay allows the norm to explode.",
        "opposite predicate",
    ),
    # subject and object exchanged around a comparative; the passive restatement is the same claim
    (
        "Our method outperforms the strongest baseline on three benchmarks.",
        "The strongest baseline is outperformed by the method on three benchmarks.",
        "The strongest baseline outperforms the method on three benchmarks.",
        "opposite predicate",
    ),
    (
        "Sparse attention is faster than dense attention at long context.",
        "Dense attention is slower than sparse attention at long context.",
        "Dense attention is faster than sparse attention at long context.",
        "opposite predicate",
    ),
    # a hyphenated comparative: the first part is the predicate
    (
        "The method learns a low-rank approximation of the kernel.",
        "A low-rank approximation of the kernel is learned by the method.",
        "The method learns a high-rank approximation of the kernel.",
        "opposite predicate",
    ),
    # antonyms added to the lexicon (WordNet direct antonyms)
    (
        "The attention pattern captures global structure in the image.",
        "The attention pattern picks up the global structure of the image.",
        "The attention pattern captures local structure in the image.",
        "opposite predicate",
    ),
    (
        "Labels are scarce in the target domain.",
        "The target domain has scarce labels.",
        "Labels are abundant in the target domain.",
        "opposite predicate",
    ),
    (
        "The planner runs offline on logged trajectories.",
        "On logged trajectories, the planner runs offline.",
        "The planner runs online on logged trajectories.",
        "opposite predicate",
    ),
    (
        "Data augmentation mitigates overfitting on small training sets.",
        "On small training sets, data augmentation alleviates overfitting.",
        "Data augmentation exacerbates overfitting on small training sets.",
        "opposite predicate",
    ),
    # superlatives are on the side of their comparatives
    (
        "The ensemble reaches the lowest error on the noisy split.",
        "The ensemble attains the lowest error on the noisy split.",
        "The ensemble reaches the highest error on the noisy split.",
        "opposite predicate",
    ),
    # a negated word restates its antonym ("not easy" for "hard"), its negated antonym does not
    (
        "Energy conservation is hard to learn and to monitor.",
        "Energy conservation is not easy to learn and to monitor.",
        "Energy conservation is not hard to learn and to monitor.",
        "negation mismatch",
    ),
    # contracted negations
    (
        "The probe couldn't separate the two classes.",
        "The probe could not separate the two classes.",
        "The probe separated the two classes.",
        "negation mismatch",
    ),
    # both/and for either/or, and back
    (
        "The adapter can be attached to either the encoder or the decoder.",
        "The adapter attaches to the encoder or to the decoder.",
        "The adapter is attached to both the encoder and the decoder.",
        "overclaim: both",
    ),
    (
        "The adapter is attached to both the encoder and the decoder.",
        "The adapter is attached to the encoder as well as to the decoder.",
        "The adapter is attached to either the encoder or the decoder.",
        "opposite predicate: both/either",
    ),
    # an acronym of evidence words, and the words of an evidence acronym
    (
        "We model the reward with a Gaussian process and query it actively.",
        "The reward is modelled with a GP that is queried actively.",
        "The reward is modelled with a GNN that is queried actively.",
        "name not in evidence: GNN",
    ),
    # a capitalised word derived from an evidence word ("Bayesian" from "Bayes")
    (
        "The posterior follows from Bayes rule applied to the prior.",
        "The posterior follows from a Bayesian update applied to the prior.",
        "The posterior follows from a Laplace update applied to the prior.",
        "name not in evidence: Laplace",
    ),
    (
        "The LLMs answer each question in a single pass.",
        "The Large Language Models answer each question in a single pass.",
        "The Small Language Models answer each question in a single pass.",
        "name not in evidence: Small",
    ),
]


@pytest.mark.parametrize(("evidence", "faithful", "unfaithful", "reason"), CASES)
def test_new_rule_both_directions(evidence: str, faithful: str, unfaithful: str, reason: str) -> None:
    check_both_directions(evidence, faithful, unfaithful, reason)


def check_both_directions(evidence: str, faithful: str, unfaithful: str, reason: str) -> None:
    """The rule accepts the faithful twin and rejects the unfaithful claim for `reason`."""
    ok = judge(faithful, evidence, cosine=COS)
    assert ok.supported, ok.reason
    bad = judge(unfaithful, evidence, cosine=COS)
    assert not bad.supported
    assert bad.reason is not None and bad.reason.startswith(reason), bad.reason


def test_negated_predicate_needs_the_negation_next_to_it() -> None:
    # "not" three content words away negates "always", not "improved"
    ev = "Lower errors do not always translate to improved results downstream."
    assert judge("Lower errors do not necessarily yield better results downstream.", ev, cosine=COS).supported


def test_both_sides_of_a_line_in_both_texts_are_no_opposition() -> None:
    ev = "Sparse attention is faster than dense attention at long context."
    assert judge("Sparse attention runs faster than dense attention at long context.", ev, cosine=COS).supported


def test_lexicon_lines_have_two_sides_and_a_source() -> None:
    text = resources.files("rag.answer").joinpath("data/opposites.tsv").read_text(encoding="utf-8")
    assert "WordNet" in text
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            sides = line.split("\t")
            assert len(sides) == 2, line
            a, b = (set(s.split()) for s in sides)
            assert a and b and not a & b, line


PIECES = [
    *"abcXYZ019 .,;:-$\\^_{}()[]*'\"%",
    "not ", "no ", "both ", "either ", "or ", "and ", "hidden ", "-free ", "training-free ", "low-rank ",
    "GP ", "Large ", "LLMs ", "does not allow ", "prevents ", "global ", "local ",
]  # fmt: skip
TEXT = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@settings(derandomize=True, deadline=10000, max_examples=300)
@given(TEXT, TEXT, st.none() | st.floats(min_value=-1, max_value=1))
def test_judge_never_raises_on_the_new_cues(claim: str, evidence: str, cosine: float | None) -> None:
    j = judge(claim, evidence, cosine=cosine, similar=lambda a, b: 0.5, label="LLMs")
    assert isinstance(j.supported, bool) and j.reason


@pytest.mark.parametrize(
    ("evidence", "faithful", "unfaithful"),
    [  # the part of a hyphenated word that is in the lexicon is its predicate, first or last
        (
            "This approach mitigates the over-pessimism of worst-case optimization while keeping robustness.",
            "The approach reduces the over-pessimism of worst-case optimization and keeps robustness.",
            "This approach mitigates the over-optimism of worst-case optimization while keeping robustness.",
        ),
        (
            "We solve stochastic problems under time-varying distributions.",
            "The authors solve stochastic problems whose distributions are time-varying.",
            "The authors solve stochastic problems under time-invariant distributions.",
        ),
    ],
)
def test_direction_of_a_hyphenated_word(evidence: str, faithful: str, unfaithful: str) -> None:
    assert judge(faithful, evidence, cosine=0.85).supported
    assert (judge(unfaithful, evidence, cosine=0.85).reason or "").startswith("opposite predicate")
