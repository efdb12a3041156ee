#!/usr/bin/env python3
"""Measures `sepia serve` against peers in one run on loopback, and prints a Markdown table.

    scripts/bench-server PHOTOS_DIR [--quick] [--markdown FILE]

PHOTOS_DIR holds the benchmark photos (a 24 MP JPEG named *24mp.jpg and a 12 MP one named *12mp.jpg, as in the
shared bench folder). Everything runs against the release build, each server on a fresh library in a temporary
folder:

1. cached 256 px renditions: requests per second and p99 latency with wrk (2 threads; 6 connections, as a
   browser opens, and 32), against nginx serving the very same bytes as static files, interleaved;
2. a cold 256 px rendition of the 24 MP photo (nothing cached: the cache folder emptied and the server
   restarted before each request) against one `vipsthumbnail` process, interleaved;
3. /preview of a recipe at 1024 px on the 24 MP photo: the first request (decodes the photo) and the next
   ones (reuse the decoded, downscaled copy);
4. 8 concurrent uploads of distinct 24 MP JPEGs: the server's peak memory (VmHWM) and that all are imported;
5. 200 distinct photos uploaded through the API at concurrency 4 (until the job queue has made every preview)
   against `sepia import` of the same files;
6. (`--only scaleout`, run under `scripts/postgres run` and `scripts/object-store run`) cached 256 px renditions
   from a server on PostgreSQL and S3 against the same from an embedded server, interleaved; then a second
   server of the deployment that never saw the photos (its renditions come from the bucket through its own
   cache); and the per-photo costs of the capacity model in docs/scaling.md: CPU-seconds per upload and per
   cold rendition, database transactions and bytes per request, bytes stored per photo.
"""
import argparse
import concurrent.futures
import glob
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The build measured: the release build, or SEPIA_BIN (another build, to compare two).
SEPIA = os.environ.get("SEPIA_BIN") or os.path.join(ROOT, ".build", "release", "sepia")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A `sepia serve` process on a library of its own."""

    def __init__(self, root, token=None, options=(), env=None):
        self.root = root
        self.port = free_port()
        self.token = token
        self.options = list(options)
        self.env = env
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [SEPIA, "serve", "--library", os.path.join(self.root, "library"), "--data", os.path.join(self.root, "data"),
             "--port", str(self.port), "--log-level", "warning"] + self.options,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=self.env)
        setup = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("sepia serve stopped before it listened")
            match = re.search(r"/setup\?token=([A-Za-z0-9_-]+)", line)
            if match:
                setup = match.group(1)
            if "Stop it with" in line:
                break
        threading.Thread(target=self.process.stdout.read, daemon=True).start()
        if setup:
            self.token = self.create_owner(setup)
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=60)

    def request(self, method, path, body=None, headers=None, bearer=True):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        headers = dict(headers or {})
        if bearer and self.token:
            headers["Authorization"] = "Bearer " + self.token
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def create_owner(self, setup):
        body = json.dumps({"token": setup, "username": "owner", "password": "correct horse battery"})
        status, headers, data = self.request("POST", "/api/v1/setup", body, {"Content-Type": "application/json"}, bearer=False)
        assert status == 201, data
        # The owner's session, for the tokens new_token makes.
        self.session = {"Cookie": headers["set-cookie"].split(";")[0], "X-CSRF-Token": json.loads(data)["csrfToken"]}
        return self.new_token("read-write")

    def new_token(self, level):
        """A new API token of the owner, at `level` (read-write, read-only, add-only)."""
        status, _, data = self.request(
            "POST", "/api/v1/tokens", json.dumps({"name": "bench " + level, "accessLevel": level}),
            dict(self.session, **{"Content-Type": "application/json"}), bearer=False)
        assert status == 201, data
        return json.loads(data)["token"]

    def upload(self, path):
        with open(path, "rb") as f:
            status, _, data = self.request("POST", "/api/v1/assets?filename=" + os.path.basename(path), f.read())
        return status, json.loads(data)

    def jobs_waiting(self):
        status, _, data = self.request("GET", "/metrics")
        match = re.search(r"^sepia_jobs_waiting ([\d.e+]+)$", data.decode(), re.M)
        return int(float(match.group(1))) if match else -1

    def wait_for_jobs(self, timeout=600):
        deadline = time.monotonic() + timeout
        while self.jobs_waiting() != 0:
            if time.monotonic() > deadline:
                raise RuntimeError("the job queue did not empty")
            time.sleep(0.05)

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0.0


def variants(source, count, folder, width=None):
    """`count` distinct JPEGs made from `source`: the same photo with a small block in a corner that encodes
    the variant's number, so every file has its own content (and hash)."""
    from PIL import Image, ImageDraw
    os.makedirs(folder, exist_ok=True)
    image = Image.open(source).convert("RGB")
    if width:
        image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    paths = []
    for i in range(count):
        path = os.path.join(folder, f"v{i:03d}.jpg")
        variant = image.copy()
        draw = ImageDraw.Draw(variant)
        for bit in range(10):
            shade = 255 if (i >> bit) & 1 else 0
            draw.rectangle([bit * 16, 0, bit * 16 + 15, 15], fill=(shade, shade, shade))
        variant.save(path, quality=90)
        paths.append(path)
    return paths


def wrk(url, script, seconds, connections):
    output = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script, url], capture_output=True, text=True,
        check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", output)
    factor = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    return rps, float(p99.group(1)) * factor


def nginx_static(folder, work):
    port = free_port()
    os.makedirs(work, exist_ok=True)
    conf = os.path.join(work, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"""worker_processes 2; pid {work}/nginx.pid; error_log {work}/nginx-error.log; daemon off;
events {{ worker_connections 1024; }}
http {{ access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  client_body_temp_path {work}/body; proxy_temp_path {work}/proxy; fastcgi_temp_path {work}/fcgi;
  uwsgi_temp_path {work}/uwsgi; scgi_temp_path {work}/scgi;
  types {{ image/jpeg jpg; }}
  server {{ listen 127.0.0.1:{port}; root {folder}; location / {{ add_header Cache-Control "private, no-cache"; etag on; }} }} }}
""")
    process = subprocess.Popen(["nginx", "-p", work, "-c", conf], stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    return process, port


def bench_cached(photos, work, args, results):
    server = Server(os.path.join(work, "cached")).start()
    try:
        sources = variants(photos["12mp"], 40 if not args.quick else 10, os.path.join(work, "cached-src"), width=1600)
        static = os.path.join(work, "static")
        os.makedirs(static)
        paths = []
        for source in sources:
            status, body = server.upload(source)
            asset = body["asset"]
            path = f"/api/v1/assets/{asset['id']}/image?size=256&mode=fill&v={asset['version']}"
            status, _, data = server.request("GET", path)
            assert status == 200
            with open(os.path.join(static, asset["id"] + ".jpg"), "wb") as f:
                f.write(data)
            paths.append((path, "/" + asset["id"] + ".jpg"))
        def script(name, index, auth):
            lua = os.path.join(work, name)
            with open(lua, "w") as f:
                f.write("paths = {" + ",".join(json.dumps(p[index]) for p in paths) + "}\n")
                f.write("i = 0\nrequest = function()\n  i = i % #paths + 1\n")
                f.write(f"  return wrk.format('GET', paths[i], {{[\"Authorization\"] = {json.dumps(auth)}}})\nend\n")
            return lua
        sepia_lua = script("sepia.lua", 0, "Bearer " + server.token)
        nginx_lua = script("nginx.lua", 1, "")
        nginx, nginx_port = nginx_static(static, os.path.join(work, "nginx"))
        try:
            seconds = 5 if args.quick else 10
            # 6 connections is what a browser opens to one server over HTTP/1.1 (a photo grid's thumbnails);
            # 32 is a busier server, several clients at once.
            for connections in (6, 32):
                rounds = {"sepia": [], "nginx": []}
                for _ in range(2 if args.quick else 3):
                    rounds["nginx"].append(wrk(f"http://127.0.0.1:{nginx_port}", nginx_lua, seconds, connections))
                    rounds["sepia"].append(wrk(f"http://127.0.0.1:{server.port}", sepia_lua, seconds, connections))
                s_rps = statistics.median(r[0] for r in rounds["sepia"])
                n_rps = statistics.median(r[0] for r in rounds["nginx"])
                s_p99 = statistics.median(r[1] for r in rounds["sepia"])
                n_p99 = statistics.median(r[1] for r in rounds["nginx"])
                results.append((f"cached 256 px renditions, {connections} connections (wrk, credential checked)",
                                f"{s_rps:,.0f} req/s, p99 {s_p99:.1f} ms", f"nginx static: {n_rps:,.0f} req/s, p99 {n_p99:.1f} ms",
                                f"{s_rps / n_rps:.2f}× nginx's throughput", "≥ 0.5×"))
        finally:
            nginx.terminate()
            nginx.wait()
    finally:
        server.stop()


def bench_cold(photos, work, args, results):
    root = os.path.join(work, "cold")
    server = Server(root).start()
    status, body = server.upload(photos["24mp"])
    asset = body["asset"]
    server.stop()
    token = server.token
    sepia, vips = [], []
    out = os.path.join(work, "vips-thumb.jpg")
    for _ in range(3 if args.quick else 5):
        shutil.rmtree(os.path.join(root, "library", "cache"), ignore_errors=True)
        server = Server(root, token).start()
        start = time.perf_counter()
        status, _, data = server.request("GET", f"/api/v1/assets/{asset['id']}/image?size=256")
        sepia.append(time.perf_counter() - start)
        assert status == 200
        server.stop()
        start = time.perf_counter()
        subprocess.run(["vipsthumbnail", "-s", "256", photos["24mp"], "-o", out + "[Q=82,strip]"], check=True)
        vips.append(time.perf_counter() - start)
    s, v = statistics.median(sepia), statistics.median(vips)
    results.append(("cold 256 px rendition of a 24 MP JPEG (nothing cached)", f"{s * 1000:.0f} ms",
                    f"vipsthumbnail process: {v * 1000:.0f} ms", f"{s / v:.2f}× vipsthumbnail", "≤ 1.2×"))


def bench_preview(photos, work, args, results):
    server = Server(os.path.join(work, "preview")).start()
    try:
        status, body = server.upload(photos["24mp"])
        asset = body["asset"]["id"]
        def preview(t):
            recipe = {"formatIdentifier": "org.sepia.recipe", "formatVersion": "1",
                      "steps": [{"filter": "CISepiaTone", "parameters": {"inputIntensity": t}},
                                {"filter": "CIVignette", "parameters": {"inputIntensity": t, "inputRadius": 1.5}}]}
            start = time.perf_counter()
            status, _, data = server.request("POST", f"/api/v1/assets/{asset}/preview",
                                             json.dumps({"recipe": recipe, "size": "1024x1024"}), {"Content-Type": "application/json"})
            assert status == 200, data
            return time.perf_counter() - start
        first = preview(0.5)
        later = sorted(preview(i / 40) for i in range(1, 41 if not args.quick else 11))
        median = statistics.median(later)
        p95 = later[int(len(later) * 0.95) - 1]
        results.append(("/preview at 1024 px on a 24 MP JPEG (sepia + vignette)", f"first {first * 1000:.0f} ms",
                        f"next ones: median {median * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms",
                        "reuses the decoded copy" if p95 <= 0.05 else "SLOWER than target", "next ones ≤ 50 ms"))
    finally:
        server.stop()


def bench_concurrent_uploads(photos, work, args, results):
    files = variants(photos["24mp"], 8, os.path.join(work, "uploads24"))
    server = Server(os.path.join(work, "uploads")).start()
    try:
        baseline = server.peak_rss_mb()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(lambda p: server.upload(p)[0], files))
        peak = server.peak_rss_mb()
        imported = sum(1 for s in statuses if s == 201)
        results.append(("8 concurrent uploads of 24 MP JPEGs", f"peak RSS {peak:.0f} MB (at start {baseline:.0f} MB)",
                        f"{imported} of 8 imported", "within" if peak < 300 and imported == 8 else "OVER", "< 300 MB, all imported"))
    finally:
        server.stop()


def bench_throughput(photos, work, args, results):
    count = 60 if args.quick else 200
    files = variants(photos["12mp"], count, os.path.join(work, "many"), width=2000)
    folder = os.path.dirname(files[0])
    start = time.perf_counter()
    subprocess.run([SEPIA, "import", folder, "--library", os.path.join(work, "import-lib")], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    imported = time.perf_counter() - start
    server = Server(os.path.join(work, "throughput")).start()
    try:
        start = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            statuses = list(pool.map(lambda p: server.upload(p)[0], files))
        # The uploads answer before their previews are made: the clock stops when the job queue has made them.
        server.wait_for_jobs()
        uploaded = time.perf_counter() - start
        assert all(s == 201 for s in statuses), statuses
    finally:
        server.stop()
    ratio = (count / uploaded) / (count / imported)
    results.append((f"{count} photos (2000 px) uploaded at concurrency 4", f"{count / uploaded:.1f} photos/s",
                    f"`sepia import`: {count / imported:.1f} photos/s", f"{ratio:.2f}× import's throughput", "≥ 0.8×"))


def wrk_script(path, paths, auth):
    with open(path, "w") as f:
        f.write("paths = {" + ",".join(json.dumps(p) for p in paths) + "}\n")
        f.write("i = 0\nrequest = function()\n  i = i % #paths + 1\n")
        f.write(f"  return wrk.format('GET', paths[i], {{[\"Authorization\"] = {json.dumps(auth)}}})\nend\n")
    return path


def postgres_commits():
    """Transactions committed in the test database so far (pg_stat_database, through psql and PG* variables).
    A busy backend reports its counts when it next goes idle, at most 10 s later: wait that out first."""
    time.sleep(11)
    out = subprocess.run(["psql", "-Atc", "SELECT pg_stat_force_next_flush(); SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"],
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[-1])


def bench_scaleout(photos, work, args, results):
    database, endpoint = os.environ.get("SEPIA_TEST_DATABASE"), os.environ.get("SEPIA_S3_ENDPOINT")
    if not database or not endpoint:
        sys.exit("error: --only scaleout runs under scripts/object-store run DIR -- scripts/postgres run DIR2 -- …")
    name = f"bench{os.getpid()}"
    env = dict(os.environ, AWS_ACCESS_KEY_ID=os.environ["SEPIA_S3_ACCESS_KEY_ID"],
               AWS_SECRET_ACCESS_KEY=os.environ["SEPIA_S3_SECRET_ACCESS_KEY"])
    deployment = ["--database", f"{database}?schema={name}",
                  "--storage", f"s3://sepia-test/{name}/?endpoint={endpoint}&region={os.environ.get('SEPIA_S3_REGION', 'us-east-1')}"]
    count = 40 if not args.quick else 10
    sources = variants(photos["12mp"], count, os.path.join(work, "scaleout-src"), width=4000)
    local = Server(os.path.join(work, "local")).start()
    shared = Server(os.path.join(work, "shared-a"), options=deployment, env=env).start()
    second = None
    try:
        paths = {"local": [], "shared": []}
        cpu = {}
        for label, server in (("local", local), ("shared", shared)):
            before = server.cpu_seconds()
            commits = postgres_commits()
            start = time.perf_counter()
            assets = [server.upload(source)[1]["asset"] for source in sources]
            server.wait_for_jobs()
            cpu[label + " upload"] = (server.cpu_seconds() - before) / count
            cpu[label + " upload wall"] = (time.perf_counter() - start) / count
            if label == "shared":
                cpu["upload commits"] = (postgres_commits() - commits) / count
            before = server.cpu_seconds()
            for asset in assets:
                path = f"/api/v1/assets/{asset['id']}/image?size=256&mode=fill&v={asset['version']}"
                status, _, data = server.request("GET", path)
                assert status == 200
                paths[label].append(path)
            cpu[label + " rendition"] = (server.cpu_seconds() - before) / count
        rendition_bytes = statistics.mean(len(shared.request("GET", p)[2]) for p in paths["shared"])
        preview_bytes = statistics.mean(
            len(shared.request("GET", f"/api/v1/assets/{a.split('/')[4]}/image?size=1440")[2]) for a in paths["shared"])
        thumb_bytes = statistics.mean(
            len(shared.request("GET", f"/api/v1/assets/{a.split('/')[4]}/image?size=256")[2]) for a in paths["shared"])
        original_bytes = statistics.mean(os.path.getsize(s) for s in sources)

        # A second server of the deployment, its caches empty: each rendition comes from the bucket once.
        second = Server(os.path.join(work, "shared-b"), token=shared.token, options=deployment, env=env).start()
        before = second.cpu_seconds()
        start = time.perf_counter()
        for path in paths["shared"]:
            status, _, _ = second.request("GET", path)
            assert status == 200
        first_touch = (time.perf_counter() - start) / count
        cpu["bucket rendition"] = (second.cpu_seconds() - before) / count

        seconds = 5 if args.quick else 10
        scripts = {label: wrk_script(os.path.join(work, label + ".lua"), paths[label], "Bearer " + local.token if label == "local" else "Bearer " + shared.token)
                   for label in ("local", "shared")}
        targets = {"local": (local, "local"), "shared": (shared, "shared"), "second": (second, "shared")}
        for connections in (6, 32):
            rounds = {label: [] for label in targets}
            for _ in range(2 if args.quick else 3):
                for label, (server, script) in targets.items():
                    rounds[label].append(wrk(f"http://127.0.0.1:{server.port}", scripts[script], seconds, connections))
            rps = {label: statistics.median(r[0] for r in rounds[label]) for label in targets}
            p99 = {label: statistics.median(r[1] for r in rounds[label]) for label in targets}
            for label, what in (("shared", "the server that rendered them"), ("second", "a second server, renditions from the bucket")):
                results.append((f"cached 256 px renditions on PostgreSQL + S3, {what}, {connections} connections (wrk)",
                                f"{rps[label]:,.0f} req/s, p99 {p99[label]:.1f} ms",
                                f"embedded (SQLite, folder): {rps['local']:,.0f} req/s, p99 {p99['local']:.1f} ms",
                                f"{rps[label] / rps['local']:.2f}× the embedded server", "≥ 0.8×"))

        # Database work per request: transactions committed while wrk ran each kind of request on the shared server.
        list_script = wrk_script(os.path.join(work, "list.lua"), ["/api/v1/assets?limit=100"], "Bearer " + shared.token)
        per_request = {}
        for label, script in (("rendition", scripts["shared"]), ("page of 100", list_script)):
            commits = postgres_commits()
            output = subprocess.run(["wrk", "-t2", "-c6", "-d5s", "-s", script, f"http://127.0.0.1:{shared.port}"],
                                    capture_output=True, text=True, check=True).stdout
            requests = int(re.search(r"(\d+) requests in", output).group(1))
            per_request[label] = ((postgres_commits() - commits) / requests, requests)
        results.append(("capacity: CPU per photo uploaded (thumbnail at once, preview from the job queue), 4000 px JPEG",
                        f"PostgreSQL + S3: {cpu['shared upload']:.2f} CPU-s, {cpu['upload commits']:.1f} transactions",
                        f"embedded: {cpu['local upload']:.2f} CPU-s", f"{cpu['shared upload wall']:.2f} s wall each, one at a time", "—"))
        results.append(("capacity: CPU per cold 256 px fill rendition (from the 1440 px preview)",
                        f"PostgreSQL + S3: {cpu['shared rendition'] * 1000:.0f} ms CPU", f"embedded: {cpu['local rendition'] * 1000:.0f} ms CPU",
                        f"from the bucket on a second server: {cpu['bucket rendition'] * 1000:.1f} ms CPU, {first_touch * 1000:.0f} ms wall", "—"))
        results.append(("capacity: database transactions per request (pg_stat_database)",
                        f"cached rendition: {per_request['rendition'][0]:.4f} ({per_request['rendition'][1]:,} requests)",
                        f"page of 100 assets: {per_request['page of 100'][0]:.3f} ({per_request['page of 100'][1]:,} requests)", "", "—"))
        results.append(("capacity: bytes per photo", f"original {original_bytes / 1e6:.2f} MB (4000 px JPEG)",
                        f"preview 1440 px {preview_bytes / 1e3:.0f} kB, thumbnail 256 px {thumb_bytes / 1e3:.1f} kB",
                        f"256 px fill rendition {rendition_bytes / 1e3:.1f} kB", "—"))
    finally:
        for server in (local, shared, second):
            if server:
                server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("photos")
    parser.add_argument("--quick", action="store_true", help="fewer rounds and files")
    parser.add_argument("--markdown", help="also write the table to this file")
    parser.add_argument("--only", help="comma-separated: cached,cold,preview,uploads,throughput,scaleout")
    args = parser.parse_args()
    photos = {}
    for name in os.listdir(args.photos):
        if name.endswith("24mp.jpg"):
            photos["24mp"] = os.path.join(args.photos, name)
        if name.endswith("12mp.jpg"):
            photos["12mp"] = os.path.join(args.photos, name)
    if set(photos) != {"24mp", "12mp"}:
        sys.exit("error: PHOTOS_DIR needs a *24mp.jpg and a *12mp.jpg")
    if not os.access(SEPIA, os.X_OK):
        sys.exit("error: build the release first: swift build -c release")
    benches = {"cached": bench_cached, "cold": bench_cold, "preview": bench_preview, "uploads": bench_concurrent_uploads,
               "throughput": bench_throughput, "scaleout": bench_scaleout}
    chosen = args.only.split(",") if args.only else [name for name in benches if name != "scaleout"]
    results = []
    with tempfile.TemporaryDirectory(prefix="sepia-bench-server-") as work:
        for name in chosen:
            print(f"… {name}", file=sys.stderr, flush=True)
            benches[name](photos, work, args, results)
    lines = ["| what | sepia serve | peer / reference | ratio | target |", "|---|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {d} | {e} |" for a, b, c, d, e in results]
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
