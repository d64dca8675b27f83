#!/usr/bin/env python3
"""Paired, interleaved wire comparisons: ratios of median run times, one ratio per pair.

    wire_pairs.py floor REPS   # the floor vs tackle's Chat adapter, on the shared server (:18450)
    wire_pairs.py apis REPS    # Chat vs Responses, Anthropic, Gemini and Bedrock, on `tackle-bench wire-server` (:18451)

Each repetition runs every candidate once (the order alternates), all workloads, JSON then
streamed, and divides each candidate's median by the baseline's from the same repetition;
the median of those ratios is printed with their range. Start the server pinned to one core
(`taskset -c 0 ...`): clients run pinned to the other, which keeps a 2-core machine's
wake-up latencies from swamping the small workloads. Environment: TACKLE_BENCH (the
tackle-bench binary), FLOOR_WIRE (the floor binary).
"""
import json
import os
import statistics
import subprocess
import sys

BENCH = os.environ.get("TACKLE_BENCH", "target/release/tackle-bench")
FLOOR = os.environ.get("FLOOR_WIRE", "target/wire-bench/release/floor_wire")
WORKLOADS = [(10, 1), (10, 8), (100, 4), (10, 4)]


def run(cmd, env):
    out = subprocess.run(["taskset", "-c", "1", *cmd], capture_output=True, text=True, env=env)
    if out.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr}")
    return {(d["R"], d["K"]): d["us_run"] for d in map(json.loads, out.stdout.splitlines())}


def tackle(url, api, stream):
    return [BENCH, "wire", "--base-url", url, "--api", api] + (["--stream"] if stream else [])


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "floor"
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    env = dict(os.environ)
    env.pop("TACKLE_LOOPBACK_ONLY", None)
    for stream in (False, True):
        if mode == "floor":
            url = "http://127.0.0.1:18450/v1"
            env["WIRE_BASE_URL"] = url
            candidates = {"floor": [FLOOR] + (["--stream"] if stream else []), "chat": tackle(url, "chat", stream)}
        else:
            url = "http://127.0.0.1:18451/v1"
            candidates = {api: tackle(url, api, stream) for api in ("chat", "responses", "anthropic", "gemini", "bedrock")}
        baseline = next(iter(candidates))
        ratios = {}
        for rep in range(reps):
            order = list(candidates) if rep % 2 == 0 else list(candidates)[::-1]
            runs = {name: run(candidates[name], env) for name in order}
            for name in candidates:
                if name != baseline:
                    for w in WORKLOADS:
                        ratios.setdefault((name, w), []).append(runs[name][w] / runs[baseline][w])
        for w in WORKLOADS:
            line = f"{'sse ' if stream else 'json'} {w[0]}x{w[1]} vs {baseline}:"
            for name in candidates:
                if name != baseline:
                    r = sorted(ratios[(name, w)])
                    line += f"  {name} x{statistics.median(r):.2f} [{r[0]:.2f}..{r[-1]:.2f}]"
            print(line, flush=True)


if __name__ == "__main__":
    main()
