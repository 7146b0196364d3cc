"""A near tie for the first place of a one-paper question goes to the paper that uses clearly
more of the question's words (rag.answer.evidence.prefer_covering)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.ties import TIE_RATIO, prefer_covering, title_share
from rag.index.vocabulary import Vocabulary
from rag.types import Hit, Paper

QUESTION = "How does the data-free method for moving a task vector onto an updated release handle attention heads?"
ABSTRACTS = {
    # shares only the ask's words with the question
    "ask": "We study attention heads in transformers and how each head attends.",
    # the paper the question describes
    "described": "A data-free method moves a task vector onto an updated model release by permuting attention heads.",
    # two more of the question's words, rare ones (a large share of its weight): too few to
    # overturn the ranking, as one or two words of a short question would
    "little": "A data-free step onto graphs.",
    "other": "Graph neural networks for molecules.",
    # the ask's words are common in a corpus, the description's are rare
    **{f"f{i}": f"Attention heads and a task of kind {i}." for i in range(6)},
}
VOCAB = Vocabulary(
    {
        pid: Paper(paper_id=pid, source="s", position=i, label=pid, abstract=a)
        for i, (pid, a) in enumerate(ABSTRACTS.items())
    }
)


def _hits(*ranked: tuple[str, float]) -> list[Hit]:
    return [Hit(paper_id=pid, label=pid, score=score) for pid, score in ranked]


@pytest.mark.parametrize(
    ("ranked", "first"),
    [
        # a near tie: the described paper, which uses far more of the question's words, leads
        ((("ask", 0.0497), ("described", 0.0484), ("other", 0.040)), "described"),
        # not a near tie: the ranking stands
        ((("ask", 0.0497), ("described", 0.0300)), "ask"),
        # the challenger uses only a couple more words: the ranking stands
        ((("ask", 0.0497), ("little", 0.0490)), "ask"),
        # the top paper already uses the most words
        ((("described", 0.0497), ("ask", 0.0496)), "described"),
        # a paper the question names leads with a lower fused score: never overturned
        ((("ask", 0.0), ("described", 0.0484)), "ask"),
        # one hit, or none
        ((("ask", 0.05),), "ask"),
    ],
)
def test_near_tie(ranked: tuple[tuple[str, float], ...], first: str) -> None:
    hits = _hits(*ranked)
    out = prefer_covering(QUESTION, hits, VOCAB)
    assert out[0].paper_id == first
    assert sorted(h.paper_id for h in out) == sorted(h.paper_id for h in hits)  # a reorder, nothing lost


def test_the_near_tie_bar() -> None:
    just_in = _hits(("ask", 1.0), ("described", TIE_RATIO + 1e-9))
    just_out = _hits(("ask", 1.0), ("described", TIE_RATIO - 1e-3))
    assert prefer_covering(QUESTION, just_in, VOCAB)[0].paper_id == "described"
    assert prefer_covering(QUESTION, just_out, VOCAB)[0].paper_id == "ask"


def test_no_hits() -> None:
    assert prefer_covering(QUESTION, [], VOCAB) == []


@given(
    st.text(max_size=80),
    st.lists(st.tuples(st.sampled_from(sorted(ABSTRACTS)), st.floats(0, 1)), max_size=6, unique_by=lambda t: t[0]),
)
def test_never_raises_and_keeps_every_hit(question: str, ranked: list[tuple[str, float]]) -> None:
    hits = _hits(*ranked)
    out = prefer_covering(question, hits, VOCAB)
    assert sorted(h.paper_id for h in out) == sorted(h.paper_id for h in hits)
    # at most the first place changes; the rest keep their order
    assert [h for h in out[1:]] == [h for h in hits if h is not out[0]]


def test_a_looser_bar_when_the_first_paper_does_not_answer() -> None:
    """`near_tie` asks again with a smaller margin when the first paper is refused: a runner-up
    using a couple more of the question's words may then answer, if it answers clearly."""
    from rag.answer.ties import REFUSED_TIE_MARGIN, REFUSED_TIE_RATIO, REFUSED_TIE_TERMS

    def looser(hits: list[Hit]) -> list[Hit]:
        return prefer_covering(
            QUESTION, hits, VOCAB, margin=REFUSED_TIE_MARGIN, more_terms=REFUSED_TIE_TERMS, ratio=REFUSED_TIE_RATIO
        )

    ranked = _hits(("ask", 0.0497), ("little", 0.0490))
    assert prefer_covering(QUESTION, ranked, VOCAB)[0].paper_id == "ask"
    assert looser(ranked)[0].paper_id == "little"
    # a looser tie: a runner-up below the near-tie ratio but within the refused one
    between = _hits(("ask", 1.0), ("described", (TIE_RATIO + REFUSED_TIE_RATIO) / 2))
    assert prefer_covering(QUESTION, between, VOCAB)[0].paper_id == "ask"
    assert looser(between)[0].paper_id == "described"
    # still only in a tie, and never over a paper the question names
    far = _hits(("ask", 1.0), ("little", REFUSED_TIE_RATIO - 1e-3))
    assert looser(far)[0] is far[0]
    named = _hits(("ask", 0.0), ("little", 0.0490))
    assert looser(named)[0] is named[0]


@pytest.mark.parametrize(
    ("question", "title", "share"),
    [
        # every title word, in another order and form, and a compound as its parts
        (
            "What does the causal-abstraction identifiability work assume?",
            "On the Identifiability of Causal Abstractions",
            1.0,
        ),
        ("What does the identifiability work assume?", "On the Identifiability of Causal Abstractions", 1 / 3),
        ("What does it assume?", "Causal Abstractions", 0.0),  # a title of two words names nothing
        ("What does it assume?", None, 0.0),
    ],
)
def test_title_share(question: str, title: str | None, share: float) -> None:
    assert title_share(question, Hit(paper_id="p", label="p", title=title, score=1.0)) == pytest.approx(share)


def test_a_near_tie_goes_to_the_paper_whose_title_the_question_spells_out() -> None:
    question = "For latent causal models, what assumption does the causal-abstraction identifiability work adopt?"
    top = Hit(
        paper_id="ask", label="ask", title="General Identifiability for Causal Representation Learning", score=0.0497
    )
    named = Hit(paper_id="described", label="d", title="On the Identifiability of Causal Abstractions", score=0.0495)
    assert prefer_covering(question, [top, named], VOCAB)[0].paper_id == "described"
    # outside the near tie the title does not overturn the ranking
    far = named.model_copy(update={"score": 0.0497 * TIE_RATIO * 0.9})
    assert prefer_covering(question, [top, far], VOCAB)[0].paper_id == "ask"
