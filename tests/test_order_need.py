"""A question asking for a running time, an error, a regret or a rate is answered by the
sentence that states it in big-O notation (`counts.order_needs`), which leads from anywhere."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.asks import needs
from rag.answer.orders import order_needs

UPPER = "We show that the expected $\\ell_2$ error of our algorithm is $O(n^{k-1})$."
LOWER = "Any such algorithm has expected $\\ell_2$ error $\\Omega(n^{k-1})$."
WORDS = "The method converges linearly and is robust to noise."
ABSTRACT = f"We count graphlets privately. {UPPER} {LOWER}"


@pytest.mark.parametrize(
    ("question", "text", "asked"),
    [
        ("What expected l2 error does the algorithm achieve?", ABSTRACT, True),
        ("What running time does the power method achieve for exact recovery?", ABSTRACT, True),
        ("At what rate is the training method proven to converge?", ABSTRACT, True),
        ("What Nash regret does the algorithm achieve?", ABSTRACT, True),
        ("What expected l2 error does the algorithm achieve?", WORDS, False),  # no order is written
        ("Which graphlets does the algorithm count?", ABSTRACT, False),  # no order is asked
        ("What learning rate does the algorithm use?", ABSTRACT, False),  # a setting, not a growth
        ("What success rate does it reach?", ABSTRACT, False),  # a share
    ],
)
def test_an_order_is_asked_of_a_paper_that_writes_one(question: str, text: str, asked: bool) -> None:
    assert bool(order_needs(question, text)) is asked


@pytest.mark.parametrize(
    ("question", "sentence", "met"),
    [
        ("What expected error does it achieve?", UPPER, True),
        ("What expected error does it achieve?", LOWER, False),  # a lower bound is not what it achieves
        ("What lower bound on the error is proven?", LOWER, True),
        ("What rate does it reach?", "It reaches a rate of $\\tilde{O}(1/\\sqrt{T})$.", True),
        ("What rate does it reach?", "It reaches $\\mathcal{O}(1/T)$ loss.", True),
        ("What rate does it reach?", WORDS, False),
    ],
)
def test_the_sentence_in_big_o_notation_meets_it(question: str, sentence: str, met: bool) -> None:
    (need,) = order_needs(question, ABSTRACT + " $\\tilde{O}(1)$ $\\mathcal{O}(1)$")
    assert need.met_by(sentence) is met
    assert not need.required  # a rate in words ("linearly") may answer: it never refuses


def test_it_leads_the_other_needs() -> None:
    assert needs("What expected l2 error does the algorithm achieve?", text=ABSTRACT)[0].name == "an order of growth"


@given(st.text(max_size=200), st.text(max_size=300))
def test_it_never_raises(question: str, text: str) -> None:
    for need in order_needs(question, text):
        assert isinstance(need.met_by(text), bool)
