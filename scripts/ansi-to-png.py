#!/usr/bin/env python3
"""Renders what a program wrote to a terminal (the raw bytes, as `tmux pipe-pane` logs
them) to a PNG, through the pyte terminal emulator.

Usage: ansi-to-png.py OUTPUT.bytes OUT.png [COLUMNS ROWS]
Needs Pillow and pyte (pip install pillow pyte) and DejaVu Sans Mono (fonts-dejavu-core).
Half and full blocks are drawn as rectangles so the ball shows without font seams.
"""
import re
import sys

from PIL import Image, ImageDraw, ImageFont

CELL_W, CELL_H = 10, 20
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
DEFAULT_FG, DEFAULT_BG = (220, 220, 220), (0, 0, 0)


def xterm256(n):
    base = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
            (255, 0, 255), (0, 255, 255), (255, 255, 255)]
    if n < 16:
        return base[n]
    if n < 232:
        levels = [0, 95, 135, 175, 215, 255]
        n -= 16
        return (levels[n // 36], levels[n // 6 % 6], levels[n % 6])
    v = 8 + 10 * (n - 232)
    return (v, v, v)


def colour(value, default):
    if value == "default":
        return default
    if isinstance(value, str) and re.fullmatch(r"[0-9a-fA-F]{6}", value):
        return tuple(int(value[k:k + 2], 16) for k in (0, 2, 4))
    names = ["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]
    if value in names:
        return xterm256(names.index(value))
    return default


def bce_screen(columns, rows):
    """A pyte screen with back-colour-erase, as xterm and tmux have: characters deleted at
    the end of a line, characters inserted, and every erased line (pyte erases only the
    cells a line has used) leave blanks in the current background, not the default one."""
    import pyte

    class Screen(pyte.Screen):
        def delete_characters(self, count=None):
            count = count or 1
            super().delete_characters(count)
            line = self.buffer[self.cursor.y]
            blank = self.cursor.attrs._replace(data=" ")
            for x in range(max(self.cursor.x, self.columns - count), self.columns):
                line[x] = blank

        def insert_characters(self, count=None):
            count = count or 1
            super().insert_characters(count)
            line = self.buffer[self.cursor.y]
            blank = self.cursor.attrs._replace(data=" ")
            for x in range(self.cursor.x, min(self.columns, self.cursor.x + count)):
                line[x] = blank

        def erase_in_display(self, how=0, *args, **kwargs):
            super().erase_in_display(how, *args, **kwargs)
            rows = {0: range(self.cursor.y + 1, self.lines), 1: range(self.cursor.y)}.get(how, range(self.lines))
            blank = self.cursor.attrs._replace(data=" ")
            for y in rows:
                line = self.buffer[y]
                for x in range(self.columns):
                    line[x] = blank

    return Screen(columns, rows)


def parse(data, columns, rows):
    import pyte
    screen = bce_screen(columns, rows)
    stream = pyte.ByteStream(screen)
    # xterm-direct writes ITU colours with colons (38:2::r:g:b); pyte reads semicolons.
    data = re.sub(rb"([34]8):2::?(\d+):(\d+):(\d+)", rb"\1;2;\2;\3;\4", data)
    stream.feed(data)
    grid = []
    for row in range(rows):
        line = []
        for column in range(columns):
            char = screen.buffer[row][column]
            fg, bg = colour(char.fg, DEFAULT_FG), colour(char.bg, DEFAULT_BG)
            if char.reverse:
                fg, bg = bg, fg
            line.append((char.data or " ", fg, bg, char.bold))
        grid.append(line)
    return grid


def render(grid, out):
    rows, columns = len(grid), len(grid[0])
    image = Image.new("RGB", (columns * CELL_W, rows * CELL_H))
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, 16)
    bold_font = ImageFont.truetype(BOLD, 16)
    for r, line in enumerate(grid):
        for c, (glyph, fg, bg, bold) in enumerate(line):
            x, y = c * CELL_W, r * CELL_H
            draw.rectangle([x, y, x + CELL_W - 1, y + CELL_H - 1], fill=bg)
            if glyph == "█":
                draw.rectangle([x, y, x + CELL_W - 1, y + CELL_H - 1], fill=fg)
            elif glyph == "▀":
                draw.rectangle([x, y, x + CELL_W - 1, y + CELL_H // 2 - 1], fill=fg)
            elif glyph == "▄":
                draw.rectangle([x, y + CELL_H // 2, x + CELL_W - 1, y + CELL_H - 1], fill=fg)
            elif glyph != " ":
                draw.text((x, y + 1), glyph, font=bold_font if bold else font, fill=fg)
    image.save(out)


if __name__ == "__main__":
    columns = int(sys.argv[3]) if len(sys.argv) > 3 else 80
    rows = int(sys.argv[4]) if len(sys.argv) > 4 else 24
    with open(sys.argv[1], "rb") as handle:
        render(parse(handle.read(), columns, rows), sys.argv[2])
