"""Names as users type them (`rag/index/spelling.py`): other marks or spacing, lowercase, one
slipped letter; and the answer that reads them so and says it."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.engine import Engine
from rag.index.spelling import Speller, fold
from tests.conftest import with_papers

LABELS = {
    "p1": "AdaSplash",
    "p2": "LLM-SRBench",
    "p3": "MGD$^3$",
    "p4": "ConceptAttention",
    "p5": "Sundial",
    "p6": "Aggregation Buffer",
    "p7": "TimeFuse",
    "p8": "TimeFuser",
    "p9": "Mamba",
    "p10": "Feasible Learning",
    "p11": "ONERULER",
    "p12": "SPEEDUP",
}
# Words the abstracts use (document frequencies of stems): a word is not a misspelt name.
DF = {
    "attent": 40,
    "adasplash": 1,
    "transform": 30,
    "sundial": 1,
    "chrono": 3,
    "buffer": 2,
    "q-learn": 4,
    "learn": 50,
    "feasibl": 3,
    "onerul": 1,
    "speedup": 30,
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("MGD$^3$", "MGD3"),
        ("MGD^3", "MGD3"),
        ("MGD³", "MGD3"),
        ("LLM-SRBench", "LLMSRBench"),
        ("Lomb–Scargle", "LombScargle"),
    ],
)
def test_fold(text: str, expected: str) -> None:
    assert fold(text) == expected


@pytest.mark.parametrize(
    ("question", "respelled", "read"),
    [
        ("What is LLMSRBench?", "What is LLM-SRBench?", [("LLMSRBench", "LLM-SRBench")]),
        ("what is llm srbench?", "what is LLM-SRBench?", [("llm srbench", "LLM-SRBench")]),
        ("What is MGD^3?", "What is MGD$^3$?", [("MGD^3", "MGD$^3$")]),
        ("What is Adasplsh?", "What is AdaSplash?", [("Adasplsh", "AdaSplash")]),
        ("What does ConceptAtention do?", "What does ConceptAttention do?", [("ConceptAtention", "ConceptAttention")]),
        ("What does Sundail predict?", "What does Sundial predict?", [("Sundail", "Sundial")]),
        (
            "How big is the Agregation Buffer?",
            "How big is the Aggregation Buffer?",
            [("Agregation Buffer", "Aggregation Buffer")],
        ),
        (
            "Compare Adasplsh and Sundail",
            "Compare AdaSplash and Sundial",
            [("Adasplsh", "AdaSplash"), ("Sundail", "Sundial")],
        ),
        # written as indexed, or nothing near: unchanged
        ("What is AdaSplash?", "What is AdaSplash?", []),
        ("How does attention work?", "How does attention work?", []),
        ("What is HelixProbe?", "What is HelixProbe?", []),
        # one letter from two names (TimeFuse, TimeFuser): which one is unknown
        ("What is TimeFusr?", "What is TimeFusr?", []),
        # two letters from a name: another name, perhaps
        ("What is CacheFlipper?", "What is CacheFlipper?", []),
        # case alone is no slip
        ("What is Adasplash?", "What is Adasplash?", []),
        ("What does ConceptAtenton do?", "What does ConceptAtenton do?", []),
        # a digit is no slip ("Mamba2" is another model), nor a first letter, nor a short name
        ("What is Mamba2?", "What is Mamba2?", []),
        ("What is BdaSplash?", "What is BdaSplash?", []),
        ("What is Mamb?", "What is Mamb?", []),
        # a letter dropped from a six-letter name, and a hyphenated one
        ("What is Sudial?", "What is Sundial?", [("Sudial", "Sundial")]),
        ("What is LLM-SRBnch?", "What is LLM-SRBench?", [("LLM-SRBnch", "LLM-SRBench")]),
        # a word of the abstracts, one letter from a name, is that word
        ("Which papers use chronos?", "Which papers use chronos?", []),
        ("How does feasible Q-learning work?", "How does feasible Q-learning work?", []),
        ("What speedups does it report?", "What speedups does it report?", []),
        # a slip that stems as the name does
        ("What is ONERULLER?", "What is ONERULER?", [("ONERULLER", "ONERULER")]),
    ],
)
def test_respell(question: str, respelled: str, read: list[tuple[str, str]]) -> None:
    assert Speller(LABELS, DF).respell(question) == (respelled, read)


@given(st.text(max_size=80))
def test_respell_never_raises_and_only_writes_labels(question: str) -> None:
    out, read = Speller(LABELS, DF).respell(question)
    assert all(label in LABELS.values() and label in out for _, label in read)
    assert read or out == question


PAPERS = [
    "Protein structure prediction is slow for long chains. We introduce FoldFormer, a transformer "
    "that predicts protein backbones. FoldFormer folds chains of 2,000 residues in a minute.",
    "Graph neural networks oversmooth when layers are stacked. We present Graph-Mixer, a layer that "
    "mixes node features across hops. Graph-Mixer keeps its accuracy with 64 layers.",
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_papers(fake_engine, tmp_path / "sp", "sp", PAPERS)


@pytest.mark.parametrize(
    ("question", "paper", "note"),
    [
        (
            "How long a chain does FoldFomer fold in a minute?",
            "sp#1",
            "Read \u201cFoldFomer\u201d as \u201cFoldFormer\u201d.",
        ),
        (
            "How many layers does GraphMixer keep its accuracy with?",
            "sp#2",
            "Read \u201cGraphMixer\u201d as \u201cGraph-Mixer\u201d.",
        ),
    ],
)
def test_a_misspelt_name_is_answered_from_its_paper_and_the_answer_says_so(
    engine: Engine, question: str, paper: str, note: str
) -> None:
    a = engine.ask(question, explain=True)
    assert not a.refused, a.explain
    assert {c.paper_id for c in a.citations} == {paper}
    assert a.question == question
    assert a.note is not None and a.note.startswith(note)


def test_a_name_far_from_every_label_is_still_refused(engine: Engine) -> None:
    assert engine.ask("How long a chain does FoldMaster fold in a minute?").refused
