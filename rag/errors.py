"""Errors the user can fix: printed as one line, never a traceback."""


class UsageError(Exception):
    """A problem the user can fix; printed as one line, never a traceback."""


class IndexCorrupt(RuntimeError):
    """The index is damaged or partly deleted; the message says how to rebuild it."""


class StoreUnavailable(RuntimeError):
    """The Chroma server cannot be reached."""


class BackendUnavailable(RuntimeError):
    """The requested backend cannot run here (not installed or not configured)."""
