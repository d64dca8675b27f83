"""trafilatura and readability-lxml on the modern-web extraction benchmark of Murrough Foley,
in either published form (see `tackle-bench`'s `src/modern.rs`), on the same parts and with
the same scoring as `tackle-bench extract --modern DIR`:

- WCXB v1.0 (`dev/` and `test/`, each `html/ID.html.gz` and `ground-truth/ID.json`): the
  parts are its splits, `dev` and `test`; every page counts, an empty truth too;
- the earlier release (`release/html`, `benchmark/ground-truth`): every third page with both
  files and a truth, in ID order, is `dev`, the other two thirds `held-out`.

Scores: WCXB's word F1 (`word`: lower-cased `\\w+` words as a bag, precision, recall and F1
per page, each averaged, as its `evaluate.py`), and 4-word shingles of lower-case
alphanumeric tokens, precision and recall per page averaged and F1 from the two averages,
the mean of the pages' F1, must-have passages found and must-not passages kept, F1 per page
type. trafilatura runs with its defaults and the page's address, as in the
article-extraction benchmark.

    venv/bin/python extract_modern.py DIR [dev|held-out|test|all]
"""
import gzip
import json
import os
import re
import sys
import time

from collections import Counter

import trafilatura

from extract_real import readability_text
from trafilatura_corpus import scores


def folded(text):
    return re.sub(r"\s+", " ", text).strip()


def word_scores(got, want):
    """WCXB's word precision, recall and F1 (`evaluate.py`'s `word_f1`)."""
    g, w = re.findall(r"\w+", got.lower()), re.findall(r"\w+", want.lower())
    if not w:
        return (1.0, 1.0, 1.0) if not g else (0.0, 0.0, 0.0)
    if not g:
        return (0.0, 0.0, 0.0)
    common = sum((Counter(g) & Counter(w)).values())
    p, r = common / len(g), common / len(w)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def read_pages(truths, html_dir, keep_empty):
    found = []
    for name in sorted(os.listdir(truths)):
        if not name.endswith(".json"):
            continue
        page_id = name[:-5]
        path = os.path.join(html_dir, page_id + ".html.gz")
        if not os.path.isfile(path):
            continue
        record = json.load(open(os.path.join(truths, name), encoding="utf-8"))
        truth = record["ground_truth"]
        main = truth.get("main_content") or ""
        if not main.strip() and not keep_empty:
            continue
        html = gzip.open(path).read().decode("utf-8", errors="replace")
        kind = record.get("_internal", {}).get("page_type", {}).get("primary") or "unknown"
        found.append({
            "url": record.get("url"), "kind": "collection" if kind == "category" else kind, "html": html,
            "truth": main, "with": [folded(w) for w in truth.get("with") or []],
            "without": [folded(w) for w in truth.get("without") or []],
        })
    return found


def pages(root):
    if os.path.isdir(os.path.join(root, "dev", "ground-truth")):
        return [(split == "dev", page) for split in ("dev", "test")
                for page in read_pages(os.path.join(root, split, "ground-truth"), os.path.join(root, split, "html"), True)]
    read = read_pages(os.path.join(root, "benchmark", "ground-truth"), os.path.join(root, "release", "html"), False)
    return [(i % 3 == 0, page) for i, page in enumerate(read)]


def main(root, part="dev"):
    keep = {"dev": lambda dev: dev, "held-out": lambda dev: not dev, "test": lambda dev: not dev,
            "all": lambda dev: True}[part]
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
            wp, wr, wf = word_scores(text, page["truth"])
            flat = folded(text)
            found = sum(w in flat for w in page["with"])
            kept = sum(w in flat for w in page["without"])
            for key in ("all", page["kind"]):
                t = totals.setdefault(key, [0, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0.0, 0.0, 0.0])
                t[0] += 1
                t[1] += p
                t[2] += r
                t[3] += f
                t[4] += found
                t[5] += len(page["with"])
                t[6] += kept
                t[7] += len(page["without"])
                t[8] += wp
                t[9] += wr
                t[10] += wf

        def words(t):
            return {"precision": round(t[8] / t[0], 3), "recall": round(t[9] / t[0], 3), "f1": round(t[10] / t[0], 3)}

        def means(t):
            p, r = t[1] / t[0], t[2] / t[0]
            return p, r, (2 * p * r / (p + r) if p + r else 0.0)

        p, r, f1 = means(totals["all"])
        t = totals["all"]
        by_type = {}
        for kind in sorted(k for k in totals if k != "all"):
            kp, kr, kf = means(totals[kind])
            by_type[kind] = {"pages": totals[kind][0], "f1": round(kf, 3), "precision": round(kp, 3),
                             "recall": round(kr, 3), "word": words(totals[kind])}
        print(json.dumps({
            "framework": name, "bench": "extract_modern", "part": part, "pages": t[0],
            "precision": round(p, 3), "recall": round(r, 3), "f1": round(f1, 3), "page_f1": round(t[3] / t[0], 3),
            "word": words(t),
            "with_found": round(t[4] / max(t[5], 1), 3), "without_kept": round(t[6] / max(t[7], 1), 3),
            "by_type": by_type, "pages_per_s": round(t[0] / seconds, 3),
        }))


if __name__ == "__main__":
    main(sys.argv[1], *(sys.argv[2:3] or ["dev"]))
