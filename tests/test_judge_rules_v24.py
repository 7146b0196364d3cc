"""Versions 24 to 26 of the support judge, each rule in both directions (it catches the error
and accepts the faithful twin), and the paraphrases it now accepts. Sentences written for this
test, none from the pair files."""

from __future__ import annotations

import pytest

from rag.answer.judge import judge
from rag.answer.judge_numbers import complexities
from rag.answer.judge_values import values
from rag.answer.lexicon import parts_of_speech, superlative, technical
from tests.test_judge_rules_more import COS, check_both_directions

# (evidence, faithful claim, unfaithful claim, reason prefix of the unfaithful one)
CASES = [
    # a fraction word is a share: "a fifth" = 20%
    (
        "More than 20% of the runs diverge without warm-up.",
        "Over a fifth of the runs diverge without warm-up.",
        "Over a third of the runs diverge without warm-up.",
        "number not in evidence",
    ),
    # a year before a noun counts nothing ("the Challenge 2012 datasets" is no "2012 datasets")
    (
        "Experiments use two datasets, the ImageNet data and the Challenge 2012 data.",
        "Experiments use the ImageNet and Challenge 2012 datasets.",
        "Experiments use three datasets, the ImageNet data and the Challenge 2012 data.",
        "number not in evidence",
    ),
    # a relation in math glued to a number ("${\sim}$40%") is no part of a name
    (
        r"The sampler converges in ${\sim}$40% fewer steps than the baseline.",
        "The sampler converges in roughly 40% fewer steps than the baseline.",
        "The sampler converges in roughly 60% fewer steps than the baseline.",
        "number not in evidence",
    ),
    # "about 30%" keeps the evidence's "approximately"; a bare "30%" drops it
    (
        "The cache approximately halves decoding latency on long prompts.",
        "The cache cuts decoding latency on long prompts by about half.",
        "The cache halves decoding latency on long prompts.",
        "overclaim: drops 'approximately'",
    ),
    # a universal under a negation is a weaker claim, no quantifier
    (
        "Pretraining is not universally beneficial for the downstream tasks.",
        "Pretraining does not help in every downstream task.",
        "Pretraining is universally beneficial for the downstream tasks.",
        "negation mismatch",
    ),
    # "never" restates the evidence's negation of the same thing
    (
        "We prove that the detector is not triggered for practical horizons.",
        "For practical horizons the detector never gets triggered.",
        "The detector is triggered even for practical horizons.",
        "negation mismatch",
    ),
    # "fail to beat" is on the side of "do not exceed"
    (
        "Most of the pruned models do not exceed the random baseline.",
        "Most of the pruned models fail to beat the random baseline.",
        "Most of the pruned models beat the random baseline.",
        "negation mismatch",
    ),
    # impossible / achievable, intractable / feasible
    (
        "Exact recovery is impossible for small sample sizes.",
        "Exact recovery cannot be achieved for small sample sizes.",
        "Exact recovery is achievable for small sample sizes.",
        "opposite predicate",
    ),
    (
        "Without the key, it is computationally intractable to forge a signature.",
        "Without the key, forging a signature is computationally infeasible.",
        "Even without the key, it is computationally feasible to forge a signature.",
        "opposite predicate",
    ),
    # both texts have both sides, but which one modifies which noun was exchanged
    (
        "Facts with a high-frequency subject and a low-frequency object are recalled better.",
        "Facts pairing a high-frequency subject with a low-frequency object are recalled better.",
        "Facts pairing a low-frequency subject with a high-frequency object are recalled better.",
        "opposite predicate: 'subject' qualified the other way",
    ),
    # "did not lead to enhanced X" negates "enhance"
    (
        "The extra tuning phase did not lead to enhanced accuracy.",
        "The extra tuning phase did not improve accuracy.",
        "The extra tuning phase improved accuracy.",
        "negation mismatch",
    ),
    # an asymptotic order, in math or not
    (
        r"The algorithm runs in $O(\sqrt{n})$ time on a square grid.",
        "The algorithm's running time on a square grid is O(√n).",
        "The algorithm runs in O(log n) time on a square grid.",
        "number not in evidence: O(logn)",
    ),
    (
        "In our tests, language models tend to believe external documents that contradict memory.",
        "Language models were found to tend to trust external documents that contradict memory.",
        "In our tests, language models tend to distrust external documents that contradict memory.",
        "opposite predicate",
    ),
    # a prefix negation ("non-stationarity") negates its own word only, not the next ones
    (
        "The non-stationarity test is not triggered in practice.",
        "In practice, the non-stationarity test does not get triggered.",
        "The non-stationarity test is triggered in practice.",
        "negation mismatch",
    ),
    # "optimal transport": after its modifier, a noun-or-verb word names a thing
    (
        "The monitor models gradual shifts using optimal transport.",
        "The monitor models gradual shifts with optimal transport.",
        "The monitor models gradual shifts with kernel density estimation.",
        "name not in evidence: kernel",
    ),
    # an opposite coordinated with the evidence's word widens the claim to both
    (
        "The decoder handles arbitrary discrete distributions.",
        "The decoder can handle any discrete distribution.",
        "The decoder handles arbitrary discrete and continuous distributions.",
        "overclaim: adds 'continuous'",
    ),
    # the arguments of a verb exchanged; the passive voice exchanges them and says the same
    (
        "Task competition drives the inverse scaling of some tasks.",
        "The inverse scaling of some tasks is driven by task competition.",
        "The inverse scaling of some tasks drives task competition.",
        "opposite predicate: exchanged around 'drives'",
    ),
]


CASES_V25 = [
    # "at all" intensifies; "all" alone claims every case
    (
        "The results question why the models succeed in the first place.",
        "The results question why the models succeed at all.",
        "The results show that the models succeed in all cases.",
        "overclaim: all",
    ),
    # a total under a negation is a weaker claim
    (
        "The remaining errors cannot be fully resolved by fine-tuning.",
        "Fine-tuning cannot completely fix the remaining errors.",
        "Fine-tuning completely fixes the remaining errors.",
        "negation mismatch",
    ),
    # "near-optimal" does not license "optimal"; "optimality" does
    (
        "We prove a near-optimal regret bound for the method.",
        "The method has a provably near-optimal regret bound.",
        "The method has a provably optimal regret bound.",
        "overclaim: optimal",
    ),
    # "leading to" is a verb, no "leading" method
    (
        "The method corrects unreliable tests, leading to improved performance.",
        "The method corrects unreliable tests, which improves performance.",
        "The method corrects unreliable tests, yielding state-of-the-art performance.",
        "overclaim: state-of-the-art",
    ),
    (
        "The providers have partially addressed these challenges.",
        "The providers have only partly addressed these challenges.",
        "The providers have addressed these challenges.",
        "overclaim: drops 'partially'",
    ),
    # "most" before a plural noun claims a majority
    (
        "In many cases the adapter matches the fairness of full fine-tuning.",
        "In many cases, the adapter is as fair as full fine-tuning.",
        "In most cases the adapter matches the fairness of full fine-tuning.",
        "overclaim: most",
    ),
    # "two orders of magnitude" is 100, not also 2
    (
        r"The sampler is more than $100\times$ faster than the baseline.",
        "The sampler is over two orders of magnitude faster than the baseline.",
        "The sampler is over three orders of magnitude faster than the baseline.",
        "number not in evidence",
    ),
    # both texts have both sides; what is said of one subject is said of the other
    (
        "Gradient descent converges to the equilibrium while the optimistic method diverges.",
        "The optimistic method diverges, whereas gradient descent converges to the equilibrium.",
        "The optimistic method converges to the equilibrium while gradient descent diverges.",
        "opposite predicate: exchanged subjects",
    ),
    # a noun sized the other way by a kindred word of size
    (
        "Quantized models have a higher bound on the VC-dimension than dense ones.",
        "Quantized models have a larger bound on the VC-dimension than dense ones.",
        "Quantized models have a smaller bound on the VC-dimension than dense ones.",
        "opposite predicate",
    ),
    # "relies neither on A nor on B": each negated on its own
    (
        "The sampler relies neither on Monte Carlo estimates nor on thinning.",
        "The sampler uses no Monte Carlo estimates and no thinning.",
        "The sampler relies on Monte Carlo estimates, though not on thinning.",
        "negation mismatch",
    ),
]


CASES_V26 = [
    # a negation's reach ends where the next negation begins
    (
        "The probes often fail to capture features not prevalent in pretraining.",
        "The probes frequently miss features that are not prevalent in pretraining.",
        "The probes reliably capture features even when they are not prevalent in pretraining.",
        "negation mismatch",
    ),
    # the second "no" of a text is read where it stands, not at the first
    (
        "The network is given no labels, yet we find evidence of object representations.",
        "Although it is given no labels, the network shows evidence of object representations.",
        "The network is given no labels and shows no evidence of object representations.",
        "negation mismatch",
    ),
    # a softener across an article: "nearly the optimal" licenses no "optimal"
    (
        "Our estimators have nearly the optimal sample complexity.",
        "The estimators have close to optimal sample complexity.",
        "The estimators have the optimal sample complexity.",
        "overclaim: optimal",
    ),
    # a noun qualified the other way on any line of the lexicon
    (
        "Runtime gains are greater for better models.",
        "Runtime gains are larger for better models.",
        "Runtime gains are greater for weaker models.",
        "opposite predicate",
    ),
    # "performs better than" and "outperforms" are one relation; its roles count
    (
        "Multi-head attention with a large embedding dimension performs better than single-head attention.",
        "With a large embedding dimension, multi-head attention outperforms single-head attention.",
        "With a large embedding dimension, single-head attention outperforms multi-head attention.",
        "opposite predicate",
    ),
]


@pytest.mark.parametrize(("evidence", "faithful", "unfaithful", "reason"), CASES + CASES_V25 + CASES_V26)
def test_rule_both_directions(evidence: str, faithful: str, unfaithful: str, reason: str) -> None:
    check_both_directions(evidence, faithful, unfaithful, reason)


PARAPHRASES = [
    ("The compressed model achieves the same average score as the original.",
     "The compressed model shows no change in average score relative to the original."),
    ("The analysis covers a broader class of objectives than prior work.",
     "The analysis covers a wider class of objectives than prior work."),
    ("The captions show a substantial increase in length and relevant detail.",
     "The captions become substantially longer and richer in relevant detail."),
    ("The linear and the non-linear layers are trained with different optimizers.",
     "The linear layers and the non-linear ones are trained with different optimizers."),
    ("CLIP improves the localization of objects with several changes.",
     "Several changes let CLIP improve the localization of objects."),
    ("The server can share only one model at anytime.",
     "At any time the server can share only one model."),
    ("We highlight the importance of addressing annotation errors in the benchmarks.",
     "The authors highlight the importance of handling annotation errors in the benchmarks."),
    ("The upper bound of the first network is lower than that of the second network.",
     "The first network has a smaller upper bound than the second network."),
    ("The approach eliminates the need for a separate verifier.",
     "The approach does away with the need for a separate verifier."),
    ("The task remains NP-hard under this relaxation.",
     "The task stays NP-hard under this relaxation."),
    ("Our lower bound demonstrates the optimality of the estimator.",
     "The lower bound shows that the estimator is optimal."),
    ("The relaxed problems always have deterministic optimal policies.",
     "The relaxed problems are guaranteed to admit deterministic optimal policies."),
    ("No efficient algorithm was known without strong assumptions.",
     "No efficient algorithm was known unless strong assumptions were made."),
    ("The method helps low-performing languages and explains differences between high- and low-performing languages.",
     "The method helps low-performing languages."),
    ("The model reaches $\\epsilon$ error with few layers.",
     "The model reaches ε error with few layers."),
]  # fmt: skip


@pytest.mark.parametrize(("evidence", "claim"), PARAPHRASES)
def test_paraphrase_accepted(evidence: str, claim: str) -> None:
    j = judge(claim, evidence, cosine=COS)
    assert j.supported, j.reason


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("over a fifth of them", {0.2}),
        ("three quarters of runs", {0.75}),
        ("the fifth layer", {5.0}),
        ("half a million tokens", {500000.0}),
    ],
)
def test_fraction_words(text: str, expected: set[float]) -> None:
    assert set(values(text)) == expected


def test_asymptotic_orders_in_any_notation() -> None:
    written = r"$O(\sqrt{n})$, O(√n), O(sqrt(n)) and $\mathcal{O}(n^2)$ = O(n²)"
    assert complexities(written) == {"O(sqrtn)", "O(n2)"}


@pytest.mark.parametrize("word", ["wider", "richer", "bigger", "simplest"])
def test_degrees_of_adjectives_are_no_technical_terms(word: str) -> None:
    assert "adj" in parts_of_speech(word) and not technical(word)


def test_superlatives_and_nouns_in_er_kept_apart() -> None:
    assert superlative("highest") and not superlative("wider")
    assert technical("optimizer") and technical("tokenizer")  # no degree of "optimize"


def _phrase_similarity(a: str, b: str) -> float:
    """Rewordings of one concept are close; two different concepts are not (as the embedding)."""
    close = {frozenset({"mathematical reasoning", "math reasoning"})}
    return 0.9 if a == b or frozenset({a, b}) in close else 0.3


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("The benchmark targets math reasoning in small language models.", True),
        ("The benchmark targets machine translation in small language models.", False),
    ],
)
def test_whole_compound_swapped(claim: str, supported: bool) -> None:
    # v26: a noun compound replaced whole, head included, by one of other common words
    evidence = "The benchmark targets mathematical reasoning in small language models."
    j = judge(claim, evidence, cosine=COS, similar=_phrase_similarity)
    assert j.supported is supported, j.reason
    assert supported or (j.reason or "").startswith("name not in evidence: machine translation")
