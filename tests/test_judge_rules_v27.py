"""Versions 27 and 28 of the support judge (rounds 8 and 9: their calibration parts read one by
one), each rule in both directions: it catches the error and accepts the faithful twin.
Sentences written for this test, none from the pair files."""

from __future__ import annotations

import pytest

from rag.answer.judge_terms import clipped
from rag.answer.judge_values import list_sizes
from tests.test_judge_rules_more import check_both_directions

# (evidence, faithful claim, unfaithful claim, reason prefix of the unfaithful one)
CASES = [
    # lexicon: "bounded above" / "bounded below"
    (
        "The estimation error is bounded above by the square root of the sample size.",
        "The estimation error is bounded above by the sample size's square root.",
        "The estimation error is bounded below by the square root of the sample size.",
        "opposite predicate: above/below",
    ),
    # lexicon: "dampen" is on the side of "mitigate", against "exacerbate"
    (
        "Stale gradients exacerbate the instability of asynchronous training.",
        "Stale gradients worsen the instability of asynchronous training.",
        "Stale gradients dampen the instability of asynchronous training.",
        "opposite predicate: exacerbate/dampen",
    ),
    # lexicon: "milder assumptions" / "stronger assumptions"
    (
        "The bound holds under milder assumptions than earlier analyses.",
        "The bound needs weaker assumptions than earlier analyses.",
        "The bound holds under stronger assumptions than earlier analyses.",
        "opposite predicate: milder/stronger",
    ),
    # a connective ("hence") is no anchor: the predicate inside ", and hence longer," is about "rules"
    (
        "The learner prefers more general and thus shorter rules.",
        "The learner favours more general, and hence shorter, rules.",
        "The learner favours more specific, and hence longer, rules.",
        "opposite predicate: shorter/longer",
    ),
    # "superior accuracy over B" compares like "than": its roles exchanged are the opposite
    (
        "Experiments show the new sampler's superior accuracy over standard baselines.",
        "In experiments, the new sampler outperforms standard baselines in accuracy.",
        "In experiments, standard baselines outperform the new sampler in accuracy.",
        "opposite predicate",
    ),
    # "a third" is a share, written rounded as 33%
    (
        "The tokenizer needs up to 33% fewer tokens than the baseline.",
        "The tokenizer needs up to roughly a third fewer tokens than the baseline.",
        "The tokenizer needs up to roughly a quarter fewer tokens than the baseline.",
        "number not in evidence",
    ),
    # ...but a count is no share ("33 tasks" is no "a third of the tasks")
    (
        "The model solves 33 tasks.",
        "The model solves a total of 33 tasks.",
        "The model solves about a third of the tasks.",
        "number not in evidence: 0.3333",
    ),
    # a bound every share of the evidence meets ("fewer than half" for 4% and 38%)
    (
        "The agents complete between 4% and 38% of the tasks.",
        "The agents complete fewer than half of the tasks.",
        "The agents complete fewer than a quarter of the tasks.",
        "number not in evidence",
    ),
    # the count of what the evidence lists ("all four datasets")
    (
        "The method improves accuracy on CIFAR-10, SVHN, STL-10, and Tiny ImageNet.",
        "The method improves accuracy on all four datasets, CIFAR-10, SVHN, STL-10 and Tiny ImageNet.",
        "The method improves accuracy on all five datasets, CIFAR-10, SVHN, STL-10 and Tiny ImageNet.",
        "number not in evidence",
    ),
    # ...but a list's size is no percentage ("by 3%" is not licensed by a list of three)
    (
        "The method improves accuracy on CIFAR-10, SVHN, and STL-10.",
        "The method improves accuracy on three datasets, CIFAR-10, SVHN, and STL-10.",
        "The method improves accuracy by 3% on CIFAR-10, SVHN, and STL-10.",
        "number not in evidence: 3",
    ),
    # a version glued to a name ("GPT4") is the one written apart ("GPT-4"); "exams" clips "examinations"
    (
        "Our model matches GPT4 on the licensing examinations.",
        "The model matches GPT-4 on the licensing exams.",
        "The model matches GPT-3 on the licensing exams.",
        "number not in evidence",
    ),
    # "optimal" is licensed by optimality, not by improving on the state of the art
    (
        "The algorithm's sample complexity improves on the state-of-the-art rate.",
        "The algorithm improves on the state-of-the-art sample complexity.",
        "The algorithm's sample complexity is optimal and improves on the state-of-the-art rate.",
        "overclaim: optimal",
    ),
    # "exactly" where the evidence says "almost"
    (
        "The estimates almost match the ones computed with observed rewards.",
        "The estimates nearly match the ones computed with observed rewards.",
        "The estimates exactly match the ones computed with observed rewards.",
        "overclaim: exactly",
    ),
    # "all while" quantifies nothing, so it does not license "every"
    (
        "The method beats prior work on several benchmarks, all while running online.",
        "The method beats prior work on several benchmarks while running online.",
        "The method beats prior work on every benchmark while running online.",
        "overclaim: every",
    ),
    # "100% success" says "every time"
    (
        "The agent reaches a 100% success rate after four rounds.",
        "The agent succeeds every time after four rounds.",
        "The agent succeeds every time after two rounds.",
        "number not in evidence",
    ),
    # "differently" restates "not in the same way"
    (
        "Language models do not process suspense in the same way as human readers.",
        "Language models process suspense differently from human readers.",
        "Language models process suspense in the same way as human readers.",
        "negation mismatch",
    ),
    # a control character left inside a word by a PDF extraction is no text
    (
        "It achieves state-of-the\x02art results on two benchmarks.",
        "It achieves state-of-the-art results on two benchmarks.",
        "It achieves state-of-the-art results on three benchmarks.",
        "number not in evidence",
    ),
    # ...and only for that name: "L2" in the evidence licenses no other 2
    (
        "An L2 penalty keeps the weights small.",
        "A penalty on the L2 norm keeps the weights small.",
        "An L2 penalty keeps the weights 2 times smaller.",
        "number not in evidence: 2",
    ),
    # v28: "exactly" before a number states the number (which the number rule checks)
    (
        "The filter lowers the false positive rate, reaching a perfect zero on two benchmarks.",
        "The filter lowers the false positive rate, down to exactly zero on two benchmarks.",
        "The filter lowers the false positive rate, down to exactly zero on three benchmarks.",
        "number not in evidence",
    ),
    # v28: "impossible" restates "not possible"; "guarantees" needs a guarantee
    (
        "The test stays valid even though unbiased estimation may not be possible.",
        "The test stays valid even though unbiased estimation may be impossible.",
        "The test guarantees valid results even though unbiased estimation may be impossible.",
        "overclaim: guarantees",
    ),
    # v28: "inclined to" keeps the evidence's "tend to"
    (
        "Reviewers tend to prefer longer answers.",
        "Reviewers are inclined to prefer longer answers.",
        "Reviewers prefer longer answers.",
        "overclaim: drops 'tend'",
    ),
    # v28: "comparable to" is no "outperforms"; "enhances" is on the side of "increases"
    (
        "The sampler reaches accuracy comparable to the exact solver and enhances throughput.",
        "The sampler matches the exact solver's accuracy and raises throughput.",
        "The sampler outperforms the exact solver in accuracy and enhances throughput.",
        "opposite predicate: comparable/outperforms",
    ),
    (
        "Instruction tuning enhances brain alignment.",
        "Instruction tuning increases brain alignment.",
        "Instruction tuning lowers brain alignment.",
        "opposite predicate: enhances/lowers",
    ),
    # v28: a non-integer value written twice where the evidence has it once
    (
        "The cache is quantized to 2-bit keys and 1.5-bit values.",
        "Keys take 2 bits and values 1.5 bits in the quantized cache.",
        "The cache is quantized to 1.5-bit keys and 1.5-bit values.",
        "number not in evidence: 1.5",
    ),
    # v28: an exchange whose subjects keep a word ("yields") is read by the words that changed sides
    (
        "Although full fine-tuning usually yields higher accuracy than linear probing, it is fragile under noise.",
        "Although full fine-tuning usually yields better accuracy than linear probing, it is fragile under noise.",
        "Although linear probing usually yields higher accuracy than full fine-tuning, it is fragile under noise.",
        "opposite predicate",
    ),
]


@pytest.mark.parametrize(("evidence", "faithful", "unfaithful", "reason"), CASES)
def test_v27_rules_both_directions(evidence: str, faithful: str, unfaithful: str, reason: str) -> None:
    check_both_directions(evidence, faithful, unfaithful, reason)


@pytest.mark.parametrize(
    ("text", "sizes"),
    [
        ("Results on A, B, C, D, and E.", {5.0}),
        ("We use A, B and C here.", {3.0}),
        ("Gains of 1%, 2%, and 3% on X, Y, and Z, respectively.", {3.0}),
        ("In short, it works, and it is fast.", set()),  # two clauses, no list
        ("No list here.", set()),
    ],
)
def test_list_sizes(text: str, sizes: set[float]) -> None:
    assert list_sizes(text) == sizes


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("exams", "examinations", True),
        ("stats", "statistics", True),
        ("bias", "biases", False),
        ("map", "mapping", False),
    ],
)
def test_clipped_words(a: str, b: str, same: bool) -> None:
    assert clipped(a, b) is same
