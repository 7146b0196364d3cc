"""A question that refers to a paper by its title's words ("the paper on large language
monkeys") is answered from that paper, though its abstract never uses those words."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.engine import Engine
from rag.index.title_refs import TitleIndex
from rag.types import Paper
from tests.conftest import write_corpus


def _paper(pid: str, title: str) -> Paper:
    return Paper(paper_id=pid, source="t", position=1, abstract="An abstract.", title=title, label=title)


def _titles(**titles: str) -> TitleIndex:
    """A title index of papers with these ids and titles."""
    return TitleIndex({pid: _paper(pid, title) for pid, title in titles.items()})


TITLES = TitleIndex(
    {
        "a": _paper("a", "How Do Large Language Monkeys Get Their Power (Laws)?"),
        "b": _paper("b", "Large Language Models as Optimizers"),
        "c": _paper("c", "Fundamental Bias in Inverting Random Sampling Matrices"),
        "d": _paper("d", "A Benchmark for LLM Reasoning"),
        "e": _paper("e", "LLM-SRBench: A New Benchmark for Equation Discovery"),
    }
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What is the paper about large language monkeys?", ["a"]),
        ("the paper on large language monkeys and their power laws, what does it show", ["a"]),
        ("The paper on fundamental bias in inverting random sampling matrices studies what?", ["c"]),
        ("What does the random sampling matrices paper prove?", ["c"]),
        ("In the work titled 'Large Language Models as Optimizers', what is optimized?", ["b"]),
        # held by several titles: no one paper is meant
        ("What does the paper on large language learning find?", []),
        ("What does the LLM benchmark paper measure?", []),
        # "the X paper" as a whole only: a more specific phrase no title holds names nothing
        ("In the social-media LLM benchmark paper, what is measured?", []),
        # one word is no title
        ("What does the original paper claim?", []),
        ("What does the paper on monkeys claim?", []),
        ("What do large language monkeys do?", []),  # no referring phrase
    ],
)
def test_referenced(text: str, expected: list[str]) -> None:
    assert TITLES.referenced(text) == expected


@given(st.text(max_size=120))
def test_referenced_never_raises_and_names_indexed_papers(text: str) -> None:
    assert set(TITLES.referenced(text)) <= {"a", "b", "c", "d", "e"}


# The paper meant, whose abstract never says "monkeys", and one that uses the question's words.
PAPERS = [
    "Repeated sampling makes language models solve more problems as attempts grow. "
    "We show that per-problem failure rates fall exponentially with the number of attempts. "
    "A heavy-tailed distribution of single-attempt success explains the aggregate power law.",
    "What large language models find depends on the paper they read. Large language models "
    "find facts in papers. We study what large language models find.",
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    folder = tmp_path / "refs"
    write_corpus(folder, "refs", PAPERS)
    meta = '{"paper_id": "refs#1", "title": "How Do Large Language Monkeys Get Their Power (Laws)?"}\n'
    (folder / "refs.meta.jsonl").write_text(meta, encoding="utf-8")
    fake_engine.ingest([folder])
    return fake_engine


def test_a_title_reference_leads_and_answers(engine: Engine) -> None:
    assert engine.retriever.snapshot.papers["refs#1"].title
    a = engine.ask("In the paper on large language monkeys, how do failure rates fall with attempts?", explain=True)
    assert not a.refused, a.explain
    assert {c.paper_id for c in a.citations} == {"refs#1"}


def test_a_title_reference_leads_the_ranking(engine: Engine) -> None:
    hits = engine.retriever.retrieve("What does the paper on large language monkeys find?").hits
    assert hits[0].paper_id == "refs#1"


def test_a_title_with_commas() -> None:
    titles = TitleIndex({"s": _paper("s", "SNS-Bench: Defining, Building, and Assessing Capabilities of LLMs")})
    assert titles.referenced(
        "How many tasks are in the work about defining, building, and assessing capabilities?"
    ) == ["s"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What is a memorization sink?", ["m"]),  # the name before the colon, singular
        ("How do Memorization Sinks isolate facts?", ["m"]),
        ("What is memorization in LLMs?", []),  # one word of the name
        ("What is a sink for memorization?", []),  # not as a run
        ("Mind the gap in attention?", []),  # a name two titles share names neither
    ],
)
def test_title_names(text: str, expected: list[str]) -> None:
    titles = _titles(
        m="Memorization Sinks: Isolating Memorization during LLM Training",
        g1="Mind the Gap: Rank Collapse in Attention",
        g2="Mind the Gap: Bridging Domains",
    )
    assert titles.referenced(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # every word of a title of four or more, in any order and form
        ("Can agnostic multi-robust learning be done with only an ERM oracle?", ["r"]),
        ("Is ERM enough for multi-robust learning in the agnostic case?", ["r"]),
        ("What does deep streaming view clustering assume?", ["v"]),
        ("Which papers use sparse long-context attention?", []),  # a title of three words
        ("Can agnostic robust learning be done with ERM?", []),  # "multi-robust" is another word
        ("Agnostic multi-robust learning: what is known?", []),  # one word short
        # two titles both held: which one is unknown
        ("Submodular maximization with linear bandit feedback and logarithmic regret, unconstrained", []),
    ],
)
def test_every_word_of_a_title(text: str, expected: list[str]) -> None:
    titles = _titles(
        r="Agnostic Multi-Robust Learning using ERM",
        v="Deep Streaming View Clustering",
        a="Sparse Long-Context Attention",
        s1="Linear Submodular Maximization with Bandit Feedback",
        s2="Logarithmic Regret for Unconstrained Submodular Maximization",
    )
    assert titles.referenced(text) == expected


def test_a_title_of_common_words_is_no_name() -> None:
    """Every word of "From Learning to Optimize to Learning Optimization Algorithms" is common
    (three distinct ones, too): a question on learned optimizers names no paper."""
    papers = {
        "o": _paper("o", "From Learning to Optimize to Learning Optimization Algorithms"),
        "g": _paper("g", "Convergence of Learned Optimization Algorithms"),
    }
    df = {"learn": 50, "optim": 50, "algorithm": 50, "converg": 50}
    question = "Do learned optimization algorithms provably converge?"
    assert TitleIndex(papers, df).referenced(question) == []
    assert TitleIndex(papers).referenced(question) == ["g"]  # no frequencies: no word is common


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What strategies did the model invent when STOP improved its own improver?", ["s"]),
        ("How does DeepBET test independence?", ["d"]),
        ("When should we stop training?", []),  # the word, not the name
        ("Why does it NOT work?", []),  # a stopword in brackets is no name
    ],
)
def test_a_name_a_title_defines_in_brackets(text: str, expected: list[str]) -> None:
    titles = _titles(
        s="Self-Taught Optimizer (STOP): Recursively Self-Improving Code Generation",
        d="Testing Conditional Independence with Binary Expansion Testing (DeepBET)",
        n="When Does Metadata Conditioning (NOT) Work for Language Model Pre-Training?",
    )
    assert titles.referenced(text) == expected


# Two titles with the same name ("Mind the Gap: …" twice): `shared` groups them (tests/test_same_name.py).
SHARED = TitleIndex(
    {
        "g1": _paper("g1", "Mind the Gap: Rank Collapse in Attention"),
        "g2": _paper("g2", "Mind the GAP: Group-Aware Priors"),
        "m": _paper("m", "Memorization Sinks: Isolating Memorization during LLM Training"),
        "f1": _paper("f1", "Fairness under Shift"),
        "f2": _paper("f2", "Fairness of Rankings"),
    }
)


@pytest.mark.parametrize(
    ("text", "shared", "referenced"),
    [
        ("What does the Mind the Gap paper find?", [["g1", "g2"]], []),
        ("mind the gap in attention?", [["g1", "g2"]], []),
        ("What is a memorization sink?", [], ["m"]),
        # A phrase two titles hold is a topic, not a name: no group.
        ("What does the paper on fairness find?", [], []),
        ("What does attention collapse to?", [], []),
    ],
)
def test_shared_names(text: str, shared: list[list[str]], referenced: list[str]) -> None:
    assert SHARED.shared(text) == shared
    assert SHARED.referenced(text) == referenced


@given(st.text(max_size=120))
def test_shared_never_raises_and_groups_indexed_papers(text: str) -> None:
    for group in SHARED.shared(text):
        assert len(group) > 1 and set(group) <= {"g1", "g2", "m", "f1", "f2"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a name of words many abstracts use is named only as the title writes it
        ("What is the curse of complexity in LLM reasoning?", []),
        ("What does the LLM Reasoners paper evaluate?", ["r"]),
        ("what do llm reasoners evaluate?", ["r"]),
        # a name with a rarer word is named by its stems
        ("What is a memorization sink?", ["m"]),
    ],
)
def test_a_title_name_of_common_words_is_named_as_written(text: str, expected: list[str]) -> None:
    df = {"llm": 40, "reason": 50, "memor": 30, "sink": 2}
    titles = TitleIndex(
        {
            "r": _paper("r", "LLM Reasoners: New Evaluation and Library"),
            "m": _paper("m", "Memorization Sinks: Isolating Memorization during LLM Training"),
            **{f"x{i}": _paper(f"x{i}", f"Filler {i}") for i in range(100)},
        },
        df,
    )
    assert titles.referenced(text) == expected


@pytest.mark.slow
def test_a_phrase_of_the_field_is_no_title_name_at_scale(scale_engine: Engine) -> None:
    # Among a thousand real abstracts, "LLM Reasoners: New Evaluation, …" answered this, cited.
    a = scale_engine.ask("What is the curse of complexity in LLM reasoning?", explain=True)
    assert [c.paper_id for c in a.citations][:1] == ["002_feea92aa1cd1892b#10"], a.explain


CONVERSATION = TitleIndex(
    {
        "si": _paper("si", "Learning a Single Index Model from Anisotropic Data with Vanilla SGD"),
        "si2": _paper("si2", "Agnostic Active Learning of Single Index Models"),
        "cp": _paper("cp", "Causal Discovery-Driven Change Point Detection in Time Series"),
        "l1": _paper("l1", "Unbiased Quantization of the $L_1$ Ball for Distributed Mean Estimation"),
        "ea": _paper("ea", "Robust Distribution Learning with Adversarial Corruptions (extended abstract)"),
    }
)


@pytest.mark.parametrize(
    ("text", "among", "expected"),
    [
        # two titles hold the words, one of them in the conversation
        ("Going back to the single index model paper, what bounds?", ["si", "cp"], ["si"]),
        ("Going back to the single index model paper, what bounds?", ["si", "si2"], []),
        # a hyphenated phrase for the title's words apart; math as typed in plain text
        ("Back to the causal-discovery change point paper: what is estimated?", ["si", "cp"], ["cp"]),
        ("Going back to the L1-ball quantization paper, what MSE?", ["l1", "cp"], ["l1"]),
        ("What does the paper on change points say?", ["si", "l1"], []),  # not a conversation paper
    ],
)
def test_referenced_among_a_conversations_papers(text: str, among: list[str], expected: list[str]) -> None:
    assert CONVERSATION.referenced_among(text, among) == expected


def test_an_extended_abstract_mark_is_not_part_of_the_name() -> None:
    text = "Robust Distribution Learning with Adversarial Corruptions shows a bound."
    assert CONVERSATION.referenced(text) == ["ea"]


def test_a_title_holding_most_of_a_phrase_with_an_extra_word() -> None:
    titles = _titles(
        p="Beyond Discretization: Learning the Optimal Solution Path",
        q="Attention Learning for Whole Slide Image Classification",
    )
    # "whole" is in no title with the rest: the prefix "learning the whole" alone fits q
    text = "In the paper on learning the whole optimal solution path with SGD, does it converge?"
    assert titles.referenced(text) == ["p"]
    assert titles.referenced("In the paper on learning the whole slide images, what is new?") == ["q"]
