"""What XMP packets cost Sepia's check and Exempi's parse: see scripts/bench-xmp."""

import argparse
import ctypes
import os
import statistics
import subprocess
import time

RDF = "xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'"
NAMESPACES = "xmlns:a='http://ns.example.com/a/1.0/' xmlns:xmp='http://ns.adobe.com/xap/1.0/'"
# XMPLimits' defaults (Sources/SepiaXMP/XMPLimits.swift).
DEPTH, NAMESPACE_LIMIT, MEMBERS, NODES, COST = 100, 200, 2_000, 100_000, 10_000_000


class Limits(ctypes.Structure):
    _fields_ = [("max_depth", ctypes.c_int), ("max_namespaces", ctypes.c_int), ("max_members", ctypes.c_long),
                ("max_nodes", ctypes.c_long), ("max_cost", ctypes.c_longlong)]


def packet(body):
    return f"<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF {RDF} {NAMESPACES}>{body}</rdf:RDF></x:xmpmeta>".encode()


def node(index, members):
    fields = "".join(f"<a:p{i}>1</a:p{i}>" for i in range(members))
    return f"<a:s{index} rdf:parseType='Resource'>{fields}</a:s{index}>"


def darktable(steps):
    items = "".join(
        f'<rdf:li darktable:num="{s}" darktable:operation="exposure" darktable:enabled="1" darktable:modversion="6" '
        f'darktable:params="0000000000000000{s}" darktable:multi_name="" darktable:multi_name_hand_edited="0" '
        'darktable:multi_priority="0" darktable:blendop_version="13" darktable:blendop_params="gz11eJxjYGBgkGAAgRNODGQDAA"/>'
        for s in range(steps))
    return packet("<rdf:Description rdf:about='' xmlns:darktable='http://darktable.sf.net/' xmp:Rating='2'>"
                  f"<darktable:history><rdf:Seq>{items}</rdf:Seq></darktable:history></rdf:Description>")


def lightroom(work):
    listing = subprocess.run(["exiftool", "-listx", "-XMP-crs:all"], capture_output=True, text=True, check=True).stdout
    values = {"boolean": "True", "integer": "1", "real": "1.5", "string": "x"}
    arguments = ["-XMP-dc:Title=Harbour", "-XMP-xmp:Rating=4"]
    for line in listing.split("<tag ")[1:]:
        name = line.split("name='")[1].split("'")[0]
        kind = line.split("type='")[1].split("'")[0]
        if kind in values:
            arguments.append(f"-XMP-crs:{name}={values[kind]}")
    for save in range(300):
        arguments += ["-XMP-xmpMM:HistoryAction+=saved", f"-XMP-xmpMM:HistoryInstanceID+=xmp.iid:{save}",
                      "-XMP-xmpMM:HistoryWhen+=2023:01:01 10:00:00",
                      "-XMP-xmpMM:HistorySoftwareAgent+=Adobe Photoshop Lightroom Classic 12.0",
                      "-XMP-xmpMM:HistoryChanged+=/metadata"]
    with open(f"{work}/arguments.txt", "w") as f:
        f.write("\n".join(arguments))
    if os.path.exists(f"{work}/lightroom.xmp"):
        os.remove(f"{work}/lightroom.xmp")
    subprocess.run(["exiftool", "-q", "-q", "-o", f"{work}/lightroom.xmp", "-@", f"{work}/arguments.txt"], check=False)
    with open(f"{work}/lightroom.xmp", "rb") as f:
        return f.read()


def timed(call):
    """The wall time and this thread's CPU time of `call()`, and its result: on a busy machine the CPU time is what
    the work itself took, the wall time also what it waited for a core."""
    wall, cpu = time.perf_counter(), time.thread_time()
    result = call()
    return time.perf_counter() - wall, time.thread_time() - cpu, result


def show(times):
    wall = statistics.median(t[0] for t in times) * 1000
    cpu = statistics.median(t[1] for t in times) * 1000
    return f"{cpu:.1f} ms ({wall:.1f} ms wall)"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--library", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()

    sepia = ctypes.CDLL(options.library)
    error = ctypes.create_string_buffer(600)
    assert sepia.sepia_xmp_load(error, len(error)) == 1, error.value
    sepia.sepia_xmp_check.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(Limits), ctypes.c_char_p, ctypes.c_size_t]
    exempi = ctypes.CDLL("libexempi.so.8")
    exempi.xmp_new_empty.restype = ctypes.c_void_p
    exempi.xmp_parse.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    exempi.xmp_parse.restype = ctypes.c_bool
    exempi.xmp_free.argtypes = [ctypes.c_void_p]
    limits = Limits(DEPTH, NAMESPACE_LIMIT, MEMBERS, NODES, COST)

    cases = [
        ("Lightroom: every Camera Raw setting, 300 saves (exiftool)", lightroom(options.work), True),
        ("darktable: a history of 2 000 steps", darktable(2_000), True),
        ("digiKam: 5 000 keywords", packet("<rdf:Description rdf:about=''><a:k><rdf:Bag>"
                                          + "".join(f"<rdf:li>Places/Town {i}</rdf:li>" for i in range(5_000))
                                          + "</rdf:Bag></a:k></rdf:Description>"), True),
        ("at the limits: 2 nodes of 1 999 members and one of 1 400 (cost 9.95 M)",
         packet("<rdf:Description rdf:about=''>" + node(0, 1_998) + node(1, 1_998) + node(2, 1_400) + "</rdf:Description>"), True),
        ("at the limits: 99 990 array items (nodes)",
         packet("<rdf:Description rdf:about=''><a:b><rdf:Bag>" + "<rdf:li>k</rdf:li>" * 99_990 + "</rdf:Bag></a:b></rdf:Description>"), True),
        ("hostile: 100 000 attributes on one element",
         packet("<rdf:Description rdf:about='' xmp:Rating='5' " + " ".join(f"a:p{i}='1'" for i in range(100_000)) + "/>"), False),
        ("hostile: 25 000 attributes on one element",
         packet("<rdf:Description rdf:about='' xmp:Rating='5' " + " ".join(f"a:p{i}='1'" for i in range(25_000)) + "/>"), False),
    ]
    print("| packet | bytes | Sepia's check (outside the lock): CPU (wall) | Exempi's parse (under the lock): CPU (wall) |")
    print("|---|---|---|---|")
    for name, data, passes in cases:
        message = ctypes.create_string_buffer(320)
        checks, parses = [], []
        for _ in range(options.rounds):
            wall, cpu, result = timed(lambda: sepia.sepia_xmp_check(data, len(data), ctypes.byref(limits), message, len(message)))
            checks.append((wall, cpu))
            if (result == 0) != passes:
                raise SystemExit(f"{name}: the check answered {result} ({message.value.decode()})")
            if passes:
                document = exempi.xmp_new_empty()
                wall, cpu, parsed = timed(lambda: exempi.xmp_parse(document, data, len(data)))
                parses.append((wall, cpu))
                exempi.xmp_free(document)
                assert parsed, name
        if parses:
            parse = show(parses)
        else:
            # What Exempi alone would have spent, once: the smaller hostile packet only (the larger takes minutes).
            parse = f"refused: {message.value.decode()[:48]}…"
            if len(data) < 400_000:
                document = exempi.xmp_new_empty()
                wall, cpu, _ = timed(lambda: exempi.xmp_parse(document, data, len(data)))
                parse += f" (Exempi alone: {cpu:.1f} s CPU, {wall:.1f} s wall)"
                exempi.xmp_free(document)
        print(f"| {name} | {len(data):,} | {show(checks)} | {parse} |", flush=True)

if __name__ == "__main__":
    main()
