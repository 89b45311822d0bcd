#!/usr/bin/env python3
"""A slowloris against a running `tabula serve`: how many of a normal
client's requests are answered meanwhile, and how fast.

    python3 tests/reference/serve_slowloris.py target/release/tabula \
        --connections 2000 --addresses 20 --seconds 30 --soft-files 1024

Starts the server under `prlimit --nofile=SOFT:HARD` (a soft limit of
1024 is a common default; the hard limit is left as it is), on any free
port with a fresh state folder. The attacker holds --connections
connections open, each a request's first line and a header never ended,
from --addresses loopback addresses (127.0.1.1, 127.0.1.2, ...: a
per-address cap does not save a server from many addresses), opening a
new one whenever the server closes one, and trickling a byte into each
every few seconds. Meanwhile a normal client at 127.0.0.1 asks for the
lobby page on a new connection every 100 ms (5 s timeout each). Prints
the figures as JSON. Nothing is left running.
"""

import argparse
import json
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request


def attacker(host, port, n, addresses, stop, stats):
    def open_one(i):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((f"127.0.1.{1 + i % addresses}", 0))
        s.settimeout(2)
        try:
            s.connect((host, port))
            s.sendall(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nX-a: ".encode())
            s.setblocking(False)
            stats["opened"] += 1
            return s
        except OSError:
            s.close()
            stats["refused"] += 1
            return None

    socks = [None] * n
    last_trickle = time.time()
    while not stop.is_set():
        for i in range(n):
            s = socks[i]
            if s is not None:
                try:
                    data = s.recv(4096)
                    if not data:
                        raise OSError("closed")
                    stats["answered"] += 1
                    s.close()
                    socks[i] = None
                except BlockingIOError:
                    continue
                except OSError:
                    stats["closed_by_server"] += 1
                    s.close()
                    socks[i] = None
            if stop.is_set():
                break
            socks[i] = open_one(i)
        stats["open_now"] = sum(s is not None for s in socks)
        stats["most_open"] = max(stats["most_open"], stats["open_now"])
        if time.time() - last_trickle > 5:
            last_trickle = time.time()
            for s in socks:
                if s is not None:
                    try:
                        s.send(b"x")
                    except OSError:
                        pass
        time.sleep(0.05)
    for s in socks:
        if s is not None:
            s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--connections", type=int, default=2000)
    ap.add_argument("--addresses", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--soft-files", type=int, default=1024)
    ap.add_argument("--server-arg", action="append", default=[])
    a = ap.parse_args()
    state = tempfile.mkdtemp(prefix="tabula-slowloris-")
    hard = subprocess.run(["sh", "-c", "ulimit -Hn"], capture_output=True, text=True).stdout.strip()
    cmd = ["prlimit", f"--nofile={a.soft_files}:{hard}", a.binary, "serve", "--port", "0",
           "--state", state] + a.server_arg
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    try:
        base = None
        for line in server.stdout:
            if line.startswith("lobby: "):
                base = line.split()[1].rstrip("/")
                break
        host, port = base[len("http://"):].split(":")
        port = int(port)
        stop = threading.Event()
        stats = {"opened": 0, "refused": 0, "answered": 0, "closed_by_server": 0,
                 "open_now": 0, "most_open": 0}
        t = threading.Thread(target=attacker,
                             args=(host, port, a.connections, a.addresses, stop, stats))
        t.start()
        time.sleep(3)  # the attack in place
        ok, failed, lat = 0, 0, []
        end = time.time() + a.seconds
        while time.time() < end:
            t0 = time.time()
            try:
                with urllib.request.urlopen(base + "/", timeout=5) as r:
                    r.read()
                    ok += r.status == 200
                lat.append((time.time() - t0) * 1000)
            except Exception:
                failed += 1
            time.sleep(0.1)
        stop.set()
        t.join()
        lat.sort()
        q = lambda p: round(lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else None
        print(json.dumps({
            "command": " ".join(cmd),
            "attack": {"connections": a.connections, "addresses": a.addresses, **stats},
            "normal_requests_answered": ok,
            "normal_requests_failed": failed,
            "latency_ms_median": round(statistics.median(lat), 1) if lat else None,
            "latency_ms_p99": q(0.99),
            "latency_ms_max": q(1.0),
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
