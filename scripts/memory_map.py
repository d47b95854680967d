#!/usr/bin/env python3
"""Where the shipped ball's resident memory goes, at its peak while playing.

Run through scripts/memory-map. Usage: memory_map.py BINARY MAP

Plays a plain colourful-ball as scripts/check-package does (80x24 pseudo-terminal, from a cold
page cache, 400 drags), then, while it runs, reads which of its pages are resident
(/proc/PID/pagemap's present bit, readable for one's own child) and says, for each page of the
binary, which ELF section and which input object (from lld's map file: -Map) its bytes came
from. Three runs; the first one's pages are shown, the median VmHWM is printed.
"""

import bisect
import collections
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

BINARY, MAP = os.path.abspath(sys.argv[1]), sys.argv[2]
PAGE = 4096


def origin(path):
    """Where an input object comes from, in the table's words."""
    for key, label in (("libswiftCore", "Swift standard library and runtime"), ("swiftrt", "Swift standard library and runtime"),
                       ("libFoundationEssentials", "FoundationEssentials (through ArgumentParser)"),
                       ("lib_Foundation", "FoundationEssentials (through ArgumentParser)"),
                       ("libswift_Concurrency", "Swift concurrency, regex, synchronization"),
                       ("libswift", "Swift concurrency, regex, synchronization"),
                       ("libdispatch", "libdispatch, BlocksRuntime"), ("libBlocksRuntime", "libdispatch, BlocksRuntime"),
                       ("ArgumentParser", "ArgumentParser"), ("OpenCombine", "OpenCombine"),
                       ("libc.a", "glibc"), ("libm.a", "glibc"), ("libm-", "glibc"), ("libpthread", "glibc"),
                       ("libncurses", "ncurses"), ("libtinfo", "ncurses"),
                       ("libstdc++", "C++ and C start-up"), ("libgcc", "C++ and C start-up"), ("crt", "C++ and C start-up"),
                       ("<internal>", "merged strings and linker tables")):
        if key in path:
            return label
    if "/.build" in path:
        return "ours"
    return os.path.basename(path)


def input_objects():
    objects = []
    for line in open(MAP):
        match = re.match(r"\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ (\s*)(.*)$", line)
        if not match:
            continue
        address, size, indent, rest = int(match.group(1), 16), int(match.group(2), 16), len(match.group(3)), match.group(4)
        if 4 <= indent < 12 and size and ":(" in rest:
            objects.append((address, address + size, origin(rest.split(":(")[0])))
    return sorted(objects)


def sections():
    found = []
    listing = subprocess.run(["readelf", "-S", "-W", BINARY], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        match = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
        if match and int(match.group(2), 16):
            found.append((int(match.group(2), 16), int(match.group(2), 16) + int(match.group(4), 16), match.group(1)))
    return found


def resident_pages(pid):
    """Each mapping (low, high, permissions, name) with its resident page addresses."""
    result = []
    pagemap = open("/proc/%d/pagemap" % pid, "rb")
    for line in open("/proc/%d/maps" % pid):
        fields = line.split(maxsplit=5)
        low, high = (int(x, 16) for x in fields[0].split("-"))
        name = fields[5].strip() if len(fields) > 5 else ""
        try:
            pagemap.seek(low // PAGE * 8)
            data = pagemap.read((high - low) // PAGE * 8)
        except OSError:
            data = b""
        pages = [low + i * PAGE for i in range(len(data) // 8) if struct.unpack_from("<Q", data, i * 8)[0] >> 63]
        result.append((low, high, fields[1], name, pages))
    return result


def play(report):
    descriptor = os.open(BINARY, os.O_RDONLY)
    os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(descriptor)
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.environ.clear()
        os.environ.update(TERM="xterm-256color", LANG="C.UTF-8", PATH="/usr/bin:/bin", HOME="/tmp")
        os.execv(BINARY, [BINARY])
    seen = b""

    def drain(quiet):
        nonlocal seen
        while select.select([fd], [], [], quiet)[0]:
            try:
                seen = (seen + os.read(fd, 65536))[-4096:]
            except OSError:
                return

    deadline = time.time() + 10
    while b"quit" not in seen and time.time() < deadline:
        drain(0.1)
    os.write(fd, b"\x1b[<0;41;12M")
    for step in range(400):
        os.write(fd, b"\x1b[<32;%d;%dM" % (26 + (step * 3) % 30, 10 + step % 5))
        drain(0.004)
    os.write(fd, b"\x1b[<0;41;12m")
    drain(0.2)
    status = dict(line.split(":", 1) for line in open("/proc/%d/status" % pid))
    peak = int(status["VmHWM"].split()[0])
    if report:
        report(resident_pages(pid))
    os.write(fd, b"q")
    drain(0.5)
    os.waitpid(pid, 0)
    return peak


def describe(mappings):
    objects = input_objects()
    starts = [start for start, _, _ in objects]
    by_mapping = collections.Counter()
    by_section = collections.Counter()
    by_origin = collections.defaultdict(collections.Counter)
    section_list = sections()
    real = os.path.realpath(BINARY)
    for low, high, permissions, name, pages in mappings:
        inside = bool(name) and os.path.realpath(name) == real
        kind = ("the binary, " + permissions) if inside else (name or "[anonymous]")
        by_mapping[kind] += len(pages) * PAGE
        if not inside:
            continue
        for page in pages:
            for start, end, section in section_list:
                overlap = min(end, page + PAGE) - max(start, page)
                if overlap > 0:
                    by_section[section] += overlap
            index = max(0, bisect.bisect_right(starts, page) - 1)
            covered = 0
            while index < len(objects) and objects[index][0] < page + PAGE:
                start, end, where = objects[index]
                overlap = min(end, page + PAGE) - max(start, page)
                if overlap > 0:
                    by_origin[where][permissions] += overlap
                    covered += overlap
                index += 1
            by_origin["(alignment, headers)"][permissions] += max(0, PAGE - covered)
    kilobytes = lambda count: "%d KB" % round(count / 1024)
    print("| resident, by mapping | size |\n|---|---:|")
    for kind, count in by_mapping.most_common():
        if count:
            print("| %s | %s |" % (kind, kilobytes(count)))
    print("\n| the binary's resident pages, by where their bytes came from | code (r-x) | data (rw-) | read-only (r--) |")
    print("|---|---:|---:|---:|")
    for where, counts in sorted(by_origin.items(), key=lambda item: -sum(item[1].values())):
        print("| %s | %s | %s | %s |" % (where, kilobytes(counts["r-xp"]), kilobytes(counts["rw-p"]), kilobytes(counts["r--p"])))
    print("\n| the binary's resident bytes, by section | size |\n|---|---:|")
    for section, count in by_section.most_common(8):
        print("| %s | %s |" % (section, kilobytes(count)))


peaks = sorted(play(describe if run == 0 else None) for run in range(3))
print("\nVmHWM, three runs: %s; median %.2f MB" % (", ".join("%.2f" % (peak / 1024) for peak in peaks), peaks[1] / 1024))
