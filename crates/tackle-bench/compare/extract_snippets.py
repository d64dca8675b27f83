"""trafilatura and readability-lxml on trafilatura's own evaluation (the `tests/` directory
of its repository: `evaldata.json` and the pages under `eval/` and `cache/`), counted as
`tackle-bench extract --snippets DIR` counts tackle: a passage counts when it occurs in the
whitespace-folded text (trafilatura's `eval_common.count_item`). trafilatura runs with the
settings of its own evaluation (no comments, tables, no formatting).

    venv/bin/python extract_snippets.py DIR [dev|held-out|all]

The parts are those of the bench: every third page found, in URL order, is `dev`; the
other two thirds are `held-out`.
"""
import json
import os
import re
import sys
import time

import trafilatura

from extract_real import readability_text


def folded(text):
    return re.sub(r"\s+", " ", text).strip()


def main(root, part="all"):
    data = json.load(open(os.path.join(root, "evaldata.json"), encoding="utf-8"))
    pages = []
    for url in sorted(data):
        item = data[url]
        for sub in ("cache", "eval"):
            path = os.path.join(root, sub, item["file"])
            if os.path.isfile(path):
                pages.append((url, item, open(path, "rb").read()))
                break
    keep = {"dev": lambda i: i % 3 == 0, "held-out": lambda i: i % 3 != 0, "all": lambda i: True}[part]
    pages = [page for i, page in enumerate(pages) if keep(i)]
    runners = [
        ("trafilatura " + trafilatura.__version__,
         lambda html, url: trafilatura.extract(html, url=url, include_comments=False, include_tables=True,
                                               include_formatting=False) or ""),
        ("readability-lxml", lambda html, url: readability_text(html.decode("utf-8", errors="replace"))),
    ]
    for name, run in runners:
        tp = fp = fn = tn = 0
        start = time.perf_counter()
        for url, item, html in pages:
            text = folded(run(html, url))
            tp += sum(1 for w in item["with"] if folded(w) in text)
            fn += sum(1 for w in item["with"] if folded(w) not in text)
            fp += sum(1 for w in item["without"] if folded(w) in text)
            tn += sum(1 for w in item["without"] if folded(w) not in text)
        seconds = time.perf_counter() - start
        p, r = tp / (tp + fp), tp / (tp + fn)
        print(json.dumps({
            "framework": name, "bench": "extract_snippets", "part": part, "pages": len(pages),
            "precision": round(p, 3), "recall": round(r, 3), "f1": round(2 * p * r / (p + r), 3),
            "accuracy": round((tp + tn) / (tp + tn + fp + fn), 3),
            "pages_per_s": round(len(pages) / seconds, 3),
        }))


if __name__ == "__main__":
    main(*sys.argv[1:3])
