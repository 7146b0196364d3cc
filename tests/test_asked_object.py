"""The thing a yes/no question asks a paper about (`rag.answer.asked_object.object_head`)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.asked_object import object_head
from rag.text.normalize import content_stems


@pytest.mark.parametrize(
    ("question", "name", "head"),
    [
        ("Does CacheSqueeze quantize the model weights?", "CacheSqueeze", "weight"),
        ("Does it quantize the weights too?", "", "weight"),
        ("Does it need retraining of the model?", "", "retrain"),
        ("Does the proposed method need labels?", "", "label"),
        ("Did they run any experiments on real regression datasets?", "", "experi"),
        ("Does that paper give a polynomial-time algorithm that achieves those sample sizes?", "", "algorithm"),
        # a claim, not a thing: verbs of saying and finding
        ("Did they find that those probes react to context?", "", None),
        ("Did they show that bound is tight?", "", None),
        ("Do they say anything about what happens when the risk is small?", "", None),
        # no plain object: a prepositional phrase or a clause follows the verb
        ("Does it work for continual learning benchmarks?", "", None),
        ("Can it cope when part of the data is missing?", "", None),
        ("Does their guarantee survive if the class proportions differ?", "", None),
        # a measure or material, often put in other words than the paper's
        ("Does the first one give up any convergence speed compared with plain SGD?", "", None),
        ("Did they release any data to evaluate it?", "", None),
        # not a do-question, or a subject that is not the paper
        ("Is it trained on images?", "", None),
        ("What does it quantize?", "", None),
        ("Do transformers need positional encodings?", "", None),
        ("Does it work?", "", None),
    ],
)
def test_object_head(question: str, name: str, head: str | None) -> None:
    assert object_head(question, set(content_stems(name))) == head


@given(st.text(max_size=80))
def test_the_head_is_a_word_of_the_question_or_none(question: str) -> None:
    head = object_head(question, set())
    assert head is None or any(head in content_stems(w) for w in question.split())
