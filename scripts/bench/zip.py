#!/usr/bin/env python3
"""Measures a ZIP download from `sepia serve` against nginx serving the same files, in one run on loopback, and
the server's memory while it streams; prints a Markdown table.

    scripts/bench-zip [--gigabytes 1] [--rounds 3] [--markdown FILE]

A fresh library gets `--gigabytes` of originals (photos of 24 MB each: a small JPEG carrying noise in APP15
segments, which decoders skip, so every byte is incompressible and the import is quick), all in one album. The
server that imported them is stopped; a fresh server process on the same library then answers, interleaved,
`--rounds` times each:

1. nginx (2 workers, sendfile) serving the library's original files themselves (`library/originals/…`, the very
   bytes the ZIP holds), one after another on one kept-alive connection, as a client that downloads an album file
   by file: curl, writing to /dev/null;
2. `GET /api/v1/albums/{id}/download`, the album as one ZIP file: curl, writing to /dev/null.

Both read the files from the page cache (the machine has the memory). Throughput is the bytes received over the
wall-clock time of the curl process; the ratio is the medians'. A first ZIP download, before the measured ones, is
saved and read back whole by Python's zipfile (its CRCs checked), so the numbers are of a valid archive. The
server's resident memory (VmRSS, sampled every 5 ms) is taken while it is idle, before that first download, and at
its highest during all of them: the growth is what streaming costs. For reference, another fresh server process
then sends the same originals one by one (`GET /assets/{id}/original`), with its speed and memory growth.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server import SEPIA, Server, nginx_static  # noqa: E402

PHOTO_BYTES = 24 << 20


def base_jpeg(path):
    """A small JPEG from Pillow, the photo every padded file shows."""
    from PIL import Image
    Image.new("RGB", (64, 48), (180, 120, 60)).save(path, quality=90)
    with open(path, "rb") as f:
        return f.read()


def padded_jpeg(base, size):
    """`base` with APP15 segments of random bytes after its SOI marker, about `size` bytes long."""
    out = bytearray(base[:2])
    filled = len(base)
    while filled < size:
        length = min(65533, max(16, size - filled))
        out += bytes([0xFF, 0xEF, (length + 2) >> 8, (length + 2) & 0xFF]) + os.urandom(length)
        filled += length + 4
    return bytes(out + base[2:])


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class RSSSampler:
    """The highest VmRSS of a process while it runs."""

    def __init__(self, pid):
        self.pid = pid
        self.peak = 0.0
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while self.running:
            self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.005)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join()


def curl(urls, headers=()):
    """Downloads `urls` one after another on one connection, to /dev/null: (bytes, seconds)."""
    command = ["curl", "-sS", "--fail", "-w", "%{size_download}\n"]
    for header in headers:
        command += ["-H", header]
    for url in urls:
        command += [url, "-o", "/dev/null"]
    start = time.perf_counter()
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    seconds = time.perf_counter() - start
    return sum(int(n) for n in output.split()), seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gigabytes", type=float, default=1.0, help="originals to download (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="downloads of each kind, interleaved (default 3)")
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args()
    if not os.access(SEPIA, os.X_OK):
        sys.exit("error: build the release first: swift build -c release")
    count = max(1, round(args.gigabytes * (1 << 30) / PHOTO_BYTES))
    results = []
    with tempfile.TemporaryDirectory(prefix="sepia-bench-zip-") as work:
        print(f"… uploading {count} photos of {PHOTO_BYTES >> 20} MB", file=sys.stderr, flush=True)
        server = Server(os.path.join(work, "sepia")).start()
        try:
            base = base_jpeg(os.path.join(work, "base.jpg"))
            ids = []
            for i in range(count):
                status, _, data = server.request(
                    "POST", f"/api/v1/assets?filename=IMG_{i:04d}.JPG", padded_jpeg(base, PHOTO_BYTES))
                assert status == 201, data
                ids.append(json.loads(data)["id"])
            status, _, data = server.request("POST", "/api/v1/albums", json.dumps({"title": "Bench"}),
                                             {"Content-Type": "application/json"})
            album = json.loads(data)["id"]
            status, _, data = server.request("POST", f"/api/v1/albums/{album}/assets", json.dumps({"ids": ids}),
                                             {"Content-Type": "application/json"})
            assert status == 200, data
            server.wait_for_jobs()

            # nginx serves the originals the library stored, in the album's order.
            originals = os.path.join(work, "sepia", "library", "originals")
            paths = []
            for asset_id in ids:
                # An original's ETag is its content hash, which names its file: originals/ab/<hash>.jpg.
                status, headers, _ = server.request("GET", f"/api/v1/assets/{asset_id}/original", headers={"Range": "bytes=0-0"})
                digest = headers["etag"].strip('"')
                paths.append(f"{digest[:2]}/{digest}.jpg")
            total = sum(os.path.getsize(os.path.join(originals, p)) for p in paths)
            # nginx's workers run as another user: they need to reach and read the files.
            for folder in (work, os.path.join(work, "sepia"), os.path.join(work, "sepia", "library")):
                os.chmod(folder, 0o755)
            for folder, _, files in os.walk(originals):
                os.chmod(folder, 0o755)
                for name in files:
                    os.chmod(os.path.join(folder, name), 0o644)
            token = server.token
        finally:
            server.stop()

        nginx, nginx_port = nginx_static(originals, os.path.join(work, "nginx"))
        nginx_urls = [f"http://127.0.0.1:{nginx_port}/{p}" for p in paths]
        try:
            # A fresh server process streams the ZIP: its memory is watched from idle.
            server = Server(os.path.join(work, "sepia"), token).start()
            try:
                zip_url = f"http://127.0.0.1:{server.port}/api/v1/albums/{album}/download"
                auth = ["Authorization: Bearer " + token]
                rounds = {"sepia": [], "nginx": []}
                time.sleep(1)
                before = rss_mb(server.process.pid)
                with RSSSampler(server.process.pid) as sampler:
                    # The first ZIP download, not measured for speed: it is read back whole (its CRCs checked),
                    # and with the files it warms the page cache for both sides.
                    checked = os.path.join(work, "check.zip")
                    subprocess.run(["curl", "-sS", "--fail", "-o", checked, "-H", auth[0], zip_url], check=True)
                    first_peak = sampler.peak
                    with zipfile.ZipFile(checked) as z:
                        assert z.testzip() is None and len(z.infolist()) == count
                        listed = sum(i.file_size for i in z.infolist())
                    zip_bytes = os.path.getsize(checked)
                    os.remove(checked)
                    assert listed == total, (listed, total)
                    curl(nginx_urls)
                    cpu_before = server.cpu_seconds()
                    for _ in range(args.rounds):
                        print("… nginx, then the ZIP", file=sys.stderr, flush=True)
                        got, seconds = curl(nginx_urls)
                        assert got == total, (got, total)
                        rounds["nginx"].append(got / seconds)
                        got, seconds = curl([zip_url], auth)
                        assert got == zip_bytes, (got, zip_bytes)
                        rounds["sepia"].append(got / seconds)
                cpu = (server.cpu_seconds() - cpu_before) / (args.rounds * zip_bytes / (1 << 30))
            finally:
                server.stop()

            # For reference, another fresh server process sends the same originals one by one
            # (GET /assets/{id}/original, as a client that downloads each file): its speed and memory.
            server = Server(os.path.join(work, "sepia"), token).start()
            try:
                single = [f"http://127.0.0.1:{server.port}/api/v1/assets/{i}/original" for i in ids]
                time.sleep(1)
                single_before = rss_mb(server.process.pid)
                single_rounds = []
                with RSSSampler(server.process.pid) as single_sampler:
                    for _ in range(args.rounds + 1):
                        got, seconds = curl(single, auth)
                        assert got == total, (got, total)
                        single_rounds.append(got / seconds)
                single_rounds = single_rounds[1:]
            finally:
                server.stop()
        finally:
            nginx.terminate()
            nginx.wait()
    sepia = statistics.median(rounds["sepia"])
    peer = statistics.median(rounds["nginx"])
    growth = sampler.peak - before
    mb = 1 << 20
    results.append((f"album of {count} originals ({total / (1 << 30):.2f} GiB) as one ZIP, curl on loopback",
                    f"{sepia / mb:,.0f} MiB/s ({', '.join(f'{r / mb:,.0f}' for r in rounds['sepia'])})",
                    f"nginx, the same files one by one: {peer / mb:,.0f} MiB/s ({', '.join(f'{r / mb:,.0f}' for r in rounds['nginx'])})",
                    f"{sepia / peer:.2f}× nginx", "≥ 0.8×"))
    results.append(("server memory while streaming the ZIP (VmRSS, a fresh process)",
                    f"{before:.0f} MiB idle, {first_peak:.0f} MiB at most during the first ZIP, "
                    f"{sampler.peak:.0f} MiB at most over all {args.rounds + 1}",
                    f"the same originals one by one from sepia (/original): {single_before:.0f} MiB idle, "
                    f"{single_sampler.peak:.0f} MiB at most, {statistics.median(single_rounds) / mb:,.0f} MiB/s",
                    f"+{growth:.1f} MiB (one by one: +{single_sampler.peak - single_before:.1f} MiB)", "< 30 MiB"))
    results.append(("server CPU per GiB streamed as a ZIP", f"{cpu:.2f} s", "", "", ""))
    lines = ["| what | sepia serve | peer / reference | ratio | target |", "|---|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {d} | {e} |" for a, b, c, d, e in results]
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table + "\n")



if __name__ == "__main__":
    main()
