"""A question asking for a kind of something ("what condition is introduced …?") is answered by
the sentence naming a kind of it (`kinds.kind_need`): the noun with a modifier the question
lacks, which may lead from as far below the best as a second ask, and never refuses."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.asks import needs
from rag.answer.kinds import asked_kind, kind_need


@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("What condition is introduced to control the interaction?", "condition"),
        ("Which assumption required by earlier methods is not needed?", "assumption"),
        ("What dependence measure does the recovery algorithm use?", "measure"),
        ("What kind of cost estimator does it build?", "estimator"),
        ("What convergence rate is proven for the method?", "rate"),
        ("Which loss does the method minimise?", "loss"),  # -ss is singular
        ("What shortcomings do earlier algorithms have?", None),  # several things: a list
        ("What is FAST based on?", None),  # a name, not the noun of the wh-phrase
        ("What happens when symmetrization is applied?", None),  # the wh-word is not the noun's
        ("What does the method compress?", None),  # no noun asked
        ("Which papers study fairness?", None),
        ("What new layer is proposed?", "layer"),
        ("", None),
    ],
)
def test_the_asked_noun_is_the_head_of_the_wh_phrase(question: str, noun: str | None) -> None:
    assert asked_kind(question) == noun


QUESTION = "In the analysis of a mixture of experts, what condition is introduced to control the interaction?"


@pytest.mark.parametrize(
    ("sentence", "met"),
    [
        ("In response, we introduce a distinguishability condition to control the interaction.", True),
        ("Both hold under the restricted-eigenvalue conditions of the design.", True),  # plural, hyphenated
        ("The mixture of experts interaction condition is hard to analyse.", False),  # the question's words
        ("Under this condition the interaction is controlled.", False),  # a determiner, no kind
        ("We integrate this condition into the analysis.", False),  # the verb is no kind of it
        ("Identifiable under very general conditions.", False),  # vague
        ("We study a mixture of experts.", False),  # no condition at all
    ],
)
def test_a_sentence_naming_a_kind_meets_it(sentence: str, met: bool) -> None:
    need = kind_need("what condition is introduced to control the interaction?", QUESTION)
    assert need is not None
    assert need.met_by(sentence) is met


def test_it_orders_and_never_refuses() -> None:
    kind = needs(QUESTION)[-1]
    assert kind.name == "a kind of condition"
    assert kind.loose and not kind.required and not kind.specific


def test_no_kind_need_without_a_kind_asked() -> None:
    assert all(not n.name.startswith("a kind of") for n in needs("How does the method avoid the mixing time?"))


@given(st.text(max_size=200), st.text(max_size=300))
def test_it_never_raises(question: str, sentence: str) -> None:
    need = kind_need(question, question)
    assert need is None or isinstance(need.met_by(sentence), bool)
