"""Word classes from WordNet (rag.answer.lexicon) and the judge rules built on them: a
technical term swapped in for another term, two terms exchanged, each in both directions."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from rag.answer import lexicon
from rag.answer.judge import judge
from rag.answer.judge_order import exchanged_terms
from rag.answer.judge_terms import modifier_swaps, swaps, term_swaps
from rag.settings import PROJECT_ROOT

COS = 0.85


@pytest.mark.parametrize(
    ("word", "names_a_thing", "technical"),
    [
        ("covariance", True, True),
        ("regularization-based", True, True),
        ("divergence", True, True),
        ("hadamard", True, True),  # unknown to WordNet: a coined or technical word
        ("setting", True, False),  # a plain noun
        ("abilities", True, False),
        ("keeps", False, False),  # a verb
        ("assemble", False, False),
        ("text-to-image", True, False),  # a compound of plain words
    ],
)
def test_word_classes(word: str, names_a_thing: bool, technical: bool) -> None:
    assert lexicon.names_a_thing(word) is names_a_thing
    assert lexicon.technical(word) is technical


def test_parts_of_speech_by_lemma() -> None:
    assert "noun" in lexicon.parts_of_speech("abilities")
    assert "verb" in lexicon.parts_of_speech("tuned")
    assert lexicon.parts_of_speech("xqzt") == frozenset()


EV = "The module aligns prototype features with covariance calibration before each update."


@pytest.mark.parametrize(
    ("claim", "caught"),
    [
        ("Before each update, the module aligns prototype features using covariance calibration.", False),
        ("The module matches prototype features with covariance calibration before every update.", False),
        ("The module aligns prototype features with batch normalization recalibration before each update.", True),
        ("The module aligns prototype features with eigenvalue calibration before each update.", True),
    ],
)
def test_term_swaps(claim: str, caught: bool) -> None:
    got = term_swaps(claim, EV)
    assert (got or "").startswith("name not in evidence: ") if caught else got is None
    assert judge(claim, EV, cosine=COS).supported is not caught


def test_a_plain_noun_for_a_noun_is_a_paraphrase() -> None:
    ev = "The benchmark covers every environment with a fixed budget."
    assert term_swaps("The benchmark covers every setting with a fixed budget.", ev) is None


@pytest.mark.parametrize(
    ("evidence", "claim", "caught"),
    [
        (
            "The encoder produces image embeddings that are easy to turn into region representations.",
            "The encoder produces region embeddings that are easy to turn into image representations.",
            True,
        ),
        (
            "This provides theoretical support for ongoing empirical research on transformers.",
            "This provides empirical support for ongoing theoretical research on transformers.",
            True,
        ),
        (
            "The framework leverages machine learning to accelerate optimization algorithms.",
            "Machine learning is used by the framework to speed up optimization algorithms.",
            False,
        ),
        (  # active to passive exchanges subject and object and says the same
            "In this setting the agent always observes rewards.",
            "In this setting rewards are always observed by the agent.",
            False,
        ),
    ],
)
def test_exchanged_terms(evidence: str, claim: str, caught: bool) -> None:
    got = exchanged_terms(claim, evidence)
    assert (got or "").startswith("opposite predicate: ") if caught else got is None


def test_swapped_compound_modifier_that_is_a_plain_verb_is_a_paraphrase() -> None:
    ev = "Existing weights represent unseen test distributions poorly."

    def far(a: str, b: str) -> float:
        return 0.4

    assert swaps("Existing weights reflect unseen test distributions poorly.", ev, far) is None


def test_common_words_file_is_what_the_generator_writes() -> None:
    spec = importlib.util.spec_from_file_location("common_words", PROJECT_ROOT / "eval/verifier/common_words.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    shipped = Path(PROJECT_ROOT / "rag/text/data/common_words.txt").read_text(encoding="utf-8").splitlines()
    assert [w for w in shipped if not w.startswith("#")] == mod.common_words()


def test_pair_halves_share_no_evidence_and_quote_their_papers() -> None:
    """The leak check for the pair sets: no evidence sentence (nor a near copy, content-word
    Jaccard >= 0.6) in both halves; each evidence is verbatim in the abstract it names."""
    from rag.corpus.reader import corpus_files, read_corpus_file
    from rag.evaluation.judge_eval import load_pairs
    from rag.evaluation.leaks import JACCARD_MAX, jaccard
    from rag.text.normalize import match_form

    halves = {h: load_pairs(PROJECT_ROOT / f"eval/verifier/pairs_{h}.jsonl") for h in ("calibration", "report")}
    cal = {r["evidence"] for r in halves["calibration"]}
    rep = {r["evidence"] for r in halves["report"]}
    assert not [(a, b) for a in rep for b in cal if a == b or jaccard(a, b) >= JACCARD_MAX]
    roots = [PROJECT_ROOT / "data", PROJECT_ROOT / "eval" / "corpora"]
    abstracts = {p.paper_id: match_form(p.abstract) for f in corpus_files(roots) for p in read_corpus_file(f)}
    rows = halves["calibration"] + halves["report"]
    assert [r["id"] for r in rows if match_form(r["evidence"]) not in abstracts.get(r["paper_id"], "")] == []


@pytest.mark.parametrize(
    ("evidence", "claim", "caught"),
    [
        (
            "Weights tuned on validation data may not represent unseen test distributions.",
            "Weights tuned on training data may not represent unseen test distributions.",
            True,
        ),
        (
            "Weights tuned on validation data may not represent unseen test distributions.",
            "Weights fitted on validation data might not reflect unseen test distributions.",
            False,
        ),
        (  # an adjective swapped for its synonym before the same head
            "The encoder reads the entire signal at once.",
            "The encoder reads the full signal at once.",
            False,
        ),
        (  # a number word is no head: "spanning four" / "covering four"
            "The benchmark has tasks spanning four domains.",
            "The benchmark has tasks covering four domains.",
            False,
        ),
    ],
)
def test_modifier_swaps(evidence: str, claim: str, caught: bool) -> None:
    got = modifier_swaps(claim, evidence)
    assert (got or "").startswith("name not in evidence: ") if caught else got is None


@pytest.mark.parametrize(
    ("evidence", "faithful", "unfaithful"),
    [
        (
            "Attention is a fundamental component of the model and plays a significant role in its success.",
            "Attention is a fundamental part of the model and matters greatly for its success.",
            "Attention is a fundamental component of the model and is the sole reason for its success.",
        ),
        (
            "Experiments show the approach is effective for different levels of corruption.",
            "Experiments show that the approach works for different levels of corruption.",
            "Experiments show the approach is effective for arbitrarily high levels of corruption.",
        ),
        (
            "We build one of the most extensive benchmarks for tabular data generation.",
            "The authors build one of the most extensive benchmarks for generating tabular data.",
            "The authors build the most extensive benchmark ever for tabular data generation.",
        ),
        (
            "We believe that the forecasting capability can improve reliability in decision-making.",
            "The authors believe the forecasting capability could improve reliability in decision-making.",
            "The forecasting capability has been shown to improve reliability in decision-making.",
        ),
    ],
)
def test_overclaim_cues_and_hedges(evidence: str, faithful: str, unfaithful: str) -> None:
    assert judge(faithful, evidence, cosine=COS).supported
    assert (judge(unfaithful, evidence, cosine=COS).reason or "").startswith("overclaim")


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [  # "non X" written apart is "non-X"; removing verbs restated by their synonyms
        (
            "The mechanism beats both publicly assisted and non publicly assisted baselines.",
            "The mechanism beats both publicly assisted and non-publicly assisted baselines.",
        ),
        (
            "The technique randomly removes edges during training.",
            "The technique randomly drops edges during training.",
        ),
    ],
)
def test_negation_restated(evidence: str, claim: str) -> None:
    assert judge(claim, evidence, cosine=COS).supported
