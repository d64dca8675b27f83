#!/usr/bin/env bash
# Writes requests real people wrote to an AI assistant, one JSON object per line
# ({"group": …, "text": …}), for the guard's trainer (`--requests-file`): the 175 seed
# tasks and the 252 user-oriented instructions of the Self-Instruct project (Wang et al.,
# 2022; human-written, Apache-2.0), read at a pinned commit from GitHub or from
# SELF_INSTRUCT=<clone>. They are the wording of a request made to a model — "Write a
# limerick about…", "Rewrite the text so that…" — which an injection uses when it asks a
# model to change its task. Questions (ending in "?") are left out: a question is a request
# that web pages and FAQs make to their readers all the time. Each instruction is kept
# without its examples. Prints the file's path.
set -euo pipefail
out="${1:-${TMPDIR:-/tmp}/tackle-guard-requests.jsonl}"
commit=0b26ccaa415992100fa32df62d41b994cf928e23
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for path in data/seed_tasks.jsonl human_eval/user_oriented_instructions.jsonl; do
    name="$(basename "$path" .jsonl)"
    if [ -n "${SELF_INSTRUCT:-}" ]; then
        git -C "$SELF_INSTRUCT" show "$commit:$path" >"$work/$name.jsonl"
    else
        curl -fsSL "https://raw.githubusercontent.com/yizhongw/self-instruct/$commit/$path" -o "$work/$name.jsonl"
    fi
done
python3 - "$work" "$out" <<'PY'
import json, pathlib, sys
work, out = pathlib.Path(sys.argv[1]), sys.argv[2]
kept = 0
with open(out, "w", encoding="utf-8") as sink:
    for name in ("seed_tasks", "user_oriented_instructions"):
        for line in (work / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            text = " ".join(json.loads(line)["instruction"].split())
            if not text or text.endswith("?"):
                continue
            sink.write(json.dumps({"group": f"self_instruct:{name}", "text": text}, ensure_ascii=False) + "\n")
            kept += 1
print(f"{kept} requests", file=sys.stderr)
PY
echo "$out"
