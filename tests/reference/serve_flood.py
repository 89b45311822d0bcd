#!/usr/bin/env python3
"""The lobby flooded: peak memory of a running `tabula serve` while a
stranger opens as many tables as it holds, every seat a bot thinking as
hard as the lobby allows, and how the host's own requests fare meanwhile.

    python3 tests/reference/serve_flood.py target/release/tabula \
        --tables 64 --seconds 60 --bot mcts:100000 --bot best

Starts the server (a fresh state folder, any free port, `--max-tables`
as many as --tables, plus any `--server-arg`), opens the tables through
/api/tables as a lobby visitor would (braverats, `random-deal` so that no
two share a solve; the --bot kinds taken in turn), then samples the
server's resident memory (VmRSS, and the kernel's high-water mark VmHWM)
and times a host's request (its table's page and log) every half second.
Prints the figures as JSON. Nothing is left running.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


def status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM", "Threads"):
                out[k] = int(v.split()[0])
    return out


def request(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--tables", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--bot", action="append", default=[])
    ap.add_argument("--server-arg", action="append", default=[])
    a = ap.parse_args()
    bots = a.bot or ["mcts:100000", "best"]
    state = tempfile.mkdtemp(prefix="tabula-flood-")
    cmd = [a.binary, "serve", "--port", "0", "--state", state,
           "--max-tables", str(a.tables)] + a.server_arg
    env = dict(os.environ, XDG_CACHE_HOME=tempfile.mkdtemp(prefix="tabula-flood-cache-"))
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
    try:
        base = None
        for line in server.stdout:
            if line.startswith("lobby: "):
                base = line.split()[1].rstrip("/")
                break
        if base is None:
            sys.exit("the server printed no lobby line")
        api = base + "/api/tables"
        hosts, refused = [], []
        for i in range(a.tables):
            kind = bots[i % len(bots)]
            form = {"game": "braverats", "variants": ["random-deal"],
                    "seats": {"red": kind, "blue": kind}}
            code, body = request(api, form)
            if code == 200:
                hosts.append(json.loads(body)["host"])
            else:
                refused.append((code, body.decode(errors="replace")[:200]))
        rss, hwm, threads, lat, failed = [], 0, 0, [], 0
        end = time.time() + a.seconds
        while time.time() < end:
            s = status(server.pid)
            rss.append(s["VmRSS"])
            hwm = max(hwm, s["VmHWM"])
            threads = max(threads, s["Threads"])
            if hosts:
                t0 = time.time()
                try:
                    c1, _ = request(base + hosts[0])
                    c2, _ = request(base + hosts[0] + "/log.txt")
                    ok = c1 == 200 and c2 == 200
                except Exception:
                    ok = False
                if ok:
                    lat.append((time.time() - t0) * 1000 / 2)
                else:
                    failed += 1
            time.sleep(0.5)
        lat.sort()
        print(json.dumps({
            "command": " ".join(cmd),
            "bots": bots,
            "tables_opened": len(hosts),
            "refused": refused[:3],
            "refused_count": len(refused),
            "peak_rss_mib": round(hwm / 1024, 1),
            "median_rss_mib": round(statistics.median(rss) / 1024, 1) if rss else None,
            "most_threads": threads,
            "host_requests_ok": len(lat),
            "host_requests_failed": failed,
            "host_latency_ms_median": round(statistics.median(lat), 1) if lat else None,
            "host_latency_ms_max": round(lat[-1], 1) if lat else None,
        }, indent=1))
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
