"""Reading a page back as a browser would: its elements, attributes, text and CSS urls."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser

CSS_URL = re.compile(r"url\(\s*[\"']?([^\"')]*)")
FOLDS = re.compile(r"<details\b[^>]*>.*?</details>", re.S)  # folds are never nested


@dataclass
class Parsed:
    tags: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    css: list[str] = field(default_factory=list)

    def all(self, tag: str) -> list[dict[str, str]]:
        return [attrs for name, attrs in self.tags if name == tag]

    def words(self) -> str:
        """The visible text as one line of words: markup and spacing do not matter."""
        return words_of(" ".join(self.text))

    def css_urls(self) -> list[str]:
        return [url for block in self.css for url in CSS_URL.findall(block)]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parsed = Parsed()
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.parsed.tags.append((tag, {k: v or "" for k, v in attrs}))
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        (self.parsed.css if self._in_style else self.parsed.text).append(data)


def parse(html: str) -> Parsed:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.parsed


def words_of(text: str) -> str:
    return " ".join(re.findall(r"\w+", text))


def text_of(html: str) -> str:
    """The words of a piece of the page, its markup gone."""
    return words_of(unescape(re.sub(r"<[^>]+>", " ", html)))


def folds(html: str) -> list[str]:
    """Every fold of the page (<details> and all it holds), in order."""
    return FOLDS.findall(html)


def unfolded(html: str) -> str:
    """The page with every fold taken out: what a reader sees before opening any."""
    return FOLDS.sub(" ", html)
