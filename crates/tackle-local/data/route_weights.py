"""Trains the classifying router's weights (`RouteWeights` in `src/model.rs`).

The router scores each option of a request (each offered tool, and answering without one)
by a weighted sum of what the model's likelihoods, the meaning of the tools and the request
itself say. This script learns those weights as a conditional logit (a softmax over each
request's options) from the development part of the decision sets, as dumped by

    tackle-bench local MODEL.gguf --decisions SETS --explain --part dev > options.jsonl

and prints them as Rust, twice: with meaning (an embedder is loaded) and without. It also
reports two estimates on the development part: five-fold cross-validation (requests like
the held-out ones, from catalogs seen in training) and leave-one-catalog-out (each
catalog's requests scored by weights learned from the others: tools nobody trained on).
The held-out part is never read here; `tackle-bench local --decisions` reports it.

    python3 route_weights.py options.jsonl

Pure Python, no dependencies: a few hundred requests, Adam on the log-likelihood with a
small L2 penalty.
"""

import json
import math
import os
import random
import sys

# Each option's features: (name, function of the option and the request's context).
TOOL_FEATURES = ["likelihood", "closeness_gap", "closeness", "fills", "lacks_path", "shared_words", "wrong_effect", "timely"]
# Shared words past this many count no more (`SHARED_WORDS_COUNTED` in `src/model.rs`).
SHARED_WORDS_COUNTED = 1
NONE_FEATURES = ["likelihood", "none", "current", "situated"]
L2 = 0.001
STEPS = 800
RATE = 0.05


def options(item, meaning):
    """The feature rows of one request's options: (tool or None, {feature: value})."""
    opts = item["options"]
    closeness = [o["closeness"] for o in opts if o["tool"] is not None and o["closeness"] is not None]
    closest = max(closeness) if closeness and meaning else 0.0
    rows = []
    for o in opts:
        if o["tool"] is None:
            f = {"likelihood": o["likelihood"], "none": 1.0, "current": float(o["current"])}
            # The probability that the answer depends on the date (`src/situated.rs`): only
            # with meaning, since it is read from the embedding.
            if meaning and o.get("situated") is not None and os.environ.get("SITUATED") != "off":
                f["situated"] = o["situated"]
        else:
            c = (o["closeness"] or 0.0) if meaning else 0.0
            f = {
                "likelihood": o["likelihood"],
                "closeness_gap": c - closest,
                "closeness": c,
                "fills": float(o["fills"]),
                "lacks_path": float(o["lacks_path"]),
                "shared_words": float(min(o["shared_words"], SHARED_WORDS_COUNTED)),
                "wrong_effect": float(o["wrong_effect"]),
            }
            # The request's dependence on the date times the tool's (`src/situated.rs`).
            if meaning and o.get("timely") is not None and os.environ.get("SITUATED") != "off":
                f["timely"] = o["timely"]
            if not meaning:
                del f["closeness_gap"], f["closeness"]
        rows.append((o["tool"], f))
    return rows


def score(w, f):
    return sum(w.get(k, 0.0) * v for k, v in f.items())


def fit(data, keys):
    w = {k: 0.0 for k in keys}
    w["likelihood"] = 1.0
    m = {k: 0.0 for k in keys}
    v = {k: 0.0 for k in keys}
    usable = [(item, rows) for item, rows in data if any(t == item["expected"] for t, _ in rows)]
    for step in range(STEPS):
        g = {k: 0.0 for k in keys}
        for item, rows in usable:
            s = [score(w, f) for _, f in rows]
            top = max(s)
            e = [math.exp(x - top) for x in s]
            z = sum(e)
            for (tool, f), ei in zip(rows, e):
                d = (1.0 if tool == item["expected"] else 0.0) - ei / z
                for k, x in f.items():
                    g[k] += d * x
        for k in keys:
            gk = g[k] / len(usable) - L2 * w[k]
            m[k] = 0.9 * m[k] + 0.1 * gk
            v[k] = 0.999 * v[k] + 0.001 * gk * gk
            w[k] += RATE * (m[k] / (1 - 0.9 ** (step + 1))) / (math.sqrt(v[k] / (1 - 0.999 ** (step + 1))) + 1e-8)
    return w


def right(w, item, rows):
    return max(rows, key=lambda r: score(w, r[1]))[0] == item["expected"]


def main():
    items = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    dev = [i for i in items if i["part"] == "dev"]
    for meaning in (True, False):
        keys = [k for k in dict.fromkeys(TOOL_FEATURES + NONE_FEATURES) if meaning or "closeness" not in k]
        data = [(i, options(i, meaning)) for i in dev]
        order = list(range(len(data)))
        random.Random(7).shuffle(order)
        folded = 0
        for k in range(5):
            test = set(order[k::5])
            w = fit([d for j, d in enumerate(data) if j not in test], keys)
            folded += sum(right(w, *data[j]) for j in test)
        print(f"// meaning={meaning}: five-fold {folded}/{len(data)} = {folded / len(data):.3f}")
        catalogs = sorted({i["catalog"] for i in dev})
        per, total = [], 0
        for c in catalogs:
            w = fit([d for d in data if d[0]["catalog"] != c], keys)
            ok = sum(right(w, i, r) for i, r in data if i["catalog"] == c)
            n = sum(1 for i, _ in data if i["catalog"] == c)
            total += ok
            per.append(f"{c} {ok}/{n}")
        print(f"// meaning={meaning}: leave-one-catalog-out {total}/{len(data)} = {total / len(data):.3f} ({', '.join(per)})")
        w = fit(data, keys)
        ok = sum(right(w, i, r) for i, r in data)
        print(f"// trained on all {len(data)} development requests: {ok}/{len(data)} = {ok / len(data):.3f}")
        print("RouteWeights {")
        for k in TOOL_FEATURES + ["none", "current", "situated"]:
            print(f"    {k}: {w.get(k, 0.0):.3f},")
        print("}")


if __name__ == "__main__":
    main()
