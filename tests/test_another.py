"""A follow-up that asks for another paper (`rag.answer.another`)."""

import pytest

from rag.answer.another import as_asked_alone, asks_for_another


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Is there another training-free context extension paper?", True),
        ("Are there other papers on cache quantization?", True),
        ("Any other works that do this?", True),
        ("Can you suggest a different method for this?", True),
        ("What other methods does it compare with?", False),  # asked of the paper
        ("Is there another dataset they use?", False),
        ("Is the other one faster?", False),  # a position among the discussed
    ],
)
def test_asks_for_another(question: str, asks: bool) -> None:
    assert asks_for_another(question) is asks


@pytest.mark.parametrize(
    ("question", "alone"),
    [
        (
            "Is there another training-free context extension paper?",
            "Is there a training-free context extension paper?",
        ),
        ("Are there other papers on cache quantization?", "Are there papers on cache quantization?"),
        ("Can you suggest a different method for this?", "Can you suggest a method for this?"),
    ],
)
def test_as_asked_alone(question: str, alone: str) -> None:
    assert as_asked_alone(question) == alone
