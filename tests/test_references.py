"""Explicit references to the papers of an earlier answer: by position and by name."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.answer.references import by_name, by_position

TWO = ["a", "b"]
THREE = ["a", "b", "c"]


@pytest.mark.parametrize(
    ("question", "listed", "singled", "expected"),
    [
        ("Tell me more about the second one.", THREE, [], ["b"]),
        ("What did the first paper find?", THREE, [], ["a"]),
        ("How does the 2nd method work?", THREE, [], ["b"]),
        ("And the last one?", THREE, [], ["c"]),
        ("What does the final paper report?", THREE, [], ["c"]),
        ("Compare the last two.", THREE, [], ["b", "c"]),
        ("Do the first two papers share data?", THREE, [], ["a", "b"]),
        ("Do both use RL?", TWO, [], ["a", "b"]),
        ("Does either use RL?", TWO, [], ["a", "b"]),
        ("Do both use RL?", THREE, [], None),  # "both" of three is no pointer
        ("And the other one?", TWO, ["a"], ["b"]),
        ("What about the other ones?", THREE, ["a"], ["b", "c"]),
        ("And the other one?", TWO, [], None),  # nothing singled out: nothing to exclude
        ("And the other one?", TWO, ["a", "b"], None),  # nothing left
        ("Is the former faster?", THREE, [], ["a"]),
        ("Is the latter faster?", THREE, [], ["c"]),
        ("What does the third one do?", TWO, [], None),  # out of range
        ("What does the second one do?", ["a"], [], None),  # one paper listed: no positions
        ("What is RLHF?", THREE, [], None),
        ("How large is the model?", TWO, [], None),
        ("THE SECOND ONE, please", THREE, [], ["b"]),
        ("the LATTER", TWO, [], ["b"]),
        ("Do Both use RL?", TWO, [], ["a", "b"]),
        ("Do both of these methods and the baseline use RL?", TWO, [], None),  # "both X and Y"
    ],
)
def test_by_position(question: str, listed: list[str], singled: list[str], expected: list[str] | None) -> None:
    assert by_position(question, listed, singled) == expected


@pytest.mark.parametrize(
    ("question", "listed", "singled"),
    [
        ("Does it handle both images and text?", TWO, ["a"]),  # coordination, not "both papers"
        ("What are the first two stages of training?", THREE, []),  # a noun that is no paper
    ],
)
def test_ordinary_phrases_are_no_reference(question: str, listed: list[str], singled: list[str]) -> None:
    assert by_position(question, listed, singled) is None


NAMES = {"a": {"foonet", "sparse", "expert"}, "b": {"bargan", "sparse", "imag"}, "c": {"diffus", "imag"}}


@pytest.mark.parametrize(
    ("stems", "listed", "expected"),
    [
        ({"foonet"}, ["a", "b"], ["a"]),  # label stem of one paper
        ({"sparse"}, ["a", "b"], None),  # shared by both: names neither
        ({"sparse"}, ["a", "c"], ["a"]),  # distinctive among *these* listed papers
        ({"imag"}, ["a", "b", "c"], None),
        ({"foonet", "bargan"}, ["a", "b"], ["a", "b"]),  # listed order
        ({"bargan", "foonet"}, ["b", "a"], ["b", "a"]),
        ({"transform"}, ["a", "b"], None),
        (set(), ["a", "b"], None),
        ({"diffus"}, ["a", "b", "x"], None),  # a paper outside `listed` is never returned
        ({"foonet"}, ["a", "x"], ["a"]),  # unknown ids have no name stems
        # two words name "b", one (the topic, shared with "b"'s neighbour) names "c": "b"
        ({"bargan", "sparse", "diffus"}, ["b", "c"], ["b"]),
        ({"foonet", "expert", "bargan"}, ["a", "b"], ["a"]),
        ({"foonet", "expert", "bargan", "imag"}, ["a", "b"], ["a", "b"]),  # named alike: both
    ],
)
def test_by_name(stems: set[str], listed: list[str], expected: list[str] | None) -> None:
    assert by_name(stems, listed, NAMES) == expected


def _is_ordered_sublist(found: list[str], listed: list[str]) -> bool:
    it = iter(listed)
    return all(any(x == y for y in it) for x in found)


ids = st.lists(st.sampled_from("abcde"), max_size=5, unique=True)
PHRASES = (
    "the second one", "the first paper", "the last two", "the first three", "both", "either",
    "the other one", "the former", "the latter", "the fourth method", "the final work", "", "what is it",
)  # fmt: skip
phrases = st.sampled_from(PHRASES)


@settings(derandomize=True, deadline=10000)
@given(st.text(max_size=80), phrases, st.text(max_size=20), ids, st.lists(st.sampled_from("abcdexyz"), max_size=3))
def test_by_position_returns_an_ordered_sublist(pre: str, phrase: str, post: str, listed: list[str], singled) -> None:  # type: ignore[no-untyped-def]
    found = by_position(f"{pre} {phrase} {post}", listed, singled)
    assert found is None or (found and _is_ordered_sublist(found, listed))


@settings(derandomize=True, deadline=10000)
@given(st.sets(st.sampled_from(["foonet", "sparse", "imag", "diffus", "x"])), ids)
def test_by_name_returns_an_ordered_sublist(stems: set[str], listed: list[str]) -> None:
    found = by_name(stems, listed, NAMES)
    assert found is None or (found and _is_ordered_sublist(found, listed))
