#!/usr/bin/env python3
"""Checks `colourful-ball replay FILE --marbles --syntax rxpy` with RxPY's own marble parser,
and its late lanes with RxPY's own subjects.

Usage: check_rxpy_marbles.py PROGRAM RECORDING

Parses each lane with `reactivex.observable.marbles.parse` (its values through the lane's
lookup) and compares the events, frame by frame, with what the recording and the headless
trace (`--headless --json`) say happened: every intent in the intents lane; every position
change in the position lane (the ball's cell from the trace, its screen from the recording's
size and resizes: the position subject holds both); every change of the ball's and the screen's colour in theirs;
and, when the recording quits, a completion of every lane at the quit.

Then the slot's lane (`slotted`): the chain built again with RxPY's own operators (a
BehaviorSubject of positions fed the position lane, one of the operators chosen fed the
recording's `operator` events, `map` to each operator on the positions, `switch_latest`,
`start_with`, `replay(1)`, connected at frame 0 and subscribed to then), on RxPY's virtual-time
TestScheduler, must give the lane's events, frame by frame. The operators are the program's own
list (`PROGRAM operators`, one JSON object a line), each built from its `rxpy` expression over
the names `rxpy_slotted` gives it: `subject` (the position), `mirror` (a BehaviorSubject flipped
by the recording's `mirror` events), `grabbed` (a BehaviorSubject turned true by its presses and
false by its releases), `sources` (two Subjects, the mouse's and the keys' new positions),
`ops`, `reactivex`, `scheduler`, and this file's helpers (`in_right_half`, `mirrored`,
`centre_of`, `DEBOUNCE`, and `throttle_latest`, a small reference model of the `throttle`
RxPY has only as `throttle_first`).

Then each late subscription (`"lane":"late …"`): RxPY's own subject of its kind (BehaviorSubject,
Subject, ReplaySubject(3); the relay a BehaviorSubject that is never completed) is fed the
position lane's events at their frames on RxPY's virtual-time TestScheduler, a subscriber
subscribes at the lane's `subscribedFrame` and is disposed of at its `unsubscribedFrame`, and
what it received must be what the lane's marbles say, frame by frame. Prints what differs and
exits 1, or prints a summary and exits 0.
"""
import json
import os
import subprocess
import sys
import tempfile

import reactivex
from reactivex import Observable
from reactivex import operators as ops
from reactivex.disposable import Disposable
from reactivex.notification import OnCompleted, OnNext
from reactivex.observable.marbles import parse
from reactivex.subject import BehaviorSubject, ReplaySubject, Subject
from reactivex.testing import TestScheduler

OBSERVATIONS = ("subscribed", "unsubscribed", "panel")


def main(program, recording):
    lines = open(recording, encoding="utf-8").read().splitlines()
    header, written = lines[0], [json.loads(line) for line in lines[1:] if line.strip()]
    # A reader reads nothing after a quit.
    quit = next((number for number, event in enumerate(written) if event["event"] == "quit"), None)
    if quit is not None:
        written = written[: quit + 1]
    # The intents' own times, in milliseconds (the slot's check runs on them), and the time the
    # recording ends at: its last line's, an observation's too (the session was there then, and
    # a timer of the chain due by then went off)...
    times = [0] + [round(event["t"] * 1000) for event in written if event["event"] not in OBSERVATIONS]
    end = round(written[-1]["t"] * 1000) if written else 0
    # ... and, for the rest, every intent at its own time, so the trace's times name the
    # intents; an observation (a late subscriber, the panel) at the time of the intent before it.
    number = 0
    for event in written:
        if event["event"] not in OBSERVATIONS:
            number += 1
        event["t"] = number / 1000
    events = [event for event in written if event["event"] not in OBSERVATIONS]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as file:
        file.write(header + "\n" + "".join(json.dumps(event) + "\n" for event in written))
        unique = file.name
    run = lambda *arguments: subprocess.run(
        [program, "replay", unique, *arguments], capture_output=True, text=True, check=True).stdout
    try:
        trace = [json.loads(line) for line in run("--headless", "--json").splitlines()]
        every = [json.loads(line) for line in run("--marbles", "--syntax", "rxpy").splitlines()]
        lanes = {lane["lane"]: lane for lane in every if not lane["lane"].startswith("late ")}
        late = [lane for lane in every if lane["lane"].startswith("late ")]
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
    # The slot's lane, against RxPY's own operators on the recording's own times (a timed
    # operator's timers run on them): the chain built again from the position lane and the
    # operators chosen.
    timed = {lane["lane"]: lane for lane in map(json.loads, subprocess.run(
        [program, "replay", recording, "--marbles", "--syntax", "rxpy"], capture_output=True, text=True,
        check=True).stdout.splitlines())}
    timed_frames = timed["position"]["framesPerIntent"]
    timed_position = [(int(time) // timed_frames, n) for time, n in
                      parse(timed["position"]["marbles"], timespan=1, lookup=timed["position"]["values"])]
    choices = [(number, event["name"]) for number, event in enumerate(events, start=1)
               if event["event"] == "operator"]
    flips = [number for number, event in enumerate(events, start=1) if event["event"] == "mirror"]
    # Whether the ball is grabbed, each time it changes: a press grabs it, a release lets it go.
    grabs, held = [], False
    for number, event in enumerate(events, start=1):
        if event["event"] in ("pressed", "released") and (event["event"] == "pressed") != held:
            held = not held
            grabs.append((number, held))
    # What made each intent's new position, if anything did: the mouse or the keys.
    made = {number: "mouse" if event["event"] in ("pressed", "dragged", "released") else "keys"
            for number, event in enumerate(events, start=1)
            if event["event"] in ("pressed", "dragged", "released", "arrow", "recentred")}
    grabs = (grabs, made)
    # The operators, as the program lists them: each one's RxPY expression by its name.
    expressions = {operator["name"]: operator["rxpy"] for operator in map(json.loads, subprocess.run(
        [program, "operators"], capture_output=True, text=True, check=True).stdout.splitlines())}
    unknown = sorted({name for _, name in choices} - set(expressions))
    if unknown:
        print("the recording chooses operators the program does not list: %s" % ", ".join(unknown))
        return 1
    slotted = rxpy_slotted(
        timed_position, choices, flips, grabs, len(events) if quits else None, times, expressions, end)
    slotted = [(column * timed_frames, value) for column, value in slotted]
    if quits:
        # The colours complete with the slot's lane: at the quit, unless what the slot's operator
        # holds keeps its completion for later (throttle's window; a recording's time ends at
        # the quit, so later never comes), as RxPY's operators say on this file's times (an
        # intent a millisecond).
        untimed = [(int(time) // frames, n) for time, n in
                   parse(lanes["position"]["marbles"], timespan=1, lookup=lanes["position"]["values"])]
        completes = any(value == "|" for _, value in
                        rxpy_slotted(untimed, choices, flips, grabs, len(events), list(range(len(events) + 1)),
                                     expressions))
        for lane in expected:
            if completes or lane in ("intents", "position"):
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
    # The late subscriptions, against RxPY's own subjects fed the position lane.
    position = [(int(time), n) for time, n in parse(lanes["position"]["marbles"], timespan=1, lookup=lanes["position"]["values"])]
    parsed = [(int(time), n.value if isinstance(n, OnNext) else "|") for time, n in
              parse(timed["slotted"]["marbles"], timespan=1, lookup=timed["slotted"]["values"])]
    if parsed != slotted:
        first = next(i for i, (a, b) in enumerate(zip(parsed + [None] * len(slotted), slotted + [None] * len(parsed))) if a != b)
        failures.append("slotted: event %d: parsed %r, RxPY's operators gave %r" % (
            first, (parsed + [None])[min(first, len(parsed))], (slotted + [None])[min(first, len(slotted))]))
    subscriptions = [l["subject"] for l in written if l["event"] == "subscribed"]
    if len(late) != len(subscriptions):
        failures.append("%d late lanes written for %d subscriptions" % (len(late), len(subscriptions)))
    for lane in late:
        received = rxpy_late(lane, position)
        parsed = [(int(time), n.value if isinstance(n, OnNext) else "|") for time, n in
                  parse(lane["marbles"], timespan=1, lookup=lane["values"])]
        if parsed != received:
            failures.append("%s subscribed at frame %d: parsed %r, RxPY's subject gave %r" % (
                lane["lane"], lane["subscribedFrame"], parsed, received))
    if failures:
        print("\n".join(failures))
        return 1
    print("%d intents, %s: every lane as the trace says (%s); %d late lanes as RxPY's subjects give them; "
          "slotted's %d events as RxPY's operators give them (%d operators chosen)" % (
        len(events), "quits" if quits else "does not quit",
        ", ".join("%s %d events" % (name, len(wanted)) for name, wanted in expected.items()), len(late),
        len(slotted), len(choices)))
    return 0


def rxpy_late(lane, position):
    """What a subscriber of the lane's kind receives, on RxPY's TestScheduler: its subject fed
    the position lane's events at their frames (the first, at frame 0, is a Behavior subject's
    initial value), subscribed at the lane's subscribedFrame, disposed of at unsubscribedFrame."""
    kind = lane["lane"]
    scheduler = TestScheduler()
    start = position[0][1].value
    if kind == "late Behavior" or kind == "late Relay":
        subject, feed = BehaviorSubject(start), position[1:]
    elif kind == "late Publish":
        subject, feed = Subject(), position[1:]
    else:
        subject, feed = ReplaySubject(3), position
    if kind == "late Relay":
        # A relay never completes.
        feed = [(time, n) for time, n in feed if isinstance(n, OnNext)]
    for time, notification in feed:
        scheduler.schedule_absolute(time, lambda _s, _st, n=notification: n.accept(subject))
    observer = scheduler.create_observer()
    subscription = []
    scheduler.schedule_absolute(lane["subscribedFrame"], lambda _s, _st: subscription.append(subject.subscribe(observer)))
    if lane["unsubscribedFrame"] is not None:
        scheduler.schedule_absolute(lane["unsubscribedFrame"], lambda _s, _st: subscription[0].dispose())
    scheduler.advance_to(10 ** 9)
    return [(int(message.time), message.value.value if isinstance(message.value, OnNext) else "|")
            for message in observer.messages]


def centre_of(position):
    """The middle of a position's screen, as docs/operators.md says `startWith` puts first: column
    columns / 2, row (rows - 1) / 2 (the area above the status line)."""
    columns, rows = position["screen"]
    return {"cell": [columns // 2, (rows - 1) // 2], "screen": position["screen"]}


def in_right_half(position):
    """The filter's predicate, as docs/operators.md says it: the ball's column from the middle one on."""
    return position["cell"][0] >= position["screen"][0] // 2


def mirrored(position):
    """The map's function, as docs/operators.md says it: column c becomes columns - 1 - c."""
    columns = position["screen"][0]
    return {"cell": [columns - 1 - position["cell"][0], position["cell"][1]], "screen": position["screen"]}


# A tick for every intent, in the order of the recording: intent k at t milliseconds is tick
# 2 (t M + k) + 1, so intents in one millisecond keep their order, and debounce's 300 ms are
# 2 × 300 M - 1 ticks: a timer that comes due at the time of an intent runs before it, as the
# session's clock runs what is due before it takes an intent; the lanes draw it in the column of
# the intent before (even ticks are timers, odd ones what an intent did at once).
M = 10 ** 4  # more than the intents of any recording checked (RxPY's clock is a datetime: ticks stay small)
DEBOUNCE = 2 * 300 * M - 1


THROTTLE = 300  # throttle's window, in milliseconds


def ms_of(tick_):
    """The millisecond a tick is in: an intent's (odd) tick and a timer's (even) one alike."""
    return (int(tick_) // 2) // M


def throttle_latest(scheduler):
    """A small reference model of `throttle(for: 300 ms, latest: true)`, as RxSwift documents
    its `throttle(_:latest:scheduler:)`: a value that comes when no window is open goes on at
    once and opens a window of THROTTLE ms; one that comes in a window is held, the latest
    replacing the one before, and goes on when the window ends (which opens the next); a
    completion waits for what is held. RxPY has only `throttle_first`, which drops what comes in
    a window, so the model is written here from RxSwift's `ThrottleSink`, in milliseconds (a
    window's end is a timer's tick, before any intent of that millisecond). The value a
    BehaviorSubject hands it as it subscribes is its first: it goes on at once (Combine's
    throttle drops it)."""
    def operator(source):
        def subscribe(observer, _scheduler=None):
            memory = {"window": None, "held": None, "completed": False, "disposed": False}

            def window_ends(_s, _st):
                if memory["disposed"]:
                    return
                value, memory["held"] = memory["held"], None
                memory["window"] += THROTTLE
                observer.on_next(value)
                if memory["completed"]:
                    observer.on_completed()

            def on_next(value):
                if memory["disposed"]:
                    return
                if memory["held"] is not None:
                    memory["held"] = value
                    return
                now = ms_of(scheduler.clock)
                if memory["window"] is None or now >= memory["window"] + THROTTLE:
                    memory["window"] = now
                    observer.on_next(value)
                else:
                    memory["held"] = value
                    scheduler.schedule_absolute(float(2 * (memory["window"] + THROTTLE) * M), window_ends)

            def on_completed():
                if memory["held"] is not None:
                    memory["completed"] = True
                else:
                    observer.on_completed()

            subscription = source.subscribe(on_next, observer.on_error, on_completed)

            def dispose():
                memory["disposed"] = True
                subscription.dispose()
            return Disposable(dispose)
        return Observable(subscribe)
    return operator


def tick(times, k):
    return 2 * (times[k] * M + k) + 1


def column_of(tick_, times):
    """The column a value emitted at `tick_` is drawn in."""
    if tick_ < 1:
        return 0
    if int(tick_) % 2 == 1:
        return ((int(tick_) - 1) // 2) % M
    due = (int(tick_) // 2) // M
    return max(k for k in range(len(times)) if k == 0 or times[k] < due)


def rxpy_slotted(position, choices, flips, grabs, quit_column, times, expressions, end=None):
    """What the chain's slot passes on, built again with RxPY's own operators on its virtual-time
    TestScheduler, each intent at its tick (`tick`): the position a BehaviorSubject fed the
    position lane's events, the mirror a BehaviorSubject (off at first) flipped in the columns
    `flips` and completed at the quit after the position, whether the ball is grabbed a
    BehaviorSubject (false at first) fed `grabs[0]` (column, grabbed) after the column's position
    and completed with the mirror, `mouse` and `keys` Subjects each fed the position lane's values
    in the columns `grabs[1]` says it made (and completed after grabbed), the operator chosen a
    BehaviorSubject
    (nothing in the slot at first) fed each choice and completed at the quit, and
    `slot.pipe(map(operator on position and mirror),
    switch_latest(), start_with(start), replay(1))`, each operator its `expressions` entry (RxPY,
    by the operator's name, as the program lists them) built over these, connected at tick 0, where the lane's
    subscriber subscribes and is handed the latest. Gives (column, value or "|") for each event."""
    scheduler = TestScheduler()
    start = position[0][1].value
    subject = BehaviorSubject(start)
    slot = BehaviorSubject("none")
    mirror = BehaviorSubject(False)
    grabbed = BehaviorSubject(False)
    grabs, made = grabs
    sources = {"mouse": Subject(), "keys": Subject()}
    inputs = [(column, 0, lambda _s, _st, n=notification: n.accept(subject)) for column, notification in position[1:]]
    inputs += [(column, 1, lambda _s, _st, name=name: slot.on_next(name)) for column, name in choices]
    inputs += [(column, 1, lambda _s, _st, on=(k % 2 == 0): mirror.on_next(on)) for k, column in enumerate(flips)]
    inputs += [(column, 1, lambda _s, _st, on=on: grabbed.on_next(on)) for column, on in grabs]
    inputs += [(column, 0.25, lambda _s, _st, n=notification, source=sources[made[column]]: n.accept(source))
               for column, notification in position[1:] if isinstance(notification, OnNext) and column in made]
    if quit_column is not None:
        inputs.append((quit_column, 1.5, lambda _s, _st: mirror.on_completed()))
        inputs.append((quit_column, 1.75, lambda _s, _st: grabbed.on_completed()))
        inputs.append((quit_column, 1.8, lambda _s, _st: sources["mouse"].on_completed()))
        inputs.append((quit_column, 1.85, lambda _s, _st: sources["keys"].on_completed()))
        inputs.append((quit_column, 2, lambda _s, _st: slot.on_completed()))
    for column, _, action in sorted(inputs, key=lambda entry: entry[:2]):
        scheduler.schedule_absolute(float(tick(times, column)), action)
    names = {"subject": subject, "mirror": mirror, "grabbed": grabbed, "sources": sources, "ops": ops,
             "reactivex": reactivex, "scheduler": scheduler, "in_right_half": in_right_half, "mirrored": mirrored,
             "centre_of": centre_of, "throttle_latest": throttle_latest, "DEBOUNCE": DEBOUNCE}
    operators = {name: lambda expression=expression: eval(expression, names) for name, expression in expressions.items()}
    shared = slot.pipe(ops.map(lambda name: operators[name]()), ops.switch_latest(), ops.start_with(start),
                       ops.replay(buffer_size=1))
    observer = scheduler.create_observer()
    # Connected at tick 0; the lane's subscriber half a tick later, once what the connection
    # made has settled (RxPY's start_with hands its value on through the current thread's
    # trampoline), before anything else happens: it is handed the latest, as of the start.
    scheduler.schedule_absolute(0.0, lambda _s, _st: shared.connect(scheduler))
    scheduler.schedule_absolute(0.5, lambda _s, _st: shared.subscribe(observer))
    assert len(times) < M, "the check takes recordings of fewer than %d intents" % M
    # A recording's time ends with its last line (`end`, in milliseconds; else its last
    # intent): a timer due after it never runs.
    last = tick(times, len(times) - 1)
    scheduler.advance_to(float(last if end is None else max(last, 2 * (end * M + len(times) - 1) + 1)))
    events = [(column_of(message.time, times), message.value.value if isinstance(message.value, OnNext) else "|")
              for message in observer.messages]
    return events


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
