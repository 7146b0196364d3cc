"""The data types and method families a question names, and whether a paper mentions them."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.answer.facets import missing_facets
from rag.engine import Engine

IMAGE_PAPER = "We accelerate diffusion models for image generation with a second, smaller network."
GRAPH_PAPER = "We learn the structure of linear acyclic models without assuming faithfulness."
LLM_PAPER = "We prune LLMs after training; perplexity on held-out text barely changes."


@pytest.mark.parametrize(
    ("question", "text", "missing"),
    [
        ("Does it speed up video diffusion models?", IMAGE_PAPER, ["video"]),
        ("How fast is it on photos?", IMAGE_PAPER, []),  # a paraphrase of the paper's data type
        ("Does it work for images?", IMAGE_PAPER, []),
        ("Which papers generate protein structures?", IMAGE_PAPER, ["proteins"]),
        ("Does it handle 3D point clouds?", IMAGE_PAPER, ["3D data"]),
        ("Which assumption about the graph does it avoid?", GRAPH_PAPER, []),  # an acyclic model is a graph
        ("Does it apply to reinforcement learning agents?", IMAGE_PAPER, ["reinforcement learning"]),
        ("Which pruning method for large language models?", LLM_PAPER, []),  # "LLMs"
        ("Which pruning method for language models?", IMAGE_PAPER, ["language models"]),
        ("Is it a Bayesian method for tabular data?", LLM_PAPER, ["tabular data", "Bayesian methods"]),
        ("What do diffusion models gain?", "Across the suite, diffusions offer better stability.", []),  # plural
        ("Does it extend posterior sampling to many objectives?", "We extend Thompson Sampling.", []),
        ("Does it run on quantum hardware?", IMAGE_PAPER, ["quantum computing"]),
        ("Which qubits are used?", IMAGE_PAPER, ["quantum computing"]),
        ("Which labels supervise quantum Hamiltonians?", "Trace quantities of Hamiltonians.", []),  # physics
        ("What is the imaginary part?", IMAGE_PAPER, []),  # not "image"
        ("Which sound theory does it rest on?", LLM_PAPER, []),  # "sound" is no audio
        ("What speedup does it report?", IMAGE_PAPER, []),  # names no facet
        ("Which image datasets is it evaluated on?", "We evaluate on ImageNette and ImageNet-1K.", []),  # named by them
        ("Does it work on video?", "We evaluate on ImageNet and VideoMAE features.", []),
        ("Does it work for LLaMA models?", "It runs a LLaMA-3.1 8B model.", []),  # a name is not split
        # settings and guarantees a theory paper states when it covers them
        ("What rate holds for non-convex objectives?", "We prove a rate for convex losses.", ["non-convex settings"]),
        ("What rate holds for nonconvex objectives?", "A rate for non-convex losses.", []),
        ("Does it extend to function approximation?", "Tabular MDPs are solved.", ["function approximation"]),
        ("Are there finite-sample guarantees?", "We give non-asymptotic bounds.", []),
        ("Are there finite-sample guarantees?", "We give non asymptotic bounds.", []),  # spelled apart
        ("Is it differentially private?", "We study differentially-private (DP) saddle points.", []),
        ("Is it differentially private?", "We study robust saddle points.", ["differential privacy"]),
        # a facet word as the verb that ends a wh-question names no facet; as its object it does
        ("What kind of methods does the benchmark reward?", IMAGE_PAPER, []),
        ("What does the model forecast?", LLM_PAPER, []),
        ("What reward does the agent receive?", IMAGE_PAPER, ["reinforcement learning"]),
        ("How does the policy use rewards?", IMAGE_PAPER, ["reinforcement learning"]),
        ("Does the method handle video?", IMAGE_PAPER, ["video"]),
        ("What does the method do with video?", IMAGE_PAPER, ["video"]),
    ],
)
def test_missing_facets(question: str, text: str, missing: list[str]) -> None:
    assert missing_facets(question, text) == missing


@settings(derandomize=True, deadline=10000)
@given(st.text(max_size=200), st.text(max_size=200))
def test_missing_facets_never_raises_and_text_with_the_question_misses_nothing(question: str, text: str) -> None:
    assert isinstance(missing_facets(question, text), list)
    assert missing_facets(question, f"{text} {question}") == []


def test_a_paper_on_other_data_does_not_answer(fake_engine: Engine, tmp_path: Path) -> None:
    fake_engine.ingest([tmp_path / "corpus"])
    assert not fake_engine.ask("How many novel folds does FoldNet design?").refused
    # The same paper, asked about data it never mentions: a near miss, refused.
    a = fake_engine.ask("How many novel folds does FoldNet design for videos?", explain=True)
    assert a.refused
    assert any("not in the paper: video" in line for line in a.explain or [])
