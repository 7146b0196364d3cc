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


def require_chromium() -> None:
    """Skip without Chromium, except under CI, where `make test` installs it: a missing
    browser there is a failure, never a silent skip."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is missing: `make test` installs it with apt-get when run as root")
        pytest.skip("Chromium not installed (apt-get install chromium)")


def test_real_browser(app_url: str) -> None:
    require_chromium()
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


def _meta() -> dict[str, dict[str, object]]:
    """The shipped papers' real titles and authors, straight from the sidecars."""
    import json

    out = {}
    for f in sorted((Path(__file__).parent.parent / "data").glob("*.meta.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                obj = json.loads(line)
                out[obj["paper_id"]] = obj
    return out


SOURCE_IDS = "els => els.map(e => e.innerText.trim())"


def _ask(page, question: str, n_messages: int) -> None:  # type: ignore[no-untyped-def]
    page.fill("#question textarea", question)
    page.click("#ask")
    page.wait_for_function(
        "(n) => document.querySelectorAll('#chat .message').length >= n"
        " && document.querySelectorAll('#sources details.source').length > 0"
        " && [...document.querySelectorAll('#chat .message')].pop().querySelector('.cite')",
        arg=n_messages,
        timeout=60_000,
    )


def test_citations_layout_and_ordinal_followup_in_a_browser(app_url: str) -> None:
    """A multi-paper answer is a list with bold labels; [2] opens the second paper in the
    sources panel, which shows real titles and authors and no raw LaTeX; "the second one"
    is then answered from that paper only."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    meta = _meta()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(app_url)
        page.wait_for_selector("#question textarea", timeout=60_000)
        _ask(page, "Which papers deal with conformal prediction?", 2)
        last = page.locator("#chat .message").last
        labels = last.locator("ul > li > b").all_inner_texts()
        assert len(labels) >= 2 and last.locator("ul > li").count() == len(labels), last.inner_html()
        ids = page.eval_on_selector_all("#sources details.source .meta code", SOURCE_IDS)
        assert len(ids) == len(labels) and all(i in meta for i in ids), ids
        sources = page.inner_text("#sources")
        for pid in ids:  # real titles and authors on every cited paper
            assert str(meta[pid]["title"]) in sources and str(meta[pid]["authors"][0]) in sources  # type: ignore[index]
        for where in ("#chat", "#sources"):
            shown = page.inner_text(where)
            assert "$\\" not in shown and "\\texttt" not in shown and "$" not in shown, where
        tip = last.locator(".cite", has_text="[2]").first.get_attribute("title") or ""
        assert tip.startswith(str(meta[ids[1]]["title"])), tip
        page.screenshot(path=str(ARTIFACTS / "multi_paper_answer.png"), full_page=True)

        # Clicking [2] opens the second paper in the sources panel and scrolls to it.
        page.evaluate("document.querySelectorAll('#sources details.source').forEach(d => d.open = false)")
        last.locator(".cite", has_text="[2]").first.click()
        page.wait_for_function(
            "() => { const d = document.getElementById('source-2');"
            " return d && d.open && d.classList.contains('current'); }",
            timeout=10_000,
        )
        assert not page.evaluate("document.getElementById('source-1').open")
        page.wait_for_timeout(800)  # the smooth scroll
        top = page.evaluate("document.getElementById('source-2').getBoundingClientRect().top")
        assert 0 <= top < 1000, top
        page.screenshot(path=str(ARTIFACTS / "cite_2_clicked.png"))

        # An ordinal follow-up is answered from exactly the paper it points at.
        _ask(page, "What does the second one do with outliers?", 4)
        last = page.locator("#chat .message").last
        ids2 = page.eval_on_selector_all("#sources details.source .meta code", SOURCE_IDS)
        assert ids2 == [ids[1]], (ids, ids2)
        tips = [t.get_attribute("title") or "" for t in last.locator(".cite").all()]
        assert tips and all(t.startswith(str(meta[ids[1]]["title"])) for t in tips), tips
        assert last.locator("ul").count() == 0  # one paper: a paragraph
        page.screenshot(path=str(ARTIFACTS / "ordinal_followup.png"), full_page=True)
        browser.close()
