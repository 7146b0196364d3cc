"""The app in a real browser (Debian Chromium driven by Playwright) and a gradio_client round trip."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rag.engine import Engine
from tests.conftest import serving, write_corpus

pytestmark = pytest.mark.slow

ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def app_url(real_engine: Engine, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    # A copy of the shipped index plus one hostile abstract, served by a real `rag serve`.
    home = tmp_path_factory.mktemp("serve-home")
    shutil.copytree(real_engine.settings.home, home, dirs_exist_ok=True)
    evil = write_corpus(
        tmp_path_factory.mktemp("evil"),
        "evil",
        [
            'We propose PwnNet <img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>, a model '
            "for robust parsing. PwnNet parses 17 formats [7] and <a href='javascript:alert(1)'>links</a>."
        ],
    )
    env = dict(os.environ, RAG_HOME=str(home))
    subprocess.run([sys.executable, "-m", "rag.cli", "ingest", str(evil)], env=env, check=True, capture_output=True)
    t0 = time.perf_counter()
    with serving(home) as url:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "serve_ready_seconds.txt").write_text(f"{time.perf_counter() - t0:.2f}\n")
        yield url


def test_gradio_client_round_trip(app_url: str) -> None:
    from gradio_client import Client

    client = Client(app_url, verbose=False)
    chat, sources, _ = client.predict(
        "How many questions does SNS-Bench contain?", [], "extractive", 5, [], [], api_name="/ask"
    )[:3]
    text = str(chat[-1]["content"])
    assert "6,658" in text and "[1]" in text
    assert "002_feea92aa1cd1892b#6" in sources and "<mark>" in sources


def test_real_browser(app_url: str) -> None:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is missing: `make test` installs it with apt-get when run as root")
        pytest.skip("Chromium not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        t0 = time.perf_counter()
        page.goto(app_url)
        page.wait_for_selector("#question textarea", timeout=60_000)
        load_s = time.perf_counter() - t0
        page.fill("#question textarea", "How many questions does SNS-Bench contain?")
        t1 = time.perf_counter()
        page.click("#ask")
        page.wait_for_function(
            "() => document.querySelector('#chat') && document.querySelector('#chat').innerText.includes('[1]')",
            timeout=60_000,
        )
        first_s = time.perf_counter() - t1
        page.wait_for_selector("#sources mark", timeout=60_000)
        assert "6,658" in page.inner_text("#chat")
        marks = page.eval_on_selector_all("#sources mark", "els => els.map(e => e.innerText).join(' | ')")
        assert "6,658 questions" in marks
        page.screenshot(path=str(ARTIFACTS / "chat.png"), full_page=True)

        # Hostile corpus text is shown as text, never run.
        page.fill("#question textarea", "How many formats does PwnNet parse?")
        page.click("#ask")
        page.wait_for_function(
            "() => document.querySelector('#sources') && document.querySelector('#sources').innerText.includes('PwnNet')",
            timeout=60_000,
        )
        assert "<script>" in page.inner_text("#sources")
        assert page.evaluate("() => window.__pwned") is None and dialogs == []
        page.screenshot(path=str(ARTIFACTS / "hostile.png"), full_page=True)

        page.get_by_role("tab", name="Papers").click()
        page.fill("#paper-search textarea", "SNS")
        page.wait_for_function(
            "() => document.querySelector('#papers-table') && document.querySelector('#papers-table').innerText.includes('SNS-Bench')",
            timeout=30_000,
        )
        page.screenshot(path=str(ARTIFACTS / "papers.png"), full_page=True)
        browser.close()
    (ARTIFACTS / "browser_timings.txt").write_text(f"page_load_s {load_s:.2f}\nfirst_answer_s {first_s:.2f}\n")
