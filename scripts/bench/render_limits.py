#!/usr/bin/env python3
"""Runs the outside review's render attacks against `sepia serve` and prints what each cost the server.

    scripts/bench-render-limits [--only NAMES] [--unlimited] [--markdown FILE]

Each attack runs against a fresh server (release build, or SEPIA_BIN) on a library holding one 2272 x 1704 JPEG
made here, with the credentials a family member or a shared link has: a read token, a share link.

  preview   a preview of one CIGaussianBlur at the largest radius the API allows (4544)
  stacked   a preview of 64 blur steps at radius 1200; the client gives up after 3 s
  preset    a preset of 64 steps of radius 1 000 000, then the preset strip at size 32 (client gives up after 3 s)
  renditions16, renditions64, renditions128
            that many connections at once, each asking an uncached rendition
  shared64  64 connections of a share link's visitor asking uncached renditions

For each: the HTTP statuses, the server's CPU-seconds and peak memory (VmHWM) over the attack, how long the
attack took, and how long the server stayed busy after the last answer (CPU above 5 % of a core). With
--unlimited the server runs with the render limits off (--render-cost-per-pixel 0, no admission bound), as the
servers before them did, except that a render still stops when its client goes.
"""
import argparse
import concurrent.futures
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from server import Server  # noqa: E402

UNLIMITED = ["--render-cost-per-pixel", "0", "--max-renders", "1024", "--max-renders-per-user", "1024", "--render-queue", "100000"]


def recipe(steps):
    return {"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": steps}


def blur(radius):
    return {"filter": "CIGaussianBlur", "parameters": {"inputRadius": radius}}


def raw_request(port, method, path, body=b"", headers=None, timeout=None):
    """One request on its own connection; with `timeout`, the client gives up (closes) after that many seconds.
    Returns the status, or None when it gave up."""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {len(body)}\r\n"
    for name, value in (headers or {}).items():
        head += f"{name}: {value}\r\n"
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(timeout or 600)
        s.sendall(head.encode() + b"\r\n" + body)
        data = b""
        try:
            while b"\r\n" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except socket.timeout:
            return None
        return int(data.split(b" ")[1]) if data else None


class Attack:
    def __init__(self, root, unlimited):
        self.server = Server(root, options=UNLIMITED if unlimited else []).start()
        photo = os.path.join(root, "photo.jpg")
        subprocess.run(["convert", "-size", "2272x1704", "-seed", "34", "plasma:", "-quality", "90", photo], check=True)
        status, body = self.server.upload(photo)
        assert status == 201, body
        self.asset = body["id"]
        self.server.wait_for_jobs()
        # Tokens and share links are made by the owner's session, not by a token.
        self.reader = self.server.new_token("read")
        status, _, data = self.server.request(
            "POST", "/api/v1/shares", json.dumps({"assetID": self.asset}), dict(self.server.session, **{"Content-Type": "application/json"}),
            bearer=False)
        assert status == 201, data
        self.link = json.loads(data)["url"].rstrip("/").split("/")[-1]

    def measure(self, run):
        """Runs `run` and returns its statuses with the server's CPU, memory and time, and how long the server
        went on working after `run` returned."""
        # The peak memory is counted from here (writing 5 to clear_refs resets VmHWM).
        with open(f"/proc/{self.server.process.pid}/clear_refs", "w") as f:
            f.write("5")
        cpu0 = self.server.cpu_seconds()
        start = time.monotonic()
        statuses = run()
        duration = time.monotonic() - start
        # Busy after the attack: until a whole second passes with less than 5 % of a core used.
        busy_start = time.monotonic()
        last = self.server.cpu_seconds()
        while time.monotonic() - busy_start < 600:
            time.sleep(1)
            now = self.server.cpu_seconds()
            if now - last < 0.05:
                break
            last = now
        busy = max(0.0, time.monotonic() - busy_start - 1)
        cpu = self.server.cpu_seconds() - cpu0
        return {"statuses": statuses, "cpu": cpu, "rss": self.server.peak_rss_mb(), "seconds": duration, "busy_after": busy}

    def stop(self):
        self.server.stop()


def reader_headers(attack):
    return {"Authorization": "Bearer " + attack.reader, "Content-Type": "application/json"}


def preview(attack):
    body = json.dumps({"recipe": recipe([blur(4544)])}).encode()
    return [raw_request(attack.server.port, "POST", f"/api/v1/assets/{attack.asset}/preview", body, reader_headers(attack))]


def stacked(attack):
    body = json.dumps({"recipe": recipe([blur(1200)] * 64)}).encode()
    return [raw_request(attack.server.port, "POST", f"/api/v1/assets/{attack.asset}/preview", body, reader_headers(attack), timeout=3)]


def preset(attack):
    body = json.dumps({"name": "Fog", "recipe": recipe([blur(1_000_000)] * 64)}).encode()
    headers = {"Authorization": "Bearer " + attack.server.token, "Content-Type": "application/json"}
    saved = raw_request(attack.server.port, "POST", "/api/v1/presets", body, headers)
    strip = raw_request(attack.server.port, "GET", f"/api/v1/assets/{attack.asset}/preset-strip?size=32", b"", reader_headers(attack), timeout=3)
    return [saved, strip]


def uncached(index):
    bucket = [1024, 1440, 2048][index % 3]
    height = bucket * ((index // 3) % 16 + 1) // 16
    return f"size={bucket}x{height}&mode=stretch&format={'jpeg' if index // 48 % 2 == 0 else 'webp'}"


def renditions(count, shared=False):
    def run(attack):
        def one(index):
            if shared:
                return raw_request(attack.server.port, "GET", f"/api/v1/shared/{attack.link}/assets/{attack.asset}/image?{uncached(index)}")
            return raw_request(attack.server.port, "GET", f"/api/v1/assets/{attack.asset}/image?{uncached(index)}", b"", reader_headers(attack))
        with concurrent.futures.ThreadPoolExecutor(count) as pool:
            return list(pool.map(one, range(count)))
    return run


ATTACKS = {
    "preview": preview, "stacked": stacked, "preset": preset, "renditions16": renditions(16), "renditions64": renditions(64),
    "renditions128": renditions(128), "shared64": renditions(64, shared=True),
}


def summary(statuses):
    counts = {}
    for status in statuses:
        counts[status or "gave up"] = counts.get(status or "gave up", 0) + 1
    return ", ".join(f"{n}× {s}" for s, n in counts.items())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default=",".join(ATTACKS))
    parser.add_argument("--unlimited", action="store_true")
    parser.add_argument("--markdown")
    args = parser.parse_args()
    rows = ["| attack | answers | CPU-seconds | peak RSS | duration | busy after |", "|---|---|---:|---:|---:|---:|"]
    for name in args.only.split(","):
        with tempfile.TemporaryDirectory(prefix="sepia-render-limits-") as root:
            attack = Attack(root, args.unlimited)
            try:
                result = attack.measure(lambda: ATTACKS[name](attack))
            finally:
                attack.stop()
        row = (f"| {name} | {summary(result['statuses'])} | {result['cpu']:.1f} | {result['rss']:.0f} MB | "
               f"{result['seconds']:.1f} s | {result['busy_after']:.0f} s |")
        print(row, flush=True)
        rows.append(row)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
