"""Questions that ask what a whole paper is: "What is X?", "Summarize X", "tl;dr of the X paper",
"Explain X in one sentence", "What's the main contribution of X?". Any abstract answers them,
by the sentence that says what the paper proposes, whatever words the question frames it with."""

from __future__ import annotations

import re

from rag.text.normalize import content_stems, fold

KIND = r"(?:paper|work|method|model|framework|benchmark|approach|algorithm|dataset|study|article|architecture)"
# What users add to ask for brevity or a level: "in one sentence", "briefly", "in simple terms".
MANNER = (
    r"(?:in\s+(?:one|two|three|a\s+few|a|\d+)\s+(?:short\s+)?(?:sentences?|lines?|words?|paragraphs?|bullets?)"
    r"|in\s+a\s+nutshell|in\s+(?:simple|plain|layman'?s?|non-?technical)\s+(?:terms|english|words|language)"
    r"|briefly|quickly|for\s+(?:a\s+)?(?:non-?experts?|beginners?|laym[ae]n|newcomers?)|like\s+i'?m\s+(?:five|5)"
    r"|for\s+(?:practitioners|researchers|engineers|students|non-?specialists|a\s+(?:practitioner|researcher|student))"
    r"|please|for\s+me)"
)
# "In a sentence, what is X?": the manner may lead as well as trail.
_LEAD = (
    r"^\s*(?:(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+|(?:briefly|quickly)\s*,?\s+"
    rf"|(?:and|so|ok(?:ay)?|hey|hi)\s*,?\s+|{MANNER}\s*,\s*)*)"
)
_TRAIL = rf"(?:\s*,?\s*{MANNER})*\s*[?.!:]*\s*$"
_DIGEST = r"(?:summary|overview|synopsis|rundown|tl;?\s?dr|gist|short\s+version|abstract)"
_POINT = (
    r"(?:(?:main|key|core|central|big|basic|general|primary)\s+)?"
    r"(?:idea|ideas|contributions?|point|takeaways?|message|premise|insight|gist|summary|tl;?\s?dr|novelty)"
)
_FORMS = (
    # "Summarize X", "Give me a quick overview of X", "tl;dr of X", "ELI5 X", "tell me about X"
    rf"(?:summari[sz]e|explain|describe|outline|eli5|tl;?\s?dr(?:\s*(?:of|for|on))?:?|{_DIGEST}\s+(?:of|for|on)"
    rf"|tell\s+me\s+about|give\s+(?:me\s+)?(?:an?\s+|the\s+)?(?:quick\s+|short\s+|brief\s+|high[- ]level\s+)?"
    rf"{_DIGEST}\s+(?:of|for|on))\s+(?P<a>.+?)",
    # "What's the main contribution of X?", "What is the key idea behind X?", "Main idea of X?"
    rf"(?:what(?:'s|\s+is|\s+are|\s+was|\s+were)\s+)?(?:the\s+)?{_POINT}\s+(?:of|behind|in)\s+(?P<b>.+?)",
    # "What's new in X?", "What is novel about X compared to prior work?": what it contributes
    r"what(?:'s|\s+is|\s+are)\s+(?:new|novel|different)\s+(?:in|about)\s+(?P<h>.+?)(?:\s+(?:compared\s+(?:to|with)"
    r"|relative\s+to|versus|vs\.?)\s+(?:prior|previous|existing|earlier|related)\s+(?:work|methods|approaches|papers))?",
    # "Which paper introduced X?", "What paper is X from?", "Where does X come from?": the paper
    # that says what X is
    r"(?:which|what)\s+(?:paper|work|article)\s+(?:first\s+)?(?:introduced|introduces|proposed|proposes|presented"
    r"|presents|coined|defined|defines)\s+(?P<i>.+?)",
    r"(?:which|what)\s+(?:paper|work|article)\s+(?:is|was|are|were)\s+(?P<j>.+?)\s+from",
    r"where\s+(?:does|do|did)\s+(?P<k>.+?)\s+come\s+from",
    # "What is X used for?", "What can X be used for?": what it does
    r"what\s+(?:is|are|was|were)\s+(?P<f>.+?)\s+(?:used|meant|designed|intended|good)\s+for",
    r"what\s+(?:can|could)\s+(?P<g>.+?)\s+be\s+used\s+for",
    # "What is X?", "What is X about?", "Who is X?"
    r"(?:what|who)(?:'s|\s+is|\s+are)\s+(?P<c>.+?)(?:\s+(?:all\s+)?about)?",
    # "What does X do?", "What does X propose?", "What did X study?", "What do they work on?"
    r"what\s+(?:does|did|do)\s+(?P<d>.+?)\s+(?:do|propose|contribute|introduce|present|study|investigate|examine"
    r"|explore|work\s+on|focus\s+on)",
    # "X in a nutshell", "X: tl;dr", "X summary"
    rf"(?P<e>.+?)\s*[:,-]?\s*(?:in\s+a\s+nutshell|{_DIGEST}|summari[sz]ed)",
)
_OVERVIEW = re.compile(rf"{_LEAD}(?:{'|'.join(_FORMS)}){_TRAIL}", re.I)
# Asked of the whole paper too, but not what it is: "How does X work?", "What problem does X
# solve?", "X main result". The paper answers; its sentences closest to the question lead.
_ABOUT_FORMS = (
    r"how\s+(?:does|do|did)\s+(?P<a>.+?)\s+work",
    r"what\s+problems?\s+(?:does|do|did|is)\s+(?P<b>.+?)\s+(?:solve|solving|address|addressing|tackle|tackling)",
    r"what\s+(?:is|are|were)\s+(?:the\s+)?(?:main\s+|key\s+)?(?:results?|findings?)\s+(?:of|in)\s+(?P<c>.+?)",
    r"(?:the\s+)?(?:main\s+|key\s+)?(?:results?|findings?)\s+(?:of|in)\s+(?P<d>.+?)",
    # "What are X's main findings?"
    r"what(?:'s|\s+(?:is|are|was|were))\s+(?P<g>.+?)(?:'s)?\s+(?:main\s+|key\s+)?(?:results?|findings?|conclusions?)",
    r"(?P<e>.+?)(?:'s)?\s*[:,-]?\s*(?:main|key)\s+(?:results?|findings?|idea|contributions?)",
    # "What does X conclude?", "What did X find?": its findings.
    r"what\s+(?:does|did|do)\s+(?P<f>.+?)\s+(?:conclude|find|show|argue|claim|demonstrate|report|prove|found)",
)
_ABOUT = re.compile(rf"{_LEAD}(?:{'|'.join(_ABOUT_FORMS)}){_TRAIL}", re.I)
_FRAME_STEMS = frozenset(content_stems("paper work method model framework benchmark approach study article"))


def subject(question: str, *, about: bool = False) -> str | None:
    """What an overview question asks about ("Explain GENIE in one sentence" -> "GENIE"), or
    None when the question is not one (`about`: also "How does X work?" and its kind)."""
    for pattern in (_ABOUT, _OVERVIEW) if about else (_OVERVIEW,):
        m = pattern.match(question)
        if m is not None:
            return next(g for g in m.groups() if g is not None).strip()
    return None


def names_only(text: str, label: str) -> bool:
    """`text` is the paper's name and nothing else: "X", "the X paper", "X's", "the method called X"."""
    if not label:
        return False
    name = re.escape(fold(label))
    pattern = rf"(?:the\s+)?(?:{name}(?:'s)?(?:\s+{KIND})?|{KIND}\s+(?:on|about|called|named)\s+{name})"
    return re.fullmatch(pattern, fold(text).strip(), re.I) is not None


def asks_what_it_is(question: str, label: str) -> bool:
    """The question asks what the paper named `label` is, and nothing else."""
    s = subject(question)
    return s is not None and names_only(s, label)


# "Summarize it", "tl;dr of the second one": in a conversation, the paper it is about.
_BACK = re.compile(
    rf"(?:it|this|that|they|them|their|these|those|both|their\s+{KIND}s?|the\s+(?:first|second|third|last|other|former|latter)(?:\s+one)?"
    rf"|(?:this|that|the|each)\s+(?:one|{KIND}))",
    re.I,
)


def refers_back(text: str) -> bool:
    """`text` is a reference back and nothing else: "it", "the second one", "this paper"."""
    return _BACK.fullmatch(text.strip()) is not None


def asks_overview(
    question: str, label: str, title: str, *, by_title: bool, discussed: bool = False, about: bool = False
) -> bool:
    """The question asks what this paper is (`about`: or how it works, what it solves, what it
    found): it names the paper by its label, or (`by_title`: the question names it by its
    title's words) by words all of which are its title's, or (`discussed`: the conversation is
    about this paper) refers back to it."""
    bare = question.strip().rstrip("?.! ")
    s = subject(question, about=about) or (bare if names_only(bare, label) else None)  # "CacheZip?"
    if s is None:
        return False
    if names_only(s, label) or (discussed and _BACK.fullmatch(s) is not None):
        return True
    if not by_title:
        return False
    title_stems = set(content_stems(title))
    return all(t in title_stems or t in _FRAME_STEMS for t in content_stems(s))
