"""Read the shared corpus of real page revisions (../shared/corpus) at run time.

Nothing from it is copied into the repository; this module only knows its layout.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

CORPORA = ("mcp-spec", "cloudevents-spec")


@dataclass(frozen=True, slots=True)
class Pair:
    corpus: str
    id: str
    path: str
    """The page's path in its repository at the newer revision."""
    folder: Path

    @property
    def old(self) -> str:
        return (self.folder / "old.md").read_text(encoding="utf-8")

    @property
    def new(self) -> str:
        return (self.folder / "new.md").read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class Label:
    corpus: str
    id: str
    label: str
    """``formatting-only``, ``editorial`` or ``normative``."""
    normative_changes: tuple[dict[str, str | None], ...]
    notes: str


def corpus_root(shared: Path) -> Path:
    return shared / "corpus"


def pairs(shared: Path) -> Iterator[Pair]:
    root = corpus_root(shared)
    for corpus in CORPORA:
        for line in (root / corpus / "pairs.jsonl").read_text(encoding="utf-8").splitlines():
            meta = json.loads(line)
            yield Pair(corpus, meta["id"], meta["path"], root / corpus / "pairs" / meta["id"])


def labels(shared: Path) -> dict[tuple[str, str], Label]:
    result = {}
    for line in (corpus_root(shared) / "labels.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        label = Label(
            row["corpus"], row["id"], row["label"], tuple(row["normative_changes"]), row["notes"]
        )
        result[(label.corpus, label.id)] = label
    return result
