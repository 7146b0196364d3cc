"""Who may reach `rag serve`: loopback by default, remote only when asked, with a login."""

from __future__ import annotations

from rag.errors import UsageError


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name or "" (all interfaces): assume reachable from outside
        return False


def parse_ui_auth(value: str | None) -> tuple[str, str] | None:
    """`RAG_UI_AUTH=user:password` as Gradio's auth pair; a malformed value is an error, never
    silently no authentication."""
    if not value:
        return None
    user, sep, password = value.partition(":")
    if not (sep and user.strip() and password):
        raise UsageError("RAG_UI_AUTH must be user:password")
    return user.strip(), password


def serve_policy(host: str, *, allow_remote: bool, auth: tuple[str, str] | None) -> str | None:
    """Whether `rag serve` may bind `host`: UsageError when refused, else a warning to print
    (or None). The app is for this machine unless remote access is asked for explicitly."""
    if is_loopback(host):
        return None
    if not allow_remote:
        raise UsageError(
            f"refusing to serve on {host}: the app binds 127.0.0.1 by default; "
            "pass --allow-remote to make it reachable from other machines"
        )
    if auth is None:
        return (
            f"warning: serving on {host} without authentication: anyone who can reach this port can use the app "
            "(set RAG_UI_AUTH=user:password)"
        )
    return None
