"""`rag verify` end to end (good file, bad lines, stdin, --json summary, --pairs tables) with
the hashing embedder, and the app's "Check claims" box."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rag.answer.claims import marked_claims
from rag.cli import verify as verify_cli
from rag.cli.main import main
from rag.engine import Engine


@pytest.fixture
def engine(fake_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> Engine:
    fake_engine.ensure_index()
    monkeypatch.setattr(verify_cli, "_engine", lambda: fake_engine)
    return fake_engine


def pid_of(engine: Engine, label: str) -> str:
    return next(p.paper_id for p in engine.papers.values() if p.label == label)


def lines(engine: Engine) -> list[str]:
    fold, mix = pid_of(engine, "FoldNet"), pid_of(engine, "GraphMix")
    return [
        json.dumps({"claim": "FoldNet designs 120 novel folds validated in the lab.", "paper_id": fold}),
        json.dumps({"claim": "FoldNet designs 210 novel folds validated in the lab.", "paper_id": fold}),
        json.dumps(
            {
                "claim": "GraphMix degrades accuracy by 3.5% on the Cora benchmark.",
                "paper_id": mix,
                "evidence": "It improves accuracy by 3.5% on the Cora benchmark.",
            }
        ),
    ]


def test_verify_good_file(engine: Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "claims.jsonl"
    f.write_text("\n".join(lines(engine)) + "\n", encoding="utf-8")
    assert main(["verify", str(f), "--json"]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    rows, summary = out[:-1], out[-1]
    assert [r["supported"] for r in rows] == [True, False, False]
    assert rows[0]["evidence_quote"] == "FoldNet designs 120 novel folds validated in the lab."
    assert rows[0]["reason"] == "supported"
    assert rows[1]["reason"] == "number not in evidence: 210"
    assert rows[2]["evidence_quote"].startswith("It improves accuracy")  # the given evidence is used
    assert rows[2]["reason"].startswith("opposite predicate: improves/degrades")
    assert set(rows[0]) >= {"claim", "paper_id", "supported", "evidence_quote", "reason"}
    assert summary == {
        "checked": 3,
        "supported": 1,
        "unsupported": 2,
        "errors": 0,
        "by_reason": {"supported": 1, "number not in evidence": 1, "opposite predicate": 1},
    }


def test_verify_bad_lines_and_stdin(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = lines(engine)
    bad = [
        "{not json",
        json.dumps(["a list"]),
        json.dumps({"claim": "", "paper_id": "x"}),
        json.dumps({"claim": "Something.", "paper_id": "nope#9"}),
        json.dumps({"claim": "Something.", "paper_id": pid_of(engine, "FoldNet"), "evidence": 7}),
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join([good[0], *bad, "", good[1]]) + "\n"))
    assert main(["verify", "-"]) == 1  # bad lines: exit 1, the rest still checked
    cap = capsys.readouterr()
    rows = [json.loads(x) for x in cap.out.splitlines()]
    assert [r["supported"] for r in rows] == [True, False]
    errors = cap.err.strip().splitlines()
    assert [e.split(":")[0] for e in errors] == ["line 2", "line 3", "line 4", "line 5", "line 6"]
    assert "unknown paper_id 'nope#9'" in errors[3]
    assert all("\n" not in e and "Traceback" not in e for e in errors)


def test_verify_needs_input(engine: Engine, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify"]) == 2
    assert "needs FILE" in capsys.readouterr().err
    assert main(["verify", "/no/such/file.jsonl"]) == 2


def test_verify_pairs_tables(engine: Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pairs = tmp_path / "pairs.jsonl"
    ev = "FoldNet designs 120 novel folds validated in the lab."
    rows = [
        {"id": "p1-f", "pair": "p1", "paper_id": "x", "source": "seed", "evidence": ev, "label": "faithful",
         "error_type": None, "claim": "FoldNet designs 120 novel folds, validated in the lab."},
        {"id": "p1-u", "pair": "p1", "paper_id": "x", "source": "seed", "evidence": ev, "label": "unfaithful",
         "error_type": "number", "claim": "FoldNet designs 12 novel folds validated in the lab."},
    ]  # fmt: skip
    pairs.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    assert main(["verify", "--pairs", str(pairs), "--json"]) == 0
    t = json.loads(capsys.readouterr().out)["pairs.jsonl"]["tables"]
    assert t["faithful"] == {"accepted": 1, "n": 1, "rate": 1.0}
    assert t["by_type"]["number"]["accepted"] == 0 and t["targets_met"] is True


def test_hardest_takes_both_kinds_in_turn() -> None:
    from rag.evaluation.judge_eval import hardest

    def row(i: int, label: str, accepted: bool, cos: float) -> dict[str, object]:
        return {"id": f"r{i}", "source": "seed", "label": label, "error_type": None, "reason": "x",
                "cosine": cos, "claim": "c", "evidence": "e", "accepted": accepted}  # fmt: skip

    rows = [row(1, "unfaithful", True, 0.5), row(2, "unfaithful", True, 0.9), row(3, "faithful", False, 0.7),
            row(4, "faithful", True, 0.99), row(5, "unfaithful", False, 0.99)]  # fmt: skip
    assert [h["id"] for h in hardest(rows, n=10)] == ["r2", "r3", "r1"]
    assert [h["id"] for h in hardest(rows, n=2)] == ["r2", "r3"]


def test_marked_claims() -> None:
    got = marked_claims("A holds [p#1]. B holds too [p#2, q#3]. No marker here.")
    assert got == [("A holds.", ["p#1"]), ("B holds too.", ["p#2", "q#3"]), ("No marker here.", [])]


def test_check_claims_box_escapes(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui import claims, state

    monkeypatch.setattr(state, "get_engine", lambda: engine)
    monkeypatch.setattr(claims, "get_engine", lambda: engine)
    fold = pid_of(engine, "FoldNet")
    html_out = claims.check_claims_html(
        f"FoldNet designs 120 novel folds validated in the lab [{fold}]. <b>x</b> <script>alert(1)</script> [{fold}]."
    )
    assert "supported" in html_out and "<script>" not in html_out and "&lt;script&gt;" in html_out
    assert "<b>x</b>" not in html_out
    assert "Paste sentences" in claims.check_claims_html("")
