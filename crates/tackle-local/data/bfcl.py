# Writes decisions-bfcl.jsonl: requests real users typed, from the "live" categories of the
# Berkeley Function-Calling Leaderboard (BFCL v4, Apache-2.0; gorilla at a pinned commit,
# read from GORILLA=<clone> or GitHub). Each request comes with the tools it was offered
# (its own catalog, converted to JSON Schema) and the decision that is right:
#   bfcl-simple    one tool offered, which the request needs
#   bfcl-multiple  several tools offered, one of which the request needs
#   bfcl-none      tools offered, none of which the request needs ("irrelevance")
# and, where a tool is right, the values each argument may take (`accept`; "" means the
# argument may be left out), from BFCL's possible answers. Only single-turn requests with
# one user message and one expected call are kept; every n-th item of each category is
# taken so that 70 of each remain.
#
#   GORILLA=/path/to/gorilla python3 bfcl.py
#
# `--extra` writes decisions-bfcl-extra.jsonl instead: a second draw of calls from the
# requests the first leaves out (every n-th of the rest, 60 per category, catalogs
# `bfcl2-simple` and `bfcl2-multiple`), added on 2026-12-07 as fresh development data for
# the arguments, whose first development part had been read call by call. `--third`
# writes decisions-bfcl-third.jsonl: a third draw (every n-th of what both leave out, 60
# per category, catalogs `bfcl3-simple` and `bfcl3-multiple`), added on 2026-12-07 (an
# eighth session) and left unread, for a later round to score once before reading it.
import json, os, subprocess, sys, urllib.request

COMMIT = "6ea57973c7a6097fd7c5915698c54c17c5b1b6c8"
DATA = "berkeley-function-call-leaderboard/bfcl_eval/data"
PER_CATEGORY = 70


def read(path):
    if os.environ.get("GORILLA"):
        text = subprocess.run(["git", "-C", os.environ["GORILLA"], "show", f"{COMMIT}:{path}"],
                              check=True, capture_output=True, text=True).stdout
    else:
        url = f"https://raw.githubusercontent.com/ShishirPatil/gorilla/{COMMIT}/{path}"
        text = urllib.request.urlopen(url).read().decode()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


TYPES = {"dict": "object", "float": "number", "tuple": "array", "list": "array", "int": "integer",
         "str": "string", "bool": "boolean"}


def schema(node):
    """BFCL's Python-flavoured schema as JSON Schema: dict -> object, float -> number,
    tuple -> array, any -> no type."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "type" and isinstance(value, str):
                if value == "any":
                    continue
                out[key] = TYPES.get(value, value)
            elif key in ("properties",):
                out[key] = {k: schema(v) for k, v in value.items()}
            elif key in ("items", "additionalProperties") and isinstance(value, dict):
                out[key] = schema(value)
            else:
                out[key] = value
        return out
    return node


def name(n):
    return n.replace(".", "_")


def tools(functions):
    out = []
    for f in functions:
        params = schema(f.get("parameters") or {"type": "object", "properties": {}})
        params.setdefault("type", "object")
        out.append({"name": name(f["name"]), "description": f.get("description", ""), "parameters": params})
    return out


def single_user(item):
    q = item["question"]
    return len(q) == 1 and len(q[0]) == 1 and q[0][0]["role"] == "user" and q[0][0]["content"].strip()


def every_nth(items, n):
    step = max(1, len(items) // n)
    return items[::step][:n]


DRAW = 3 if "--third" in sys.argv[1:] else 2 if "--extra" in sys.argv[1:] else 1
EXTRA_PER_CATEGORY = 60
rows = []
for category, label in (("live_simple", "bfcl-simple"), ("live_multiple", "bfcl-multiple")):
    questions = read(f"{DATA}/BFCL_v4_{category}.json")
    answers = {a["id"]: a["ground_truth"] for a in read(f"{DATA}/possible_answer/BFCL_v4_{category}.json")}
    kept = [q for q in questions if single_user(q) and len(answers.get(q["id"], [])) == 1]
    chosen = every_nth(kept, PER_CATEGORY)
    taken = set()
    for _ in range(DRAW - 1):
        taken |= {q["id"] for q in chosen}
        chosen = every_nth([q for q in kept if q["id"] not in taken], EXTRA_PER_CATEGORY)
    if DRAW > 1:
        label = label.replace("bfcl", f"bfcl{DRAW}")
    for q in chosen:
        ((func, args),) = answers[q["id"]][0].items()
        rows.append({"catalog": label, "source": q["id"], "request": q["question"][0][0]["content"],
                     "tools": tools(q["function"]), "tool": name(func), "accept": args})
questions = read(f"{DATA}/BFCL_v4_live_irrelevance.json")
kept = [q for q in questions if single_user(q) and q["function"]]
for q in [] if DRAW > 1 else every_nth(kept, PER_CATEGORY):
    rows.append({"catalog": "bfcl-none", "source": q["id"], "request": q["question"][0][0]["content"],
                 "tools": tools(q["function"]), "tool": None})
here = os.path.dirname(os.path.abspath(__file__))
out = {1: "decisions-bfcl.jsonl", 2: "decisions-bfcl-extra.jsonl", 3: "decisions-bfcl-third.jsonl"}[DRAW]
with open(os.path.join(here, out), "w", encoding="utf-8") as sink:
    for row in rows:
        sink.write(json.dumps(row, ensure_ascii=False) + "\n")
print(len(rows), "requests", file=sys.stderr)
