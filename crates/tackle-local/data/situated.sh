#!/usr/bin/env bash
# Writes the questions the router's sense of time learns from (`examples/situated_head.rs`):
# the temporal part of SituatedQA's context-dependent question identification (Zhang and
# Choi, 2021; github.com/mikejqzhang/SituatedQA), real search questions from Natural
# Questions, WebQuestions and TyDi QA, each labelled by whether its answer depends on when
# it is asked ("who won the nfc south division this year": yes; "who wrote the song all
# you need is love": no). Its MS MARCO questions are left out (MS MARCO's terms are for
# non-commercial research). Read at a pinned commit from GitHub or from SITUATEDQA=<clone>.
# Writes OUT/temp.{train,dev,test}.jsonl ({"question": …, "dependent": true|false}).
#
# And requests people spoke to a home assistant, from SLURP (Bastianelli et al., 2020;
# github.com/pswietojanski/slurp, text CC BY 4.0; SLURP=<clone> or GitHub), labelled by
# their intent: the answer depends on when (or where) it is asked for the weather, news,
# stocks, exchange rates, train times, traffic, events, films showing, places and takeaways
# near by, the date and time; it does not for jokes, definitions, sums and recipes. Other
# intents (the user's own calendar, mail, lists, devices; chit-chat and facts, which hold
# both kinds) are left out. Its `devel` split is written as OUT/slurp.train.jsonl and its
# `test` split as OUT/slurp.test.jsonl (its `train` split is too large for GitHub's raw
# files).
#
# And RecencyQA's questions (github.com/DataScienceUIBK/RecencyQA, MIT; RECENCYQA=<clone>
# or GitHub), each labelled by annotators with how often its answer changes: within hours,
# days, weeks or a few months depends on the date ("What is the current flood warning level
# for the coastal areas of Norfolk?", "Who is the current No. 1 on the Billboard Artist
# 100?"); never, or only over many years, does not ("What state is known as the Aloha
# State?").
# Questions whose answers change yearly or every few years are left out, as are those
# RecencyQA took from SituatedQA (SituatedQA's own splits stay apart). Written as
# OUT/recency.{train,test}.jsonl, every third question (by its id) in the test split.
# Prints OUT.
set -euo pipefail
# A file of a repository at a commit: from a local clone where one is given, else GitHub.
read_at() {
    local clone=$1 repository=$2 commit=$3 path=$4
    if [ -n "$clone" ]; then
        git -C "$clone" show "$commit:$path"
    else
        curl -fsSL "https://raw.githubusercontent.com/$repository/$commit/$path"
    fi
}
out="${1:-${TMPDIR:-/tmp}/situated}"
commit=1ef854512fe0f692ca55f92ff2feedf3d7612eda
mkdir -p "$out"
for split in train dev test; do
    path="data/id_data/temp.$split.jsonl"
    read_at "${SITUATEDQA:-}" mikejqzhang/SituatedQA "$commit" "$path" | python3 -c '
import json, sys
kept = 0
for line in sys.stdin:
    row = json.loads(line)
    if row.get("source_dataset") == "marco" or row.get("is_dependent") not in ("yes", "no"):
        continue
    print(json.dumps({"question": " ".join(row["question"].split()), "dependent": row["is_dependent"] == "yes"}))
    kept += 1
print(f"'"$split"': {kept} questions", file=sys.stderr)
' >"$out/temp.$split.jsonl"
done
slurp_commit=8eb16545762be97ace75334109d73824217311f1
for pair in devel:train test:test; do
    path="dataset/slurp/${pair%%:*}.jsonl"
    read_at "${SLURP:-}" pswietojanski/slurp "$slurp_commit" "$path" | python3 -c '
import json, sys
DEPENDENT = {"weather_query", "news_query", "qa_stock", "qa_currency", "transport_query", "transport_traffic",
             "recommendation_events", "recommendation_locations", "recommendation_movies", "takeaway_query",
             "datetime_query"}
TIMELESS = {"general_joke", "qa_definition", "qa_maths", "cooking_recipe"}
kept = 0
for line in sys.stdin:
    row = json.loads(line)
    if row["intent"] in DEPENDENT | TIMELESS:
        print(json.dumps({"question": " ".join(row["sentence"].split()), "dependent": row["intent"] in DEPENDENT}))
        kept += 1
print(f"slurp '"${pair##*:}"': {kept} requests", file=sys.stderr)
' >"$out/slurp.${pair##*:}.jsonl"
done
recency_commit=2d460b552182509fc5592e24f2b1d6edc9cee683
path="Dataset/RecencyQA.json"
read_at "${RECENCYQA:-}" DataScienceUIBK/RecencyQA "$recency_commit" "$path" | python3 -c '
import json, sys
FAST = {"An-Hour", "A-Few-Hours", "A-Day", "A-Few-Days", "A-Week", "A-Few-Weeks", "A-Month", "A-Few-Months"}
STABLE = {"Never", "Many-Years"}
out = {"train": open(sys.argv[1] + "/recency.train.jsonl", "w"), "test": open(sys.argv[1] + "/recency.test.jsonl", "w")}
kept = {"train": 0, "test": 0}
for row in json.load(sys.stdin):
    label = row["majority_label"]
    if row["source"] == "situatedqa" or label not in FAST | STABLE:
        continue
    split = "test" if row["q_id"] % 3 == 2 else "train"
    out[split].write(json.dumps({"question": " ".join(row["question"].split()), "dependent": label in FAST}) + "\n")
    kept[split] += 1
print(f"recencyqa: {kept}", file=sys.stderr)
' "$out"
echo "$out"
