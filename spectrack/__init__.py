"""spectrack: what really changed in a specification — formatting, editorial or normative.

The library works without the command line::

    from spectrack import diff, parse

    document = parse(text, name="tools.md")          # one model for Markdown and MDX
    report = diff.diff_texts(old, new, "tools.md")   # a PageReport: changes, hunks, verdict
"""

from spectrack import diff
from spectrack.diff import diff_paths, diff_texts
from spectrack.markdown import parse

__all__ = ["diff", "diff_paths", "diff_texts", "parse"]
