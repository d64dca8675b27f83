# The one writer of the guard's data files: documents (id, genre, lang, text) and payloads
# (id, family, lang, text), one JSON object per line.
import json


def write_documents(path, docs):
    with open(path, "w", encoding="utf-8") as out:
        for doc_id, genre, lang, text in docs:
            out.write(json.dumps({"id": doc_id, "genre": genre, "lang": lang, "text": text}, ensure_ascii=False) + "\n")


def write_payloads(path, prefix, payloads):
    with open(path, "w", encoding="utf-8") as out:
        for i, (family, lang, text) in enumerate(payloads):
            out.write(json.dumps({"id": f"{prefix}{i:03}", "family": family, "lang": lang, "text": text}, ensure_ascii=False) + "\n")
