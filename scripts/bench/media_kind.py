#!/usr/bin/env python3
"""What an upload costs in file opens, and what `GET /assets/{id}/video` costs before a playable version exists,
on the release build (or SEPIA_BIN); prints a Markdown table.

    scripts/bench-media-kind [--requests N] [--markdown FILE]

`sepia serve` runs under `strace -f -e trace=openat` on a new library with `--job-workers 0`, so that no job
runs: what is measured is the upload's own work, and the video has no playable version. Three files are
uploaded (made with ffmpeg at the start): a 12 MP JPEG, a 2 s HEVC clip in an MP4 (read by Sepia's own `moov`
reader; it needs a playable version) and a 2 s H.264 clip in Matroska (read by FFmpeg's demuxer; it needs one
too). For each:

1. **opens of the uploaded file**: the `openat` calls on the upload's temporary file while its request runs
   (sniffs, probes, the poster's decode, the hash, the link into the library), and among them the demuxer's
   (FFmpeg's input is opened with `O_NONBLOCK` nowhere else; it is told apart by the thread that opens it:
   strace's stack with `-k` names `sepia_av_input_new_fd`).
2. **GET /assets/{id}/video** for the two videos, N times (default 20): its median and p90 time and the
   `openat` calls on the stored original each makes. Before the media-kind seam, each request read the
   original's headers to know whether it plays as it is; after it, the answer is in the resource's row.
"""
import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from server import SEPIA, Server  # noqa: E402


class TracedServer(Server):
    """A `sepia serve` process under strace, whose file opens are read back from its log."""

    def __init__(self, root, log):
        super().__init__(root, options=["--job-workers", "0"])
        self.log = log

    def start(self):
        real = SEPIA
        wrapper = os.path.join(self.root, "traced-sepia")
        with open(wrapper, "w") as f:
            f.write("#!/bin/sh\nexec strace -f -qq -k -e trace=openat -o %s %s \"$@\"\n" % (self.log, real))
        os.chmod(wrapper, 0o755)
        import server
        server.SEPIA = wrapper
        try:
            return super().start()
        finally:
            server.SEPIA = real

    def stop(self):
        """Stops the traced server: strace passes no signal on, so `sepia serve` (its child) is sent SIGTERM itself."""
        if self.process and self.process.poll() is None:
            children = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True).stdout.split()
            for pid in children:
                os.kill(int(pid), signal.SIGTERM)
            self.process.wait(timeout=60)

    def log_size(self):
        return os.path.getsize(self.log)

    def opens_since(self, offset, pattern):
        """The openat calls logged after byte `offset` on a path matching `pattern`; with how many the demuxer made."""
        with open(self.log, "rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
        # With -k, each call is followed by its stack, indented lines starting with " > ".
        calls = re.split(r"\n(?=\d+ +openat)", text)
        matching = [c for c in calls if re.search(r'openat\([^"]*"[^"]*%s[^"]*"' % pattern, c)]
        # A demuxer's open: a frame in MediaInput's own code (its initialiser opens the file for FFmpeg), not a
        # frame whose mangled signature merely names the type (VideoProbe.headers returns one).
        demuxer = [c for c in matching
                   if "sepia_av_input_new" in c or "avformat_open_input" in c or re.search(r"\(\$s10SepiaVideo10MediaInputC", c)]
        return len(matching), len(demuxer)


def make_files(folder):
    files = {}
    jpeg = os.path.join(folder, "photo.jpg")
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=4000x3000", "-frames:v", "1", "-q:v", "3", jpeg],
                   check=True)
    files["12 MP JPEG"] = jpeg
    hevc = os.path.join(folder, "clip-hevc.mp4")
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "2", "-c:v", "libx265",
                    "-x265-params", "log-level=error", "-tag:v", "hvc1", "-pix_fmt", "yuv420p", hevc], check=True)
    files["2 s HEVC in MP4"] = hevc
    mkv = os.path.join(folder, "clip-h264.mkv")
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "2", "-c:v", "libx264",
                    "-pix_fmt", "yuv420p", mkv], check=True)
    files["2 s H.264 in Matroska"] = mkv
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=20, help="GET /video requests per video")
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args()
    lines = []

    def emit(line):
        print(line, flush=True)
        lines.append(line)

    with tempfile.TemporaryDirectory(prefix="sepia-bench-media-kind-") as work:
        files = make_files(work)
        server = TracedServer(work, os.path.join(work, "strace.log")).start()
        try:
            emit("| upload | status | time | opens of the uploaded file | of them, FFmpeg's demuxer |")
            emit("|---|---|---|---|---|")
            ids = {}
            for label, path in files.items():
                offset = server.log_size()
                start = time.perf_counter()
                status, body = server.upload(path)
                elapsed = time.perf_counter() - start
                time.sleep(0.5)
                opens, demuxer = server.opens_since(offset, r"\.upload")
                ids[label] = body.get("id")
                emit("| %s | %d | %.0f ms | %d | %d |" % (label, status, elapsed * 1000, opens, demuxer))
            emit("")
            emit("| GET /assets/{id}/video, no playable version yet | status | median | p90 | opens of the original per request |")
            emit("|---|---|---|---|---|")
            for label in ["2 s HEVC in MP4", "2 s H.264 in Matroska"]:
                times = []
                offset = server.log_size()
                status = None
                for _ in range(args.requests):
                    start = time.perf_counter()
                    status, _, _ = server.request("GET", "/api/v1/assets/%s/video" % ids[label])
                    times.append(time.perf_counter() - start)
                time.sleep(0.5)
                opens, _ = server.opens_since(offset, r"/originals/")
                times.sort()
                emit("| %s | %s | %.1f ms | %.1f ms | %.1f |" % (
                    label, status, statistics.median(times) * 1000, times[int(len(times) * 0.9) - 1] * 1000, opens / args.requests))
        finally:
            server.stop()
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
