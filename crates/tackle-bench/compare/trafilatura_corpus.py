"""Measures Python trafilatura on a corpus written by `tackle-bench extract --write DIR`,
or on any directory of `*.html` pages (quality only for those with a `.txt` beside them).

Same scoring as the Rust bench: 4-word shingles of lower-case alphanumeric tokens,
precision/recall/F1 per page (with multiplicity), averaged; throughput as the median of
5 passes after 2 warm-ups, in one process.

    pip install trafilatura
    python3 trafilatura_corpus.py DIR
"""
import collections
import glob
import json
import os
import re
import statistics
import sys
import time

import trafilatura


def tokens(text):
    # Markdown syntax that is not text: code fence lines (with their language), the
    # numbers of ordered list items, link and image targets (addresses).
    text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith(("```", "~~~")))
    text = re.sub(r"(?m)^\s*\d+\. ", "", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return [t.lower() for t in re.split(r"[^0-9A-Za-z\u00C0-\uFFFF]+", text) if t]


def shingles(text):
    t = tokens(text)
    if len(t) < 4:
        return collections.Counter([" ".join(t)] if t else [])
    return collections.Counter(" ".join(t[i:i + 4]) for i in range(len(t) - 3))


def scores(got, want):
    g, w = shingles(got), shingles(want)
    common = sum(min(n, w.get(k, 0)) for k, n in g.items())
    p = common / sum(g.values()) if g else 0.0
    r = common / sum(w.values()) if w else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def main(directory):
    pages = sorted(glob.glob(f"{directory}/*.html"))
    htmls = [open(p, encoding="utf-8", errors="replace").read() for p in pages]
    truths = [open(p[:-5] + ".txt", encoding="utf-8").read() if os.path.exists(p[:-5] + ".txt") else None
              for p in pages]

    def run():
        return [trafilatura.extract(h, output_format="markdown", include_links=True, include_comments=False,
                                    include_tables=True, url="https://bench.example/page") or "" for h in htmls]

    for _ in range(2):
        run()
    times = []
    outputs = None
    for _ in range(5):
        start = time.perf_counter()
        outputs = run()
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times)
    total = [scores(o, t) for o, t in zip(outputs, truths) if t is not None]
    n = len(htmls)
    scored = max(len(total), 1)
    size = sum(len(h.encode()) for h in htmls)
    print(json.dumps({
        "framework": "trafilatura-python " + trafilatura.__version__,
        "bench": "extract",
        "pages": n,
        "pages_per_s": round(n / seconds, 3),
        "mb_per_s": round(size / 1e6 / seconds, 3),
        "scored": len(total),
        "precision": round(sum(s[0] for s in total) / scored, 3) if total else None,
        "recall": round(sum(s[1] for s in total) / scored, 3) if total else None,
        "f1": round(sum(s[2] for s in total) / scored, 3) if total else None,
    }))


if __name__ == "__main__":
    main(sys.argv[1])
