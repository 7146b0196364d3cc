"""Short questions that name their paper: "What does X compress?" is answered though it is far
from every sentence's vector (`Features.answerable_as_named`), and "What is X?" leads with the
sentence that says what X is (`selection.asks_what_it_is`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.accept import LOOSE
from rag.answer.clauses import ask_clause
from rag.answer.evidence import MIN_COSINE, NAMED_MIN_COSINE, Features
from rag.answer.selection import _defining, asks_what_it_is, rank_evidence
from rag.engine import Engine
from tests.conftest import with_papers


@pytest.mark.parametrize(
    ("question", "cosine", "coverage", "missing", "accepted"),
    [
        ("What does CacheZip compress?", NAMED_MIN_COSINE, 1.0, None, True),
        ("What does CacheZip compress?", MIN_COSINE - 0.01, 1.0, None, True),
        ("What does CacheZip compress?", NAMED_MIN_COSINE - 0.01, 1.0, None, False),  # still off-topic
        ("What does CacheZip compress?", 0.35, 0.9, None, False),  # a term of the question is not in the paper
        ("What batch size does CacheZip use?", 0.35, 1.0, "a number", False),  # the detail asked is missing
        ("What does the cache compressor compress?", 0.35, 1.0, None, False),  # not named: the usual bar
        ("What does CacheZipper compress?", 0.35, 1.0, None, False),  # another name, not this one
    ],
)
def test_a_named_paper_needs_less_closeness(
    question: str, cosine: float, coverage: float, missing: str | None, accepted: bool
) -> None:
    f = Features(cosine=cosine, coverage=coverage, missing_detail=missing, score=1.0)
    assert LOOSE.accepts(f, question, "CacheZip", multi=False) is accepted


def test_a_list_question_is_not_held_to_the_named_rule() -> None:
    f = Features(cosine=NAMED_MIN_COSINE + 0.01, coverage=1.0, missing_detail=None, score=1.0, multi=True)
    assert not LOOSE.accepts(f, "Which papers compress caches like CacheZip?", "CacheZip", multi=True)


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("What is CacheZip?", True),
        ("what's CacheZip", True),
        ("What is the CacheZip method about?", True),
        ("Tell me about CacheZip.", True),
        ("summarize CacheZip", True),
        ("What does CacheZip do?", True),
        ("What is CacheZip's compression ratio?", False),
        ("What is the batch size of CacheZip?", False),
        ("What does CacheZip compress?", False),
        ("What is CacheZipper?", False),
        ("What is it?", False),
    ],
)
def test_asks_what_it_is(question: str, asks: bool) -> None:
    assert asks_what_it_is(question, "CacheZip") is asks


@given(st.text(max_size=80), st.text(max_size=12))
def test_asks_what_it_is_never_raises(question: str, label: str) -> None:
    asks_what_it_is(question, label)


@pytest.mark.parametrize(
    ("sentence", "defines"),
    [
        ("We introduce CacheZip, a codec for key-value caches.", True),
        ("We propose Cache Zipping (CacheZip) to cut memory.", True),
        ("CacheZip is a codec for key-value caches.", True),
        # LaTeX around the name defeats the name's patterns; the stated contribution ("we present") still defines.
        ("In this paper we present $CacheZip$, a codec.", True),
        ("CacheZip reduces memory by 80%.", False),
        ("Using CacheZipper, a codec, we cut memory.", False),
    ],
)
def test_defining_sentences(sentence: str, defines: bool) -> None:
    assert (_defining([("c1", sentence, 1.0)], "CacheZip") == "c1") is defines


DEFINED_EARLY = (
    "We introduce CacheZip, a codec that compresses key-value caches of language models. "
    "Long contexts make caches the memory bottleneck of inference. "
    "CacheZip keeps accuracy on long-context benchmarks while using less memory. "
    "CacheZip runs on a single consumer GPU with contexts of a million tokens."
)


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_papers(fake_engine, tmp_path / "zip", "zip", [DEFINED_EARLY])


def _lead(engine: Engine, question: str) -> str:
    r = engine.retriever
    ranking = rank_evidence(
        question, r.snapshot.papers["zip#1"], r, r.embed_query(question), ask_vec=r.embed_query(ask_clause(question))
    )
    assert ranking is not None
    return ranking.pick(keep_margin=None, by_position=True)[0][1]


def test_what_is_it_leads_with_the_definition_though_it_opens_the_abstract(engine: Engine) -> None:
    assert _lead(engine, "What is CacheZip?").startswith("We introduce CacheZip, a codec")
    # Any other question keeps the prior against the opening sentence.
    assert not _lead(engine, "CacheZip memory single GPU?").startswith("We introduce")


def test_a_coined_name_typed_in_lowercase_names_its_paper(fake_engine: Engine) -> None:
    fake_engine.ensure_index()
    snap = fake_engine.retriever.snapshot
    graphmix = {p for p, paper in snap.papers.items() if paper.label == "GraphMix"}
    assert graphmix and snap.named_in("how does graphmix regularize?") == graphmix
    assert snap.named_in("how does GraphMix regularize?") == graphmix
    assert snap.named_in("how do regularizers mix graphs?") == set()
