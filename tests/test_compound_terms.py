"""A question's hyphenated word counts as used by a paper that writes it apart ("held out",
"Lomb--Scargle"), and what a negative contraction leaves ("doesn't" -> "doesn") is no term
(rag.answer.unsaid.written_apart, rag.text.normalize.STOPWORDS)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.evidence import coverage
from rag.answer.selection import question_terms
from rag.answer.unsaid import written_apart
from rag.index.vocabulary import Vocabulary
from rag.types import Paper


@pytest.mark.parametrize(
    ("question", "text", "found"),
    [
        ("low held-out error", "errors on held out test sets", {"held-out"}),
        ("quantum-mechanical energies", "quantum mechanical accuracy", {"quantum-mechan"}),
        ("a Lomb-Scargle layer", "a differentiable Lomb--Scargle layer", {"lomb-scargl"}),
        ("a Lomb-Scargle layer", "a Lomb – Scargle layer", {"lomb-scargl"}),
        ("held-out data", "Held-Out data", {"held-out"}),  # written the same way: found too
        # the parts alone, not side by side, are not the compound
        ("a vision-language-action model", "vision and language models choose an action", set()),
        ("held-out data", "data held back, left out", set()),
        # a part must be a whole word: "non convexity" is not "non-convex"
        ("non-convex losses", "non convexity of losses", set()),
        ("no compound here", "no compound here", set()),
    ],
)
def test_written_apart(question: str, text: str, found: set[str]) -> None:
    assert written_apart(question, text) == found


def test_a_compound_written_apart_is_covered() -> None:
    abstracts = {"apart": "Errors on held out sets.", "other": "Graphs and molecules."}
    vocab = Vocabulary(
        {
            pid: Paper(paper_id=pid, source="s", position=i, label=pid, abstract=a)
            for i, (pid, a) in enumerate(abstracts.items())
        }
    )
    question = "Why does held-out error mislead?"
    terms = question_terms(question)
    assert "held-out" in terms
    plain = coverage(terms, "apart", vocab)
    assert coverage(terms, "apart", vocab, written_apart(question, abstracts["apart"])) > plain
    assert coverage(terms, "other", vocab, written_apart(question, abstracts["other"])) == 0


@pytest.mark.parametrize("question", ["Why doesn't it converge?", "Why isn’t it stable?", "It won't, and didn't."])
def test_contraction_fragments_are_no_terms(question: str) -> None:
    assert not {"doesn", "isn", "won", "didn", "t"} & set(question_terms(question))


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("Which kernels does R-PERP consider for its lower bound?", ["kernel", "r-perp", "perp", "lower", "bound"]),
        ("What settings do they consider?", ["set"]),  # the asking verb is no term the paper must write
    ],
)
def test_asking_verbs_are_no_terms(question: str, terms: list[str]) -> None:
    assert question_terms(question) == terms


@given(st.text(max_size=60), st.text(max_size=200))
def test_written_apart_never_raises_and_returns_question_compounds(question: str, text: str) -> None:
    out = written_apart(question, text)
    assert all("-" in s for s in out)
