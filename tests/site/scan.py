"""Reading built pages back: their tags and attributes, as a browser's parser sees them."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path


@dataclass
class Tag:
    name: str
    attrs: dict[str, str | None]


@dataclass
class Scan:
    tags: list[Tag] = field(default_factory=list)
    text: str = ""

    def all(self, name: str) -> list[Tag]:
        return [tag for tag in self.tags if tag.name == name]


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scan = Scan()
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.scan.tags.append(Tag(tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self._text.append(data)

    def close(self) -> None:
        super().close()
        self.scan.text = "".join(self._text)


def scan_html(html: str) -> Scan:
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return parser.scan


def scan_file(path: Path) -> Scan:
    return scan_html(path.read_text(encoding="utf-8"))


def html_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.html"))
