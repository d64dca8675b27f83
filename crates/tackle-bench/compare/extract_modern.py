"""trafilatura and readability-lxml on the modern-web extraction benchmark of 2026 (a
checkout of github.com/Murrough-Foley/web-content-extraction-benchmark, published also as
tiptopjaw/web-content-extraction-benchmark), on the same parts and with the same scoring as
`tackle-bench extract --modern DIR`: every third page with both files, in ID order, is
`dev`, the other two thirds `held-out`; 4-word shingles of lower-case alphanumeric tokens,
precision and recall per page averaged and F1 from the two averages, the mean of the
pages' F1, must-have passages found and must-not passages kept, F1 per page type.
trafilatura runs with its defaults and the page's address, as in the article-extraction
benchmark.

    venv/bin/python extract_modern.py DIR [dev|held-out|all]
"""
import gzip
import json
import os
import re
import sys
import time

import trafilatura

from extract_real import readability_text
from trafilatura_corpus import scores


def folded(text):
    return re.sub(r"\s+", " ", text).strip()


def pages(root):
    truths = os.path.join(root, "benchmark", "ground-truth")
    found = []
    for name in sorted(os.listdir(truths)):
        if not name.endswith(".json"):
            continue
        page_id = name[:-5]
        path = os.path.join(root, "release", "html", page_id + ".html.gz")
        if not os.path.isfile(path):
            continue
        record = json.load(open(os.path.join(truths, name), encoding="utf-8"))
        truth = record["ground_truth"]
        main = truth.get("main_content") or ""
        if not main.strip():
            continue
        html = gzip.open(path).read().decode("utf-8", errors="replace")
        kind = record.get("_internal", {}).get("page_type", {}).get("primary") or "unknown"
        found.append((len(found) % 3 == 0, {
            "url": record.get("url"), "kind": kind, "html": html, "truth": main,
            "with": [folded(w) for w in truth.get("with") or []],
            "without": [folded(w) for w in truth.get("without") or []],
        }))
    return found


def main(root, part="dev"):
    keep = {"dev": lambda dev: dev, "held-out": lambda dev: not dev, "all": lambda dev: True}[part]
    chosen = [page for dev, page in pages(root) if keep(dev)]
    runners = [
        ("trafilatura " + trafilatura.__version__, lambda p: trafilatura.extract(p["html"], url=p["url"]) or ""),
        ("readability-lxml", lambda p: readability_text(p["html"])),
    ]
    for name, extract in runners:
        start = time.perf_counter()
        texts = [extract(p) for p in chosen]
        seconds = time.perf_counter() - start
        totals = {}
        for page, text in zip(chosen, texts):
            p, r, f = scores(text, page["truth"])
            flat = folded(text)
            found = sum(w in flat for w in page["with"])
            kept = sum(w in flat for w in page["without"])
            for key in ("all", page["kind"]):
                t = totals.setdefault(key, [0, 0.0, 0.0, 0.0, 0, 0, 0, 0])
                t[0] += 1
                t[1] += p
                t[2] += r
                t[3] += f
                t[4] += found
                t[5] += len(page["with"])
                t[6] += kept
                t[7] += len(page["without"])

        def means(t):
            p, r = t[1] / t[0], t[2] / t[0]
            return p, r, (2 * p * r / (p + r) if p + r else 0.0)

        p, r, f1 = means(totals["all"])
        t = totals["all"]
        by_type = {}
        for kind in sorted(k for k in totals if k != "all"):
            kp, kr, kf = means(totals[kind])
            by_type[kind] = {"pages": totals[kind][0], "f1": round(kf, 3), "precision": round(kp, 3),
                             "recall": round(kr, 3)}
        print(json.dumps({
            "framework": name, "bench": "extract_modern", "part": part, "pages": t[0],
            "precision": round(p, 3), "recall": round(r, 3), "f1": round(f1, 3), "page_f1": round(t[3] / t[0], 3),
            "with_found": round(t[4] / max(t[5], 1), 3), "without_kept": round(t[6] / max(t[7], 1), 3),
            "by_type": by_type, "pages_per_s": round(t[0] / seconds, 3),
        }))


if __name__ == "__main__":
    main(sys.argv[1], *(sys.argv[2:3] or ["dev"]))
