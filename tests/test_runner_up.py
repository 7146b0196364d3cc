"""A "what is <name>?" question whose first paper never writes the name is answered by the
retrieved paper that does, when few papers write it (`runner_up.named_runner_up`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.accept import LOOSE, Trial, pool_rare_stems
from rag.answer.names import (
    asks_what_name_is,
    defines_asked_name,
    only_as_word,
    rare_name_stems,
    unknown_names,
    writes_in_capitals,
)
from rag.answer.runner_up import named_runner_up
from rag.engine import Engine
from rag.retrieval.retriever import Retrieval
from rag.types import Query
from tests.conftest import with_papers, with_records


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("What is the One-Step Generalization Ratio?", True),
        ("what's a Lomb-Scargle layer", True),
        ("Define TimeFlow Loss", True),
        ("What is the accuracy of GENIE on DomainNet in the main experiments reported?", False),
        ("What accuracy does it reach on CIFAR-10?", False),
        ("How is the One-Step Generalization Ratio computed?", False),
        ("What does IME stand for?", True),
        ("What is KKT short for?", True),
        ("What does the acronym SOSP stand for?", True),
        # a manner may lead or trail the question
        ("In a sentence, what is PEPR?", True),
        ("what is PEPR in a sentence?", True),
    ],
)
def test_asks_what_name_is(question: str, asks: bool) -> None:
    assert asks_what_name_is(question) is asks


@given(st.text(max_size=80))
def test_asks_what_name_is_never_raises(question: str) -> None:
    asks_what_name_is(question)


PAPERS = [
    "We study the ratio of generalization gains across tasks and what limits it.",
    "We propose a new optimizer. It equalizes the Quantum Widget Ratio (QWR) across parameters, "
    "a measure of each parameter's contribution to loss reduction.",
]


def _ranked_first(engine: Engine, question: str, first: str) -> Retrieval:
    """The retrieval with `first` put first (the premise: the name's paper is a runner-up)."""
    r = engine.retriever.retrieve(question)
    r.hits = sorted(r.hits, key=lambda h: h.paper_id != first)
    return r


def test_the_paper_that_writes_the_name_answers(fake_engine: Engine, tmp_path: Path) -> None:
    engine = with_papers(fake_engine, tmp_path / "qw", "qw", PAPERS)
    question = "What is the Quantum Widget Ratio?"
    r = _ranked_first(engine, question, "qw#1")
    won = named_runner_up(Trial(Query(question=question), r, engine.retriever, LOOSE, [], None))
    assert [h.paper_id for h, _, _ in won] == ["qw#2"]
    assert r.hits[0].paper_id == "qw#2"  # the sources list it first too


def test_not_for_other_questions_or_common_names(fake_engine: Engine, tmp_path: Path) -> None:
    engine = with_papers(fake_engine, tmp_path / "qw", "qw", PAPERS)
    for question in ("How is the Quantum Widget Ratio computed across tasks?", "What is the ratio?"):
        r = _ranked_first(engine, question, "qw#1")
        assert named_runner_up(Trial(Query(question=question), r, engine.retriever, LOOSE, [], None)) == []


@pytest.mark.parametrize(
    ("question", "rare"),
    [
        ("What is disintegrated PAC-Bayes?", ["disintegr"]),  # 2 papers write it
        ("What is PAC-Bayes?", []),  # 3 do: it singles out none
        ("What is flurbified PAC-Bayes?", []),  # none does: a slip or an unindexed name
        ("How are disintegrated PAC-Bayes bounds proved?", []),  # does not ask what a name is
    ],
)
def test_rare_name_stems(question: str, rare: list[str]) -> None:
    df = {"disintegr": 2, "pac-bay": 3, "pac": 3, "bay": 3}
    assert rare_name_stems(question, df) == rare


BOUNDS = [
    "We derive PAC-Bayes bounds with a divergence better than KL. PAC-Bayes bounds control generalization.",
    "We leverage disintegrated PAC-Bayes bounds to derive a bound with arbitrary complexity measures.",
    "A survey of PAC-Bayes theory and its generalization bounds for neural networks.",
]


def test_a_rare_word_of_the_name_is_held_to_the_paper(fake_engine: Engine, tmp_path: Path) -> None:
    """The first paper shares the name's common words but not its rare one: it does not answer,
    and the paper that writes the rare word does."""
    engine = with_papers(fake_engine, tmp_path / "pb", "pb", BOUNDS)
    question = "What is disintegrated PAC-Bayes?"
    r = _ranked_first(engine, question, "pb#1")
    won = named_runner_up(Trial(Query(question=question), r, engine.retriever, LOOSE, [], None))
    assert [h.paper_id for h, _, _ in won] == ["pb#2"]
    assert {c.paper_id for c in engine.ask(question).citations} == {"pb#2"}


def test_a_rare_frame_word_or_a_named_paper_holds_no_paper_back(fake_engine: Engine, tmp_path: Path) -> None:
    """A rare word no retrieved paper writes frames the question ("the gist of"); a question
    naming papers by label is about them, whatever other rare words it has."""
    papers = [*BOUNDS, "We introduce FoldGist, a diffusion model. The gist of folding is its contacts."]
    engine = with_papers(fake_engine, tmp_path / "pb", "pb", papers)
    question = "What's the gist of disintegrated PAC-Bayes?"
    hits = [h for h in engine.retriever.retrieve(question).hits if h.paper_id != "pb#4"]
    assert pool_rare_stems(question, hits, engine.retriever) == ("disintegr",)
    assert pool_rare_stems("What are FoldGist and disintegrated PAC-Bayes?", hits, engine.retriever) == ()


@pytest.mark.parametrize(
    ("question", "text", "defines"),
    [
        ("What is WQRM?", "We train Writing Quality Reward Models (WQRM) of various sizes.", True),
        ("What is WQRM?", "WQRM-based selection is preferred by experts.", False),  # uses it, defines nothing
        ("What is IME?", "We propose IME, an exploration bonus.", True),
        ("What is CIFAR?", "We test on CIFAR (CIFAR) images.", False),  # 5 abstracts write it: not rare
        ("How does WQRM work?", "Writing Quality Reward Models (WQRM) score edits.", False),  # asks more
        ("What is the WQ benchmark?", "We introduce the Writing Quality Benchmark (WQ).", True),
        ("What does WQRM stand for?", "We train Writing Quality Reward Models (WQRM).", True),
        ("what is wqrm?", "We train Writing Quality Reward Models (WQRM).", True),  # typed in lowercase
        ("what is wqrm?", "WQRM is a reward model.", False),  # lowercase: only its long form defines it
        ("what is attention?", "We use self-attention (attention) layers.", False),  # a common word
    ],
)
def test_defines_asked_name(question: str, text: str, defines: bool) -> None:
    assert defines_asked_name(question, text, {"wqrm": 1, "ime": 2, "cifar": 5, "wq": 1, "attent": 40}) is defines


ACRONYMS = [
    "We propose a training framework combining feedback graphs with intrinsically motivated exploration (IME). "
    "It boosts sample efficiency in sparse-reward tasks.",
    "Exploration in reinforcement learning is hard. We study count-based bonuses for sparse rewards.",
]


def test_what_an_abstract_defines_is_answered_by_its_definition(fake_engine: Engine, tmp_path: Path) -> None:
    """An acronym the embedding cannot read: its defining sentence answers, cited."""
    engine = with_papers(fake_engine, tmp_path / "ac", "ac", ACRONYMS)
    a = engine.ask("What is IME?")
    assert not a.refused
    assert a.citations[0].paper_id == "ac#1" and "(IME)" in a.citations[0].quote


@pytest.mark.parametrize(
    ("name", "text", "only"),
    [
        ("DRIFT", "We adapt to concept drift. Drifting data hurts.", True),
        ("DRIFT", "An Adaptive Method for Drifting Data", True),  # a title's capital is no name
        ("DRIFT", "We propose flows for regression (DRIFT).", False),
        ("LORA", "We fine-tune with LoRA adapters.", False),  # mixed case: the name
        ("DRIFT", "No such word here.", False),  # not written at all: `unknown_names` says so
        ("Drift", "concept drift", False),  # not an all-caps name
    ],
)
def test_only_as_word(name: str, text: str, only: bool) -> None:
    assert only_as_word(name, text) is only


DRIFTING = [
    "Concept drift breaks deployed classifiers. Our detectors stand watch for drift and adapt to "
    "the drift with a sliding window whose size follows the drift.",
    "Data drift in streams is common. Our drift test flags drift within a few samples.",
    "Neural networks can represent classical statistical models. Regression with inverse flow "
    "transformations (DRIFT) stands in for them on survival outcomes.",
]


def test_an_all_caps_name_is_not_the_word_other_papers_use(fake_engine: Engine, tmp_path: Path) -> None:
    engine = with_papers(fake_engine, tmp_path / "dr", "dr", DRIFTING)
    assert unknown_names("What does DRIFT stand for?", DRIFTING[0]) == ["DRIFT"]
    # Only asked what it is: elsewhere an all-caps name is often another paper's label.
    assert unknown_names("Setting DRIFT aside, what does the other one adapt?", DRIFTING[0]) == []
    a = engine.ask("What does DRIFT stand for?")
    assert {c.paper_id for c in a.citations} == {"dr#3"}
    assert "(DRIFT)" in a.answer.split("[1]")[0]
    assert engine.retriever.snapshot.papers["dr#3"].label != "DRIFT"  # as in a real abstract: not its label


@pytest.mark.parametrize(
    ("name", "text", "writes"),
    [
        ("ARM", "We lift x86, ARM, and RISC-V binaries.", True),
        ("ARM", "An Adaptive Residual Module (ARM) and its ARMs.", True),
        ("ARM", "Fitting linear models to data.", False),  # only inside other words, squashed
        ("ARM", "The best arm of a bandit; every Arm is pulled.", False),  # only as a word
        ("ARM", "ARMA models of time series.", False),  # part of another name
        ("LoRA", "lora adapters", True),  # not all in capitals: not asked of
    ],
)
def test_writes_in_capitals(name: str, text: str, writes: bool) -> None:
    assert writes_in_capitals(name, text) is writes


def test_a_capitalised_name_is_rare_as_written() -> None:
    """ "arm" is in hundreds of bandit abstracts; "ARM" written in capitals in one."""
    text = "We design the Adaptive Residual Module (ARM) for small targets."
    df = {"arm": 300}
    assert not defines_asked_name("What is ARM?", text, df)
    assert defines_asked_name("What is ARM?", text, df, {"ARM": 1})
    assert not defines_asked_name("What is ARM?", text, df, {"ARM": 5})  # many write it so


ARMS = [
    *(
        f"We study best arm identification in {kind} bandits with linear models of the reward. "
        "Each arm yields a reward, and the learner pulls one arm per round to find the best arm."
        for kind in ("linear", "contextual", "dueling", "restless", "combinatorial", "fixed-budget", "sleeping")
    ),
    "Binary lifting is hard. Our neural lifter translates x86, ARM, and RISC-V assembly to compiler IR.",
    "Small targets vanish in deep layers. We design an Adaptive Residual Module (ARM) that keeps "
    "their position information.",
]


def test_a_name_no_retrieved_paper_writes_is_looked_up(fake_engine: Engine, tmp_path: Path) -> None:
    """ "What is ARM?" when every retrieved paper is on bandit arms (and "linear models" squashed
    holds "arm"): the paper that defines the name answers, not the one that only uses it."""
    # Titles, as real records give them: a paper's label is then not the acronym it defines.
    titles = [*(f"Bandits {i}" for i in range(7)), "A Neural Lifter", "TinyDet: Finding Small Targets"]
    meta = [{"paper_id": f"arm#{i + 1}", "title": t} for i, t in enumerate(titles)]
    engine = with_records(fake_engine, tmp_path / "arm", "arm", ARMS, meta)
    assert "ARM" not in {p.label for p in engine.retriever.snapshot.papers.values()}
    a = engine.ask("What is ARM?")
    assert not a.refused
    assert {c.paper_id for c in a.citations} == {"arm#9"}


@pytest.mark.parametrize(
    ("question", "defined"),
    [
        # a hyphenated name is rare by its whole, however common its first part ("safe")
        ("What's Safe-PSRL?", True),
        ("In a sentence, what is Safe-PSRL?", True),
        ("What is Safe?", False),
    ],
)
def test_a_hyphenated_name_the_paper_defines(question: str, defined: bool) -> None:
    text = "We propose the Safe-PSRL (posterior sampling-based RL) algorithm for safe exploration."
    df = {"safe": 40, "safe-psrl": 1, "psrl": 1}
    assert defines_asked_name(question, text, df) is defined
