"""Secrets never printed, logged or written; `rag serve` stays on this machine unless told.

The LLM key, the Chroma token and the UI password are distinctive strings; the fault
servers of test_faults echo credentials back in their error bodies, as careless servers do.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rag.answer.pipeline import ask
from rag.cli.format import format_references
from rag.cli.logs import RedactingFormatter, env_secrets
from rag.cli.main import main
from rag.errors import UsageError
from rag.models.llm import OpenAICompatLLM
from rag.settings import PROJECT_ROOT, Settings
from rag.types import Query
from tests.conftest import SMALL, free_port, wait_http, write_corpus
from tests.test_faults import SECRET, build_index, cli_env, engine_for, fault_server, run_cli
from ui.access import is_loopback, parse_ui_auth, serve_policy

CHROMA_SECRET = "chroma-SECRET-token-24680"
UI_PASSWORD = "ui-SECRET-pw-13579"
SECRETS = (SECRET, CHROMA_SECRET, UI_PASSWORD)
Q = "How many novel folds does FoldNet design?"


def assert_no_secret(text: str) -> None:
    for s in SECRETS:
        assert s not in text


def secret_env(tmp_path: Path, url: str) -> dict[str, str]:
    env = cli_env(tmp_path, url, RAG_UI_AUTH=f"admin:{UI_PASSWORD}", OPENAI_LOG="debug")
    env["RAG_CHROMA_TOKEN"] = CHROMA_SECRET  # unused without RAG_CHROMA_URL, but must not show either
    return env


# --- secrets -----------------------------------------------------------------------------------
def test_settings_and_backend_objects_hide_secrets() -> None:
    s = Settings(llm_api_key=SECRET, chroma_token=CHROMA_SECRET)  # type: ignore[arg-type]
    assert_no_secret(repr(s) + str(s) + s.model_dump_json())
    with fault_server("http500") as url:
        assert_no_secret(repr(OpenAICompatLLM(url, "m", SECRET)))


def test_debug_logs_of_every_library_never_contain_the_key(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    home = build_index(tmp_path)
    caplog.set_level(logging.DEBUG)
    for name in ("httpx", "httpcore", "openai", "llama_index", "rag", "urllib3"):
        caplog.set_level(logging.DEBUG, logger=name)
    for mode in ("http500", "badjson", "closed", "ok"):
        with fault_server(mode) as url:
            engine = engine_for(home, url, max_retries=1)
            llm = engine.llm("openai")
            a = ask(
                Query(question=Q),
                backend="openai",
                retriever=engine.retriever,
                llm=llm,
                llm_options=engine.llm_options(),
            )
            assert_no_secret(a.model_dump_json() + json.dumps(a.to_json()) + format_references(a))
    assert "openai._base_client" in caplog.text and "httpcore" in caplog.text  # debug logging really was on
    assert "Bearer ***" in caplog.text  # the echoed key was logged only redacted
    assert_no_secret(caplog.text)
    for record in caplog.records:
        assert_no_secret(record.getMessage() + repr(record.args) + (record.exc_text or ""))


def test_error_echoing_the_chroma_token_is_redacted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A Chroma "server" that answers 500 with the token it was sent: the CLI's one-line error
    # (text and JSON) must not repeat it.
    with fault_server("http500") as url:
        for key, value in secret_env(tmp_path, url).items():
            monkeypatch.setenv(key, value)
        monkeypatch.setenv("RAG_CHROMA_URL", url.removesuffix("/v1"))
        assert main(["status", "--json"]) in (1, 2)  # a one-line error, whichever kind
    out, err = capsys.readouterr()
    assert "Bearer ***" in err and "Bearer ***" in json.loads(out)["error"]
    assert_no_secret(out + err)


def test_log_lines_and_tracebacks_are_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_LLM_API_KEY", SECRET)
    monkeypatch.setenv("RAG_CHROMA_TOKEN", CHROMA_SECRET)
    monkeypatch.setenv("RAG_UI_AUTH", f"admin:{UI_PASSWORD}")
    formatter = RedactingFormatter("%(levelname)s %(name)s: %(message)s", env_secrets())
    try:
        raise ValueError(f"server said: {SECRET} {CHROMA_SECRET}")
    except ValueError:
        record = logging.LogRecord("x", logging.DEBUG, __file__, 1, "got %s", (UI_PASSWORD,), sys.exc_info())
    line = formatter.format(record)
    assert "got ***" in line and "server said: *** ***" in line and "Traceback" in line
    assert_no_secret(line)


@pytest.mark.slow  # starts a process
def test_eval_reports_never_contain_secrets(tmp_path: Path) -> None:
    cases = [
        {
            "id": "s1",
            "type": "single",
            "question": Q,
            "gold_ids": ["small#2"],
            "answer_facts": ["120"],
            "evidence": "FoldNet designs 120 novel folds validated in the lab.",
        },
        {"id": "u1", "type": "unanswerable", "question": "What learning rate does TinyQuant use?"},
    ]
    eval_set = tmp_path / "set.jsonl"
    eval_set.write_text("".join(json.dumps(c) + "\n" for c in cases))
    out = tmp_path / "out"
    with fault_server("http500") as url:
        env = secret_env(tmp_path, url)
        r = run_cli("-vv", "eval", "--set", str(eval_set), "--backend", "openai", "--out", str(out), env=env)
    assert r.returncode == 0, r.stderr
    assert "DEBUG" in r.stderr  # -vv and OPENAI_LOG=debug really logged
    assert_no_secret(r.stdout + r.stderr)
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert rows[0]["backend_error"] and "Bearer ***" in rows[0]["backend_error"]
    files = [p for p in out.rglob("*") if p.is_file()]
    assert {"results.jsonl", "report.json", "report.md"} <= {p.name for p in files}
    for p in files:
        data = p.read_bytes()
        assert not any(s.encode() in data for s in SECRETS), p


# --- rag serve -----------------------------------------------------------------------------------
def test_bind_policy() -> None:
    for host in ("127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"):
        assert is_loopback(host) and serve_policy(host, allow_remote=False, auth=None) is None
    for host in ("0.0.0.0", "::", "", "192.168.1.5", "example.org"):
        assert not is_loopback(host)
        with pytest.raises(UsageError, match=r"refusing to serve on .*pass --allow-remote"):
            serve_policy(host, allow_remote=False, auth=("a", "b"))
        warning = serve_policy(host, allow_remote=True, auth=None)
        assert warning and warning.startswith("warning: ") and "RAG_UI_AUTH=user:password" in warning
        assert serve_policy(host, allow_remote=True, auth=("a", "b")) is None
    assert parse_ui_auth(None) is None and parse_ui_auth("") is None
    assert parse_ui_auth("admin:pa:ss") == ("admin", "pa:ss")
    for bad in ("justapassword", "admin:", ":pw"):
        with pytest.raises(UsageError, match="RAG_UI_AUTH must be user:password") as e:
            parse_ui_auth(bad)
        assert "justapassword" not in str(e.value)


def test_serve_refuses_remote_bind_without_the_flag(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RAG_UI_AUTH", raising=False)
    t0 = time.perf_counter()
    assert main(["serve", "--host", "0.0.0.0", "--port", str(free_port())]) == 2
    err = capsys.readouterr().err
    assert err == (
        "error: refusing to serve on 0.0.0.0: the app binds 127.0.0.1 by default; "
        "pass --allow-remote to make it reachable from other machines\n"
    )
    monkeypatch.setenv("RAG_UI_AUTH", UI_PASSWORD)  # no "user:": not silently unauthenticated
    assert main(["serve", "--host", "0.0.0.0", "--allow-remote"]) == 2
    err = capsys.readouterr().err
    assert err == "error: RAG_UI_AUTH must be user:password\n"
    assert time.perf_counter() - t0 < 5  # refused up front: no engine, no gradio


def test_no_public_share_link_anywhere() -> None:
    sources = [p for d in ("rag", "ui") for p in (PROJECT_ROOT / d).rglob("*.py")]
    for p in sources:
        text = p.read_text(encoding="utf-8").replace(" ", "")
        assert "share=True" not in text and "GRADIO_SHARE" not in text, p
    assert "share=False" in (PROJECT_ROOT / "ui" / "app.py").read_text(encoding="utf-8")


@pytest.mark.slow
def test_serve_on_all_interfaces_warns_and_answers(tmp_path: Path) -> None:
    write_corpus(tmp_path / "corpus", "small", SMALL)
    env = dict(os.environ, RAG_HOME=str(tmp_path / "home"), RAG_DATA_DIR=str(tmp_path / "corpus"))
    env.pop("RAG_UI_AUTH", None)
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rag.cli", "serve", "--host", "0.0.0.0", "--allow-remote", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()  # printed before the engine loads
        assert first.startswith("warning: serving on 0.0.0.0 without authentication"), first
        assert wait_http(f"http://127.0.0.1:{port}/", 240)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
