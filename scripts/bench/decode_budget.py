#!/usr/bin/env python3
"""What hostile TIFF headers cost through the command line and the server; see scripts/bench-decode-budget."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts", "generate"))
import server as serving  # noqa: E402
import tiff_budget_seeds  # noqa: E402

SEPIA = serving.SEPIA


def byte_count(size):
    """`24G`, `512M` or a plain number of bytes, as prlimit wants it: bytes."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return str(int(size[:-1]) * units[size[-1].upper()]) if size[-1].upper() in units else size


def measured(arguments, limit):
    """Runs sepia under GNU time and an address-space limit: (exit status, peak RSS MB, CPU s, wall s, last line)."""
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.monotonic()
        done = subprocess.run(
            ["/usr/bin/time", "-o", report.name, "-f", "%M %U %S", "prlimit", f"--as={byte_count(limit)}", "--", SEPIA] + arguments,
            capture_output=True, text=True)
        wall = time.monotonic() - start
        fields = report.read().split("\n")[-2].split()
    said = (done.stdout + done.stderr).strip().splitlines()
    reason = next((line.strip() for line in said if "error" in line or "warning" in line), said[-1] if said else "")
    return done.returncode, int(fields[0]) / 1024, float(fields[1]) + float(fields[2]), wall, reason


def bench_cli(files, work, limit, rows):
    for name, path in files:
        status, peak, cpu, wall, reason = measured(["info", "--verify", path], limit)
        rows.append(("info --verify", name, status, peak, cpu, wall, reason))
        out = os.path.join(work, "thumbnail.jpg")
        status, peak, cpu, wall, reason = measured(["thumbnail", path, "--size", "256x256", "-o", out], limit)
        rows.append(("thumbnail", name, status, peak, cpu, wall, reason))


def add_only_token(server):
    status, headers, data = server.request(
        "POST", "/api/v1/session", json.dumps({"username": "owner", "password": "correct horse battery"}),
        {"Content-Type": "application/json"}, bearer=False)
    assert status == 200, data
    cookie = headers["set-cookie"].split(";")[0]
    csrf = json.loads(data)["csrfToken"]
    status, _, data = server.request(
        "POST", "/api/v1/tokens", json.dumps({"name": "adder", "accessLevel": "add-only"}),
        {"Content-Type": "application/json", "Cookie": cookie, "X-CSRF-Token": csrf}, bearer=False)
    assert status == 201, data
    return json.loads(data)["token"]


def rss_mb(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def bench_server(files, work, limit, rows):
    def start(folder):
        started = serving.Server(os.path.join(work, folder)).start()
        if limit:
            # The server maps tens of gigabytes of address space it never touches (thread stacks, arenas): a
            # limit for it must be far larger than the commands'.
            subprocess.run(["prlimit", f"--pid={started.process.pid}", f"--as={byte_count(limit)}"], check=True)
        started.token = add_only_token(started)
        return started

    server = start("server")
    try:
        for name, path in files:
            before_cpu = server.cpu_seconds()
            start = time.monotonic()
            status, body = server.upload(path)
            wall = time.monotonic() - start
            cpu = server.cpu_seconds() - before_cpu
            detail = body.get("detail") or body.get("error") or body.get("id", "")
            rows.append(("upload (add-only token)", name, status, server.peak_rss_mb(), cpu, wall, str(detail)))
            if server.process.poll() is not None:
                rows.append(("upload (add-only token)", name, "server died", 0, 0, 0, ""))
                server = start(f"server-{name}")
    finally:
        server.stop()


def bench_retention(work, rows):
    big = os.path.join(work, "rgb16-100mp.tif")
    small = os.path.join(work, "warm-up.jpg")
    subprocess.run(["convert", "-size", "10000x10000", "gradient:red-blue", "-depth", "16", "-compress", "zip",
                    "-define", "tiff:rows-per-strip=64", big], check=True)
    subprocess.run(["convert", "-size", "640x480", "gradient:red-blue", small], check=True)
    server = serving.Server(os.path.join(work, "retention")).start()
    try:
        pid = server.process.pid
        server.upload(small)  # the server's own start-up allocations, before the measurement
        server.wait_for_jobs()
        time.sleep(1)
        before = rss_mb(pid)
        status, body = server.upload(big)
        server.wait_for_jobs()
        time.sleep(2)
        after = rss_mb(pid)
        rows.append(("retention", "rgb16-100mp.tif", status, rss_mb(pid, "VmHWM"), server.cpu_seconds(), 0,
                     f"RSS {before:.0f} MB before the upload, {after:.0f} MB 2 s after it and its jobs"))
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="cli,server,retention")
    parser.add_argument("--as", dest="limit", default="24G")
    parser.add_argument("--server-as", dest="server_limit", help="an address-space limit for the server (none by default)")
    parser.add_argument("--markdown")
    args = parser.parse_args()
    only = set(args.only.split(","))
    rows = []
    with tempfile.TemporaryDirectory() as work:
        seeds = os.path.join(work, "seeds")
        os.makedirs(seeds)
        for name, shape in tiff_budget_seeds.FILES.items():
            with open(os.path.join(seeds, name), "wb") as f:
                f.write(tiff_budget_seeds.tiff(**shape))
        files = [(name, os.path.join(seeds, name)) for name in tiff_budget_seeds.FILES]
        if "cli" in only:
            bench_cli(files, work, args.limit, rows)
        if "server" in only:
            bench_server(files, work, args.server_limit, rows)
        if "retention" in only:
            bench_retention(work, rows)
    lines = ["| run | file | status | peak RSS MB | CPU s | wall s | what it said |", "|---|---|---|---|---|---|---|"]
    for run, name, status, peak, cpu, wall, said in rows:
        said = re.sub(r"\s+", " ", said).replace("|", "/")[:160]
        lines.append(f"| {run} | {name} | {status} | {peak:.0f} | {cpu:.2f} | {wall:.2f} | {said} |")
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
