# Used by real-text.sh: the translated strings (msgstr) of every project under SRC, one file
# per project and language in OUT, in paragraphs of ten strings as a form or a mail shows them.
import os
import re
import sys

src, out = sys.argv[1], sys.argv[2]
entry = re.compile(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n)+)', re.M)
langs = {"de": "de", "fr": "fr", "es": "es", "pt_BR": "pt", "ru": "ru", "zh_Hans": "zh", "zh_CN": "zh", "ja": "ja"}


def unquote(block):
    return "".join(eval(line) for line in block.strip().split("\n")).strip()


for project in sorted(os.listdir(src)):
    root_dir = os.path.join(src, project)
    if not os.path.isdir(root_dir):
        continue
    name = project.split("-")[0]
    texts = {}
    for root, _, files in sorted(os.walk(root_dir)):
        parts = root.split(os.sep)
        if len(parts) < 2 or parts[-1] != "LC_MESSAGES" or parts[-2] not in langs:
            continue
        for po in sorted(f for f in files if f.endswith(".po")):
            with open(os.path.join(root, po), encoding="utf-8") as f:
                for m in entry.finditer(f.read()):
                    msgid, msgstr = unquote(m.group(1)), unquote(m.group(2))
                    if msgid and msgstr:
                        texts.setdefault(langs[parts[-2]], []).append(msgstr)
    for lang, lines in sorted(texts.items()):
        kept = list(dict.fromkeys(lines))
        with open(f"{out}/{name}-{lang}.txt", "w", encoding="utf-8") as f:
            f.write("\n\n".join("\n".join(kept[i:i + 10]) for i in range(0, len(kept), 10)))
