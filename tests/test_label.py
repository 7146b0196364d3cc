"""The labeller against a hand-made gold list of the names the 57 abstracts coin."""

import json

import pytest

from rag.corpus.label import coined_name, make_label, short_phrase, title_name
from rag.corpus.reader import corpus_files, read_corpus_file
from tests.conftest import DATA, TESTDATA


def test_coined_names_against_gold() -> None:
    gold = json.loads((TESTDATA / "coined_names.json").read_text(encoding="utf-8"))
    names, alternates = gold["names"], gold["alternates"]
    papers = {p.paper_id: p for f in corpus_files([DATA]) for p in read_corpus_file(f)}
    assert set(papers) == set(names)
    named = correct = 0
    for pid, paper in papers.items():
        got = coined_name(paper.abstract)
        if got is None:
            continue
        named += 1
        correct += got == names[pid] or got in alternates.get(pid, [])
    n_gold = sum(v is not None for v in names.values())
    precision = correct / named
    recall = correct / n_gold
    # The gold list holds 34 coined names (23 abstracts coin none), so "named" is bounded by 34.
    assert precision >= 0.9, (precision, named)
    assert recall >= 0.9, (recall, correct, n_gold)


def test_fallback_label_is_short_phrase() -> None:
    abstract = "Attention mechanism is a fundamental component of the transformer model, and it matters. More."
    assert coined_name(abstract) is None
    assert make_label(abstract) == "Attention mechanism is a fundamental component of the…"
    assert short_phrase("Short one. Next sentence.") == "Short one"


def test_names_from_patterns() -> None:
    assert coined_name("We propose **FooNet**, a network. FooNet works.") == "FooNet"
    assert coined_name("We introduce Speed-Based Sampling (SBS), a strategy. SBS helps.") == "SBS"
    assert coined_name("The proposed framework, called **TraceGrad**, is new.") == "TraceGrad"
    assert coined_name("Our method, FAST, is fast. FAST wins.") == "FAST"
    # Names of other people's work are not ours.
    assert coined_name("BERT is popular. We study LLMs and SGD.") is None


def test_display_label_shortens_a_title_label_only() -> None:
    from rag.corpus.label import display_label, short_title

    long = "Mind the Gap: a Spectral Analysis of Rank Collapse and Signal Propagation in Attention Layers"
    assert short_title(long) == "Mind the Gap"
    assert short_title("Benign Overfitting in Token Selection of Attention Mechanism and More Words") == (
        "Benign Overfitting in Token Selection of Attention Mechanism…"
    )
    assert short_title("Conformal Prediction as Bayesian Quadrature") == "Conformal Prediction as Bayesian Quadrature"
    # A genre word before the colon says what kind of paper it is, and names none.
    assert short_title("Position: Benchmarks Should Report Variance Across Seeds") == (
        "Benchmarks Should Report Variance Across Seeds"
    )
    assert short_title("Survey: Foo-Net: A Family of Models") == "Foo-Net"
    assert short_title("Position:") == "Position:"
    # a label that is the whole title (no coined name) is shortened where shown; a coined one is kept
    assert display_label(long, long) == "Mind the Gap" and display_label("JDI-CP", long) == "JDI-CP"
    assert display_label("a phrase from the text", None) == "a phrase from the text"
    # the label itself stays the whole title: follow-ups resolve names against it
    assert make_label("We study things. Nothing is coined here.", title=long) == long


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("SPIN-Bench: How Well Do LLMs Plan Strategically?", "SPIN-Bench"),
        ("RARe: Retrieval Augmented Retrieval with In-Context Examples", "RARe"),
        ("SmolLM2: When Smol Goes Big", "SmolLM2"),
        ("Partial Perspectives: How LLMs Handle Inconsistent Knowledge", None),  # no coined token
        ("In-Context Occam's Razor: How Transformers Prefer Simpler Hypotheses", None),  # a phrase
        ("Commonsense-T2I Challenge: Can Models Understand Commonsense?", None),
        ("Learning Smooth Potentials", None),  # no colon
        (None, None),
    ],
)
def test_title_name(title: str | None, name: str | None) -> None:
    assert title_name(title) == name


def test_a_title_s_own_name_wins_over_a_name_the_abstract_gives_first() -> None:
    abstract = "We introduce SMolData, a dataset of molecules. We train LlaSMol on SMolData and beat GPT-4."
    assert make_label(abstract) == "SMolData"
    assert make_label(abstract, title="LlaSMol: Language Models for Chemistry") == "LlaSMol"
    assert make_label(abstract, title="Language Models for Chemistry") == "SMolData"


def test_a_name_is_kept_as_the_title_writes_it() -> None:
    abstract = "We present a benchmark for text-to-image (T2I) models, which we call Commonsense-T2I. T2I models fail."
    assert (
        make_label(abstract, title="Commonsense-T2I Challenge: Can Models Understand Commonsense?") == "Commonsense-T2I"
    )
