#!/usr/bin/env python3
"""Checks colourful-ball in real terminal emulators under Xvfb, from screenshots' pixels.

Run through scripts/check-terminals, which installs what this needs and builds the program.
Usage: check_terminals.py BINARY [DIRECTORY]

For each terminal: the program starts (recording the session), the ball is dragged with a real
X pointer (xdotool), and screenshots are checked:
- the ball moved with the pointer: the disc is centred on the cell under the pointer;
- the disc is seamless: each pixel row and column of it is one unbroken run of exactly the
  ball's colour, as wide as the disc was at the start;
- nothing is left behind: every pixel above the status line is exactly the ball's colour or
  the screen's (colours from the recording, through the terminal's palette);
- after q the program exits 0, the terminal modes are as before, a typed line arrives, and
  neither the ball's nor the status line's colour is left on the screen.
Prints one line per check; exits 1 if any failed.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

BINARY = os.path.abspath(sys.argv[1])
OUT = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="check-terminals-")
os.makedirs(OUT, exist_ok=True)
FAILURES = []

START, GRAB_END, JUMP_END = (40, 11), (58, 15), (20, 6)


def check(condition, what):
    print(("  ok    " if condition else "  FAIL  ") + what, flush=True)
    if not condition:
        FAILURES.append(what)


def run(*arguments, **options):
    return subprocess.run(arguments, check=True, capture_output=True, text=True, **options).stdout


# MARK: - Colours


def hex_rgb(text):
    return tuple(int(text[i : i + 2], 16) for i in (1, 3, 5))


def xterm_256(index):
    """The RGB of an xterm-256 palette entry (16–255), as xterm defines it."""
    if index >= 232:
        level = 8 + 10 * (index - 232)
        return (level, level, level)
    index -= 16
    levels = [0, 95, 135, 175, 215, 255]
    return (levels[index // 36], levels[index // 6 % 6], levels[index % 6])


PALETTE = {}
for line in run(BINARY, "colour", "--palette", env={**os.environ, "NO_COLOR": "1"}).splitlines()[1:]:
    fields = line.split()
    PALETTE[fields[0]] = (hex_rgb(fields[1]), int(fields[-3]))


def shown(name, direct):
    """The RGB a flat colour shows as: exact with direct colour, else its xterm-256 entry."""
    rgb, index = PALETTE[name]
    return rgb if direct else xterm_256(index)


# MARK: - Screenshots


def window_geometry(window):
    """The window's place and size on the screen: x, y, width, height."""
    values = dict(line.split("=") for line in run("xdotool", "getwindowgeometry", "--shell", window).split())
    return tuple(int(values[key]) for key in ("X", "Y", "WIDTH", "HEIGHT"))


class Shot:
    """A screenshot of one window, as RGB pixels."""

    def __init__(self, window, path):
        x, y, w, h = window_geometry(window)
        run("import", "-window", "root", "-crop", "%dx%d+%d+%d" % (w, h, x, y), "+repage", path)
        data = subprocess.run(["convert", path, "ppm:-"], check=True, capture_output=True).stdout
        fields = data.split(maxsplit=4)
        self.width, self.height = int(fields[1]), int(fields[2])
        self.pixels = fields[4]
        self.path = path

    def __getitem__(self, point):
        x, y = point
        offset = 3 * (y * self.width + x)
        return tuple(self.pixels[offset : offset + 3])

    def points_of(self, rgb, bottom=None):
        return [
            (x, y) for y in range(bottom if bottom is not None else self.height) for x in range(self.width)
            if self[x, y] == rgb
        ]


def bounding_box(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


def wait_for(what, condition, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise TimeoutError("timed out waiting for " + what)


# MARK: - One terminal


def check_terminal(name, command, term, direct):
    print("%s (TERM=%s)" % (name, term), flush=True)
    work = tempfile.mkdtemp(prefix="check-%s-" % name)
    recording = os.path.join(work, "session.jsonl")
    wrapper = os.path.join(work, "wrapper.sh")
    with open(wrapper, "w") as file:
        file.write(
            "stty -g > stty-before\n"
            "TERM=%s LANG=C.UTF-8 '%s' --record session.jsonl; echo $? > status\n"
            "stty -g > stty-after\n"
            "printf 'type here: '; read -r line; printf '%%s' \"$line\" > typed; sleep 30\n" % (term, BINARY)
        )
    title = "check-terminals-%s-%d" % (name, os.getpid())
    log = open(os.path.join(work, "terminal.log"), "w")
    terminal = subprocess.Popen(command(title) + ["-e", "sh", "-c", "cd '%s' && sh wrapper.sh" % work],
                                stdout=log, stderr=log)
    try:
        window = wait_for("the window", lambda: subprocess.run(
            ["xdotool", "search", "--name", title], capture_output=True, text=True).stdout.split()[:1])[0]
        start_ball = shown("flatRed", direct)

        def shot(label):
            return Shot(window, os.path.join(OUT, "%s-%s.png" % (name, label)))

        first = wait_for("the ball", lambda: (lambda s: s if s.points_of(start_ball) else None)(shot("start")))
        # The cells' geometry from the status bar: 80 columns wide, one row tall, the last row.
        bar = bounding_box(first.points_of(shown("flatBlackDark", direct)))
        cell_width, cell_height = (bar[2] - bar[0]) / 80, bar[3] - bar[1]
        geometry = (bar[0], bar[1] - 23 * cell_height, cell_width, cell_height)
        check(cell_width == int(cell_width), "the status bar is 80 cells of %gx%d px" % (cell_width, cell_height))
        check_disc(first, start_ball, shown("flatMint", direct), START, geometry)
        origin_x, origin_y = geometry[:2]

        def settled(label):
            time.sleep(0.3)
            before = shot(label)
            time.sleep(0.3)
            after = shot(label)
            return after if after.pixels == before.pixels else None

        def pixel(cell):
            return str(round(origin_x + (cell[0] + 0.5) * cell_width)), str(round(origin_y + (cell[1] + 0.5) * cell_height))

        window_x, window_y = window_geometry(window)[:2]

        def move(cell):
            x, y = pixel(cell)
            run("xdotool", "mousemove", "--sync", str(window_x + int(x)), str(window_y + int(y)))

        # Open the keys' help over the ball and close it; then throw the ball far in one move
        # (what a fast mouse does), and drag it back one cell at a time to GRAB_END.
        move(START)
        run("xdotool", "key", "question")
        time.sleep(0.3)
        run("xdotool", "key", "x")
        time.sleep(0.3)
        run("xdotool", "mousedown", "1")
        move(JUMP_END)
        run("xdotool", "mouseup", "1")
        # Where it landed, its colours as the colour rules give them (the screen keeps its
        # colour in the black band).
        rules = json.loads(run(BINARY, "colour", "--cells", str(JUMP_END[0]), str(JUMP_END[1]), "--json"))
        jumped = wait_for("the screen to settle", lambda: settled("jumped"))
        check_disc(jumped, shown(rules["ball"]["name"], direct),
                   shown((rules["background"] or {"name": "flatMint"})["name"], direct), JUMP_END, geometry)
        run("xdotool", "mousedown", "1")
        column, row = JUMP_END
        while (column, row) != GRAB_END:
            column += (GRAB_END[0] > column) - (GRAB_END[0] < column)
            if column == GRAB_END[0] or abs(GRAB_END[0] - column) % 4 == 0:
                row += (GRAB_END[1] > row) - (GRAB_END[1] < row)
            move((column, row))
            time.sleep(0.02)
        run("xdotool", "mouseup", "1")

        dragged = wait_for("the screen to settle", lambda: settled("dragged"))
        run("xdotool", "key", "q")
        wait_for("the program to exit", lambda: os.path.exists(os.path.join(work, "status")))
        last = json.loads(run(BINARY, "replay", recording, "--headless", "--json").splitlines()[-1])
        ball = shown(last["ball"]["name"], direct)
        background = shown(last["background"]["name"], direct)
        check(tuple(last["cell"]) == GRAB_END, "the recording ends at %s, where the pointer let go" % (GRAB_END,))
        check_disc(dragged, ball, background, GRAB_END, geometry)

        # After q: the exit, the modes, a typed line, and a screen without the program's colours.
        status = open(os.path.join(work, "status")).read().strip()
        check(status == "0", "q quits with status 0 (got %s)" % status)
        modes = [open(os.path.join(work, f)).read() for f in ("stty-before", "stty-after")]
        check(modes[0] == modes[1], "the terminal modes after q are those from before")
        run("xdotool", "type", "--delay", "20", "usable")
        run("xdotool", "key", "Return")
        typed = os.path.join(work, "typed")
        wait_for("the typed line", lambda: os.path.exists(typed) and open(typed).read() == "usable", seconds=5)
        check(True, "a line typed after q arrives as typed")
        after = shot("after-quit")
        colours = {ball, background, shown("flatBlackDark", direct)}
        longest = max(runs_of(after, colours))
        check(longest < geometry[2] / 2, "after q the ball's, the screen's and the status line's colours are gone "
              "(longest run of them: %d px, text's antialiasing aside)" % longest)
    except (TimeoutError, subprocess.CalledProcessError) as error:
        said = open(os.path.join(work, "terminal.log")).read().strip()
        state = "running" if terminal.poll() is None else "exited with %s" % terminal.returncode
        check(False, "%s: %s (the terminal is %s%s)" % (name, error, state, "; it said: " + said if said else ""))
    finally:
        terminal.terminate()
        terminal.wait()
        shutil.rmtree(work, ignore_errors=True)


def check_disc(shot, ball, background, centre, geometry):
    """The disc in `shot`, cell by cell: centred on `centre`, 143 whole cells of the ball's
    colour (no seams between them), 26 half cells, and every other cell above the status
    line the screen's colour (nothing left behind).

    Cells are compared pixel for pixel. The only other pixels allowed are the antialiased
    edges of the half cells' `▄` glyphs, which a terminal may draw from the font (xterm does):
    a pixel row where the glyph's edge crosses the cell's middle, one along the cell's bottom
    where the font's glyph falls short of it (xterm at 11 pt), and a pixel column at a glyph's
    side, in its own cell or spilling into the cell beside it; each such pixel a blend of the
    ball's colour and the screen's."""
    origin_x, origin_y, cell_width, cell_height = geometry
    name = os.path.basename(shot.path)
    kinds, blended = {}, set()
    for row in range(23):
        for column in range(80):
            x0, y0 = round(origin_x + column * cell_width), round(origin_y + row * cell_height)
            x1, y1 = round(origin_x + (column + 1) * cell_width), round(origin_y + (row + 1) * cell_height)
            kind, blends = classify([[shot[x, y] for x in range(x0, x1)] for y in range(y0, y1)], ball, background)
            kinds[column, row] = kind
            if blends:
                blended.add((column, row))
    whole = [cell for cell, kind in kinds.items() if kind == "whole"]
    halves = {cell for cell, kind in kinds.items() if kind == "half"}
    bad = [cell for cell, kind in kinds.items() if kind is None]
    check(not bad, "%s: every cell is the ball's colour, the screen's, or a half cell of both (%d are not: %s)" % (
        name, len(bad), bad[:6]))
    check(len(whole) == 143 and len(halves) == 26,
          "the disc has 143 whole cells of %s and 26 half cells (got %d and %d)" % (
              "#%02X%02X%02X" % ball, len(whole), len(halves)))
    stray = [cell for cell in blended if cell not in halves
             and (cell[0] - 1, cell[1]) not in halves and (cell[0] + 1, cell[1]) not in halves]
    check(not stray, "blended pixels only at the half cells' glyph edges (%d cells have them, %d elsewhere: %s)" % (
        len(blended), len(stray), stray[:6]))
    if whole:
        columns = [cell[0] for cell in whole]
        rows = [cell[1] for cell in whole]
        middle = ((min(columns) + max(columns)) / 2, (min(rows) + max(rows)) / 2)
        check(middle == centre, "the disc is centred on cell %d,%d (at %g,%g)" % (*centre, *middle))


def classify(pixels, ball, background):
    """What a cell's pixels show: "whole" (the ball's colour), "outside" (the screen's),
    "half" (a lower or upper half in the ball's colour, the rest in the screen's), or None;
    and whether any pixel is a blend at a glyph's edge (see ``check_disc``)."""
    height, width = len(pixels), len(pixels[0])
    for kind, top, bottom in (("outside", background, background), ("whole", ball, ball),
                              ("half", background, ball), ("half", ball, background)):
        blend_rows, blend_columns = set(), set()
        for y, line in enumerate(pixels):
            wanted = top if y < height // 2 else bottom
            for x, rgb in enumerate(line):
                if rgb == wanted:
                    continue
                if not between(rgb, ball, background):
                    break
                # A glyph's edges: across the middle, or along the cell's top or bottom edge.
                if kind == "half" and (abs(y - height / 2) <= 1 or y in (0, height - 1)):
                    blend_rows.add(y)
                else:
                    blend_columns.add(x)
            else:
                continue
            break
        else:
            edge_only = blend_columns <= {0, width - 1} if kind != "half" else len(blend_columns) <= 2
            if len(blend_rows) <= 2 and edge_only:
                return kind, bool(blend_rows or blend_columns)
    return None, False


def between(rgb, first, second):
    """Whether `rgb` is a blend of two colours (each channel between theirs, give or take 2)."""
    return all(min(a, b) - 2 <= c <= max(a, b) + 2 for c, a, b in zip(rgb, first, second))


def runs_of(shot, colours):
    """The lengths of the horizontal runs of pixels in any of `colours` (0 when none)."""
    yield 0
    for y in range(shot.height):
        length = 0
        for x in range(shot.width):
            length = length + 1 if shot[x, y] in colours else 0
            if length:
                yield length


# MARK: - The terminals


def main():
    # Xvfb picks a free display and writes its number to the pipe.
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
                              pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        os.environ["DISPLAY"] = ":" + pipe.readline().strip()
    try:
        font = "DejaVu Sans Mono"
        for label, size in (("xterm-12pt", 12), ("xterm-11pt", 11), ("xterm-6pt", 6)):
            check_terminal(label, lambda title, size=size: ["xterm", "-title", title, "-fa", font, "-fs", str(size),
                                                           "-geometry", "80x24+0+0"], "xterm-direct", True)
        check_terminal("urxvt", lambda title: ["urxvt", "-title", title, "-fn", "xft:%s:size=12" % font,
                                               "-geometry", "80x24+0+0"], "rxvt-unicode-256color", False)
    finally:
        server.terminate()
    print("screenshots in " + OUT)
    if FAILURES:
        print("%d checks failed" % len(FAILURES))
        sys.exit(1)
    print("all checks passed")


main()
