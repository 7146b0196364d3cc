"""Versions 22 and 23 of the support judge, each rule in both directions where it has an unfaithful
side (it catches the error and accepts the faithful twin), and the paraphrases it now accepts.
Sentences written for this test, none from the pair files."""

from __future__ import annotations

import pytest

from rag.answer.judge import judge
from rag.answer.judge_text import plain
from tests.test_judge_rules_more import COS, check_both_directions

# (evidence, faithful claim, unfaithful claim, reason prefix of the unfaithful one)
CASES = [
    # "not yet": the adverb "yet" does not end the negation's reach
    (
        "The compiler does not yet achieve a measurable speedup on small kernels.",
        "The compiler does not yet deliver a measurable speedup on small kernels.",
        "The compiler already achieves a measurable speedup on small kernels.",
        "negation mismatch",
    ),
    # "does not need to X" negates X as "does not have to X" does
    (
        "Unlike earlier solvers, the method does not need to approximate the kernel matrix.",
        "In contrast to earlier solvers, the method does not have to approximate the kernel matrix.",
        "Like earlier solvers, the method has to approximate the kernel matrix.",
        "negation mismatch",
    ),
    # "any" inside a negated clause is no quantifier
    (
        "No prior work has addressed the offline setting of this problem.",
        "The offline setting of this problem had not been addressed by any prior work.",
        "Prior work has addressed the offline setting of this problem.",
        "negation mismatch",
    ),
    # a hedge kept in another form of the same word
    (
        "We conjecture that the lower bound is tight up to a constant factor.",
        "The lower bound is conjectured to be tight up to a constant factor.",
        "The lower bound is tight up to a constant factor.",
        "overclaim: drops 'conjecture'",
    ),
    # a superlative as the first part of a hyphenated word
    (
        "The ensemble consistently outperforms classical stacking approaches.",
        "The ensemble consistently beats classical stacking approaches.",
        "The ensemble is the best-performing method, consistently outperforming classical stacking approaches.",
        "overclaim: best-performing",
    ),
    # a guarantee where the evidence says "can"
    (
        "The procedure can yield a calibrated model from a small sample.",
        "The procedure can produce a calibrated model from a small sample.",
        "The procedure is guaranteed to yield a calibrated model from a small sample.",
        "overclaim: guaranteed",
    ),
    # "arbitrary" is a universal, as "arbitrarily" is
    (
        "The bounds hold when the samples are drawn independently.",
        "The bounds hold for samples drawn independently.",
        "The bounds hold for arbitrary samples, not only independently drawn ones.",
        "overclaim: arbitrary",
    ),
    # "impede" is opposite "benefit"
    (
        "Distilling noisy labels can impede a small student model.",
        "Distilling noisy labels can hamper a small student model.",
        "Distilling noisy labels can benefit a small student model.",
        "opposite predicate",
    ),
    # "well" is opposite "worse"
    (
        "The estimator scales well with the number of samples.",
        "The estimator scales well as the number of samples grows.",
        "The estimator scales worse with the number of samples.",
        "opposite predicate",
    ),
    # "a single line" counts a thing the evidence counts with another number (v23)
    (
        "The toolkit fine-tunes a model with just three lines of code.",
        "The toolkit needs only three lines of code to fine-tune a model.",
        "The toolkit fine-tunes a model with a single line of code.",
        "number not in evidence: 1 line",
    ),
    # "prioritize A over B" exchanged into "prioritize B over A"
    (
        "The authors prioritize sample diversity over label accuracy.",
        "Sample diversity is prioritized over label accuracy.",
        "The authors prioritize label accuracy over sample diversity.",
        "opposite predicate",
    ),
]


@pytest.mark.parametrize(("evidence", "faithful", "unfaithful", "reason"), CASES)
def test_rule_both_directions(evidence: str, faithful: str, unfaithful: str, reason: str) -> None:
    check_both_directions(evidence, faithful, unfaithful, reason)


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        # "no matter how" concedes, it negates nothing
        (
            "The sampler mixes in linear time no matter how large the grid is.",
            "The sampler mixes in linear time however large the grid is.",
        ),
        # "systematically" licenses "consistently"
        (
            "The models systematically struggle with rare constructions.",
            "The models consistently struggle with rare constructions.",
        ),
        # "individual" licenses "each"
        (
            "The encoder builds representations of individual examples in its lower layers.",
            "In its lower layers the encoder builds a representation of each example.",
        ),
        # inline math glued to a word is part of the name; a Greek letter reads as its LaTeX name
        (
            r"Results show that $f$-PO improves alignment on three benchmarks.",
            "f-PO improves alignment on three benchmarks.",
        ),
        (
            r"In these experiments, AL$\ell_0$CORE needs only a tiny fraction of the core.",
            "In these experiments, ALℓ0CORE needs only a tiny fraction of the core.",
        ),
    ],
)
def test_paraphrase_accepted(evidence: str, claim: str) -> None:
    j = judge(claim, evidence, cosine=COS)
    assert j.supported, j.reason


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"AL$\ell_0$CORE", "ALell0CORE"),
        ("ALℓ0CORE", "ALell0CORE"),
        (r"$f$-PO", "f-PO"),
        (r"the $\alpha$ value", "the alpha value"),
        ("the α value", "the alpha value"),
        ("costs $5 and $6", "costs 5 and 6"),  # not math: no glued span
    ],
)
def test_plain_math_in_words(text: str, expected: str) -> None:
    assert plain(text) == expected
