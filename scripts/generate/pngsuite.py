"""PNG test files named as in Willem van Schaik's PngSuite, drawn here (python3 standard library only).

A name reads XXXiCTDD: a three-letter test, i (Adam7 interlaced) or n, the colour type and its letter, the bit
depth. The tests: bas (basic), bg* (bKGD: a none, g grey, y yellow, w white, b black), ccw (cHRM), cdh/cdu
(pHYs), ch2 (hIST), cm7 (tIME), cs3/cs5/cs8 (sBIT), ct0/cte/ctg/ctj/ctz (no text, tEXt, iTXt Greek, iTXt
Japanese, zTXt), f00-f04 (one filter type), f99 (all filters in turn), g03-g25 (gAMA 0.35-2.5), oi1-oi9 (the
data in 1, 2, 4 IDAT chunks or one byte a chunk), pp0 (a PLTE in a true-colour image), ps1/ps2 (sPLT), s01-s40
(an NxN image), tb*/tm3/tp0/tp1 (tRNS, with bKGD), z00-z09 (deflate level), and the broken ones: xc9 (colour
type 9), xcs (wrong IDAT CRC), xd3 (bit depth 3), xdt (no IDAT), xlf (signature with LF turned into CRLF), xs2
and xs7 (a signature byte changed), xhd (wrong IHDR CRC).

PngSuite's own files that pypng carries in its pngsuite.py are taken from there instead (from_pypng).
"""
import binascii
import re
import struct
import zlib

import imaging

LETTER = {"g": 0, "c": 2, "p": 3, "a": None}


def from_pypng(source, name):
    """The bytes of one PngSuite file kept as hex in pypng's code/pngsuite.py."""
    text = source.decode("utf-8")
    m = re.search(r"'%s': _dehex\(b\"\"\"(.*?)\"\"\"\)" % re.escape(name), text, re.S)
    if not m:
        raise KeyError(name)
    return binascii.unhexlify(m.group(1).replace("\n", "").encode())


def parse(name):
    code, interlace, colour, depth = name[:3], name[3] == "i", int(name[4]), int(name[6:8])
    return code, interlace, colour, depth


def palette_for(depth):
    n = 1 << depth
    return [((i * 255) // max(1, n - 1), (255 - (i * 255) // max(1, n - 1)), (i * 97) % 256) for i in range(n)]


def pixel_function(colour, depth, size):
    top = (1 << depth) - 1

    def level(v, span):
        return (v * top) // max(1, span - 1)

    if colour == 0:
        return lambda x, y: (level((x + y) % (2 * size - 1), 2 * size - 1),)
    if colour == 2:
        return lambda x, y: (level(x, size), level(y, size), level(size - 1 - x, size))
    if colour == 3:
        n = 1 << depth
        return lambda x, y: (((x // max(1, size // 8)) + (y // max(1, size // 8)) * 3) % n,)
    if colour == 4:
        return lambda x, y: (level(x, size), level(y, size))
    if colour == 6:
        return lambda x, y: (level(x, size), level(y, size), level(size - 1 - x, size), level((x + y) // 2, size))
    raise ValueError(colour)


def draw(name):
    code, interlace, colour, depth = parse(name)
    size = 32
    if code[0] == "s" and code[1:].isdigit():
        size = int(code[1:])
    before, after_plte, after_idat = [], [], []
    filters, level, chunks = (0, 1, 2, 3, 4), 9, 1
    palette = palette_for(depth) if colour == 3 else None
    top = (1 << depth) - 1

    def grey_or_rgb(v):
        return struct.pack(">H", v) if colour in (0, 4) else struct.pack(">HHH", v, v, v)

    if code.startswith("bg") and code != "bga":
        shade = {"bgg": top // 2, "bgw": top, "bgb": 0}.get(code)
        if code == "bgy":
            after_plte.append((b"bKGD", struct.pack(">HHH", top, top, 0)))
        else:
            after_plte.append((b"bKGD", grey_or_rgb(shade)))
    elif code == "ccw":
        before.append((b"cHRM", struct.pack(">8I", 31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000)))
    elif code == "cdh":
        before.append((b"pHYs", struct.pack(">IIB", 8, 32, 0)))
    elif code == "cdu":
        before.append((b"pHYs", struct.pack(">IIB", 1000, 1000, 1)))
    elif code == "ch2":
        after_plte.append((b"hIST", b"".join(struct.pack(">H", (i * 37) % 1000) for i in range(1 << depth))))
    elif code == "cm7":
        after_idat.append((b"tIME", struct.pack(">HBBBBB", 2000, 1, 1, 12, 34, 56)))
    elif code.startswith("cs") and code[2:].isdigit():
        bits = int(code[2])
        before.append((b"sBIT", bytes([bits] * (1 if colour == 0 else 3))))
    elif code == "cte":
        before.append((b"tEXt", b"Title\0PngSuite-style text"))
        after_idat.append((b"tEXt", b"Comment\0after the image data"))
    elif code == "ctg":
        before.append((b"iTXt", b"Title\0\0\0el\0Title\0" + "Τίτλος".encode()))
    elif code == "ctj":
        before.append((b"iTXt", b"Title\0\0\0ja\0Title\0" + "タイトル".encode()))
    elif code == "ctz":
        before.append((b"zTXt", b"Comment\0\0" + zlib.compress(b"compressed text " * 8)))
    elif code[0] == "f" and code[1:].isdigit():
        filters = (0, 1, 2, 3, 4) if code == "f99" else (int(code[1:]),)
    elif code[0] == "g" and code[1:].isdigit():
        gamma = {"g03": 35000, "g04": 45000, "g05": 55000, "g07": 70000, "g10": 100000, "g25": 250000}[code]
        before.append((b"gAMA", struct.pack(">I", gamma)))
    elif code.startswith("oi"):
        chunks = {"oi1": 1, "oi2": 2, "oi4": 4, "oi9": 10 ** 9}[code]
    elif code == "pp0":
        palette = [(r * 51, g * 51, b * 51) for r in range(6) for g in range(6) for b in range(6)]
    elif code in ("ps1", "ps2"):
        sample = 8 if code == "ps1" else 16
        rows = b"".join((struct.pack(">BBBBH", i, i, i, 255, i) if sample == 8
                         else struct.pack(">HHHHH", i * 257, i * 257, i * 257, 65535, i)) for i in range(0, 256, 17))
        before.append((b"sPLT", b"six-cube\0" + bytes([sample]) + rows))
    elif code[0] == "t":
        if code == "tbb":
            after_plte.append((b"tRNS", grey_or_rgb(0) if colour != 3 else bytes([0])))
            after_plte.append((b"bKGD", grey_or_rgb(0) if colour != 3 else bytes([1])))
        elif code == "tbg":
            after_plte.append((b"tRNS", grey_or_rgb(top) if colour != 3 else bytes([0])))
            after_plte.append((b"bKGD", grey_or_rgb(top // 2) if colour != 3 else bytes([1])))
        elif code == "tbw":
            after_plte.append((b"tRNS", bytes([0])))
            after_plte.append((b"bKGD", bytes([len(palette) - 1])))
        elif code == "tbr":
            after_plte.append((b"tRNS", struct.pack(">HHH", top, 0, 0)))
            after_plte.append((b"bKGD", struct.pack(">HHH", top, 0, 0)))
        elif code == "tm3":
            after_plte.append((b"tRNS", bytes([0, 128, 255])))
        elif code == "tp0":
            pass
        elif code == "tp1":
            after_plte.append((b"tRNS", bytes([0, 64])))
    elif code[0] == "z" and code[1:].isdigit():
        level = int(code[1:])

    pixel = pixel_function(colour, depth, size)
    if code == "tbr":
        pixel = lambda x, y: (top, 0, 0) if (x + y) % 5 == 0 else (x * top // 31, y * top // 31, top // 2)  # noqa: E731

    width = height = size
    data = imaging.png(width, height, colour, depth, pixel, interlace=interlace, filters=filters, level=level,
                       before_plte=before, palette=palette, after_plte=after_plte, idat_chunks=chunks,
                       after_idat=after_idat)
    return data


def broken(name):
    """The broken files: each made from a sound one, with one thing wrong."""
    if name == "xc9n2c08":
        good = draw("basn2c08")
        return _ihdr(good, lambda p: p[:9] + bytes([9]) + p[10:])
    if name == "xd3n2c08":
        good = draw("basn2c08")
        return _ihdr(good, lambda p: p[:8] + bytes([3]) + p[9:])
    if name == "xcsn0g01":
        good = draw("basn0g01")
        i = good.index(b"IDAT") - 4
        n = struct.unpack(">I", good[i:i + 4])[0]
        end = i + 12 + n
        return good[:end - 4] + bytes(b ^ 0x5A for b in good[end - 4:end]) + good[end:]
    if name == "xdtn0g01":
        good = draw("basn0g01")
        i = good.index(b"IDAT") - 4
        n = struct.unpack(">I", good[i:i + 4])[0]
        return good[:i] + good[i + 12 + n:]
    if name == "xlfn0g04":
        good = draw("basn0g04")
        return good[:8].replace(b"\r\n", b"\r\r\n") + good[8:]
    if name == "xs2n0g01":
        good = draw("basn0g01")
        return good[:1] + b"Q" + good[2:]
    if name == "xs7n0g01":
        good = draw("basn0g01")
        return good[:7] + b"\x0b" + good[8:]
    if name == "xhdn0g08":
        good = draw("basn0g08")
        return good[:29] + bytes(b ^ 0xFF for b in good[29:33]) + good[33:]
    raise KeyError(name)


def _ihdr(data, change):
    payload = change(data[16:29])
    return data[:8] + imaging.chunk(b"IHDR", payload) + data[33:]


def make(name):
    if name.startswith("x"):
        return broken(name)
    if name == "PngSuite":
        # An overview picture: 256x256 RGB, Adam7.
        return imaging.png(256, 256, 2, 8, lambda x, y: (x, y, (x ^ y) & 255), interlace=True)
    if name == "basi3p01_2":
        # Interlaced 1-bit palette image of a size where some Adam7 passes are empty (as image-png's extra file).
        return imaging.png(3, 3, 3, 1, lambda x, y: ((x + y) % 2,), interlace=True, palette=[(0, 0, 0), (255, 255, 255)])
    return draw(name)
