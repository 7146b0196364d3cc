"""A label's long form names its paper (`rag.index.long_forms`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.engine import Engine
from rag.index.long_forms import long_form, long_forms_in
from tests.conftest import SMALL, with_records


@pytest.mark.parametrize(
    ("label", "text", "words"),
    [
        ("RLO", "We introduce Rooted Logistic Objectives (RLO) to improve", "rooted logistic objectives"),
        (
            "LSMI",
            "The Lightweight Sample-wise Multimodal Interaction (LSMI) estimator",
            "lightweight sample wise multimodal interaction",
        ),
        ("OSGR", "the One-Step Generalization Ratio (OSGR) to", "one step generalization ratio"),
        ("MOE", "a Mixture of Experts (MOE) layer", None),  # two words besides "of": too short a name
        (
            "ADMM",
            "the alternating direction method of multipliers (ADMM)",
            "alternating direction method of multipliers",
        ),
        ("RLO", "We introduce RLO, a new objective.", None),  # never spelled out
        ("RLO", "Robust Linear Operators (RLO) are", "robust linear operators"),
        ("TinyQuant", "We present TinyQuant (TinyQuant)", None),  # not an acronym
        ("RLO", "Recently Large language models Often (RLO)", None),  # initials spell it only with "large"
    ],
)
def test_long_form(label: str, text: str, words: str | None) -> None:
    assert long_form(label, text) == (tuple(words.split()) if words else None)


@given(st.text(max_size=60), st.from_regex(r"[A-Z]{3,5}", fullmatch=True))
def test_a_long_form_spells_its_label(text: str, label: str) -> None:
    words = long_form(label, f"{text} ({label})")
    assert words is None or label.lower().startswith(words[0][0])


def test_a_long_form_written_by_many_abstracts_names_no_paper() -> None:
    table = {("rooted", "logistic", "objectives"): {"p"}}
    one = {"p": " we introduce rooted logistic objectives rlo ", "q": " other text "}
    many = {"p": one["p"], "q": " rooted logistic objectives are a term "}
    assert long_forms_in("What are rooted logistic objectives?", table, one) == {"p"}
    assert long_forms_in("What are rooted logistic objectives?", table, many) == set()
    assert long_forms_in("What are rooted objectives?", table, one) == set()


def test_a_question_writing_the_long_form_is_answered_from_its_paper(fake_engine: Engine, tmp_path: Path) -> None:
    rmo = (
        "Margins matter for classifiers. We introduce Rooted Margin Objectives (RMO), a loss with strict convexity. "
        "RMO converges faster than cross-entropy on image benchmarks."
    )
    rival = (
        "Margin objectives are rooted in learning theory. We study rooted trees and margin objectives. "
        "Rooted margin bounds for objectives hold on image benchmarks."
    )
    meta = [{"paper_id": f"x#{i}"} for i in range(1, len(SMALL) + 3)]
    engine = with_records(fake_engine, tmp_path / "x", "x", [*SMALL, rival, rmo], meta)
    a = engine.ask("What are rooted margin objectives?")
    assert {c.paper_id for c in a.citations} == {"x#6"}
