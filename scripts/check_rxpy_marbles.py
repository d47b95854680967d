#!/usr/bin/env python3
"""Checks `colourful-ball replay FILE --marbles --syntax rxpy` with RxPY's own marble parser.

Usage: check_rxpy_marbles.py PROGRAM RECORDING

Parses each lane with `reactivex.observable.marbles.parse` (its values through the lane's
lookup) and compares the events, frame by frame, with what the recording and the headless
trace (`--headless --json`) say happened: every intent in the intents lane; every position
change in the position lane (the ball's cell from the trace, its screen from the recording's
size and resizes: the position subject holds both); every change of the ball's and the screen's colour in theirs;
and, when the recording quits, a completion of every lane at the quit. Prints what differs
and exits 1, or prints a summary and exits 0.
"""
import json
import os
import subprocess
import sys
import tempfile

from reactivex.notification import OnCompleted, OnNext
from reactivex.observable.marbles import parse


def main(program, recording):
    lines = open(recording, encoding="utf-8").read().splitlines()
    header, events = lines[0], [json.loads(line) for line in lines[1:] if line.strip()]
    # A reader reads nothing after a quit.
    quit = next((number for number, event in enumerate(events) if event["event"] == "quit"), None)
    if quit is not None:
        events = events[: quit + 1]
    # Every intent at its own time, so the trace's times name the intents.
    for number, event in enumerate(events, start=1):
        event["t"] = number / 1000
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as file:
        file.write(header + "\n" + "".join(json.dumps(event) + "\n" for event in events))
        unique = file.name
    run = lambda *arguments: subprocess.run(
        [program, "replay", unique, *arguments], capture_output=True, text=True, check=True).stdout
    try:
        trace = [json.loads(line) for line in run("--headless", "--json").splitlines()]
        lanes = {lane["lane"]: lane for lane in map(json.loads, run("--marbles", "--syntax", "rxpy").splitlines())}
    finally:
        os.unlink(unique)

    frames = lanes["position"]["framesPerIntent"]
    intent_at = {round(number / 1000, 6): number for number in range(1, len(events) + 1)}
    intent_at[0] = 0
    quits = bool(events) and events[-1]["event"] == "quit"
    expected = {name: [] for name in ("intents", "position", "ballColour", "background")}
    for number, event in enumerate(events, start=1):
        expected["intents"].append((number * frames, {k: v for k, v in event.items() if k != "t"}))
    # The screen after each intent: the header's terminal, then each resize.
    screens = [[json.loads(header)["terminal"]["columns"], json.loads(header)["terminal"]["rows"]]]
    for event in events:
        screens.append(event["size"] if event["event"] == "resized" else screens[-1])
    cells = {intent_at[round(line["t"], 6)]: line["cell"] for line in trace}
    cell = None
    for number in range(0, len(events) + 1):
        moved = number in cells and cells[number] != cell
        cell = cells.get(number, cell)
        if moved or number == 0 or screens[number] != screens[number - 1]:
            expected["position"].append((number * frames, {"cell": cell, "screen": screens[number]}))
    last = {}
    for line in trace:
        number = intent_at[round(line["t"], 6)]
        for lane, key in (("ballColour", "ball"), ("background", "background")):
            if last.get(lane) != line[key]["name"]:
                expected[lane].append((number * frames, line[key]["name"]))
                last[lane] = line[key]["name"]
    if quits:
        for lane in expected:
            expected[lane].append((len(events) * frames, "|"))

    failures = []
    for name, wanted in expected.items():
        lane = lanes[name]
        parsed = []
        for time, notification in parse(lane["marbles"], timespan=1, lookup=lane["values"]):
            if isinstance(notification, OnNext):
                parsed.append((int(time), notification.value))
            elif isinstance(notification, OnCompleted):
                parsed.append((int(time), "|"))
            else:
                parsed.append((int(time), "error"))
        if parsed != wanted:
            first = next(i for i, (a, b) in enumerate(zip(parsed + [None] * len(wanted), wanted + [None] * len(parsed))) if a != b)
            failures.append("%s: event %d: parsed %r, the trace says %r" % (
                name, first, (parsed + [None])[min(first, len(parsed))], (wanted + [None])[min(first, len(wanted))]))
    if failures:
        print("\n".join(failures))
        return 1
    print("%d intents, %s: every lane as the trace says (%s)" % (
        len(events), "quits" if quits else "does not quit",
        ", ".join("%s %d events" % (name, len(wanted)) for name, wanted in expected.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
