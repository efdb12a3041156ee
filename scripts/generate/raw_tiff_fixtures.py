#!/usr/bin/env python3
"""Generates RAW (DNG) and TIFF test inputs, hostile variants of both, and reference decodes of each made with
decoders independent of Sepia's own (numpy, ImageMagick/libtiff, LibRaw's dcraw_emu, libjpeg's djpeg).

    scripts/testdata-raw [--dest DIR] [--force] [--quiet]

DIR defaults to .build/testdata/raw-tiff (a relative DIR is taken from the repository's root, as the wrapper
runs there). A second run finds DIR/.stamp equal to the SHA-256 of this script's bytes and returns at once;
--force regenerates. Everything is drawn by this script at run time (no file is copied from anywhere); the
same script gives the same pictures (lossy files and LibRaw's output may differ by a tool's version).

Needs, from Debian: python3-venv, gcc and Python's headers (pidng builds a small C extension from its source;
build-essential python3-dev where Python is Debian's), imagemagick (convert, identify), libjpeg-turbo-progs
(cjpeg, djpeg), libimage-exiftool-perl (exiftool), libraw-bin (dcraw_emu, raw-identify; LibRaw 0.20 on
Debian 12) and libgs-common (Ghostscript's ICC profiles in /usr/share/color/icc/ghostscript: default_cmyk.icc,
a CMYK SWOP profile; a98.icc, an Adobe RGB (1998)-compatible one; srgb.icc). From PyPI, into the repository's
.venv (made with `python3 -m venv .venv` when missing): numpy, tifffile and pidng at the versions in PINS. The
script re-executes itself with .venv/bin/python.

The synthetic scene (scene()) is resolution-independent: a top band of smooth gradients (red grows to the right,
green downwards, blue a slow diagonal wave) crossed by a thin dark ring; a band of 12 colour-checker patches
(the last one white; in the RAW scene it is a specular highlight at 4x white, clipped in every channel, about 2 %
of the pixels, so that dcraw's auto-brightening finds its white and changes nothing); a bottom band with a
continuous grey ramp above a 16-step ramp. The orientation marker in the top-left corner: a red block in the
corner, a yellow bar to its right along the top edge, a white bar below it along the left edge. Any flip or
rotation moves them away from the top-left.

Every file, relative to DIR (MANIFEST.json lists them all, with sizes, orientation, expectations and notes):

tiff/  (640x427 unless said; all DECODE; reference refs/tiff/NAME.png)
  rgb8_none.tif            8-bit RGB, uncompressed, 16 rows per strip (tifffile)
  rgb8_lzw.tif             8-bit RGB, LZW, no predictor (ImageMagick)
  rgb8_deflate.tif         8-bit RGB, Adobe Deflate (zlib, compression 8), 32 rows per strip (tifffile)
  rgb8_packbits.tif        8-bit RGB, PackBits (ImageMagick -compress RLE)
  rgb8_jpeg_ycbcr420.tif   8-bit, compression 7 (JPEG), Photometric YCbCr, YCbCrSubSampling 2x2, every 64-row
                           strip a whole JPEG stream from cjpeg, no JPEGTables (this script's own TIFF writer)
  rgb8_jpeg_ycbcr444.tif   8-bit, JPEG, Photometric YCbCr 1x1, shared JPEGTables, abbreviated strip streams
                           (ImageMagick/libtiff); reference: ImageMagick's decode
  rgb8_tiled.tif           8-bit RGB, uncompressed, 256x256 tiles (the right and bottom tiles padded)
  rgb8_planar.tif          8-bit RGB, PlanarConfiguration 2 (separate planes), 64 rows per strip
  rgba8_unassociated.tif   8-bit RGBA, ExtraSamples 2 (unassociated alpha); reference is RGBA
  rgba8_associated.tif     8-bit RGBA, ExtraSamples 1 (premultiplied colour); reference is RGBA with straight
                           (un-premultiplied) colour, 0 where alpha is 0
  rgb16_none.tif           16-bit RGB, uncompressed (full 16-bit gradients; 16-bit reference)
  rgb16_lzw_pred2.tif      16-bit RGB, LZW with Predictor 2 (ImageMagick)
  grey16.tif               16-bit grey (MinIsBlack)
  grey8.tif                8-bit grey (MinIsBlack)
  bilevel1.tif             1-bit bilevel (MinIsBlack, an ordered dither of the grey picture); reference 0/255 grey
  grey8_miniswhite.tif     8-bit grey, Photometric 0 (MinIsWhite: 0 is white); reference is the displayed grey
  palette8.tif             8-bit palette (Photometric 3), a 3-3-2 colour cube ColorMap
  cmyk8.tif                8-bit CMYK (Photometric 5, InkSet 1), no ICC profile; reference by the naive formula
                           R = 255 (1 - C/255)(1 - K/255), likewise G from M and B from Y (numpy)
  cmyk8_icc.tif            the same CMYK samples with Ghostscript's default_cmyk.icc (SWOP) embedded; reference
                           converted to sRGB by ImageMagick/LittleCMS, perceptual intent
  rgb8_adobergb_icc.tif    the 8-bit RGB samples tagged with Ghostscript's a98.icc (Adobe RGB (1998)-compatible),
                           so they look more saturated; reference converted to sRGB by ImageMagick/LittleCMS
  rgb16_bigendian.tif      16-bit RGB in a big-endian ("MM") file
  multipage3.tif           3 pages of different content and size (640x427, 480x320, 320x240); the reference is
                           page 1, the one to show
  orientation/orient_N.tif for N = 1..8: 8-bit RGB with Orientation N, the upright 640x427 picture stored
                           transformed as the tag requires (427x640 for N >= 5), so each displays identically;
                           all 8 share one reference, refs/tiff/upright.png

raw/  (DNGs: 1200x800 Bayer mosaics of the linear scene; the camera's channel gains R 0.5, G 1, B 0.7 are
       undone by AsShotNeutral; ColorMatrix1 (D65) makes the camera space linear sRGB, so the reference should
       look like the scene; Make "SepiaTest"; DECODE; references refs/raw/NAME.png and NAME.half.png)
  rggb_12bit.dng           pidng, RGGB, 12-bit bit-packed, black 128, white 4095, one tile
  rggb_16bit.dng           pidng, RGGB, 16-bit, black 1024, white 65535
  bggr_12bit.dng           pidng, BGGR, 12-bit bit-packed
  rggb_12bit_orient6.dng   pidng, Orientation 6: the upright picture is 800x1200 (portrait), the sensor data
                           1200x800; LibRaw and the references rotate it 90 degrees clockwise
  rggb_preview.dng         this script's own DNG writer, the layout of Adobe's converter: IFD0 a 1024x683
                           baseline JPEG preview (NewSubfileType 1, Compression 7, YCbCr 4:2:0), the raw image
                           (16-bit samples holding 12-bit data, white 4095, one strip) in a SubIFD, the
                           capture date in an Exif IFD. raw-identify reports "Thumb size: 1024 x 683".
faces/  (not in MANIFEST.json: the People tests' RAW copy of a face, made from scripts/testdata's corpus)
  obama2.dng               face_recognition's tests/test_images/obama2.jpg as a sensor would have seen it: its sRGB
                           made linear, an RGGB 12-bit pidng mosaic (black 128), the same gains and matrices as raw/
pair/
  IMG_0001.DNG             pidng DNG (RGGB, 12-bit) of a RAW+JPEG pair; DateTimeOriginal 2023:07:14 18:30:05
  IMG_0001.JPG             its JPEG (1200x800, cjpeg -quality 92 of the sRGB scene, Exif Make/Model/date by
                           exiftool), same DateTimeOriginal; reference: djpeg's decode

hostile/
  dng_header_shell.dng     a valid DNG header and IFD (rggb_16bit's) with the file ending where the tile
                           data should begin: TileOffsets at EOF -> REFUSE
  dng_truncated_60.dng     rggb_16bit.dng cut at 60 % of its length -> REFUSE
  jpeg_named.nef           a 640x427 baseline JPEG named .nef -> DECODE (as JPEG; reference: djpeg's decode)
  random.cr2               65 536 seeded random bytes named .cr2 -> REFUSE
  pixel_bomb.tif           declares 100000x100000 8-bit grey (10^10 pixels) in one Deflate strip of 100 bytes
                           -> REFUSE (by the pixel limit, before allocating)
  ifd_loop.tif             IFD0 holds only metadata (no image) and its next-IFD offset points to itself: a
                           reader looking for an image along the chain loops forever unless it tracks offsets
                           -> REFUSE
  ifd_loop_page0.tif       IFD0 is a valid 160x107 image but its next-IFD offset points to itself: page 1
                           decodes, counting pages must not loop -> DECODE (libtiff shows page 1)
  strip_offsets_beyond_eof.tif  a 640x427 RGB IFD whose StripOffsets all lie at or past EOF -> REFUSE
  truncated_strips.tif     a 640x427 RGB file with 27 strips cut at half of its strip data -> REFUSE

refs/  PNGs: 8-bit unless the input has 16-bit samples (then 16-bit); RGBA for the alpha files; grey for grey.
  TIFF references are numpy's rendering of the known upright picture (orientation applied by this script),
  checked against ImageMagick's `convert FILE[0] -auto-orient` (exact for lossless files), except where the
  list above names another decoder. RAW references are LibRaw 0.20's dcraw_emu output, 16-bit:
    full: dcraw_emu -w -q 3 -H 0 -o 1 -6 -W -g 2.4 12.92 -T -Z OUT.tiff IN.dng
    half: dcraw_emu -w -h -H 0 -o 1 -6 -W -g 2.4 12.92 -T -Z OUT.tiff IN.dng
  i.e. camera white balance (AsShotNeutral), AHD demosaicing (half: 2x2 binning, no demosaic), highlights
  clipped, sRGB primaries, the sRGB transfer curve (not dcraw's default BT.709 2.222/4.5), 16 bits, no
  automatic brightening (the clipped specular patch makes the automatic brightening a no-op anyway: checked),
  the Orientation applied; the TIFF is turned into a PNG by this script.

MANIFEST.json: a list of entries {"file", "kind": "tiff"|"raw"|"jpeg"|"hostile", "expected": "DECODE"|"REFUSE",
"display_size": [w, h] (after orientation), "stored_size": [w, h], "orientation", "bits" (of the reference),
"stored_bits", "reference", "reference_half" (RAW), "tolerance" ({"max_abs": N} or {"psnr_min": dB}, what
to allow between a decode and the reference), "preview_size", "capture_date", "make", "model", "note"} and,
for the pair, "pair" (the other file). Sizes of hostile files that cannot decode are null.
"""
import argparse
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
VENV = os.path.join(ROOT, ".venv")
PINS = {"numpy": "2.4.6", "tifffile": "2026.3.3", "pidng": "4.0.9"}
TOOLS = {
    "convert": "imagemagick", "identify": "imagemagick", "cjpeg": "libjpeg-turbo-progs",
    "djpeg": "libjpeg-turbo-progs", "exiftool": "libimage-exiftool-perl", "dcraw_emu": "libraw-bin",
    "raw-identify": "libraw-bin",
}
ICC_DIR = "/usr/share/color/icc/ghostscript"
ICC = {"cmyk": "default_cmyk.icc", "adobergb": "a98.icc", "srgb": "srgb.icc"}  # Debian: libgs-common
DCRAW_FULL = ["-w", "-q", "3", "-H", "0", "-o", "1", "-6", "-W", "-g", "2.4", "12.92", "-T"]
DCRAW_HALF = ["-w", "-h", "-H", "0", "-o", "1", "-6", "-W", "-g", "2.4", "12.92", "-T"]
QUIET = False


def fail(message):
    sys.exit("scripts/testdata-raw: error: " + message)


def say(message):
    if not QUIET:
        print(message, file=sys.stderr)


def script_hash():
    with open(os.path.abspath(__file__), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# --- Set-up: tools, .venv, re-exec ---------------------------------------------------------------------------


def check_tools():
    missing = sorted({pkg for tool, pkg in TOOLS.items() if shutil.which(tool) is None})
    if missing:
        names = [t for t, p in TOOLS.items() if p in missing and shutil.which(t) is None]
        fail("missing %s; install the Debian packages: apt-get install %s" % (", ".join(names), " ".join(missing)))
    absent = [n for n in ICC.values() if not os.path.isfile(os.path.join(ICC_DIR, n))]
    if absent:
        fail("missing the ICC profiles %s in %s; install the Debian package: apt-get install libgs-common"
             % (", ".join(absent), ICC_DIR))


def in_venv():
    return os.path.realpath(sys.prefix) == os.path.realpath(VENV)


def ensure_venv():
    """Makes .venv with the PINS when it is missing or holds other versions; returns its python."""
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        say("creating %s" % VENV)
        r = subprocess.run([sys.executable, "-m", "venv", VENV])
        if r.returncode != 0 or not os.path.exists(py):
            fail("`%s -m venv .venv` failed; on Debian: apt-get install python3-venv" % sys.executable)
    probe = ("import importlib.metadata as m, sys\n"
             "pins = %r\n"
             "try:\n"
             "    ok = all(m.version(n) == v for n, v in pins.items())\n"
             "except m.PackageNotFoundError:\n"
             "    ok = False\n"
             "sys.exit(0 if ok else 1)\n" % PINS)
    if subprocess.run([py, "-c", probe]).returncode != 0:
        say("installing %s into .venv" % " ".join("%s==%s" % kv for kv in PINS.items()))
        cmd = [py, "-m", "pip", "install", "--disable-pip-version-check"] + (["-q"] if QUIET else []) + \
            ["%s==%s" % kv for kv in PINS.items()]
        if subprocess.run(cmd).returncode != 0:
            fail("pip could not install %s. pidng comes as source and builds a C extension: it needs gcc and "
                 "Python's headers (Debian: apt-get install build-essential python3-dev)" % ", ".join(PINS))
    return py


def ensure_venv_and_reexec():
    if in_venv():
        return
    py = ensure_venv()
    os.execv(py, [py, os.path.abspath(__file__)] + sys.argv[1:])


# --- Running tools -------------------------------------------------------------------------------------------


def run(cmd, stdin=None, check=True):
    r = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        fail("%s failed (exit %d): %s" % (" ".join(cmd), r.returncode, r.stderr.decode("utf-8", "replace")[-800:]))
    return r


# The rest runs inside .venv (numpy, tifffile, pidng are imported in main()).
np = tifffile = None


# --- Pixels, PNG, PPM ----------------------------------------------------------------------------------------


def q8(img):
    return np.round(np.clip(img, 0, 1) * 255).astype(np.uint8)


def q16(img):
    return np.round(np.clip(img, 0, 1) * 65535).astype(np.uint16)


def write_png(path, arr):
    """An 8- or 16-bit grey, RGB or RGBA PNG (every row with the Up filter) with an sRGB chunk: without one,
    decoders take 16-bit samples for linear light (libpng's simplified API does)."""
    arr = np.asarray(arr)
    if arr.ndim == 2:
        arr = arr[..., None]
    h, w, c = arr.shape
    depth = 16 if arr.dtype == np.uint16 else 8
    assert arr.dtype in (np.uint8, np.uint16)
    rows = np.ascontiguousarray(arr.astype(">u2" if depth == 16 else np.uint8)).view(np.uint8).reshape(h, -1)
    up = rows.copy()
    up[1:] = rows[1:] - rows[:-1]
    data = np.hstack([np.full((h, 1), 2, np.uint8), up]).tobytes()

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    ctype = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, 0)) + chunk(b"sRGB", b"\x00") + \
        chunk(b"IDAT", zlib.compress(data, 6)) + chunk(b"IEND", b"")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(png)
    if depth == 16 and c in (1, 3):
        # The samples exactly, beside the PNG, for readers that must not convert them (libpng's simplified API
        # applies a pure 2.2 power where sRGB is marked).
        with open(path[:-4] + ".ppm", "wb") as f:
            f.write(ppm(arr[..., 0] if c == 1 else arr))


def ppm(arr):
    """Binary PPM/PGM bytes of an 8- or 16-bit grey or RGB array."""
    h, w = arr.shape[:2]
    c = 1 if arr.ndim == 2 else arr.shape[2]
    maxval = 65535 if arr.dtype == np.uint16 else 255
    body = np.ascontiguousarray(arr.astype(">u2" if maxval == 65535 else np.uint8)).tobytes()
    return (b"P5" if c == 1 else b"P6") + b"\n%d %d\n%d\n" % (w, h, maxval) + body


def read_ppm(data):
    fields, i = [], 2
    while len(fields) < 3:
        while data[i:i + 1].isspace():
            i += 1
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(int(data[i:j]))
        i = j
    i += 1
    w, h, maxval = fields
    c = 1 if data[:2] == b"P5" else 3
    dtype = ">u2" if maxval > 255 else np.uint8
    arr = np.frombuffer(data[i:], dtype)[: w * h * c].reshape((h, w, c) if c == 3 else (h, w))
    return arr.astype(np.uint16 if maxval > 255 else np.uint8)


def im_decode(path, mode, depth, shape, before=()):
    """ImageMagick's (libtiff's) decode of page 1, oriented upright, as an array (mode: rgb, rgba, gray)."""
    out = run(["convert", path + "[0]", *before, "-auto-orient", "-depth", str(depth), "-endian", "LSB",
               "%s:-" % mode]).stdout
    arr = np.frombuffer(out, "<u2" if depth == 16 else np.uint8)
    if arr.size != int(np.prod(shape)):
        fail("ImageMagick decoded %s to %d samples, expected %s" % (path, arr.size, shape))
    return arr.reshape(shape).astype(np.uint16 if depth == 16 else np.uint8)


def psnr(a, b, peak):
    err = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if err == 0 else 10 * np.log10(peak * peak / err)


# --- The scene -----------------------------------------------------------------------------------------------

CHECKER = [(115, 82, 68), (194, 150, 130), (98, 122, 157), (87, 108, 67), (133, 128, 177), (103, 189, 170),
           (214, 126, 44), (80, 91, 166), (193, 90, 99), (94, 60, 108), (157, 188, 64), (255, 255, 255)]


def scene(w, h, page=0):
    """(image, specular): the picture as sRGB-encoded floats in [0, 1], (h, w, 3), and the mask of the last
    checker patch (white here; a specular highlight in the RAW scene)."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    u, v = (x + 0.5) / w, (y + 0.5) / h
    img = np.zeros((h, w, 3))
    va = np.clip(v / 0.6, 0, 1)
    img[..., 0] = u
    img[..., 1] = va
    img[..., 2] = 0.5 + 0.4 * np.sin(2 * np.pi * (1.5 * u + 0.5 * va))
    # a thin dark ring (antialiased)
    cx, cy, r = 0.68 * w, 0.3 * h, 0.17 * h
    t = max(1.5, h / 200)
    ring = np.clip(t - np.abs(np.hypot(x + 0.5 - cx, y + 0.5 - cy) - r), 0, 1)[..., None]
    img = img * (1 - ring) + 0.05 * ring
    # checker patches in 2 rows x 6 columns, on 18 % grey
    band = (v >= 0.6) & (v < 0.84)
    img[band] = 0.46
    specular = np.zeros((h, w), bool)
    for i, rgb in enumerate(CHECKER):
        row, col = divmod(i, 6)
        x0, x1 = int(round(w * (col + 0.06) / 6)), int(round(w * (col + 0.94) / 6))
        y0, y1 = int(round(h * (0.6 + 0.12 * row + 0.008))), int(round(h * (0.6 + 0.12 * (row + 1) - 0.008)))
        img[y0:y1, x0:x1] = np.array(rgb) / 255
        if i == len(CHECKER) - 1:
            specular[y0:y1, x0:x1] = True
    # grey ramps: continuous above, 16 steps below
    img[(v >= 0.84) & (v < 0.92)] = u[(v >= 0.84) & (v < 0.92)][:, None]
    img[v >= 0.92] = (np.floor(u * 16) / 15)[v >= 0.92][:, None]
    if page == 1:
        img = img[..., [2, 0, 1]]
    elif page == 2:
        img = 1 - img
    # the orientation marker: red corner block, yellow bar along the top edge, white bar along the left edge
    bw, bh = max(2, round(0.1 * w)), max(2, round(0.1 * h))
    img[:bh, :bw] = (1, 0, 0)
    img[: max(1, round(0.04 * h)), bw:2 * bw] = (1, 1, 0)
    img[bh:2 * bh, : max(1, round(0.04 * w))] = (1, 1, 1)
    return img, specular


def srgb_to_linear(e):
    return np.where(e <= 0.04045, e / 12.92, ((e + 0.055) / 1.055) ** 2.4)


def grey_of(img):
    return img @ np.array([0.2126, 0.7152, 0.0722])


# Orientation N: what a viewer does to the stored array to show it upright, and the inverse this script applies.
def stored_from_upright(u, n):
    return {1: lambda a: a, 2: np.fliplr, 3: lambda a: np.rot90(a, 2), 4: np.flipud,
            5: lambda a: np.swapaxes(a, 0, 1), 6: lambda a: np.rot90(a, 1),
            7: lambda a: np.rot90(np.swapaxes(a, 0, 1), 2), 8: lambda a: np.rot90(a, -1)}[n](u)


def upright_from_stored(s, n):
    return {1: lambda a: a, 2: np.fliplr, 3: lambda a: np.rot90(a, 2), 4: np.flipud,
            5: lambda a: np.swapaxes(a, 0, 1), 6: lambda a: np.rot90(a, -1),
            7: lambda a: np.rot90(np.swapaxes(a, 0, 1), 2), 8: lambda a: np.rot90(a, 1)}[n](s)


# --- A small TIFF writer (JPEG-in-TIFF, the DNG with a preview, hostile files) -------------------------------

BYTE, ASCII, SHORT, LONG, RATIONAL, UNDEFINED, SRATIONAL = 1, 2, 3, 4, 5, 7, 10
TYPE_SIZE = {BYTE: 1, ASCII: 1, SHORT: 2, LONG: 4, RATIONAL: 8, UNDEFINED: 1, SRATIONAL: 8}


class Blobs:
    """Offsets of data blocks written after the IFDs (StripOffsets, TileOffsets)."""

    def __init__(self, blobs):
        self.blobs = list(blobs)


class Ifds:
    """Offsets of other IFDs (SubIFDs, ExifIFD)."""

    def __init__(self, ifds):
        self.ifds = list(ifds)


class IFD:
    def __init__(self):
        self.entries = {}
        self.next = None

    def set(self, tag, typ, value):
        self.entries[tag] = (typ, value)

    def strips(self, blobs, tiles=False):
        blobs = list(blobs)
        self.set(324 if tiles else 273, LONG, Blobs(blobs))
        self.set(325 if tiles else 279, LONG, [len(b) for b in blobs])


def _count(typ, value):
    if isinstance(value, Blobs):
        return len(value.blobs)
    if isinstance(value, Ifds):
        return len(value.ifds)
    if typ == ASCII:
        return len(value.encode("ascii")) + 1
    if isinstance(value, (bytes, bytearray)):
        return len(value)
    return len(value) if isinstance(value, (list, tuple)) else 1


def write_tiff(ifd0, bo="<"):
    """The bytes of a TIFF: header, the IFDs reachable from ifd0 (each followed by its out-of-line values),
    then the data blocks in order of appearance."""
    order, seen, stack = [], set(), [ifd0]
    while stack:
        ifd = stack.pop(0)
        if id(ifd) in seen:
            continue
        seen.add(id(ifd))
        order.append(ifd)
        for typ, value in ifd.entries.values():
            if isinstance(value, Ifds):
                stack.extend(value.ifds)
        if ifd.next is not None:
            stack.append(ifd.next)
    pos, blob_pos, blobs = 8, {}, []
    for ifd in order:
        ifd.pos = pos
        pos += 2 + 12 * len(ifd.entries) + 4
        for tag in sorted(ifd.entries):
            typ, value = ifd.entries[tag]
            size = TYPE_SIZE[typ] * _count(typ, value)
            if size > 4:
                pos += size + (size & 1)
            if isinstance(value, Blobs):
                blobs.extend(value.blobs)
    for b in blobs:
        if id(b) not in blob_pos:
            blob_pos[id(b)] = pos
            pos += len(b) + (len(b) & 1)
    out = bytearray(pos)
    out[0:8] = (b"II" if bo == "<" else b"MM") + struct.pack(bo + "HI", 42, order[0].pos)
    for ifd in order:
        p = ifd.pos
        struct.pack_into(bo + "H", out, p, len(ifd.entries))
        extra = p + 2 + 12 * len(ifd.entries) + 4
        for k, tag in enumerate(sorted(ifd.entries)):
            typ, value = ifd.entries[tag]
            if isinstance(value, Blobs):
                payload = struct.pack(bo + "%dI" % len(value.blobs), *[blob_pos[id(b)] for b in value.blobs])
            elif isinstance(value, Ifds):
                payload = struct.pack(bo + "%dI" % len(value.ifds), *[i.pos for i in value.ifds])
            elif typ == ASCII:
                payload = value.encode("ascii") + b"\0"
            elif isinstance(value, (bytes, bytearray)):
                payload = bytes(value)
            else:
                vals = list(value) if isinstance(value, (list, tuple)) else [value]
                if typ in (RATIONAL, SRATIONAL):
                    flat = [n for pair in vals for n in pair]
                    payload = struct.pack(bo + "%d%s" % (len(flat), "I" if typ == RATIONAL else "i"), *flat)
                else:
                    payload = struct.pack(bo + "%d%s" % (len(vals), {BYTE: "B", SHORT: "H", LONG: "I"}[typ]), *vals)
            count = _count(typ, value)
            entry = struct.pack(bo + "HHI", tag, typ, count)
            if len(payload) <= 4:
                entry += payload + b"\0" * (4 - len(payload))
            else:
                entry += struct.pack(bo + "I", extra)
                out[extra:extra + len(payload)] = payload
                extra += len(payload) + (len(payload) & 1)
            out[p + 2 + 12 * k: p + 14 + 12 * k] = entry
        struct.pack_into(bo + "I", out, p + 2 + 12 * len(ifd.entries), ifd.next.pos if ifd.next is not None else 0)
    for b in blobs:
        out[blob_pos[id(b)]:blob_pos[id(b)] + len(b)] = b
    return bytes(out)


def set_resolution(ifd):
    ifd.set(282, RATIONAL, [(72, 1)])
    ifd.set(283, RATIONAL, [(72, 1)])
    ifd.set(296, SHORT, 2)


def rgb_ifd(arr, rows_per_strip, compression=1):
    """An IFD of an 8-bit RGB image, uncompressed or Deflate, with its strips."""
    h, w, _ = arr.shape
    ifd = IFD()
    ifd.set(256, LONG, w)
    ifd.set(257, LONG, h)
    ifd.set(258, SHORT, [8, 8, 8])
    ifd.set(259, SHORT, compression)
    ifd.set(262, SHORT, 2)
    ifd.set(277, SHORT, 3)
    ifd.set(278, LONG, rows_per_strip)
    ifd.set(284, SHORT, 1)
    set_resolution(ifd)
    strips = [arr[y:y + rows_per_strip].tobytes() for y in range(0, h, rows_per_strip)]
    if compression == 8:
        strips = [zlib.compress(s, 6) for s in strips]
    ifd.strips(strips)
    return ifd


def rational(v, den=10000):
    return (int(round(v * den)), den)


# --- TIFF inputs ---------------------------------------------------------------------------------------------


class Fixtures:
    def __init__(self, dest):
        self.dest = dest
        self.entries = []

    def path(self, rel):
        p = os.path.join(self.dest, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        return p

    def add(self, file, kind, expected, display, stored, orientation=1, bits=8, stored_bits=None, reference=None,
            tolerance=None, preview=None, date=None, make=None, model=None, note="", **extra):
        e = {"file": file, "kind": kind, "expected": expected,
             "display_size": list(display) if display else None, "stored_size": list(stored) if stored else None,
             "orientation": orientation, "bits": bits, "stored_bits": stored_bits if stored_bits else bits,
             "reference": reference, "tolerance": tolerance, "preview_size": list(preview) if preview else None,
             "capture_date": date, "make": make, "model": model, "note": note}
        e.update(extra)
        self.entries.append(e)

    def check_and_ref(self, rel, ref, mode, exact=True, psnr_min=None, before=(), im_ref=False, note_cmp=""):
        """Compares ImageMagick's decode of rel with ref (or takes ImageMagick's decode as the reference when
        im_ref) and writes refs/tiff/NAME.png; returns the reference's path."""
        p = os.path.join(self.dest, rel)
        depth = 16 if ref.dtype == np.uint16 else 8
        dec = im_decode(p, mode, depth, ref.shape, before)
        peak = 65535 if depth == 16 else 255
        if im_ref:
            q = psnr(dec, ref, peak)
            if q < psnr_min:
                fail("%s: ImageMagick's decode is %.1f dB from the scene (at least %.1f expected)" % (rel, q, psnr_min))
            ref = dec
        else:
            diff = int(np.abs(dec.astype(np.int64) - ref.astype(np.int64)).max())
            if exact and diff != 0:
                fail("%s: ImageMagick's decode differs from the reference by up to %d" % (rel, diff))
            if not exact and psnr(dec, ref, peak) < psnr_min:
                fail("%s: ImageMagick's decode is only %.1f dB from the reference" % (rel, psnr(dec, ref, peak)))
        name = "refs/tiff/" + os.path.splitext(os.path.basename(rel))[0] + ".png"
        write_png(os.path.join(self.dest, name), ref)
        return name


def make_tiffs(fx, tmp):
    W, H = 640, 427
    img, _ = scene(W, H)
    rgb8, rgb16 = q8(img), q16(img)
    grey = grey_of(img)
    grey8, grey16 = q8(grey), q16(grey)
    common = dict(metadata=None, software="Sepia raw_tiff_fixtures")
    size = (W, H)

    def tw(rel, data, **kw):
        args = dict(common)
        args.update(kw)
        tifffile.imwrite(fx.path(rel), data, **args)

    def im(rel, src, *opts):
        src_path = os.path.join(tmp, "src.pnm")
        with open(src_path, "wb") as f:
            f.write(ppm(src))
        run(["convert", src_path, *opts, fx.path(rel)])

    lossless = {"max_abs": 0}

    # 8-bit RGB, different compressions and layouts
    tw("tiff/rgb8_none.tif", rgb8, photometric="rgb", rowsperstrip=16)
    im("tiff/rgb8_lzw.tif", rgb8, "-compress", "LZW", "-define", "tiff:predictor=1")
    tw("tiff/rgb8_deflate.tif", rgb8, photometric="rgb", compression="zlib", rowsperstrip=32)
    im("tiff/rgb8_packbits.tif", rgb8, "-compress", "RLE")
    tw("tiff/rgb8_tiled.tif", rgb8, photometric="rgb", tile=(256, 256))
    tw("tiff/rgb8_planar.tif", np.moveaxis(rgb8, 2, 0), photometric="rgb", planarconfig="separate", rowsperstrip=64)
    for rel, note in [("tiff/rgb8_none.tif", "8-bit RGB, uncompressed, 16 rows per strip"),
                      ("tiff/rgb8_lzw.tif", "8-bit RGB, LZW (no predictor), ImageMagick"),
                      ("tiff/rgb8_deflate.tif", "8-bit RGB, Adobe Deflate (compression 8), 32 rows per strip"),
                      ("tiff/rgb8_packbits.tif", "8-bit RGB, PackBits (compression 32773), ImageMagick"),
                      ("tiff/rgb8_tiled.tif", "8-bit RGB, uncompressed, 256x256 tiles (edge tiles padded)"),
                      ("tiff/rgb8_planar.tif", "8-bit RGB, PlanarConfiguration 2 (separate planes), 64 rows per strip")]:
        fx.add(rel, "tiff", "DECODE", size, size, reference=fx.check_and_ref(rel, rgb8, "rgb"),
               tolerance=lossless, note=note)

    # JPEG-compressed, YCbCr 4:2:0, each 64-row strip a whole JPEG stream (this script's writer, cjpeg)
    rows = 64
    strips = []
    for y in range(0, H, rows):
        strips.append(run(["cjpeg", "-quality", "90", "-sample", "2x2"], stdin=ppm(rgb8[y:y + rows])).stdout)
    ifd = IFD()
    for tag, typ, val in [(256, LONG, W), (257, LONG, H), (258, SHORT, [8, 8, 8]), (259, SHORT, 7),
                          (262, SHORT, 6), (277, SHORT, 3), (278, LONG, rows), (284, SHORT, 1),
                          (305, ASCII, "Sepia raw_tiff_fixtures"), (530, SHORT, [2, 2]), (531, SHORT, 1)]:
        ifd.set(tag, typ, val)
    set_resolution(ifd)
    ifd.strips(strips)
    rel = "tiff/rgb8_jpeg_ycbcr420.tif"
    with open(fx.path(rel), "wb") as f:
        f.write(write_tiff(ifd))
    fx.add(rel, "tiff", "DECODE", size, size, reference=fx.check_and_ref(rel, rgb8, "rgb", im_ref=True, psnr_min=35),
           tolerance={"psnr_min": 38.0},
           note="JPEG (compression 7), Photometric YCbCr, YCbCrSubSampling 2x2; each 64-row strip a complete "
                "baseline JPEG stream from cjpeg -quality 90, no JPEGTables; reference: ImageMagick/libtiff's decode")
    rel = "tiff/rgb8_jpeg_ycbcr444.tif"
    im(rel, rgb8, "-colorspace", "YCbCr", "-compress", "JPEG", "-quality", "90", "-define", "tiff:rows-per-strip=64")
    fx.add(rel, "tiff", "DECODE", size, size, reference=fx.check_and_ref(rel, rgb8, "rgb", im_ref=True, psnr_min=35),
           tolerance={"psnr_min": 38.0},
           note="JPEG (compression 7), Photometric YCbCr 1x1, shared JPEGTables and abbreviated strip streams "
                "(ImageMagick/libtiff, quality 90); reference: ImageMagick/libtiff's decode")

    # alpha: opaque on the left third, fading to 0 at the right edge, a fully transparent box at the bottom right
    y, x = np.mgrid[0:H, 0:W]
    alpha = np.clip((1 - (x + 0.5) / W) * 1.6, 0, 1)
    alpha[int(0.62 * H):int(0.8 * H), int(0.86 * W):] = 0
    a8 = q8(alpha)
    rgba = np.dstack([rgb8, a8])
    rel = "tiff/rgba8_unassociated.tif"
    tw(rel, rgba, photometric="rgb", extrasamples=["unassalpha"], rowsperstrip=32)
    fx.add(rel, "tiff", "DECODE", size, size, reference=fx.check_and_ref(rel, rgba, "rgba"), tolerance=lossless,
           note="8-bit RGBA, ExtraSamples 2 (unassociated alpha): opaque on the left, fading to 0 at the right "
                "edge, a fully transparent box at the bottom right; colour kept under alpha 0")
    pre = np.round(rgb8.astype(np.float64) * a8[..., None] / 255).astype(np.uint8)
    straight = np.where(a8[..., None] > 0,
                        np.clip(np.round(pre.astype(np.float64) * 255 / np.maximum(a8, 1)[..., None]), 0, 255),
                        0).astype(np.uint8)
    rel = "tiff/rgba8_associated.tif"
    tw(rel, np.dstack([pre, a8]), photometric="rgb", extrasamples=["assocalpha"], rowsperstrip=32)
    dec = im_decode(fx.path(rel), "rgba", 8, (H, W, 4))
    mask = a8 >= 128
    im_diff = int(np.abs(dec[mask].astype(int) - np.dstack([straight, a8])[mask].astype(int)).max())
    ref = "refs/tiff/rgba8_associated.png"
    write_png(os.path.join(fx.dest, ref), np.dstack([straight, a8]))
    fx.add(rel, "tiff", "DECODE", size, size, reference=ref, tolerance={"max_abs": 1, "where_alpha_at_least": 128},
           note="8-bit RGBA, ExtraSamples 1 (associated alpha): colour stored premultiplied (same alpha as "
                "rgba8_unassociated); the reference has straight colour round(P*255/A), 0 where A is 0; compare "
                "colour only where alpha is high (rounding grows as alpha falls). ImageMagick's decode is within "
                "%d of it where alpha >= 128" % im_diff)

    # 16-bit
    tw("tiff/rgb16_none.tif", rgb16, photometric="rgb", rowsperstrip=16)
    im("tiff/rgb16_lzw_pred2.tif", rgb16, "-depth", "16", "-compress", "LZW", "-define", "tiff:predictor=2")
    tw("tiff/grey16.tif", grey16, photometric="minisblack", rowsperstrip=32)
    tw("tiff/rgb16_bigendian.tif", rgb16, photometric="rgb", byteorder=">", rowsperstrip=32)
    for rel, ref, mode, note in [
            ("tiff/rgb16_none.tif", rgb16, "rgb", "16-bit RGB, uncompressed; gradients use all 16 bits"),
            ("tiff/rgb16_lzw_pred2.tif", rgb16, "rgb", "16-bit RGB, LZW with Predictor 2 (horizontal differencing), ImageMagick"),
            ("tiff/grey16.tif", grey16, "gray", "16-bit grey, MinIsBlack"),
            ("tiff/rgb16_bigendian.tif", rgb16, "rgb", "16-bit RGB, big-endian file (MM), uncompressed")]:
        fx.add(rel, "tiff", "DECODE", size, size, bits=16, reference=fx.check_and_ref(rel, ref, mode),
               tolerance=lossless, note=note)

    # grey, bilevel, min-is-white, palette
    tw("tiff/grey8.tif", grey8, photometric="minisblack", rowsperstrip=32)
    fx.add("tiff/grey8.tif", "tiff", "DECODE", size, size, reference=fx.check_and_ref("tiff/grey8.tif", grey8, "gray"),
           tolerance=lossless, note="8-bit grey, MinIsBlack")
    bayer = np.array([[0, 32, 8, 40, 2, 34, 10, 42], [48, 16, 56, 24, 50, 18, 58, 26],
                      [12, 44, 4, 36, 14, 46, 6, 38], [60, 28, 52, 20, 62, 30, 54, 22],
                      [3, 35, 11, 43, 1, 33, 9, 41], [51, 19, 59, 27, 49, 17, 57, 25],
                      [15, 47, 7, 39, 13, 45, 5, 37], [63, 31, 55, 23, 61, 29, 53, 21]])
    bits = grey > (bayer[y % 8, x % 8] + 0.5) / 64
    rel = "tiff/bilevel1.tif"
    tw(rel, bits, photometric="minisblack", rowsperstrip=64)
    fx.add(rel, "tiff", "DECODE", size, size, stored_bits=1,
           reference=fx.check_and_ref(rel, (bits * 255).astype(np.uint8), "gray"), tolerance=lossless,
           note="1-bit bilevel, MinIsBlack (1 is white), uncompressed; an 8x8 ordered dither of the grey picture; "
                "reference is 8-bit grey 0/255")
    rel = "tiff/grey8_miniswhite.tif"
    tw(rel, 255 - grey8, photometric="miniswhite", rowsperstrip=32)
    fx.add(rel, "tiff", "DECODE", size, size, reference=fx.check_and_ref(rel, grey8, "gray"), tolerance=lossless,
           note="8-bit grey, Photometric 0 (MinIsWhite): stored 255 - grey; the reference is the displayed grey")
    idx = ((rgb8[..., 0] >> 5).astype(np.uint8) << 5) | ((rgb8[..., 1] >> 5) << 2).astype(np.uint8) | (rgb8[..., 2] >> 6)
    i = np.arange(256)
    pal8 = np.stack([np.round(((i >> 5) & 7) * 255 / 7), np.round(((i >> 2) & 7) * 255 / 7),
                     np.round((i & 3) * 255 / 3)]).astype(np.uint16)
    rel = "tiff/palette8.tif"
    tw(rel, idx.astype(np.uint8), photometric="palette", colormap=pal8 * 257, rowsperstrip=32)
    fx.add(rel, "tiff", "DECODE", size, size, reference=fx.check_and_ref(rel, pal8.T[idx].astype(np.uint8), "rgb"),
           tolerance=lossless, note="8-bit palette (Photometric 3), a 3-3-2 colour cube ColorMap (16-bit entries v*257)")

    # CMYK, with and without ICC; RGB tagged Adobe RGB
    k = 1 - img.max(axis=2)
    denom = np.where(k < 1, 1 - k, 1)
    cmy = np.where((k < 1)[..., None], (1 - img - k[..., None]) / denom[..., None], 0)
    cmyk8 = q8(np.dstack([cmy, k]))
    naive = np.round((255 - cmyk8[..., :3].astype(np.float64)) * (255 - cmyk8[..., 3:].astype(np.float64)) / 255)
    naive = naive.astype(np.uint8)
    rel = "tiff/cmyk8.tif"
    tw(rel, cmyk8, photometric="separated", rowsperstrip=32)
    dec = im_decode(fx.path(rel), "rgb", 8, (H, W, 3))
    im_diff = int(np.abs(dec.astype(int) - naive.astype(int)).max())
    ref = "refs/tiff/cmyk8.png"
    write_png(os.path.join(fx.dest, ref), naive)
    fx.add(rel, "tiff", "DECODE", size, size, reference=ref, tolerance={"max_abs": 1},
           note="8-bit CMYK (Photometric 5, InkSet 1), no ICC profile; the reference uses the naive formula "
                "R = 255 (1 - C/255)(1 - K/255) (G from M, B from Y); ImageMagick's decode is within %d" % im_diff)
    srgb_icc = os.path.join(ICC_DIR, ICC["srgb"])
    with open(os.path.join(ICC_DIR, ICC["cmyk"]), "rb") as f:
        cmyk_icc = f.read()
    rel = "tiff/cmyk8_icc.tif"
    tw(rel, cmyk8, photometric="separated", rowsperstrip=32, iccprofile=cmyk_icc)
    fx.add(rel, "tiff", "DECODE", size, size,
           reference=fx.check_and_ref(rel, naive, "rgb", im_ref=True, psnr_min=12,
                                      before=("-intent", "Perceptual", "-profile", srgb_icc)),
           tolerance={"psnr_min": 30.0},
           note="the CMYK samples of cmyk8.tif with Ghostscript's default_cmyk.icc (Artifex CMYK SWOP, LUT-based) "
                "embedded; reference converted to sRGB by ImageMagick/LittleCMS 2, perceptual intent (so "
                "inks look duller than the naive formula's)")
    with open(os.path.join(ICC_DIR, ICC["adobergb"]), "rb") as f:
        a98 = f.read()
    rel = "tiff/rgb8_adobergb_icc.tif"
    tw(rel, rgb8, photometric="rgb", rowsperstrip=32, iccprofile=a98)
    fx.add(rel, "tiff", "DECODE", size, size,
           reference=fx.check_and_ref(rel, rgb8, "rgb", im_ref=True, psnr_min=15,
                                      before=("-intent", "Perceptual", "-profile", srgb_icc)),
           tolerance={"max_abs": 2},
           note="the 8-bit RGB samples of rgb8_none.tif tagged with Ghostscript's a98.icc (Adobe RGB (1998)-"
                "compatible, matrix/TRC), so they look more saturated; reference converted to sRGB by "
                "ImageMagick/LittleCMS 2 (colours outside sRGB clipped)")

    # multi-page: three pictures of different content and size; page 1 is the one to show
    pages = [q8(scene(640, 427, 0)[0]), q8(scene(480, 320, 1)[0]), q8(scene(320, 240, 2)[0])]
    rel = "tiff/multipage3.tif"
    with tifffile.TiffWriter(fx.path(rel)) as t:
        for p in pages:
            t.write(p, photometric="rgb", rowsperstrip=32, **common)
    n = run(["identify", fx.path(rel)]).stdout.decode().count("\n")
    if n != 3:
        fail("%s: identify finds %d pages, expected 3" % (rel, n))
    fx.add(rel, "tiff", "DECODE", size, size, reference=fx.check_and_ref(rel, pages[0], "rgb"), tolerance=lossless,
           note="3 pages: 640x427 (the scene), 480x320 (channels rotated), 320x240 (inverted); show page 1",
           pages=3)

    # orientation 1..8, one upright picture
    upright_ref = "refs/tiff/upright.png"
    write_png(os.path.join(fx.dest, upright_ref), rgb8)
    for n in range(1, 9):
        stored = np.ascontiguousarray(stored_from_upright(rgb8, n))
        assert np.array_equal(upright_from_stored(stored, n), rgb8)
        rel = "tiff/orientation/orient_%d.tif" % n
        tw(rel, stored, photometric="rgb", rowsperstrip=32, extratags=[(274, "H", 1, n, True)])
        dec = im_decode(fx.path(rel), "rgb", 8, rgb8.shape)
        if not np.array_equal(dec, rgb8):
            fail("%s: ImageMagick -auto-orient does not give the upright picture" % rel)
        back = tifffile.TiffFile(fx.path(rel))
        tag = back.pages[0].tags.get(274)
        if tag is None or int(tag.value) != n:
            fail("%s: Orientation tag is %r" % (rel, tag and tag.value))
        if not np.array_equal(upright_from_stored(back.asarray(), n), rgb8):
            fail("%s: tifffile's pixels, turned by the tag, are not the upright picture" % rel)
        back.close()
        fx.add(rel, "tiff", "DECODE", size, (stored.shape[1], stored.shape[0]), orientation=n,
               reference=upright_ref, tolerance=lossless,
               note="8-bit RGB with Orientation %d: the upright picture stored transformed so that it displays "
                    "like every other orient_N.tif" % n)


# --- RAW inputs ----------------------------------------------------------------------------------------------

GAINS = (0.5, 1.0, 0.7)  # camera channel sensitivities (R, G, B), undone by AsShotNeutral
XYZ_TO_SRGB = ((3.2404542, -1.5371385, -0.4985314), (-0.9692660, 1.8760108, 0.0415560),
               (0.0556434, -0.2040259, 1.0572252))
CFA = {"RGGB": [0, 1, 1, 2], "BGGR": [2, 1, 1, 0]}


def linear_scene(w, h, orientation=1):
    """The linear-light scene as the sensor sees it: stored (h, w) after the inverse of the orientation, and the
    upright sRGB-encoded picture a developer should show."""
    uw, uh = (h, w) if orientation in (5, 6, 7, 8) else (w, h)
    img, spec = scene(uw, uh)
    lin = srgb_to_linear(img)
    lin[spec] = 4.0  # specular: clipped in every channel
    return np.ascontiguousarray(stored_from_upright(lin, orientation)), np.clip(img, 0, 1)


def mosaic(lin, pattern, black, white):
    h, w, _ = lin.shape
    cfa = np.array(CFA[pattern]).reshape(2, 2)
    y, x = np.mgrid[0:h, 0:w]
    c = cfa[y % 2, x % 2]
    v = np.take_along_axis(lin, c[..., None], 2)[..., 0] * np.array(GAINS)[c]
    return np.clip(np.round(black + v * (white - black)), 0, white).astype(np.uint16)


def pidng_dng(lin, pattern, bits, black, date, model, orientation=1):
    from pidng.core import RAW2DNG, DNGTags, Tag
    h, w, _ = lin.shape
    white = (1 << bits) - 1
    raw = mosaic(lin, pattern, black, white)
    t = DNGTags()
    t.set(Tag.ImageWidth, w)
    t.set(Tag.ImageLength, h)
    t.set(Tag.TileWidth, w)
    t.set(Tag.TileLength, h)
    t.set(Tag.Orientation, orientation)
    t.set(Tag.PhotometricInterpretation, 32803)
    t.set(Tag.SamplesPerPixel, 1)
    t.set(Tag.BitsPerSample, bits)
    t.set(Tag.CFARepeatPatternDim, [2, 2])
    t.set(Tag.CFAPattern, CFA[pattern])
    t.set(Tag.BlackLevel, black)
    t.set(Tag.WhiteLevel, white)
    t.set(Tag.ColorMatrix1, [rational(v) for v in (np.diag(GAINS) @ np.array(XYZ_TO_SRGB)).flatten()])
    t.set(Tag.CalibrationIlluminant1, 21)
    t.set(Tag.AsShotNeutral, [rational(g) for g in GAINS])
    t.set(Tag.BaselineExposure, [(0, 1)])
    t.set(Tag.Make, "SepiaTest")
    t.set(Tag.Model, model)
    t.set(Tag.UniqueCameraModel, "SepiaTest " + model)
    t.set(Tag.DateTime, date)
    r = RAW2DNG()
    r.options(t, path="", compress=False)  # pidng 4.0.9's LJ92 compression fails on Python >= 3.10
    return bytes(r.convert(raw))


def preview_dng(raw, preview, preview_size, black, white, date, model):
    """The bytes of a DNG laid out as Adobe's converter writes one: IFD0 a baseline JPEG preview (`preview`, the
    JPEG's bytes, of `preview_size`: NewSubfileType 1, Compression 7, YCbCr 4:2:0), the raw image (`raw`, an RGGB
    mosaic of 16-bit samples, one strip) in a SubIFD, the capture date in an Exif IFD. Also used by
    scripts/bench/raw.py for its 24 MP input."""
    H, W = raw.shape
    pw, ph = preview_size
    sub = IFD()
    for tag, typ, val in [(254, LONG, 0), (256, LONG, W), (257, LONG, H), (258, SHORT, 16), (259, SHORT, 1),
                          (262, SHORT, 32803), (277, SHORT, 1), (278, LONG, H), (284, SHORT, 1),
                          (33421, SHORT, [2, 2]), (33422, BYTE, bytes(CFA["RGGB"])), (50714, LONG, black),
                          (50717, LONG, white)]:
        sub.set(tag, typ, val)
    sub.strips([raw.astype("<u2").tobytes()])
    exif = IFD()
    exif.set(36864, UNDEFINED, b"0231")
    exif.set(36867, ASCII, date)
    ifd0 = IFD()
    for tag, typ, val in [(254, LONG, 1), (256, LONG, pw), (257, LONG, ph), (258, SHORT, [8, 8, 8]),
                          (259, SHORT, 7), (262, SHORT, 6), (271, ASCII, "SepiaTest"), (272, ASCII, model),
                          (274, SHORT, 1), (277, SHORT, 3), (278, LONG, ph), (284, SHORT, 1),
                          (305, ASCII, "Sepia raw_tiff_fixtures"), (306, ASCII, date), (330, LONG, Ifds([sub])),
                          (530, SHORT, [2, 2]), (34665, LONG, Ifds([exif])), (50706, BYTE, bytes([1, 4, 0, 0])),
                          (50707, BYTE, bytes([1, 1, 0, 0])), (50708, ASCII, "SepiaTest " + model),
                          (50721, SRATIONAL, [rational(v) for v in (np.diag(GAINS) @ np.array(XYZ_TO_SRGB)).flatten()]),
                          (50728, RATIONAL, [rational(g) for g in GAINS]), (50730, SRATIONAL, [(0, 1)]),
                          (50778, SHORT, 21)]:
        ifd0.set(tag, typ, val)
    ifd0.strips([preview])
    return write_tiff(ifd0)


def set_capture_date(path, date, make=None, model=None, size=None):
    args = ["exiftool", "-q", "-q", "-overwrite_original", "-ExifIFD:DateTimeOriginal=" + date]
    if make:
        args += ["-Make=" + make, "-Model=" + model]
    if size:
        args += ["-ExifImageWidth=%d" % size[0], "-ExifImageHeight=%d" % size[1]]
    run(args + [path])


def raw_identify(path):
    out = run(["raw-identify", "-v", path]).stdout.decode("utf-8", "replace")
    info = {}
    for line in out.splitlines():
        if ":" in line and not line.startswith("\t"):
            key, _, val = line.partition(":")
            info.setdefault(key.strip(), val.strip())
    return info


def develop(fx, rel, upright, name):
    """References of a DNG by dcraw_emu (full size and half size) as 16-bit PNGs; checks them."""
    p = os.path.join(fx.dest, rel)
    info = raw_identify(p)
    if "Image size" not in info:
        fail("raw-identify cannot read %s" % rel)
    refs = {}
    for suffix, flags in [("", DCRAW_FULL), (".half", DCRAW_HALF)]:
        out = os.path.join(fx.tmp, "dev.tiff")
        r = run(["dcraw_emu", *flags, "-Z", out, p])
        if not os.path.exists(out):  # dcraw_emu exits 0 when LibRaw fails
            fail("dcraw_emu cannot develop %s: %s" % (rel, r.stderr.decode("utf-8", "replace").strip()))
        arr = tifffile.imread(out)
        os.remove(out)
        ref = "refs/raw/%s%s.png" % (name, suffix)
        write_png(os.path.join(fx.dest, ref), arr)
        refs[suffix] = (ref, arr)
    full = refs[""][1]
    if full.shape[:2] != upright.shape[:2]:
        fail("%s: dcraw_emu made %s, expected %s" % (rel, full.shape, upright.shape))
    want = q16(upright)
    border = 8
    q = psnr(full[border:-border, border:-border], want[border:-border, border:-border], 65535)
    if q < 30:
        fail("%s: LibRaw's development is %.1f dB from the scene" % (rel, q))
    auto = os.path.join(fx.tmp, "auto.tiff")
    run(["dcraw_emu", *[f for f in DCRAW_FULL if f != "-W"], "-Z", auto, p])
    auto_diff = int(np.abs(tifffile.imread(auto).astype(int) - full.astype(int)).max())
    os.remove(auto)
    say("  %-34s %s, %.1f dB from the scene, auto-brightening changes it by <= %d" % (rel, info.get("Image size"), q, auto_diff))
    if auto_diff > 256:
        fail("%s: dcraw's automatic brightening changes the reference by %d" % (rel, auto_diff))
    return info, refs[""][0], refs[".half"][0], q


def make_raws(fx, tmp):
    W, H = 1200, 800
    specs = [("raw/rggb_12bit.dng", "RGGB", 12, 128, 1, "2023:06:01 10:00:01", "Synthetic RGGB12"),
             ("raw/rggb_16bit.dng", "RGGB", 16, 1024, 1, "2023:06:01 10:00:02", "Synthetic RGGB16"),
             ("raw/bggr_12bit.dng", "BGGR", 12, 128, 1, "2023:06:01 10:00:03", "Synthetic BGGR12"),
             ("raw/rggb_12bit_orient6.dng", "RGGB", 12, 128, 6, "2023:06:01 10:00:04", "Synthetic RGGB12"),
             ("pair/IMG_0001.DNG", "RGGB", 12, 128, 1, "2023:07:14 18:30:05", "Synthetic Pair")]
    for rel, pattern, bits, black, orientation, date, model in specs:
        lin, upright = linear_scene(W, H, orientation)
        data = pidng_dng(lin, pattern, bits, black, date, model, orientation)
        with open(fx.path(rel), "wb") as f:
            f.write(data)
        set_capture_date(fx.path(rel), date)
        name = os.path.splitext(os.path.basename(rel))[0]
        info, ref, half, q = develop(fx, rel, upright, name)
        if orientation == 6 and info.get("Image flip") != "6":
            fail("%s: LibRaw reports flip %s, expected 6" % (rel, info.get("Image flip")))
        dw, dh = upright.shape[1], upright.shape[0]
        extra = {}
        if rel.startswith("pair/"):
            extra["pair"] = "pair/IMG_0001.JPG"
        fx.add(rel, "raw", "DECODE", (dw, dh), (W, H), orientation=orientation, bits=16, stored_bits=bits,
               reference=ref, reference_half=half, tolerance={"psnr_min": 40.0},
               date=date.replace(":", "-", 2).replace(" ", "T"), make="SepiaTest", model=model,
               note="pidng %s DNG, %s, %d-bit%s, black %d, white %d, one tile, uncompressed; %s%s"
                    % (PINS["pidng"], pattern, bits, " bit-packed" if bits == 12 else "", black, (1 << bits) - 1,
                       "Orientation 6 (sensor data 1200x800, shown 800x1200 portrait); " if orientation == 6 else "",
                       "LibRaw's development is %.1f dB from the scene" % q), **extra)
        if rel.startswith("pair/"):
            jpg = fx.path("pair/IMG_0001.JPG")
            with open(jpg, "wb") as f:
                f.write(run(["cjpeg", "-quality", "92"], stdin=ppm(q8(upright))).stdout)
            set_capture_date(jpg, date, "SepiaTest", model, (W, H))
            dec = read_ppm(run(["djpeg", "-pnm", jpg]).stdout)
            write_png(os.path.join(fx.dest, "refs/jpeg/IMG_0001.png"), dec)
            fx.add("pair/IMG_0001.JPG", "jpeg", "DECODE", (W, H), (W, H), reference="refs/jpeg/IMG_0001.png",
                   tolerance={"psnr_min": 40.0}, date=date.replace(":", "-", 2).replace(" ", "T"),
                   make="SepiaTest", model=model, pair="pair/IMG_0001.DNG",
                   note="the JPEG of a RAW+JPEG pair (cjpeg -quality 92 of the sRGB scene; Exif by exiftool), "
                        "same DateTimeOriginal as IMG_0001.DNG; reference: djpeg's decode")

    # the DNG with a preview, laid out as Adobe's converter does
    rel, date, model = "raw/rggb_preview.dng", "2023:06:01 10:00:05", "Synthetic Preview"
    lin, upright = linear_scene(W, H)
    black, white = 64, 4095
    raw = mosaic(lin, "RGGB", black, white)
    pw, ph = 1024, 683
    preview = run(["cjpeg", "-quality", "88", "-sample", "2x2"], stdin=ppm(q8(scene(pw, ph)[0]))).stdout
    with open(fx.path(rel), "wb") as f:
        f.write(preview_dng(raw, preview, (pw, ph), black, white, date, model))
    info, ref, half, q = develop(fx, rel, upright, "rggb_preview")
    thumb = info.get("Thumb size", "")
    if thumb.replace(" ", "") != "%dx%d" % (pw, ph):
        fail("%s: raw-identify reports Thumb size %r, expected %dx%d" % (rel, thumb, pw, ph))
    fx.add(rel, "raw", "DECODE", (W, H), (W, H), bits=16, stored_bits=12, reference=ref, reference_half=half,
           tolerance={"psnr_min": 40.0}, preview=(pw, ph), date=date.replace(":", "-", 2).replace(" ", "T"),
           make="SepiaTest", model=model,
           note="IFD0 is a %dx%d baseline JPEG preview (NewSubfileType 1, Compression 7, YCbCr 4:2:0, cjpeg "
                "-quality 88 of the sRGB scene); the raw (RGGB, 16-bit samples holding 12-bit data: black %d, "
                "white %d, one strip) is in a SubIFD; DateTimeOriginal in an Exif IFD; written by this script's "
                "TIFF writer (exiftool cannot add a PreviewImage/JpgFromRaw to a DNG that has none). LibRaw: "
                "Thumb size %s; its development is %.1f dB from the scene" % (pw, ph, black, white, thumb, q))


def make_face_raw(fx, dest):
    """faces/obama2.dng: a face photo of scripts/testdata's corpus (beside DEST) as a DNG, for the People tests."""
    source = os.path.join(os.path.dirname(dest), "faces", "obama2.jpg")
    if not os.path.exists(source):
        fail("%s is missing: run scripts/testdata first (the People tests' RAW copy is made from it)" % source)
    upright = read_ppm(run(["djpeg", "-pnm", source]).stdout).astype(np.float64) / 255
    h, w = upright.shape[:2]
    lin = srgb_to_linear(upright[: h - h % 2, : w - w % 2])
    data = pidng_dng(np.ascontiguousarray(lin), "RGGB", 12, 128, "2024:05:04 12:00:00", "Synthetic Face")
    with open(fx.path("faces/obama2.dng"), "wb") as f:
        f.write(data)


# --- Hostile inputs ------------------------------------------------------------------------------------------


def make_hostile(fx, tmp):
    with open(os.path.join(fx.dest, "raw/rggb_16bit.dng"), "rb") as f:
        dng = f.read()
    tf = tifffile.TiffFile(os.path.join(fx.dest, "raw/rggb_16bit.dng"))
    tile = min(tf.pages[0].dataoffsets)
    tf.close()
    with open(fx.path("hostile/dng_header_shell.dng"), "wb") as f:
        f.write(dng[:tile])
    fx.add("hostile/dng_header_shell.dng", "hostile", "REFUSE", None, (1200, 800), bits=None,
           note="raw/rggb_16bit.dng up to where its tile data begins (%d bytes): a valid DNG header and IFD whose "
                "TileOffsets point at the end of the file, no pixel data (LibRaw 0.20 identifies it, then "
                "fails to unpack: 'Unexpected end of file')" % tile)
    cut = len(dng) * 60 // 100
    with open(fx.path("hostile/dng_truncated_60.dng"), "wb") as f:
        f.write(dng[:cut])
    fx.add("hostile/dng_truncated_60.dng", "hostile", "REFUSE", None, (1200, 800), bits=None,
           note="raw/rggb_16bit.dng cut at 60 %% of its length (%d of %d bytes): the raw data ends early "
                "(LibRaw 0.20 identifies it, then fails to unpack: 'Unexpected end of file')" % (cut, len(dng)))

    img = q8(scene(640, 427)[0])
    jpg = fx.path("hostile/jpeg_named.nef")
    with open(jpg, "wb") as f:
        f.write(run(["cjpeg", "-quality", "90"], stdin=ppm(img)).stdout)
    dec = read_ppm(run(["djpeg", "-pnm", jpg]).stdout)
    write_png(os.path.join(fx.dest, "refs/hostile/jpeg_named.png"), dec)
    fx.add("hostile/jpeg_named.nef", "hostile", "DECODE", (640, 427), (640, 427),
           reference="refs/hostile/jpeg_named.png", tolerance={"psnr_min": 40.0},
           note="a baseline JFIF JPEG (cjpeg -quality 90) named .nef: sniff the content, decode as JPEG; "
                "reference: djpeg's decode")

    rng = np.random.default_rng(20230601)
    data = rng.integers(0, 256, 65536, dtype=np.uint8).tobytes()
    with open(fx.path("hostile/random.cr2"), "wb") as f:
        f.write(data)
    fx.add("hostile/random.cr2", "hostile", "REFUSE", None, None, orientation=None, bits=None,
           note="65 536 random bytes (numpy default_rng(20230601)) named .cr2")

    bomb = IFD()
    strip = zlib.compress(bytes(100000), 9)
    for tag, typ, val in [(256, LONG, 100000), (257, LONG, 100000), (258, SHORT, 8), (259, SHORT, 8),
                          (262, SHORT, 1), (277, SHORT, 1), (278, LONG, 100000), (284, SHORT, 1)]:
        bomb.set(tag, typ, val)
    bomb.strips([strip])
    with open(fx.path("hostile/pixel_bomb.tif"), "wb") as f:
        f.write(write_tiff(bomb))
    fx.add("hostile/pixel_bomb.tif", "hostile", "REFUSE", None, (100000, 100000), bits=None,
           note="declares 100000x100000 8-bit grey (10^10 pixels, 10 GB) in one Deflate strip of %d bytes "
                "(one row of zeros): refuse by the pixel limit before allocating" % len(strip))

    loop = IFD()
    loop.set(270, ASCII, "an IFD whose next-IFD offset is its own")
    loop.set(305, ASCII, "Sepia raw_tiff_fixtures")
    loop.set(306, ASCII, "2023:06:01 10:00:00")
    loop.next = loop
    data = write_tiff(loop)
    assert struct.unpack_from("<I", data, 8 + 2 + 12 * 3)[0] == 8
    with open(fx.path("hostile/ifd_loop.tif"), "wb") as f:
        f.write(data)
    fx.add("hostile/ifd_loop.tif", "hostile", "REFUSE", None, None, orientation=None, bits=None,
           note="IFD0 (at offset 8) holds only ImageDescription, Software and DateTime, and its next-IFD offset "
                "is 8 again: no image anywhere, and walking the chain loops unless offsets are tracked")

    small = q8(scene(160, 107)[0])
    page0 = rgb_ifd(small, 16)
    page0.next = page0
    with open(fx.path("hostile/ifd_loop_page0.tif"), "wb") as f:
        f.write(write_tiff(page0))
    ref = "refs/hostile/ifd_loop_page0.png"
    dec = im_decode(fx.path("hostile/ifd_loop_page0.tif"), "rgb", 8, small.shape)
    if not np.array_equal(dec, small):
        fail("hostile/ifd_loop_page0.tif: ImageMagick does not decode page 1")
    write_png(os.path.join(fx.dest, ref), small)
    fx.add("hostile/ifd_loop_page0.tif", "hostile", "DECODE", (160, 107), (160, 107), reference=ref,
           tolerance={"max_abs": 0},
           note="IFD0 is a valid 160x107 8-bit RGB image (uncompressed) whose next-IFD offset points back to "
                "IFD0: show page 1; counting or walking pages must stop (libtiff warns of the loop and shows "
                "page 1)")

    W, H = 640, 427
    whole = write_tiff(rgb_ifd(img, 16))
    first = struct.unpack_from("<I", whole, 4)[0]
    n = struct.unpack_from("<H", whole, first)[0]
    ifd_end = first + 2 + 12 * n + 4
    # the out-of-line values (BitsPerSample, StripOffsets, StripByteCounts) follow the IFD; strips follow them
    data_start = len(whole) - sum(len(img[y:y + 16].tobytes()) for y in range(0, H, 16))
    assert data_start > ifd_end
    with open(fx.path("hostile/strip_offsets_beyond_eof.tif"), "wb") as f:
        f.write(whole[:data_start])
    fx.add("hostile/strip_offsets_beyond_eof.tif", "hostile", "REFUSE", None, (W, H), bits=None,
           note="a 640x427 8-bit RGB IFD (27 strips of 16 rows) and nothing after it: every StripOffsets value "
                "is at or past the end of the file (%d bytes)" % data_start)
    cut = data_start + (len(whole) - data_start) // 2
    with open(fx.path("hostile/truncated_strips.tif"), "wb") as f:
        f.write(whole[:cut])
    fx.add("hostile/truncated_strips.tif", "hostile", "REFUSE", None, (W, H), bits=None,
           note="a 640x427 8-bit RGB file with 27 uncompressed strips cut at half of its strip data "
                "(%d of %d bytes)" % (cut, len(whole)))


# --- Main ----------------------------------------------------------------------------------------------------


def main():
    global QUIET, np, tifffile
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dest", default=os.path.join(ROOT, ".build", "testdata", "raw-tiff"))
    parser.add_argument("--force", action="store_true", help="regenerate even when the stamp is current")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    QUIET = args.quiet
    dest = os.path.abspath(args.dest)
    stamp_path = os.path.join(dest, ".stamp")
    stamp = script_hash()
    if not args.force and os.path.exists(stamp_path) and os.path.exists(os.path.join(dest, "MANIFEST.json")):
        with open(stamp_path) as f:
            if f.read().strip() == stamp:
                say("%s is up to date" % dest)
                return
    check_tools()
    ensure_venv_and_reexec()

    import numpy
    import tifffile as tf
    np, tifffile = numpy, tf
    start = time.monotonic()
    work = dest + ".partial"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, ".tmp"))
    fx = Fixtures(work)
    fx.tmp = os.path.join(work, ".tmp")
    say("generating RAW and TIFF fixtures in %s" % dest)
    make_tiffs(fx, fx.tmp)
    make_raws(fx, fx.tmp)
    make_face_raw(fx, dest)
    make_hostile(fx, fx.tmp)
    shutil.rmtree(fx.tmp)
    for e in fx.entries:
        e["bytes"] = os.path.getsize(os.path.join(work, e["file"]))
    with open(os.path.join(work, "MANIFEST.json"), "w") as f:
        json.dump(fx.entries, f, indent=1)
        f.write("\n")
    with open(os.path.join(work, ".stamp"), "w") as f:
        f.write(stamp + "\n")
    shutil.rmtree(dest, ignore_errors=True)
    os.replace(work, dest)
    say("%d files in %s (%.1f s)" % (len(fx.entries), dest, time.monotonic() - start))


if __name__ == "__main__":
    main()
