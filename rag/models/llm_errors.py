"""Failed requests to an OpenAI-compatible server in one clear line, without secrets:
which errors a retry can cure, their descriptions, redaction, URLs without credentials."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def retryable(e: BaseException) -> bool:
    """Errors a retry can cure: no connection, timeouts, rate limits, server errors."""
    import openai

    return isinstance(e, (openai.APIConnectionError, openai.RateLimitError, openai.InternalServerError))


def describe_error(e: BaseException, url: str, timeout: float) -> str:
    """One clear line for a failed request to an OpenAI-compatible server (callers redact)."""
    import openai

    if isinstance(e, openai.APITimeoutError):
        return f"the LLM server at {url} did not answer within {timeout:g}s"
    if isinstance(e, openai.APIConnectionError):
        return f"could not connect to the LLM server at {url}"
    if isinstance(e, openai.APIStatusError):
        hint = " (check RAG_LLM_API_KEY)" if e.status_code in (401, 403) else ""
        detail = server_message(e.body)
        return f"the LLM server at {url} answered HTTP {e.status_code}{hint}" + (f": {detail}" if detail else "")
    if isinstance(e, openai.APIError):  # an error event inside the stream
        detail = server_message(e.body) or e.message
        return f"the LLM server at {url} reported an error: {detail[:MAX_DETAIL]}"
    if isinstance(e, ValueError):  # JSONDecodeError, pydantic ValidationError
        return f"the LLM server at {url} sent an invalid response ({type(e).__name__})"
    return f"the LLM server at {url} failed: {type(e).__name__}"


MAX_DETAIL = 160  # characters of a server's own error message kept in ours


def server_message(body: object) -> str:
    """The `message` of an OpenAI-style error body, shortened to one line."""
    msg = body.get("message") if isinstance(body, dict) else body
    if not isinstance(msg, str):
        return ""
    line = " ".join(msg.split())
    return line[:MAX_DETAIL] + ("…" if len(line) > MAX_DETAIL else "")


def redact(text: str, secrets: list[str]) -> str:
    """`text` with every secret replaced: servers and libraries may echo a key back."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text


def safe_url(url: str) -> str:
    """`url` without a `user:password@` part, for messages and logs."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))
