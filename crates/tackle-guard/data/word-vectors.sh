#!/usr/bin/env bash
# Writes static word vectors for the guard's trainer (`--word-vectors`): every whole word of
# all-MiniLM-L6-v2's vocabulary, and every lower-case ASCII word that occurs three times or
# more in the training data (this directory's documents and payloads — never the sets in
# FRESH of examples/train.rs nor any written after them —, the real text of `real-text.sh`
# and the requests of `real-requests.sh`), each embedded alone by MiniLM (tackle-local's
# `word_vectors` example).
#
#   data/word-vectors.sh REAL_TEXT_DIR REQUESTS_FILE [OUT]
#
# Needs the MiniLM files in TACKLE_MODEL_DIR (default ~/.cache/tackle/models; `tackle model
# pull` or the tool-search tests put them there). Prints OUT's path.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
real="$1"
requests="$2"
out="${3:-${TMPDIR:-/tmp}/tackle-guard-words.txt}"
models="${TACKLE_MODEL_DIR:-$HOME/.cache/tackle/models}"
fresh="$(sed -n 's/^const FRESH: \[&str; [0-9]*\] = \[\(.*\)\];/\1/p' "$here/../examples/train.rs" | tr -d '" ' | tr ',' ' ')"
words="$(mktemp)"
trap 'rm -f "$words"' EXIT
python3 - "$here" "$real" "$requests" "$words" $fresh <<'PY'
import collections, json, os, re, sys
data, real, requests, out, fresh = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
count = collections.Counter()
word = re.compile(r"[a-z]{2,20}")
def read(text):
    count.update(w for w in word.findall(text.lower()) if w.isascii())
# The sets in FRESH and any written after them (a set waits unscored for the round after
# the one that wrote it) are still unseen: none of their words is read.
def number(name):
    found = re.fullmatch(r"fresh(\d*)", name)
    return None if found is None else int(found.group(1) or 1)
oldest = min((n for n in map(number, fresh) if n is not None), default=None)
def unseen(name):
    n = number(name.split("_")[0])
    return n is not None and oldest is not None and n >= oldest
for name in sorted(os.listdir(data)):
    if name.endswith(".jsonl") and not unseen(name):
        for line in open(os.path.join(data, name), encoding="utf-8"):
            read(json.loads(line)["text"])
for line in open(requests, encoding="utf-8"):
    read(json.loads(line)["text"])
for root, _, files in os.walk(real):
    for name in sorted(files):
        if name.endswith(".txt"):
            read(open(os.path.join(root, name), encoding="utf-8", errors="ignore").read())
with open(out, "w") as sink:
    sink.write("\n".join(sorted(w for w, n in count.items() if n >= 3)) + "\n")
PY
cargo run --release -q -p tackle-local --example word_vectors -- "$models" "$out" "$words" >&2
echo "$out"
