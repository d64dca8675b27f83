#!/usr/bin/env python3
"""Builds the real-page evaluation set of tackle-extract: `real/<set>-<name>.html` (the
page as published) and `real/<set>-<name>.txt` (its main text, the truth).

    python3 prepare.py NEWSPAPER4K_SDIST_DIR READABILITY_TEST_PAGES_DIR

- newspaper4k (MIT, `pip download --no-deps --no-binary :all: newspaper4k==0.9.6`):
  `tests/data/html/<name>.html` with `tests/data/txt/<name>.txt`.
- Mozilla Readability (Apache-2.0, github.com/mozilla/readability, `test/test-pages`):
  `<name>/source.html` with the text of `<name>/expected.html`.

Pages whose truth is shorter than 300 characters are left out (they test a parser rule,
not the choice of the main text). Standard library only.
"""

import html.parser
import pathlib
import re
import sys

BLOCK = {
    "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
    "tr", "td", "th", "blockquote", "section", "article", "figure", "figcaption", "dt", "dd",
    "hr", "header", "footer", "aside", "main", "nav", "dl", "caption",
}
SKIP = {"script", "style", "noscript", "template"}


class Text(html.parser.HTMLParser):
    """The text of an HTML fragment, one line per block."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skipping = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in SKIP:
            self.skipping += 1
        elif tag in BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)

    def text(self):
        lines = (re.sub(r"\s+", " ", line).strip() for line in "".join(self.parts).split("\n"))
        return "\n".join(line for line in lines if line)


def text_of(fragment):
    parser = Text()
    parser.feed(fragment)
    parser.close()
    return parser.text()


def main():
    newspaper, readability = map(pathlib.Path, sys.argv[1:3])
    out = pathlib.Path(__file__).parent / "real"
    out.mkdir(exist_ok=True)
    written = 0
    for page in sorted((newspaper / "tests/data/html").glob("*.html")):
        truth = newspaper / "tests/data/txt" / (page.stem + ".txt")
        if not truth.exists():
            continue
        text = truth.read_text(encoding="utf-8").strip()
        if len(text) < 300:
            continue
        (out / f"newspaper4k-{page.stem}.html").write_bytes(page.read_bytes())
        (out / f"newspaper4k-{page.stem}.txt").write_text(text + "\n", encoding="utf-8")
        written += 1
    for case in sorted(p for p in readability.iterdir() if p.is_dir()):
        source, expected = case / "source.html", case / "expected.html"
        if not (source.exists() and expected.exists()):
            continue
        text = text_of(expected.read_text(encoding="utf-8"))
        if len(text) < 300:
            continue
        (out / f"readability-{case.name}.html").write_bytes(source.read_bytes())
        (out / f"readability-{case.name}.txt").write_text(text + "\n", encoding="utf-8")
        written += 1
    print(f"{written} pages in {out}")


if __name__ == "__main__":
    main()
