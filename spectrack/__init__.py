"""spectrack: what really changed in a specification — formatting, editorial or normative.

The library works without the command line::

    from spectrack import diff, parse

    document = parse(text, name="tools.md")          # one model for Markdown and MDX
    report = diff.diff_texts(old, new, "tools.md")   # a PageReport: changes, hunks, verdict
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spectrack import diff
    from spectrack.diff import diff_paths, diff_texts
    from spectrack.markdown import parse

__all__ = ["diff", "diff_paths", "diff_texts", "parse"]

_EXPORTS = {
    "diff": ("spectrack.diff", None),
    "diff_paths": ("spectrack.diff", "diff_paths"),
    "diff_texts": ("spectrack.diff", "diff_texts"),
    "parse": ("spectrack.markdown", "parse"),
}


def __getattr__(name: str) -> Any:
    """Load an export on first use: the command's entry point (`spectrack.__main__`) is in
    this package, and catches a Ctrl-C only in modules loaded after the package itself."""
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name, attribute = _EXPORTS[name]
    module = import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value
