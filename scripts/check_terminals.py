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

Then every terminal a user runs it in (xterm, urxvt, kitty, GNU screen as Debian ships it and
tmux, the last two inside xterm), at 80x24 and 160x48, colour-blind (screenshots compared
with each other, cell by cell): see check_session.
Prints one line per check; exits 1 if any failed. Screenshots are kept in DIRECTORY.
"""

import json
import re
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
# Only the checks whose label contains this (for a quick run by hand): CHECK_TERMINALS_ONLY=kitty
ONLY = os.environ.get("CHECK_TERMINALS_ONLY")

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
    if ONLY and ONLY not in name:
        return
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


# MARK: - Every terminal, at two sizes


def session_recording(columns, rows):
    """A recording for the player, made in `columns`×`rows - 2` (the player's change line and
    timeline take the two rows below it), with a drag, a resize to a smaller window, and a
    drag there: stepping back across the resize redraws the whole window."""
    area = (columns, rows - 2)
    small = (columns - 20, rows - 10)
    middle = (area[0] // 2, area[1] // 2)
    lines = [
        {"format": "colourful-ball-replay", "version": 1, "terminal": {"columns": area[0], "rows": area[1]},
         "colourRules": 1},
        {"t": 0.1, "event": "pressed", "cell": list(middle)},
        {"t": 0.2, "event": "dragged", "cell": [middle[0] + 5, middle[1] + 2]},
        {"t": 0.3, "event": "released", "cell": [middle[0] + 5, middle[1] + 2]},
        {"t": 0.4, "event": "resized", "size": list(small)},
        {"t": 0.5, "event": "pressed", "cell": [small[0] // 2, small[1] // 2]},
        {"t": 0.6, "event": "dragged", "cell": [small[0] // 2 - 6, small[1] // 2 - 1]},
        {"t": 0.7, "event": "released", "cell": [small[0] // 2 - 6, small[1] // 2 - 1]},
    ]
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


def check_session(name, command, columns, rows, environment, border, multiplexer=None):
    """One terminal at one size, as a user meets it: a drag (the recording ends where the
    pointer let go), the pointer moved with no button after a click (no drag recorded; over the
    streams panel the description follows it), the player stepping back across a size change
    (the window is then exactly as when that place is reached afresh: nothing of an earlier
    frame is left), and q and Esc each leaving the screen as it was before the program
    started (or, in GNU screen as Debian ships it, with no alternate screen, cleared of
    everything the program drew). Colour-blind: screenshots are compared with each other."""
    label = "%s-%dx%d" % (name, columns, rows)
    if ONLY and ONLY not in label:
        return
    print("%s (%s)" % (label, " ".join("%s=%s" % item for item in environment.items()) or "TERM as the terminal sets it"),
          flush=True)
    work = tempfile.mkdtemp(prefix="check-%s-" % label)
    with open(os.path.join(work, "replay.jsonl"), "w") as file:
        file.write(session_recording(columns, rows))
    assignments = " ".join("%s='%s'" % item for item in environment.items())
    program = "env %s LANG=C.UTF-8 '%s'" % (assignments, BINARY)
    # Each step waits for the checker's go-ahead (a file), so that screenshots are taken
    # between them; each run's exit status goes to a file.
    steps = [
        # doctor asks the terminal its questions: run under script(1), whose pseudo-terminal
        # passes them on and keeps what it printed (-e: with doctor's exit status).
        ("doctor", 'script -q -e -c "%s doctor --json" doctor.json; script -q -e -c "%s doctor" doctor.txt'
         % (program, program)),
        # What it says back at the shell after q (what it recorded) goes to a file: the window
        # itself must be left as it was found.
        ("play", "%s --record session.jsonl 2> said-play" % program),
        ("escape", program),
        ("replay", "%s replay replay.jsonl --paused" % program),
        ("replay-afresh", "%s replay replay.jsonl --paused" % program),
    ]
    with open(os.path.join(work, "wrapper.sh"), "w") as file:
        file.write("printf '\\033[H\\033[2J'; printf 'colourful-ball check: the shell before\\n$ '\n")
        for step, line in steps:
            file.write("touch ready-%s; while [ ! -e go-%s ]; do sleep 0.05; done\n" % (step, step))
            file.write("%s; echo $? > status-%s\n" % (line, step))
        file.write("touch ready-end; sleep 60\n")
    title = "check-terminals-%s-%d" % (label, os.getpid())
    log = open(os.path.join(work, "terminal.log"), "w")
    inner = ["sh", "-c", "cd '%s' && sh wrapper.sh" % work]
    if multiplexer == "screen":
        with open(os.path.join(work, "screenrc"), "w") as file:
            file.write("startup_message off\n")  # and /etc/screenrc as Debian ships it: altscreen off
        inner = ["env", "SCREENRC=%s" % os.path.join(work, "screenrc"), "screen"] + inner
    elif multiplexer == "tmux":
        with open(os.path.join(work, "tmux.conf"), "w") as file:
            file.write("set -g status off\nset -g mouse on\n")  # the mouse passed on to the program
        inner = ["tmux", "-L", title, "-f", os.path.join(work, "tmux.conf"), "new-session"] + inner
    terminal = subprocess.Popen(command(title, columns, rows) + inner, stdout=log, stderr=log)

    def exists(name):
        return os.path.exists(os.path.join(work, name))

    def status(step):
        wait_for("%s to end" % step, lambda: exists("status-" + step), seconds=10)
        return open(os.path.join(work, "status-" + step)).read().strip()

    def mapped():
        """The window, once it is on the screen at its place and size (a window just made can
        report a place off the screen for a moment)."""
        found = subprocess.run(["xdotool", "search", "--name", title], capture_output=True, text=True).stdout.split()
        if not found:
            return None
        x, y, width, height = window_geometry(found[0])
        return found[0] if x >= 0 and y >= 0 and width >= 4 * columns and height >= 8 * rows else None

    try:
        window = wait_for("the window", mapped)
        time.sleep(0.2)
        x, y, width, height = window_geometry(window)
        # Whole pixels a cell (kitty's window is a pixel wider and taller than its cells).
        cell_width, cell_height = (width - 2 * border) // columns, (height - 2 * border) // rows

        def shot(what):
            return Shot(window, os.path.join(OUT, "%s-%s.png" % (label, what)))

        def settled(what, unlike=None):
            """A screenshot once the window stops changing (and, given `unlike`, once it has
            changed from that one first)."""
            def once():
                before = shot(what)
                time.sleep(0.15)
                after = shot(what)
                changed = unlike is None or after.pixels != unlike.pixels
                return after if after.pixels == before.pixels and changed else None
            return wait_for("the screen to settle (%s)" % what, once)

        pointer = []

        def move(cell):
            point = (x + border + round((cell[0] + 0.5) * cell_width), y + border + round((cell[1] + 0.5) * cell_height))
            if pointer[-1:] == [point]:
                return  # --sync would wait for a move that never comes
            run("xdotool", "mousemove", "--sync", str(point[0]), str(point[1]))
            pointer.append(point)

        def cell(image, column, row):
            """The pixels of one text cell."""
            x0, y0 = border + round(column * cell_width), border + round(row * cell_height)
            x1, y1 = border + round((column + 1) * cell_width), border + round((row + 1) * cell_height)
            return [image[px, py] for py in range(y0, y1) for px in range(x0, x1)]

        def differing_cells(first, second, rows_checked):
            """The cells of `rows_checked` where the two screenshots differ in more than a
            quarter of the pixels (a different glyph or colour; not the terminal's antialiasing
            of a glyph drawn alone or in a run)."""
            found = []
            for row in rows_checked:
                top, bottom = border + round(row * cell_height), border + round((row + 1) * cell_height)
                span = slice(3 * first.width * top, 3 * first.width * bottom)
                if first.pixels[span] == second.pixels[span]:
                    continue  # the whole row is the same: the common case, checked at C speed
                for column in range(columns):
                    one, other = cell(first, column, row), cell(second, column, row)
                    if sum(a != b for a, b in zip(one, other)) * 4 > len(one):
                        found.append((column, row))
            return found

        def drawn_cells(image, rows_checked):
            """The cells of `rows_checked` where more than a quarter of the pixels are not the
            colour of the window's last cell (the terminal's background): what is drawn there
            (not a pixel or two of the cursor's block beside it)."""
            background = cell(image, columns - 1, rows - 1)[0]
            found = []
            for row in rows_checked:
                top, bottom = border + round(row * cell_height), border + round((row + 1) * cell_height)
                left, right = 3 * (image.width * top + border), 3 * (image.width * top + border + columns * cell_width)
                if all(image.pixels[left + 3 * image.width * y:right + 3 * image.width * y] == bytes(background) * (
                        columns * cell_width) for y in range(bottom - top)):
                    continue  # the whole row is the background
                for column in range(columns):
                    pixels = cell(image, column, row)
                    if sum(pixel != background for pixel in pixels) * 4 > len(pixels):
                        found.append((column, row))
            return found

        def key(*names):
            run("xdotool", "key", *names)

        def begin(step):
            wait_for("the shell before %s" % step, lambda: exists("ready-" + step))
            # The pointer in the window (it has the keyboard's focus, and its cursor the same
            # shape in every screenshot), over the top left cell.
            move((0, 0))
            found = settled("before-" + step)
            open(os.path.join(work, "go-" + step), "w").close()
            settled("started-" + step, unlike=found)  # the program's first frame
            return found

        def left_as_found(step, found):
            after = settled("after-" + step)
            if multiplexer == "screen":
                # No alternate screen: cleared (below the cursor's line at the top, nothing is
                # drawn) rather than restored.
                drawn = drawn_cells(after, range(1, rows))
                check(not drawn, "%s: after %s the window is cleared of everything the program drew (%d cells "
                      "drawn: %s)" % (label, step, len(drawn), drawn[:6]))
            else:
                changed = differing_cells(found, after, range(rows))
                check(not changed, "%s: after %s the window is as before (%d cells differ: %s)" % (
                    label, step, len(changed), changed[:6]))

        # doctor: the terminal answered, every glyph is one cell (the fonts have them all), and
        # kitty has synchronized output.
        begin("doctor")
        # script(1) keeps the questions too: the report is the line from `[{"check"` on.
        logged = open(os.path.join(work, "doctor.json"), errors="replace").read()
        start = logged.rfind('[{"check"')
        report = ({entry["check"]: entry for entry in json.loads(logged[start:].splitlines()[0])}
                  if start >= 0 else {})
        # Its exit status: 0 when every check is ok, 1 when one needs a look (as brew doctor's).
        all_ok = bool(report) and all(entry["ok"] for entry in report.values())
        check(status("doctor") == ("0" if all_ok else "1"),
              "%s: colourful-ball doctor exits %s (%s)" % (label, "0" if all_ok else "1",
                                                          "all ok" if all_ok else "something to look at"))
        shutil.copy(os.path.join(work, "doctor.txt"), os.path.join(OUT, "%s-doctor.txt" % label))
        check("device attributes" in report, "%s: doctor got the terminal's answers (device attributes: %s)" % (
            label, report.get("device attributes", {}).get("value")))
        check(re.fullmatch(r"all \d+ one cell wide", report.get("glyph widths", {}).get("value") or "") is not None,
              "%s: doctor measured every glyph one cell wide (%s)" % (label, report.get("glyph widths", {}).get("value")))
        if name == "kitty":
            check(report.get("synchronized output (2026)", {}).get("ok") is True,
                  "%s: doctor found synchronized output" % label)

        # Play: a drag, then a click and the pointer moved with no button, then the panel and
        # the pointer over two of its columns; q.
        found = begin("play")
        middle = (columns // 2, (rows - 1) // 2)
        move(middle)
        run("xdotool", "mousedown", "1")
        for step in range(1, 7):
            move((middle[0] + step, middle[1] + step // 3))
            time.sleep(0.03)
        run("xdotool", "mouseup", "1")
        grabbed_end = (middle[0] + 6, middle[1] + 2)
        settled("dragged")
        # A click (press and release where the ball is), then the bare pointer around.
        run("xdotool", "click", "1")
        before_hover = settled("before-hover")
        for step in range(1, 6):
            move((grabbed_end[0] - 3 * step, grabbed_end[1] - step // 2))
            time.sleep(0.03)
        after_hover = settled("after-hover")
        moved = differing_cells(before_hover, after_hover, range(rows - 1))
        check(not moved, "%s: the pointer moved with no button leaves the ball where it was (%d cells changed)" % (
            label, len(moved)))
        key("s")
        settled("panel")
        panel_top = rows - 11  # the panel's 10 rows above the status line
        move((20, panel_top + 2))
        first_column = settled("hover-column-2")
        move((30, panel_top + 2))
        second_column = settled("hover-column-7")
        check(bool(differing_cells(first_column, second_column, [rows - 2])),
              "%s: with the panel open, the description line follows the bare pointer" % label)
        key("s")
        closed = settled("panel-closed")
        # Looking never touches: with the panel closed again the window is as it was before it
        # opened (the ball, its colours, the status line).
        touched = differing_cells(after_hover, closed, range(rows))
        check(not touched, "%s: opening and closing the panel changed nothing (%d cells differ)" % (label, len(touched)))
        key("q")
        check(status("play") == "0", "%s: q quits with status 0" % label)
        left_as_found("q", found)
        events = [json.loads(line) for line in open(os.path.join(work, "session.jsonl")).read().splitlines()[1:]]
        said = open(os.path.join(work, "said-play"), errors="replace").read()
        intents = sum(1 for event in events if "event" in event and event["event"] not in (
            "subscribed", "unsubscribed", "panel"))
        check(said == "Recorded %d intents to session.jsonl; colourful-ball replay session.jsonl plays them back.\n"
              % intents, "%s: after q it says what it recorded, and how to play it back (%r)" % (label, said))
        kinds = [event["event"] for event in events]
        drags = [event for event in events if event["event"] == "dragged"]
        releases = [event for event in events if event["event"] == "released"]
        check(len(drags) >= 3 and bool(releases) and tuple(releases[0]["cell"]) == grabbed_end,
              "%s: the drag is recorded (%d steps) and ends at %s, where the pointer let go (%s)" % (
                  label, len(drags), grabbed_end, releases[0]["cell"] if releases else "no release"))
        after_drag = kinds[kinds.index("released") + 1:] if "released" in kinds else kinds
        check("dragged" not in after_drag,
              "%s: after the release, moving the pointer with no button recorded no drag (%s)" % (label, after_drag))
        check(after_drag.count("panel") == 2 and "resized" not in after_drag,
              "%s: the panel's opening and closing are recorded as observations, no resize (%s)" % (label, after_drag))

        # Esc quits too (screen holds a lone Esc while mouse reporting is on, until the next
        # key: Esc then j, as docs/troubleshooting.md says).
        found = begin("escape")
        if multiplexer == "screen":
            key("Escape", "j")
        else:
            key("Escape")
        check(status("escape") == "0", "%s: Esc quits with status 0" % label)
        left_as_found("Esc", found)

        # The player: at the end (after the resize), back across it; then a new player at
        # the same place, reached from the start without crossing it. The windows are the
        # same but for the change line, which says how each got there.
        found = begin("replay")
        move((1, 1))
        key("End")
        settled("replay-end")
        for _ in range(4):
            key("Left")
        back = settled("replay-back")
        key("q")
        check(status("replay") == "0", "%s: the player quits with status 0" % label)
        left_as_found("the player", found)
        begin("replay-afresh")
        for _ in range(3):
            key("Right")
        fresh = settled("replay-afresh")
        key("q")
        status("replay-afresh")
        change_row = rows - 3
        stale = differing_cells(back, fresh, [row for row in range(rows) if row != change_row])
        check(not stale, "%s: stepped back across the size change, the window is as when the place is reached "
              "afresh: nothing of an earlier frame is left (%d cells differ: %s)" % (label, len(stale), stale[:6]))
    except (TimeoutError, subprocess.CalledProcessError, OSError) as error:
        said = open(os.path.join(work, "terminal.log")).read().strip()
        state = "running" if terminal.poll() is None else "exited with %s" % terminal.returncode
        check(False, "%s: %s (the terminal is %s%s)" % (label, error, state, "; it said: " + said[-300:] if said else ""))
    finally:
        terminal.terminate()
        terminal.wait()
        if multiplexer == "tmux":
            subprocess.run(["tmux", "-L", title, "kill-server"], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


# MARK: - The terminals


def main():
    # Xvfb picks a free display and writes its number to the pipe.
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1920x1200x24", "-nolisten", "tcp", "-noreset"],
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

        def xterm(title, columns, rows):
            return ["xterm", "-title", title, "-fa", font, "-fs", "10", "-geometry", "%dx%d+0+0" % (columns, rows),
                    "-xrm", "XTerm*cursorBlink: false", "-e"]

        def urxvt(title, columns, rows):
            return ["urxvt", "+sb", "-title", title, "-fn", "xft:%s:size=10" % font, "-geometry",
                    "%dx%d+0+0" % (columns, rows), "-e"]

        def kitty(title, columns, rows):
            return ["kitty", "--title", title, "-o", "font_family=%s" % font, "-o", "font_size=10",
                    "-o", "initial_window_width=%dc" % columns, "-o", "initial_window_height=%dc" % rows,
                    "-o", "remember_window_size=no", "-o", "cursor_blink_interval=0", "-o", "window_padding_width=0",
                    "-o", "placement_strategy=top-left"]

        os.environ["LIBGL_ALWAYS_SOFTWARE"] = "1"  # kitty draws with OpenGL: Mesa's software renderer
        for columns, rows in ((80, 24), (160, 48)):
            check_session("xterm", xterm, columns, rows, {"TERM": "xterm-direct"}, border=2)
            check_session("urxvt", urxvt, columns, rows, {"TERM": "rxvt-unicode-256color"}, border=2)
            check_session("kitty", kitty, columns, rows, {"COLORTERM": "truecolor"}, border=0)
            check_session("screen-in-xterm", xterm, columns, rows, {}, border=2, multiplexer="screen")
            check_session("tmux-in-xterm", xterm, columns, rows, {}, border=2, multiplexer="tmux")
    finally:
        server.terminate()
    print("screenshots in " + OUT)
    if FAILURES:
        print("%d checks failed" % len(FAILURES))
        sys.exit(1)
    print("all checks passed")


main()
