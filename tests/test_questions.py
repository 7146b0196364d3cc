"""Unusual questions: empty, whitespace, 100 KB, control characters, other scripts, emoji.

Each gets a clear one-line message or an answer, in bounded time, through `rag ask`, through
`Engine.ask` and the pipeline directly and through the app's `respond`; a question that is not
English gets an answer attempt plus a note that the corpus and model are English.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rag.cli.commands as cli
import ui.chat as ui_chat
import ui.state as ui_state
from rag.answer.extractive import answer
from rag.answer.language import NON_ENGLISH_NOTE, language_note, looks_non_english
from rag.answer.pipeline import ask
from rag.answer.question import check_question
from rag.cli.main import main as cli_main
from rag.engine import Engine
from rag.errors import UsageError
from rag.types import Query
from tests.conftest import EVAL, load_jsonl
from tests.fakes import ScriptedLLM

ENGLISH = [
    "How many questions does SNS-Bench contain?",
    "What learning rate does GENIE use?",
    "Which paper uses LoRA with r=8 and α=16?",
    "What is the FID of DiT-XL/2 on ImageNet 256×256?",
    "Does TinyQuant keep 98% of the accuracy at 2 bits?",
    "Is attention O(n log n) or O(n^2) in AdaSplash?",
    "How does ∇θ L(θ) = E[ℓ(x; θ)] relate to OSGR?",
    "λ = 0.1, β1 = 0.9, β2 = 0.999: which optimizer settings are reported?",
    "Compare Rényi and KL divergence bounds.",
    "Which paper evaluates the Fréchet Inception Distance?",
    "What did Zhang et al. propose for de novo protein design?",
    "Which OS, EM or ES methods are used?",
    "GPU hours for LLM-SRBench?",
    "ViT-B/16 vs. ResNet-50 top-1 on CIFAR-100",
    "Is GENIE on par with Adam in the DG setting?",
    "What is the naïve baseline in the paper by Müller and Gödel?",
    "🤖 Which model is best for robots? 🔥",
    "1234 5678",
    "",
    "???",
    "x" * 100_000,
]
FOREIGN = [
    "SNS-Bench 包含多少个问题？",  # Chinese
    "この論文の主な貢献は何ですか？",  # Japanese
    "이 논문의 주요 기여는 무엇입니까?",  # Korean
    "ما هو معدل التعلم المستخدم في GENIE؟",  # Arabic
    "Сколько вопросов содержит SNS-Bench?",  # Russian
    "Ποιος είναι ο ρυθμός μάθησης του GENIE;",  # Greek
    "מהו קצב הלמידה של GENIE?",  # Hebrew
    "इस पेपर का मुख्य योगदान क्या है?",  # Hindi
    "Quel est le taux d'apprentissage utilisé par GENIE ?",  # French
    "Qu'est-ce que GENIE ?",
    "Wie viele Fragen enthält SNS-Bench?",  # German
    "Was ist GENIE?",
    "Welche Lernrate verwendet GENIE?",
    "¿Cuántas preguntas contiene SNS-Bench?",  # Spanish
    "¿Qué propone GENIE?",
    "Quali sono i risultati di GENIE su PACS?",  # Italian
    "Che cosa propone GENIE?",
    "Qual é a taxa de aprendizado do GENIE?",  # Portuguese
    "Quantas perguntas o SNS-Bench contém?",
]


@pytest.mark.parametrize("question", ENGLISH)
def test_english_questions_are_not_flagged(question: str) -> None:
    assert not looks_non_english(question)


@pytest.mark.parametrize("question", FOREIGN)
def test_other_languages_are_flagged(question: str) -> None:
    assert looks_non_english(question)


@pytest.mark.parametrize("path", [EVAL / "dev.jsonl", EVAL / "test.jsonl"])
def test_no_eval_question_is_flagged(path: Path) -> None:
    texts = [c["question"] for c in load_jsonl(path)]
    texts += [t["content"] for c in load_jsonl(path) for t in c.get("history", [])]
    assert len(texts) > 50
    assert [t for t in texts if looks_non_english(t)] == []


def test_language_note_keeps_an_earlier_note() -> None:
    assert language_note("What is GENIE?", None) is None
    assert language_note("What is GENIE?", "earlier") == "earlier"
    assert language_note("Was ist GENIE?", None) == NON_ENGLISH_NOTE
    assert language_note("Was ist GENIE?", "earlier") == f"earlier {NON_ENGLISH_NOTE}"


@pytest.mark.parametrize(
    ("question", "cleaned"),
    [
        ("  How many folds?  ", "How many folds?"),
        ("\x1b[31mHow many folds?\x07\x00", "[31mHow many folds?"),
        ("How\u200b many\u202e folds?", "How many folds?"),
        ("Line one\nline two\tend", "Line one\nline two\tend"),
        ("FoldNet 设计了多少种新的折叠？🧬", "FoldNet 设计了多少种新的折叠？🧬"),
    ],
)
def test_check_question_cleans(question: str, cleaned: str) -> None:
    assert check_question(question, 2000) == cleaned


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ("", "the question is empty"),
        (" \t\n ", "the question is empty"),
        ("\x00\x01\x1b\u200b\u2028", "the question is empty"),
        ("x" * 100_000, "the question is 100000 characters long; the limit is 2000 (RAG_MAX_QUESTION_CHARS)"),
    ],
)
def test_check_question_rejects(question: str, message: str) -> None:
    with pytest.raises(UsageError) as err:
        check_question(question, 2000)
    assert str(err.value) == message


# --- the library: Engine.ask, the pipeline and the extractive answer ---------------------------------------------------
@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    fake_engine.ingest([tmp_path / "corpus"])
    return fake_engine


@pytest.mark.parametrize("question", ["", "   \n\t", "\x00\x01\x02\x1b", "\u200b\u2028"])
def test_library_rejects_empty_questions(engine: Engine, question: str) -> None:
    with pytest.raises(UsageError, match=r"^the question is empty$"):
        engine.ask(question)
    with pytest.raises(UsageError, match=r"^the question is empty$"):
        answer(Query(question=question), engine.retriever)


@pytest.mark.parametrize(
    ("question", "note"),
    [
        ("How many novel folds does FoldNet design?", False),
        ("🧬🤖 How many folds does FoldNet design? 🔥", False),
        ("\x1b[1mHow many novel folds\x00 does FoldNet design?", False),
        ("How many novel folds does FoldNet design? " * 2400, False),  # 100 KB
        ("FoldNet 设计了多少种新的折叠？", True),
        ("كم عدد الطيات الجديدة التي صممها FoldNet؟", True),
        ("Сколько новых фолдов создал FoldNet?", True),
        ("Combien de nouveaux repliements FoldNet a-t-il conçus ?", True),
    ],
)
def test_library_answers_any_question_in_bounded_time(engine: Engine, question: str, note: bool) -> None:
    t0 = time.perf_counter()
    a = engine.ask(question)
    assert time.perf_counter() - t0 < 30
    assert a.answer and (a.refused or a.citations)
    assert a.note == (NON_ENGLISH_NOTE if note else None)
    assert all(ch.isprintable() or ch in "\t\n" for ch in a.question)
    assert a.to_json().get("note") == a.note


def test_llm_backend_keeps_the_note(engine: Engine) -> None:
    llm = ScriptedLLM("FoldNet designs 120 novel folds validated in the lab [1].")
    a = ask(Query(question="FoldNet 设计了多少种新的折叠？"), backend="local", retriever=engine.retriever, llm=llm)
    assert a.note == NON_ENGLISH_NOTE and not a.refused


# --- the CLI, in process (the engine swapped for the fake one) ------------------------------
def run_cli(engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(cli, "_engine", lambda args: engine)
    code = cli_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ("", "the question is empty"),
        ("  \t ", "the question is empty"),
        ("\x01\x02\x7f", "the question is empty"),
        ("y" * 100_000, "the question is 100000 characters long; the limit is 2000 (RAG_MAX_QUESTION_CHARS)"),
    ],
)
def test_cli_ask_rejects_with_one_line(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], question: str, message: str
) -> None:
    code, out, err = run_cli(engine, monkeypatch, capsys, "ask", "--json", question)
    assert code == 2 and json.loads(out) == {"error": message}
    assert err == f"error: {message}\n"


@pytest.mark.parametrize(
    "question",
    [
        "Сколько новых фолдов создал FoldNet?",
        "FoldNet 设计了多少种新的折叠？",
        "كم عدد الطيات الجديدة التي صممها FoldNet؟",
    ],
)
def test_cli_ask_other_scripts_answer_with_note(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    code, out, _ = run_cli(engine, monkeypatch, capsys, "ask", "--json", question)
    assert code == 0 and json.loads(out)["note"] == NON_ENGLISH_NOTE
    code, out, _ = run_cli(engine, monkeypatch, capsys, "ask", question)
    assert code == 0 and f"Note: {NON_ENGLISH_NOTE}" in out


def test_cli_ask_emoji_and_english_have_no_note(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(
        engine, monkeypatch, capsys, "ask", "--json", "🧬 How many novel folds does FoldNet design? 🔥"
    )
    obj = json.loads(out)
    assert code == 0 and "note" not in obj and "120" in obj["answer"]


# --- the app --------------------------------------------------------------------------------
@pytest.fixture
def ui_engine(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> Engine:
    monkeypatch.setattr(ui_state, "_engine", engine)
    return engine


def test_app_empty_message_does_nothing(ui_engine: Engine) -> None:
    assert list(ui_chat.respond("  \n ", [], "extractive", 5)) == [([], "", "", [])]


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        ("\x00\x01\x1b", "Error: the question is empty"),
        ("z" * 100_000, "Error: the question is 100000 characters long; the limit is 2000 (RAG_MAX_QUESTION_CHARS)"),
    ],
)
def test_app_shows_the_cli_messages(ui_engine: Engine, message: str, shown: str) -> None:
    *_, (history, sources, _, answers) = ui_chat.respond(message, [], "extractive", 5)
    assert history[-1] == {"role": "assistant", "content": shown}
    assert history[-2]["role"] == "user" and len(history[-2]["content"]) <= 500
    assert sources == "" and answers == []


def test_app_other_script_gets_answer_and_note(ui_engine: Engine) -> None:
    *_, (history, sources, _, answers) = ui_chat.respond("FoldNet 设计了多少种新的折叠？", [], "extractive", 5)
    assert f"(Note: {NON_ENGLISH_NOTE})" in history[-1]["content"]
    assert answers[-1]["note"] == NON_ENGLISH_NOTE and sources


def test_app_control_characters_are_dropped(ui_engine: Engine) -> None:
    *_, (history, _, _, answers) = ui_chat.respond(
        "How many novel folds\x1b does FoldNet design?\x07", [], "extractive", 5
    )
    assert answers[-1]["question"] == "How many novel folds does FoldNet design?"
    assert "120" in history[-1]["content"] and "Note" not in history[-1]["content"]


# --- the real command ---------------------------------------------------------------------------
@pytest.mark.slow
def test_rag_ask_subprocess_bad_questions(tmp_path: Path) -> None:
    """Rejected before any index or model is loaded: exit 2, one line, no traceback."""
    env = dict(os.environ, RAG_HOME=str(tmp_path / "home"))
    for question, message in [
        ("\x01\x02\x1b", "the question is empty"),
        ("q" * 100_000, "the question is 100000 characters long"),
    ]:
        r = subprocess.run(
            [sys.executable, "-m", "rag.cli", "ask", question], env=env, capture_output=True, text=True, timeout=300
        )
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr.startswith(f"error: {message}") and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
