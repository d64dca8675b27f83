"""Measures Python trafilatura and readability-lxml on a directory of real pages
(`NAME.html` with its main text in `NAME.txt`, as `crates/tackle-extract/data/real`), on the
same split and with the same scoring as `tackle-bench extract --dir DIR`: every third page
in name order is held out (measured only with `--held-out`); 4-word shingles of lower-case
alphanumeric tokens, precision/recall/F1 per page, averaged; throughput as the median of 5
passes after 2 warm-ups.

    python3 -m venv venv && venv/bin/pip install trafilatura==2.0.0 readability-lxml==0.8.4.1 lxml_html_clean==0.4.7
    venv/bin/python extract_real.py DIR [--held-out]
"""
import glob
import json
import statistics
import sys
import time

import lxml.html
import trafilatura
from readability import Document

from trafilatura_corpus import scores


def readability_text(html):
    try:
        summary = Document(html).summary(html_partial=True)
        return lxml.html.fromstring(summary).text_content() if summary.strip() else ""
    except Exception:  # a page it cannot read scores 0
        return ""


def trafilatura_text(html):
    return trafilatura.extract(html, url="https://bench.example/page") or ""


def main(directory, held_out):
    pages = sorted(glob.glob(f"{directory}/*.html"))
    if not pages:
        sys.exit(f"no .html pages in {directory}")
    chosen = [p for i, p in enumerate(pages) if (i % 3 == 2) == held_out]
    htmls = [open(p, encoding="utf-8", errors="replace").read() for p in chosen]
    truths = [open(p[:-5] + ".txt", encoding="utf-8").read() for p in chosen]
    for name, extract in [("trafilatura " + trafilatura.__version__, trafilatura_text),
                          ("readability-lxml", readability_text)]:
        def run():
            return [extract(h) for h in htmls]

        for _ in range(2):
            run()
        times, outputs = [], None
        for _ in range(5):
            start = time.perf_counter()
            outputs = run()
            times.append(time.perf_counter() - start)
        total = [scores(o, t) for o, t in zip(outputs, truths)]
        n = len(total)
        print(json.dumps({
            "framework": name,
            "bench": "extract_dir_held_out" if held_out else "extract_dir_dev",
            "pages": n,
            "pages_per_s": round(n / statistics.median(times), 3),
            "precision": round(sum(s[0] for s in total) / n, 3),
            "recall": round(sum(s[1] for s in total) / n, 3),
            "f1": round(sum(s[2] for s in total) / n, 3),
        }))


if __name__ == "__main__":
    main(sys.argv[1], "--held-out" in sys.argv[2:])
