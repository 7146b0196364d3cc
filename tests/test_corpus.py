import json
from pathlib import Path

import pytest

from rag.corpus.reader import CorpusError, corpus_files, read_corpus_file
from tests.conftest import DATA, write_corpus


def test_shipped_corpus_ids_and_count() -> None:
    papers = [p for f in corpus_files([DATA]) for p in read_corpus_file(f)]
    assert len(papers) == 57
    assert papers[1].paper_id == "000_3578a6a037ed62e9#2"
    assert all(p.label for p in papers)
    # Original text is kept verbatim (markdown included).
    assert any("**TraceGrad**" in p.abstract for p in papers)


def test_text_format_positions_skip_blank_lines(tmp_path: Path) -> None:
    f = write_corpus(tmp_path, "stem", ["First abstract here.", "Second abstract here."])
    papers = read_corpus_file(f)
    assert [p.paper_id for p in papers] == ["stem#1", "stem#2"]
    assert papers[1].position == 2


def test_jsonl_with_metadata(tmp_path: Path) -> None:
    f = tmp_path / "mine.jsonl"
    rows = [
        {"id": "p-1", "title": "A Title", "authors": ["A. B", "C. D"], "url": "http://x", "abstract": "We do A."},
        {"abstract": "We propose ZetaNet, a model. ZetaNet is good."},
    ]
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    a, b = read_corpus_file(f)
    assert (a.paper_id, a.title, a.authors, a.url) == ("p-1", "A Title", ["A. B", "C. D"], "http://x")
    assert a.label == "A Title"  # no coined name: the title is the label
    assert b.paper_id == "mine#2" and b.label == "ZetaNet"


def test_sidecar_attaches_titles(tmp_path: Path) -> None:
    f = write_corpus(tmp_path, "s", ["An abstract about things.", "Another abstract."])
    (tmp_path / "s.meta.jsonl").write_text(
        json.dumps({"paper_id": "s#2", "title": "Things", "url": "https://u"}) + "\n", encoding="utf-8"
    )
    papers = read_corpus_file(f)
    assert papers[1].title == "Things" and papers[1].url == "https://u" and papers[0].title is None
    assert [p.name for p in corpus_files([tmp_path])] == ["s.txt"]  # sidecars are not corpus files


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.txt", b"", "empty.txt: empty file"),
        ("blank.txt", b"   \n\n", "blank.txt: empty file"),
        ("header.txt", b"Only a header\n\n", "header.txt: no abstracts"),
        ("bin.txt", b"head\n\x00\x01\x02", "bin.txt: binary file"),
        ("latin.txt", b"head\nabstract one\ncaf\xe9\n", "latin.txt:3: not UTF-8"),
        ("bad.jsonl", b'{"abstract": "ok"}\n{"abstract": \n', "bad.jsonl:2: malformed JSON"),
        ("noabs.jsonl", b'{"title": "x"}\n', 'noabs.jsonl:1: missing or empty "abstract"'),
        ("list.jsonl", b"[1, 2]\n", "list.jsonl:1: expected a JSON object"),
        ("dup.jsonl", b'{"id": "a", "abstract": "x"}\n{"id": "a", "abstract": "y"}\n', "duplicate paper id 'a'"),
        ("deep.jsonl", b"[" * 100000 + b"\n", "deep.jsonl:1:"),
    ],
)
def test_bad_files_name_file_and_line(tmp_path: Path, name: str, content: bytes, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(CorpusError) as err:
        read_corpus_file(path)
    assert message in str(err.value)
    assert "\n" not in str(err.value)
