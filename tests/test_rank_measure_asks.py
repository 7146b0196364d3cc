"""Asks for a ranking, a latency or a rate, names of one alternative, and a paper's naming words."""

import pytest

from rag.answer.asks import needs
from rag.answer.evidence import lacking_names, naming_words
from rag.answer.list_question import alternatives
from rag.answer.names import unknown_names
from rag.answer.ranks import asks_rank, ranks
from rag.answer.reasons import asks_reason, problem_before, reason_asked


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Which of those languages did the models perform worst on?", True),
        ("Which specific VLM turned out to be the most robust to watermarks?", True),
        ("Which LLM scores highest on the benchmark?", True),
        ("Which specific GPU model gave the lowest cost per run?", True),  # WordNet lists "lowest"
        ("On which of the benchmarks did the constraint help the most?", True),
        ("Which papers most directly address label noise?", False),  # asks for papers
        ("Which methods need at least two GPUs?", False),
        ("Which least squares solver do they use?", False),
        ("What is the parameter count of the largest model?", False),  # a number, not a "which"
        ("Which interest rate is used?", False),
    ],
)
def test_asks_rank(question: str, asks: bool) -> None:
    assert asks_rank(question) is asks


@pytest.mark.parametrize(
    ("sentence", "ranked"),
    [
        ("The supervised method performs best on localization.", True),
        ("Counting signed 4-cycles is optimal among all low-degree tests.", True),
        ("Our model is more robust than the baselines.", True),
        ("It achieves the lowest error on every task.", True),
        ("It outperforms prior work.", True),
        ("We identify ReLU networks on sparse graphs as particularly fragile.", True),  # singled out
        ("We translate the benchmark into five languages.", False),
        ("We run our benchmark on a range of academic GPUs.", False),
    ],
)
def test_ranks(sentence: str, ranked: bool) -> None:
    assert ranks(sentence) is ranked


def test_a_ranking_is_needed_when_asked_for() -> None:
    q = "Which of those languages did the models perform worst on?"
    (need,) = [n for n in needs(q) if n.name == "a ranking"]
    assert need.required
    assert need.met_by("Models perform worst on Korean.")
    assert not need.met_by("The cases are translated into Japanese, French and Korean.")


def test_a_latency_is_met_by_a_duration() -> None:
    q = "What per-token latency does it reach when offloading onto two GPUs?"
    text = "For offloading on two GPUs, it achieves 0.108s/token, half as slow as the baseline."
    (need,) = needs(q, text=text)
    assert need.met_by(text)
    assert not need.met_by("Offloading keeps latency low on two GPUs.")
    # a paper with no length of time and no such thing cannot answer it
    assert not any(n.met_by("Offloading keeps latency low.") for n in needs(q, text="Offloading keeps latency low."))


@pytest.mark.parametrize(
    ("question", "sentence", "met"),
    [
        ("What model-selection regret rate does it achieve?", "It achieves regret rates of $\\log(M)/n$.", True),
        ("What convergence rate is proven?", "The iterates converge at rate $n^{-1/2}$ in total.", True),
        ("What model-selection regret rate does it achieve?", "Regret is studied for $k$ models.", False),
        ("What leaky ReLU slope do they recommend?", "Leaky ReLU with slope 0.2 works best.", True),
        ("What leaky ReLU slope do they recommend?", "Leaky ReLU networks generalize.", False),
    ],
)
def test_rates_and_slopes(question: str, sentence: str, met: bool) -> None:
    text = f"{sentence} Leaky ReLU and regret are studied."
    assert all(n.met_by(sentence) for n in needs(question, text=text)) is met


def test_a_names_adjective_is_written_by_the_name() -> None:
    text = "the Lagrange function of a Markov chain, a Bayes rule, in Euclid's space"
    assert unknown_names("Is the Lagrangian of the Markovian, Bayesian, Euclidean model used?", text) == []
    assert unknown_names("What about the Lagrangian?", "a lag of the model") == ["Lagrangian"]


def test_names_of_one_alternative_suffice() -> None:
    q = "Which papers report results on the MTEB benchmark or its multilingual extension MMTEB?"
    options = alternatives(q)
    assert len(options) == 2
    assert lacking_names(options, "Experiments on sentence embedding (MMTEB) show gains.") == []
    assert lacking_names(options, "We report results on MTEB.") == []
    assert lacking_names(options, "We report results on BEIR.") == ["MTEB"]


@pytest.mark.parametrize(
    ("question", "label", "title", "named", "words"),
    [
        # referred to, a title label's words are the property's ("structure", "transform")
        ("Can their approach impose structure on the transform?", "Structured Transforms", None, False, ""),
        ("Does BlockBoost use neural networks?", "BlockBoost", None, False, "BlockBoost"),
        ("Does the record linkage paper use GPUs?", "BlockBoost", "Record Linkage", True, "BlockBoost Record Linkage"),
    ],
)
def test_naming_words(question: str, label: str, title: str | None, named: bool, words: str) -> None:
    assert naming_words(question, label, title, named=named) == words


def test_a_comparative_answers_which_is_most() -> None:
    assert ranks("Models err on larger companies.")
    assert not ranks("Models err on companies.")


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("What did Penn et al. propose for estimating causal effects?", True),
        ("What did they propose to fix that, and what does it guarantee?", True),
        ("What does the paper introduce?", True),
        ("Why did they propose a new loss?", False),
        ("What data did they use?", False),
    ],
)
def test_a_proposal_asked_leads_with_the_contribution(question: str, asks: bool) -> None:
    found = [n for n in needs(question) if n.name == "the contribution"]
    assert bool(found) is asks
    if found:
        assert not found[0].required  # it orders the evidence, never refuses
        assert found[0].met_by("We present a framework for relaxing these assumptions.")
        assert not found[0].met_by("Instrumental variables are widely used.")


def test_what_was_asked_for_leads_before_the_contribution() -> None:
    text = "We propose two approaches: A and B. We present experiments."
    names = [n.name for n in needs("What approaches do they propose for it?", text=text)]
    assert names[-1] == "the contribution"
    assert len(names) > 1


def test_a_specific_thing_of_several_words_is_named() -> None:
    q = "Which specific trial and observational cohort did they use for that validation?"
    (need,) = needs(q, text="We validate on a cohort.")
    assert need.name == "a specific cohort"
    assert need.met_by("We use the MIMIC-IV cohort and the WHIOS trial.")
    assert not need.met_by("We validate our bound in a real-world cohort.")


def test_what_values_asks_for_numbers() -> None:
    (need,) = needs("What values of k work best?")
    assert need.met_by("Setting k to 5 works best.")
    assert not need.met_by("Small k works best.")


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("What coverage guarantee does the latter give?", True),
        ("What theoretical guarantees does it have?", True),
        ("What does their algorithm guarantee?", True),
        ("What data does it use?", False),
        ("Does it guarantee convergence?", False),  # yes/no: the property is named already
        ("Do they back their method up with any theory?", True),
        ("What theoretical and empirical evidence supports them?", True),
        ("Has any theory worked out what the best imbalance is?", False),  # asks for the imbalance
    ],
)
def test_a_guarantee_asked_leads_with_a_proven_property(question: str, asks: bool) -> None:
    found = [n for n in needs(question) if n.name == "a guarantee"]
    assert bool(found) is asks
    if found:
        assert not found[0].required
        assert found[0].met_by("Theoretically, we establish the forest to cover true labels.")
        assert not found[0].met_by("We compare the forest with other methods on real data.")


@pytest.mark.parametrize(
    ("sentence", "proof"),
    [
        ("We prove regret bounds for these algorithms.", True),
        ("We further establish sample complexity guarantees for our method.", True),
        ("The estimator is provably consistent.", True),
        ("Our main theorem bounds the error.", True),
        ("The upper confidence bounds algorithm achieves near-optimal regret.", False),  # a name
        ("Its intervals remain valid under shift.", False),  # a property, not a proof
        ("We improve on prior methods.", False),
    ],
)
def test_a_proof_leads_wherever_it_ranks_and_a_proven_property_within_the_margin(sentence: str, proof: bool) -> None:
    by_name = {n.name: n for n in needs("What theoretical guarantees does it have?")}
    assert by_name["a proof"].specific and not by_name["a proof"].required
    assert by_name["a proof"].met_by(sentence) is proof


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Why does the rollout first restrict treatment to a sub-population?", True),
        ("What weakness of quadrature features motivated the new approach?", True),
        ("What problem with a shared supernet pushed researchers toward splitting it?", True),
        ("How does the method restrict the rollout?", False),
        ("What data does it use?", False),
    ],
)
def test_asks_reason(question: str, asks: bool) -> None:
    assert asks_reason(question) is asks


def test_the_problem_before_an_answering_sentence_is_the_reason() -> None:
    quotes = [
        ("s0", "Rollout designs give unbiased estimators."),
        ("s1", "However, the required extrapolation can lead to prohibitively high variance."),
        ("s2", "To address this, we propose a two-stage experiment."),
        ("s3", "Experiments confirm the gains."),
    ]
    assert problem_before(quotes, ["s2", "s0"]) == "s1"
    assert problem_before(quotes, ["s3", "s2"]) == "s1"  # the first candidate that addresses one
    assert problem_before(quotes, ["s0", "s3"]) is None
    assert problem_before([("s2", "To address this, we propose a design.")], ["s2"]) is None  # nothing before


def test_the_reason_is_asked_only_of_usable_sentences_close_to_the_best() -> None:
    quotes = [("s1", "However, it has high variance."), ("s2", "To address this, we propose a design.")]
    scored = [("s2", quotes[1][1], 2.0), ("s1", quotes[0][1], 0.5)]
    q = "Why does it use a design?"
    assert reason_asked(q, quotes, scored, 0.6) == "s1"
    assert reason_asked(q, quotes, [("s0", "x", 3.0), *scored], 0.6) is None  # "To address" too far below
    assert reason_asked(q, quotes, scored[:1], 0.6) is None  # the problem is no usable evidence
    assert reason_asked("How does it work?", quotes, scored, 0.6) is None


@pytest.mark.parametrize(
    ("question", "need", "meets", "misses"),
    [
        (
            "Which base model did they fine-tune?",
            "names of model",
            "We fine-tune the Llama-3 model.",
            "We fine-tune an open-source model.",
        ),
        (
            "Which single-cell dataset did they apply it to?",
            "names of dataset",
            "We apply it to the CellxGene dataset.",
            "We apply it to single-cell data.",
        ),
        (
            "Which two LLMs exactly were used to evaluate it?",
            "names of LLMs",
            "We evaluate it on two LLMs, Llama-3 and Mistral.",
            "We evaluate it on two LLMs.",
        ),
        (
            "What are the names of the real-world datasets they validated it on?",
            "names of datasets",
            "We validate it on the MIMIC-IV and eICU datasets.",
            "We validate it on five real-world datasets.",
        ),
        (
            "Which LLM generated the answers that participants were shown?",
            "names of LLM",
            "Answers generated by the GPT-4 LLM were shown.",
            "Answers generated by an LLM were shown.",
        ),
    ],
)
def test_the_things_a_paper_used_are_named(question: str, need: str, meets: str, misses: str) -> None:
    (found,) = [n for n in needs(question, text="We study models and datasets.") if n.name == need]
    assert found.required
    assert found.met_by(meets)
    assert not found.met_by(misses)


@pytest.mark.parametrize(
    "question",
    [
        "What baseline are those data-blind attacks on fine-tuned LLMs shown to be competitive with?",
        "Which papers change the recipe by which large models are pre-trained?",
    ],
)
def test_a_participle_modifier_is_no_verb_of_use(question: str) -> None:
    assert not [n for n in needs(question) if n.name.startswith("names of") and n.required]


def test_benchmarks_asked_are_met_by_named_datasets() -> None:
    q = "How big is the improvement they report, and on which benchmarks?"
    (need,) = [n for n in needs(q, text="Gains on datasets.") if n.name == "names of benchmarks"]
    assert need.met_by("It gains up to 2.7% nDCG across retrieval datasets (BeIR, RAR-b).")
    assert not need.met_by("It gains up to 2.7% across open-domain retrieval datasets.")


def test_et_al_means_a_coauthored_paper_when_its_topic_fits_better() -> None:
    from types import SimpleNamespace

    from rag.answer.authored import _fitting

    papers = {
        "a": SimpleNamespace(title="Thresholds for reconstruction of random hypergraphs"),
        "b": SimpleNamespace(title="Computationally efficient reductions between statistical models"),
    }
    stems = {"a": {"hypergraph", "threshold", "reconstruct"}, "b": {"reduct", "statist", "model", "sampl"}}
    snap = SimpleNamespace(papers=papers, vocabulary=SimpleNamespace(paper_stems=stems))
    q = "What did Bresler et al. show about reductions between statistical models?"
    assert _fitting(q, ["a"], ["b"], snap) == ["b"]  # type: ignore[arg-type]
    assert _fitting("What did Bresler et al. find?", ["a"], ["b"], snap) == ["a"]  # type: ignore[arg-type]
    assert _fitting(q, ["a"], [], snap) == ["a"]  # type: ignore[arg-type]
