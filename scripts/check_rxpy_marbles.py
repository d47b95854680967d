#!/usr/bin/env python3
"""Checks `colourful-ball replay FILE --marbles --syntax rxpy` with RxPY's own marble parser,
and its late lanes with RxPY's own subjects.

Usage: check_rxpy_marbles.py PROGRAM RECORDING [--replace NAME=EXPRESSION]...

Parses each lane with `reactivex.observable.marbles.parse` (its values through the lane's
lookup) and compares the events, frame by frame, with what the recording and the headless
trace (`--headless --json`) say happened: every intent in the intents lane; every position
change in the position lane (the ball's cell from the trace, its screen from the recording's
size and resizes: the position subject holds both); every change of the ball's and the screen's colour in theirs;
and, when the recording quits, a completion of every lane at the quit.

Then the slot's lane as a marble test (`frame_check`): the recording exported again with
`--frame 1ms`, a frame a millisecond of the session's clock, and its input lanes (`position`,
`mirror`, `grabbed`, `mouse`, `keys`, and the operators chosen on `intents`) parsed by RxPY's
own parser, fed at their frames to RxPY subjects on RxPY's virtual-time TestScheduler (all
scheduled before anything subscribes, so at one frame an input goes before a timer, as in
RxSwift's virtual time), through the chain built again with RxPY's own operators
(`slot.pipe(map(operator), switch_latest(), start_with(start), replay(1))`), must give the
exported `slotted` lane, event for event and frame for frame. The operators are the program's
own list (`PROGRAM operators`, one JSON object a line), each built from its `rxpy` expression
over the names `frame_check` gives it: `subject` (the position), `mirror`, `grabbed`,
`sources` (the mouse's and the keys' Subjects), `ops`, `reactivex`, `scheduler`, and this
file's helpers (`in_right_half`, `mirrored`, `centre_of`, `throttle_latest`, a port of
RxSwift's `ThrottleSink`: RxPY has only `throttle_first`, and `retry_now`, a port of RxSwift's
`retry`, which resubscribes in the call that brought the error where RxPY's schedules it after
the frame's other inputs), and `INTERVAL`, the stage's own
interval in frames of 1 ms: a timed operator's (`debounce`, `throttle`: those the list gives
`intervals`) is the `interval` its `operator` or `stage` event gives, 300 where none is given. `--replace NAME=EXPRESSION`
puts another expression in for an operator (a test of this check gives a wrong one and sees
it fail). The recordings it takes keep their intents and observations 8 ms apart or more: intents in one frame
are a group on each lane, and the lanes do not say which intent made which value; and RxPY's
syntax has no room for a lane's events 1 ms apart (a value right after a value is read as one
with it, so the second is a group, `(b)`, three frames wide).

The slot's lane is `switch_latest`'s output and nothing else: where a pipe's last stage completes
on its own (a recovery, `catch` or `catchAndReturn`, passed its fallback on and completed),
`switch_latest` lives on for the next pipe, so the exported `slotted` must not end there (Rx
draws an inner's completion on the inner); that `|` is the last stage's lane's.

Each stage lane (`"lane":"stage1"`, `"stage2"`: one subscription of a stage of a pipe of several,
its last included; a pipe built subscribes its stages anew, `retry` the stages before it) is
checked the same way: RxPY's pipe of the stages up to it, tapped inside the pipe the chain runs
(each subscription noted, as the program taps its own: where it was subscribed, what it passed on,
`|`, `#`, and where it was disposed of without an event of its own), must give the exported lanes
at `--frame 1ms`, subscription for subscription, event for event and frame for frame; and the
lanes exported at a frame an intent must read back, by RxPY's parser, as the same events.

A recorded tour's lessons (`"lessons"` on the intents lane) must be the recording's lesson
markers, each in the frame of the last intent before it (at a frame an intent) and in the frame
of its own time (at `--frame 1ms`), named `Lesson 4 · Publish`.
Then each late subscription (`"lane":"late …"`): RxPY's own subject of its kind (BehaviorSubject,
Subject, ReplaySubject(3); the relay a BehaviorSubject that is never completed) is fed the
position lane's events at their frames on RxPY's virtual-time TestScheduler, a subscriber
subscribes at the lane's `subscribedFrame` and is disposed of at its `unsubscribedFrame`, and
what it received must be what the lane's marbles say, frame by frame; and again at `--frame 1ms`
on the recording's own times, where each subscription is in the frame of its own time (Completion's
after `e`, a while after the last intent: a Behavior or Publish subscriber the completion alone, a
Replay its buffer then the completion, the relay its value and no end).

Then each Publish copy of the chain `learn`'s `o` bound the screen through (`"lane":"copy.subject"`,
`"copy.ball"`, `"copy.screen"`, three a copy): RxPY's own Subject fed the position lane's events
from the lane's `subscribedFrame` on, and after it RxPY's own `map` to the ball's colour (as
`colourful-ball colour X Y --cells` gives it), `distinct_until_changed`, `scan` from white with
the screen's rule (the complement, as `colourful-ball colour --complement` gives it, or the
screen's colour where the complement is the ball's), `distinct_until_changed` again; each lane
subscribed at `subscribedFrame`, disposed of at `unsubscribedFrame`, must give what its marbles
say. Prints what differs and exits 1, or prints a summary and exits 0.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import reactivex
from reactivex import Observable
from reactivex import operators as ops
from reactivex.disposable import Disposable, SerialDisposable
from reactivex.notification import OnCompleted, OnNext
from reactivex.observable.marbles import parse
from reactivex.subject import BehaviorSubject, ReplaySubject, Subject
from reactivex.testing import TestScheduler

# What was looked at (the panel, late subscribers, a tour's lesson markers, `o` and `u`): no intent.
OBSERVATIONS = ("subscribed", "unsubscribed", "panel", "lesson", "screen", "mapCopies")

# The events that end the session: the subjects complete.
ENDS = ("quit", "completed")


def main(program, recording, replacements=None):
    lines = open(recording, encoding="utf-8").read().splitlines()
    header, written = lines[0], [json.loads(line) for line in lines[1:] if line.strip()]
    # A reader reads no intent after a quit (or learn's `completed`, which ends the session as
    # a quit does); what was looked at after it is read (Completion's late subscribers).
    quit = next((number for number, event in enumerate(written) if event["event"] in ENDS), None)
    if quit is not None:
        written = written[: quit + 1] + [event for event in written[quit + 1:] if event["event"] in OBSERVATIONS]
    # The time the recording ends at, in milliseconds: its last line's, an observation's too (the
    # session was there then, and a timer of the chain due before then went off)...
    end = round(written[-1]["t"] * 1000) if written else 0
    # ... and, for the rest, every intent at its own time, 10 ms apart (room on frames of 1 ms
    # for the widest group RxPY writes on a main lane), so the trace's times name the intents;
    # an observation (a late subscriber, the panel) at the time of the intent before it.
    number = 0
    for event in written:
        if event["event"] not in OBSERVATIONS:
            number += 1
        event["t"] = number / 100
    events = [event for event in written if event["event"] not in OBSERVATIONS]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as file:
        file.write(header + "\n" + "".join(json.dumps(event) + "\n" for event in written))
        unique = file.name
    run = lambda *arguments: subprocess.run(
        [program, "replay", unique, *arguments], capture_output=True, text=True, check=True).stdout
    try:
        trace = [json.loads(line) for line in run("--headless", "--json").splitlines()]
        try:
            every = [json.loads(line) for line in run("--marbles", "--syntax", "rxpy").splitlines()]
        except subprocess.CalledProcessError as refusal:
            # More values in one intent than a frame an intent has room for (flatMap's inner
            # subscriptions, four and more): the program refuses the export in one sentence, exit
            # 65. Nothing to check against; said, and told apart from a pass by its status.
            if refusal.returncode != 65:
                raise
            print("refused, as the program says: %s" % refusal.stderr.strip())
            return 3
        lanes = {lane["lane"]: lane for lane in every if not lane["lane"].startswith(("late ", "copy."))}
        copies = [lane for lane in every if lane["lane"].startswith("copy.")]
        late = [lane for lane in every if lane["lane"].startswith("late ")]
        # The operators, as the program lists them: each one's RxPY expression by its name.
        listed = [json.loads(line) for line in subprocess.run(
            [program, "operators"], capture_output=True, text=True, check=True).stdout.splitlines()]
        expressions = {operator["name"]: operator["rxpy"] for operator in listed}
        timed.clear()
        timed.update({operator["name"]: operator["intervals"][0] for operator in listed if "intervals" in operator})
        former.clear()
        former.update({old: operator["name"] for operator in listed for old in operator.get("formerNames", [])})
        unknown = sorted(set(replacements or {}) - set(expressions))
        if unknown:
            print("--replace names operators the program does not list: %s" % ", ".join(unknown))
            return 2
        expressions.update(replacements or {})
        # The slot's lane as a marble test, on the recording's own times; and on these (an
        # intent each 10 ms), whether it completes at the quit: the colours complete with it
        # (throttle's window keeps its completion for later, and a recording's time ends at the
        # quit).
        failures, slotted, chosen = frame_check(program, recording, end, expressions)
        unique_failures, unique_slotted, _ = frame_check(
            program, unique, round(written[-1]["t"] * 1000) if written else 0, expressions)
        failures += ["with an intent each 10 ms: " + failure for failure in unique_failures]
        # Each stage's lanes at a frame an intent (of the recording with an intent each 10 ms, the
        # one frame_check saw last), read by RxPY's parser, one subscription after another: the
        # same events as at --frame 1ms.
        read = {}
        for lane in every:
            if lane["lane"].startswith("stage"):
                read.setdefault(lane["lane"], []).extend(
                    mark(n) for _, n in parse(lane["marbles"], timespan=1, lookup=lane["values"]))
        for name in sorted(set(read) | set(stage_values)):
            if read.get(name, []) != stage_values.get(name, []):
                failures.append("%s at a frame an intent: parsed %r, at --frame 1ms %r" % (
                    name, read.get(name, []), stage_values.get(name, [])))
    finally:
        os.unlink(unique)

    frames = lanes["position"]["framesPerIntent"]
    intent_at = {round(number / 100, 6): number for number in range(1, len(events) + 1)}
    intent_at[0] = 0
    quits = bool(events) and events[-1]["event"] in ENDS
    expected = {name: [] for name in ("intents", "position", "ballColour", "background")}
    for number, event in enumerate(events, start=1):
        intent = {k: v for k, v in event.items() if k != "t"}
        if intent["event"] in ("operator", "stage"):
            intent["name"] = pipe_name(intent["name"])
        # A timed stage's interval, as the program writes every one it reads (a file before
        # version 7 gives none: the usual).
        if intent["event"] in ("operator", "stage") and "interval" not in intent:
            usual = [timed[stage] for stage in intent["name"].split(",") if stage in timed]
            if usual:
                intent["interval"] = usual[0]
        expected["intents"].append((number * frames, intent))
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
    # The colours' lanes end where the trace says the slot's operator threw (`#`): nothing after.
    failed = set()
    for line in trace:
        number = intent_at[round(line["t"], 6)]
        for lane, key in (("ballColour", "ball"), ("background", "background")):
            if lane in failed:
                continue
            if last.get(lane) != line[key]["name"]:
                expected[lane].append((number * frames, line[key]["name"]))
                last[lane] = line[key]["name"]
            if "error" in line:
                expected[lane].append((number * frames, "error"))
                failed.add(lane)
    if quits:
        completes = bool(switch_completed)
        for lane in expected:
            if lane not in failed and (completes or lane in ("intents", "position")):
                expected[lane].append((len(events) * frames, "|"))

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
    # A recorded tour's lessons, on the intents lane: each where it began, in the frame of the
    # last intent before it (the frame of the start where none was).
    wanted_lessons, before = [], 0
    for event in written:
        if event["event"] == "lesson":
            wanted_lessons.append((before * frames, event["number"], event["title"]))
        elif event["event"] not in OBSERVATIONS:
            before += 1
    failures += lesson_failures(lanes["intents"], wanted_lessons, "at a frame an intent")
    # The late subscriptions, against RxPY's own subjects fed the position lane.
    position = [(int(time), n) for time, n in parse(lanes["position"]["marbles"], timespan=1, lookup=lanes["position"]["values"])]
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
    # learn's Publish copies, against RxPY's own Subject and operators fed the position lane.
    bound = [l for l in written if l["event"] == "screen" and l["through"] == "publish"]
    if len(copies) != 3 * len(bound):
        failures.append("%d copy lanes written for %d Publish copies (o)" % (len(copies), len(bound)))
    for first in range(0, len(copies) - 2, 3):
        group = copies[first:first + 3]
        if [lane["lane"] for lane in group] != ["copy.subject", "copy.ball", "copy.screen"]:
            failures.append("a copy's lanes out of order: %r" % [lane["lane"] for lane in group])
            continue
        for lane, received in zip(group, rxpy_copy(program, group[0], position)):
            parsed = [(int(time), mark(n)) for time, n in parse(lane["marbles"], timespan=1, lookup=lane["values"])]
            if parsed != received:
                failures.append("%s subscribed at frame %d: parsed %r, RxPY's Subject and operators gave %r" % (
                    lane["lane"], lane["subscribedFrame"], parsed, received))
    if failures:
        print("\n".join(failures))
        return 1
    print("%d intents, %s: every lane as the trace says (%s); %d late lanes as RxPY's subjects give them"
          " (%d at --frame 1ms, each subscription at its own time); "
          "%d Publish copies' lanes as RxPY's Subject, map, distinct_until_changed and scan give them; "
          "slotted's %d events at --frame 1ms as RxPY's operators give them from the exported inputs "
          "(operators chosen: %s)%s%s%s" % (
        len(events), "quits" if quits else "does not quit",
        ", ".join("%s %d events" % (name, len(wanted)) for name, wanted in expected.items()), len(late),
        late_counts[0],
        len(copies) // 3,
        len(slotted), ", ".join(chosen) or "none",
        "".join("; %s's %d events as RxPY's pipe of the stages up to it gives them" % (name, count)
                for name, count in sorted(stage_counts.items())),
        "; %d inner lanes as RxPY's flat_map and flat_map_latest subscribe to the position" % inner_counts[0]
        if inner_counts[0] else "",
        "; %d lesson%s listed where %s began" % (len(wanted_lessons), "" if len(wanted_lessons) == 1 else "s", "it" if len(wanted_lessons) == 1 else "they") if wanted_lessons else ""))
    return 0


def lesson_failures(intents, wanted, framing):
    """What differs between the lessons the intents lane lists (`"lessons"`, written only for a
    recorded tour) and `wanted` (frame, number, title), each named `Lesson 4 · Publish`."""
    listed = intents.get("lessons", [])
    failures = []
    given = [(lesson["frame"], lesson["number"], lesson["title"]) for lesson in listed]
    if given != wanted:
        failures.append("lessons %s: the intents lane lists %r, the recording says %r" % (framing, given, wanted))
    for lesson in listed:
        if lesson["label"] != "Lesson %d \u00b7 %s" % (lesson["number"], lesson["title"]):
            failures.append("lessons %s: the label %r names another lesson" % (framing, lesson["label"]))
    return failures


def mark(notification):
    """A notification as the checks compare it: its value, `|` for a completion, `#` for an error."""
    if isinstance(notification, OnNext):
        return notification.value
    return "|" if isinstance(notification, OnCompleted) else "#"


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


# The program's colours, asked once each: a cell's ball colour (name, hex), a colour's complement.
ball_colours = {}
complements = {}


def ball_colour(program, position):
    """The ball's colour at a position's cell, as `colourful-ball colour X Y --cells` gives it."""
    cell = tuple(position["cell"])
    if cell not in ball_colours:
        answer = json.loads(subprocess.run(
            [program, "colour", str(cell[0]), str(cell[1]), "--cells", "--json"],
            capture_output=True, text=True, check=True).stdout)
        ball_colours[cell] = (answer["ball"]["name"], answer["ball"]["hex"])
    return ball_colours[cell]


def screen_colour(program, screen, ball):
    """The screen's colour after `ball` (name, hex) on `screen` (a name): the ball's complement, as
    `colourful-ball colour --complement` gives it, or the screen's own where that is the ball's."""
    name, hex_code = ball
    if name not in complements:
        answer = json.loads(subprocess.run(
            [program, "colour", "--complement", hex_code, "--json"], capture_output=True, text=True,
            check=True).stdout)
        complements[name] = answer["flat"]["name"]
    return screen if complements[name] == name else complements[name]


def rxpy_copy(program, lane, position):
    """What the lanes of a Publish copy subscribed at the lane's subscribedFrame receive, on RxPY's
    TestScheduler: a Subject fed the position lane's new positions at their frames (the first, at
    frame 0, is the Behavior subject's own value, which a Publish subject never has), then
    `map` to the ball's colour and `distinct_until_changed` (its ball), then `scan` from white with
    the screen's rule and `distinct_until_changed` (its screen); each of the three subscribed on its
    own, as the program's lanes are, and disposed of at unsubscribedFrame. The copy is sent
    positions only (never a completion)."""
    scheduler = TestScheduler()
    subject = Subject()
    for time, notification in position[1:]:
        if isinstance(notification, OnNext):
            scheduler.schedule_absolute(time, lambda _s, _st, n=notification: n.accept(subject))
    ball = subject.pipe(ops.map(lambda p: ball_colour(program, p)), ops.distinct_until_changed())
    screen = ball.pipe(ops.scan(lambda shown, b: screen_colour(program, shown, b), "flatWhite"),
                       ops.distinct_until_changed())
    streams = [subject, ball.pipe(ops.map(lambda b: b[0])), screen]
    observers = [scheduler.create_observer() for _ in streams]
    subscriptions = []
    for stream, observer in zip(streams, observers):
        scheduler.schedule_absolute(
            lane["subscribedFrame"], lambda _s, _st, s=stream, o=observer: subscriptions.append(s.subscribe(o)))
    if lane["unsubscribedFrame"] is not None:
        scheduler.schedule_absolute(
            lane["unsubscribedFrame"], lambda _s, _st: [each.dispose() for each in subscriptions])
    scheduler.advance_to(10 ** 9)
    return [[(int(message.time), mark(message.value)) for message in observer.messages] for observer in observers]


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


def area_under(height, left, right, radius):
    """BallShape.areaUnder: the area under both min(s(x), height) and the upper half-circle."""
    low, high = max(left, -radius), min(right, radius)
    if not low < high:
        return 0.0

    def arc(x):
        return (x * math.sqrt(max(0.0, radius * radius - x * x)) + radius * radius * math.asin(min(1.0, max(-1.0, x / radius)))) / 2
    if not height < radius:
        return arc(high) - arc(low)
    width = math.sqrt(radius * radius - height * height)
    area = 0.0
    flat_low, flat_high = max(low, -width), min(high, width)
    if flat_low < flat_high:
        area += height * (flat_high - flat_low)
    if low < min(high, -width):
        area += arc(min(high, -width)) - arc(low)
    if max(low, width) < high:
        area += arc(high) - arc(max(low, width))
    return area


def reach(radius, vertical):
    """BallShape.reach: the largest column offset lit on the half-row `vertical` from the centre line."""
    vertical = abs(vertical)

    def share(column):
        left, right = column - 0.5, column + 0.5
        return area_under(vertical + 0.5, left, right, radius) - area_under(vertical - 0.5, left, right, radius)
    if not (radius > 0 and share(0) >= 0.5):
        return None
    low, high = 0, math.ceil(radius) + 1
    while high - low > 1:
        middle = (low + high) // 2
        if share(middle) >= 0.5:
            low = middle
        else:
            high = middle
    return low


def in_corner(position):
    """BallPosition.isInCorner, as BallShape works the disc out: the centre as far as the disc can
    go both ways on its screen (it touches two edges)."""
    columns, rows = position["screen"]
    fits = max(2, 2 * (rows - 1) - 2)
    diameter = min(max(6, columns // 4), min(fits, max(6, fits - 2 * 3)))
    radius = diameter / 2
    half_width = reach(radius, 0.5) or 0 if diameter > 0 else 0
    half_height = 0
    while diameter > 0 and reach(radius, 2 * (half_height + 1) - 0.5) is not None:
        half_height += 1
    last_column, last_row = columns - 1 - half_width, rows - 2 - half_height
    if columns < 24 or rows < 7 or half_width > last_column or half_height > last_row:
        return False
    column, row = position["cell"]
    return column in (half_width, last_column) and row in (half_height, last_row)


def out_of_bounds(position):
    """tryMap's function: the position as it is, but one in a corner raises (RxPY's map passes
    what its function raises on as the error)."""
    if in_corner(position):
        raise ValueError("out of bounds")
    return position


# How many events each stage lane had in the last frame_check, by lane: the summary says them.
stage_counts = {}
# How many inner lanes the last frame_check compared.
inner_counts = [0]
# How many late lanes the last frame_check checked at --frame 1ms.
late_counts = [0]
# The values (and `|`) of each stage lane at --frame 1ms in the last frame_check, in order: the
# export at a frame an intent must say the same.
stage_values = {}

# Where `slotted` itself (the chain's `switch_latest`) completed in the last frame_check, by
# frame: at a quit, unless a timer keeps its completion for later; the colours complete with it.
switch_completed = []

# The timed operators, by name, each with the interval it waits where an event gives none (in
# frames of 1 ms), as the program's list says.
timed = {}
# The names older recordings gave operators, each with the operator's name now, as the program's
# list says (`replaceError`, Combine's name, is `catchAndReturn`).
former = {}


def start_with_now(value):
    """RxSwift's startWith: `value` handed to a subscriber as it subscribes, then the source's
    events. RxPY's own start_with hands it on through the trampoline, so a stage after it that
    subscribes to a second source within the same call (sample's sampler) would see it later
    than RxSwift does."""
    def start(source):
        def subscribe(observer, scheduler=None):
            observer.on_next(value)
            return source.subscribe(observer, scheduler=scheduler)
        return reactivex.create(subscribe)
    return start


def retry_now(attempts):
    """RxSwift's `retry(attempts)`, a port of its `CatchSequence` over the source repeated
    `attempts` times (its `TailRecursiveSink`'s gate, an `AsyncLock`): it subscribes at once, and
    an error resubscribes at once, in the call that brought the error, while the subjects still
    hold what they held then; an error that comes while a subscription is being made is queued
    and resubscribed as that call returns (no recursion). The last subscription's error goes on.
    RxPY's own `retry` (`catch_with_iterable`) schedules each subscription on the scheduler it is
    subscribed with, here the TestScheduler: at the same frame, but after every input already
    queued for that frame (a release's `grabbed` after its position), which RxSwift's does not."""
    def operator(source):
        def subscribe(observer, scheduler_=None):
            memory = {"left": attempts, "error": None, "disposed": False, "running": False, "queued": 0}
            subscription = SerialDisposable()

            def on_error(error):
                memory["error"] = error
                move_next()

            def subscribe_next():
                if memory["disposed"]:
                    return
                if memory["left"] == 0:
                    observer.on_error(memory["error"])
                    return
                memory["left"] -= 1
                subscription.disposable = source.subscribe(
                    observer.on_next, on_error, observer.on_completed, scheduler=scheduler_)

            def move_next():
                # The gate: a call made while one runs is queued, and runs as that one returns.
                if memory["running"]:
                    memory["queued"] += 1
                    return
                memory["running"] = True
                try:
                    subscribe_next()
                    while memory["queued"]:
                        memory["queued"] -= 1
                        subscribe_next()
                finally:
                    memory["running"] = False

            move_next()

            def dispose():
                memory["disposed"] = True
                subscription.dispose()
            return Disposable(dispose)
        return Observable(subscribe)
    return operator


def throttle_latest(scheduler, window):
    """`throttle(.milliseconds(window), latest: true, scheduler:)` as RxSwift's `ThrottleSink` does
    it (RxPY has only `throttle_first`, which drops what comes in a window), on `scheduler`'s
    clock: a value that finds no window open (or its window over, even at the instant it ends)
    goes on at once and opens a window of `window` frames; one that comes in a window is held, the
    latest replacing the one before, and goes on when the window ends, which opens the next; a
    completion waits for what is held. The value a BehaviorSubject hands it as it subscribes is
    its first: it goes on at once (Combine's throttle drops it)."""
    def operator(source):
        def subscribe(observer, _scheduler=None):
            memory = {"last_sent": None, "unsent": [], "completed": False, "timer": None}

            def send_now(value):
                memory["unsent"] = []
                observer.on_next(value)
                memory["last_sent"] = scheduler.clock

            def propagate(_scheduler, _state):
                memory["timer"] = None
                if memory["unsent"]:
                    send_now(memory["unsent"][0])
                if memory["completed"]:
                    observer.on_completed()

            def on_next(value):
                now = scheduler.clock
                due = now if memory["last_sent"] is None else memory["last_sent"] + float(window)
                if not due > now:
                    send_now(value)
                    return
                in_flight = bool(memory["unsent"])
                memory["unsent"] = [value]
                if not in_flight:
                    # The timer this one takes the place of goes, as RxSwift's SerialDisposable
                    # disposes of the one before.
                    if memory["timer"] is not None:
                        memory["timer"].dispose()
                    memory["timer"] = scheduler.schedule_absolute(due, propagate)

            def on_completed():
                if memory["unsent"]:
                    memory["completed"] = True
                else:
                    observer.on_completed()

            subscription = source.subscribe(on_next, observer.on_error, on_completed)

            def dispose():
                subscription.dispose()
                if memory["timer"] is not None:
                    memory["timer"].dispose()
            return Disposable(dispose)
        return Observable(subscribe)
    return operator


def with_interval(name, event):
    """The pipe (or stage) `name` with its timed stage's interval, as `--operator` spells it
    (`filter,debounce:1000ms`), from the `interval` its event gives (none: the stage waits its
    usual, and is spelt alone)."""
    if "interval" not in event:
        return name
    return ",".join("%s:%dms" % (stage, event["interval"]) if stage in timed else stage
                    for stage in name.split(","))


def pipe_name(name):
    """The pipe a recording's `operator` names, as the program writes it: `counter` (an older
    name) is `mapToOne,scan`, and so is `map,scan` (a `map` before a stage that takes counts); an
    operator's older name (`former`) is its name now."""
    name = "mapToOne,scan" if name == "counter" else name
    name = ",".join(former.get(stage, stage) for stage in name.split(","))
    return ",".join("mapToOne" if stage == "map" and following == "scan" else stage
                    for stage, following in zip(name.split(","), name.split(",")[1:] + [None]))


def frame_check(program, recording, end, expressions):
    """The slot's lane of `recording` as a marble test: its lanes exported with `--frame 1ms`,
    the inputs parsed by RxPY's parser and fed at their frames, all scheduled before anything
    subscribes, to RxPY subjects on a TestScheduler (at one frame: the position, then the mouse's
    or the keys', the operator chosen, the mirror, whether grabbed, as the session sends them;
    then the completions of a quit in the session's order), through the chain built again with
    RxPY's operators (`expressions`, by name), run to `end` (the recording's last line, in ms: a
    timer due then runs only after an input then). Gives the failures, RxPY's events of the
    slot's lane (frame, value or "|"), and the operators chosen."""
    output = subprocess.run([program, "replay", recording, "--marbles", "--syntax", "rxpy", "--frame", "1ms"],
                            capture_output=True, text=True)
    if output.returncode != 0:
        return ["--frame 1ms: exit %d: %s" % (output.returncode, output.stderr.strip())], [], []
    every = [json.loads(line) for line in output.stdout.splitlines()]
    lanes = {lane["lane"]: lane for lane in every}
    if any(lane["frameMs"] != 1 for lane in every):
        return ["--frame 1ms: a lane without \"frameMs\":1"], [], []
    # A recorded tour's lessons, each in the frame of its own time.
    recorded = [json.loads(line) for line in open(recording, encoding="utf-8").read().splitlines()[1:] if line.strip()]
    lesson_wrong = lesson_failures(lanes["intents"], [
        (round(event["t"] * 1_000_000) // 1000, event["number"], event["title"])
        for event in recorded if event["event"] == "lesson"], "at --frame 1ms")

    def events(name):
        return [(int(time), notification) for time, notification in
                parse(lanes[name]["marbles"], timespan=1, lookup=lanes[name]["values"])]

    scheduler = TestScheduler()
    position, mirrors, grabs = events("position"), events("mirror"), events("grabbed")
    start = position[0][1].value
    subject = BehaviorSubject(start)
    mirror = BehaviorSubject(mirrors[0][1].value)
    grabbed = BehaviorSubject(grabs[0][1].value)
    sources = {"mouse": Subject(), "keys": Subject()}
    slot = BehaviorSubject("none")
    intents = events("intents")
    # The pipe after each intent that changes it: an operator chosen names it whole; a stage
    # added or taken out builds it afresh, one stage more or less.
    chosen, stages = [], []
    for frame, n in intents:
        if not isinstance(n, OnNext) or n.value["event"] not in ("operator", "stage", "unstage"):
            continue
        if n.value["event"] == "operator":
            named = with_interval(pipe_name(n.value["name"]), n.value)
            stages = [] if named == "none" else named.split(",")
        elif n.value["event"] == "stage":
            # A stage that takes counts after `map` makes it the seed's `map { _ in 1 }`, as the
            # program's pipe does: taken out again, `mapToOne` stays.
            stages = pipe_name(",".join(stages + [with_interval(n.value["name"], n.value)])).split(",")
        else:
            stages = stages[:-1]
        chosen.append((frame, ",".join(stages) or "none"))
    inputs = [(frame, 0, n, subject) for frame, n in position[1:]]
    inputs += [(frame, 1, n, sources[name]) for name in ("mouse", "keys") for frame, n in events(name)
               if isinstance(n, OnNext)]
    inputs += [(frame, 2, OnNext(name), slot) for frame, name in chosen]
    inputs += [(frame, 3, n, mirror) for frame, n in mirrors[1:]]
    inputs += [(frame, 4, n, grabbed) for frame, n in grabs[1:]]
    # A quit completes the position (its lane's `|`), then the mirror, grabbed, the mouse's and
    # the keys' subjects, and the operator chosen, as the session does.
    quit = [frame for frame, n in intents if isinstance(n, OnCompleted)]
    if quit:
        for order, target in enumerate((mirror, grabbed, sources["mouse"], sources["keys"]), start=5):
            inputs.append((quit[0], order, OnCompleted(), target))
        inputs.append((quit[0], 9, OnCompleted(), slot))
    frames_of_intents = sorted({frame for frame, _ in intents})
    if len(frames_of_intents) != len([n for _, n in intents if isinstance(n, OnNext)]):
        return ["intents share a frame of 1 ms: the check takes recordings with intents 8 ms apart or more"], [], []
    for frame, _, notification, target in sorted(inputs, key=lambda entry: entry[:2]):
        scheduler.schedule_absolute(float(frame), lambda _s, _st, n=notification, t=target: n.accept(t))
    names = {"subject": subject, "mirror": mirror, "grabbed": grabbed, "sources": sources, "ops": ops,
             "reactivex": reactivex, "scheduler": scheduler, "in_right_half": in_right_half, "mirrored": mirrored,
             "centre_of": centre_of, "throttle_latest": throttle_latest,
             "out_of_bounds": out_of_bounds, "start_with_now": start_with_now, "retry_now": retry_now}
    # Each subscription of each stage of a pipe of several (its last included), as the program's
    # taps see it from inside the one pipe the chain runs (so an error after a stage disposes of
    # it there, as the chain's disposal does; `retry` subscribes the stages before it anew), in
    # the order made: its lane's name, the frame it was subscribed at, what it passed on (frame,
    # value, `|` or `#`), and the frame it was disposed of at (None: never), which RxPY's
    # subscriber does after a `|` or `#` too, as RxPY's and RxJS's subscription logs have it.
    stage_runs = []

    def tap(number):
        def operator(source):
            def subscribe(observer, scheduler_=None):
                run = {"lane": "stage%d" % (number + 1), "subscribed": int(scheduler.clock), "events": [],
                       "disposed": None}
                stage_runs.append(run)

                def on_next(value):
                    run["events"].append((int(scheduler.clock), value))
                    observer.on_next(value)

                def on_error(error):
                    run["events"].append((int(scheduler.clock), "#"))
                    observer.on_error(error)

                def on_completed():
                    run["events"].append((int(scheduler.clock), "|"))
                    observer.on_completed()
                subscription = source.subscribe(on_next, on_error, on_completed, scheduler=scheduler_)

                def dispose():
                    if run["disposed"] is None:
                        run["disposed"] = int(scheduler.clock)
                    subscription.dispose()
                return Disposable(dispose)
            return Observable(subscribe)
        return operator

    # Each inner subscription flatMap or flatMapLatest at a pipe's head made to the position, in
    # the order made: its lane's name (numbered from 1 in each pipe built, as the panel numbers
    # them), the frame it subscribed at, what it received (frame, value or `|`), and the frame it
    # was disposed of at (None: never; after its completion, the completion's frame).
    inner_runs = []

    def inner_position(made):
        """The position subject as an inner observable: each subscription to it is noted as
        a run of `inner_runs`, numbered by `made` (the pipe's count of those it made)."""
        def subscribe(observer, scheduler_=None):
            made[0] += 1
            run = {"lane": "inner %d" % made[0], "subscribed": int(scheduler.clock), "events": [], "disposed": None}
            inner_runs.append(run)

            def on_next(value):
                run["events"].append((int(scheduler.clock), value))
                observer.on_next(value)

            def on_completed():
                run["events"].append((int(scheduler.clock), "|"))
                observer.on_completed()
            subscription = subject.subscribe(on_next, observer.on_error, on_completed, scheduler=scheduler_)

            def dispose():
                if run["disposed"] is None:
                    run["disposed"] = int(scheduler.clock)
                subscription.dispose()
            return Disposable(dispose)
        return Observable(subscribe)

    def pipe(name):
        """The pipe `name` names (`filter,debounce:1000ms`; `counter` is `mapToOne,scan`), each
        stage's expression over `upstream`, the stage before it (the position subject for the
        first), and `INTERVAL`, its interval (a timed stage's after its colon; else its usual),
        each stage of a pipe of several tapped; flatMap's or flatMapLatest's
        at its head maps each press to the position as an inner observable whose subscriptions
        are noted."""
        upstream = subject
        stages = pipe_name(name).split(",")
        for number, spelt in enumerate(stages):
            stage, _, interval = spelt.partition(":")
            waits = float(interval[:-len("ms")]) if interval else float(timed.get(stage, 0))
            inner = {"subject": inner_position([0])} if number == 0 and stage in ("flatMap", "flatMapLatest") else {}
            upstream = eval(expressions[stage], dict(names, upstream=upstream, INTERVAL=waits, **inner))
            if len(stages) > 1:
                upstream = upstream.pipe(tap(number))
        return upstream

    shared = slot.pipe(ops.map(pipe), ops.switch_latest(), ops.start_with(start),
                       ops.replay(buffer_size=1))
    observer = scheduler.create_observer()
    # Connected at 0; the lane's subscriber half a frame later, once what the connection made
    # has settled (RxPY's start_with hands its value on through the trampoline): it is handed
    # the latest, as of the start.
    scheduler.schedule_absolute(0.0, lambda _s, _st: shared.connect(scheduler))
    scheduler.schedule_absolute(0.5, lambda _s, _st: shared.subscribe(observer))
    # The recording's time ends with its last line: a timer due at that instant ran only if an
    # intent came then (after it).
    # (A recording with no intent, only observations at 0, ends at 0: its subscriber still subscribes.)
    scheduler.advance_to(max(0.5, float(end) if end in frames_of_intents else end - 0.5))
    given = [(int(message.time), mark(message.value)) for message in observer.messages]
    switch_completed[:] = [frame for frame, value in given if value == "|"]
    exported = [(frame, mark(n)) for frame, n in events("slotted")]
    failures = []
    stage_counts.clear()
    inner_counts[:] = [0]
    stage_values.clear()
    if exported != given:
        first = next(i for i, (a, b) in enumerate(zip(exported + [None] * len(given), given + [None] * len(exported)))
                     if a != b)
        at = (exported + given + [(0, None)])[min(first, len(exported) - 1) if exported else 0][0]
        in_force = [name for frame, name in chosen if frame <= at][-1:] or ["none"]
        failures.append("slotted at --frame 1ms: event %d: exported %r, RxPY's operators on the exported inputs gave %r"
                        " (the pipe then: %s; the intent then: %r)"
                        % (first, (exported + [None])[min(first, len(exported))], (given + [None])[min(first, len(given))],
                           in_force[0], [n.value if isinstance(n, OnNext) else "|" for frame, n in intents if frame == at]))
    # Each stage lane (`"lane":"stage1"`, one a subscription of that stage): as RxPY's pipe of the
    # stages up to it subscribed it, passed values, `|` or `#` on, and disposed of it.
    def run_key(run):
        return run[0], run[1], -1 if run[2] is None else run[2], repr(run[3])
    exported_stages = sorted(
        ((lane["subscribedFrame"], lane["lane"], lane["unsubscribedFrame"],
          [(int(time), mark(n)) for time, n in parse(lane["marbles"], timespan=1, lookup=lane["values"])])
         for lane in every if lane["lane"].startswith("stage")), key=run_key)
    given_stages = sorted(((run["subscribed"], run["lane"], run["disposed"], run["events"]) for run in stage_runs),
                          key=run_key)
    if exported_stages != given_stages:
        first = next(i for i, (a, b) in enumerate(zip(exported_stages + [None] * len(given_stages),
                                                      given_stages + [None] * len(exported_stages))) if a != b)
        at = (exported_stages + given_stages)[first][0]
        in_force = [pipe for frame, pipe in chosen if frame <= at][-1:] or ["none"]
        failures.append("stage lanes at --frame 1ms: subscription %d: exported %r, RxPY's pipe of the stages up to"
                        " it gave %r (the pipe then: %s)" % (
                            first, (exported_stages + [None])[min(first, len(exported_stages))],
                            (given_stages + [None])[min(first, len(given_stages))], in_force[0]))
    for lane in every:
        if lane["lane"].startswith("stage"):
            name = lane["lane"]
            events = [value for _, value in
                      ((int(time), mark(n)) for time, n in parse(lane["marbles"], timespan=1, lookup=lane["values"]))]
            stage_counts[name] = stage_counts.get(name, 0) + len(events)
            stage_values.setdefault(name, []).extend(events)
    # Each inner lane (`"lane":"inner 1"`, one a subscription): as RxPY's flat_map or
    # flat_map_latest subscribed to the position, received from it and disposed of it; those
    # retry_now made as it subscribed anew after an error too, numbered on from the pipe's others.
    exported_inners = sorted(
        ((lane["subscribedFrame"], lane["lane"], lane["unsubscribedFrame"],
          [(int(time), mark(n)) for time, n in parse(lane["marbles"], timespan=1, lookup=lane["values"])])
         for lane in every if lane["lane"].startswith("inner ")),
        key=lambda run: run[:2])
    given_inners = sorted(((run["subscribed"], run["lane"], run["disposed"], run["events"]) for run in inner_runs),
                          key=lambda run: run[:2])
    if exported_inners != given_inners:
        first = next(i for i, (a, b) in enumerate(zip(exported_inners + [None] * len(given_inners),
                                                      given_inners + [None] * len(exported_inners))) if a != b)
        failures.append("inner lanes at --frame 1ms: subscription %d: exported %r, RxPY's inner subscriptions gave %r" % (
            first, (exported_inners + [None])[min(first, len(exported_inners))],
            (given_inners + [None])[min(first, len(given_inners))]))
    inner_counts[0] = len(given_inners)
    return failures + lesson_wrong + late_failures(every, position), given, sorted({name for _, name in chosen})


def late_failures(every, position):
    """What differs between each late lane exported with `--frame 1ms` (each subscription in the
    frame of its own time: Completion's after `e`, a while after the last intent) and what RxPY's
    subject of its kind gives a subscriber subscribed and disposed of at those frames, fed the
    position lane (`position`: its events at 1 ms a frame)."""
    failures = []
    for lane in every:
        if not lane["lane"].startswith("late "):
            continue
        received = rxpy_late(lane, position)
        parsed = [(int(time), mark(n)) for time, n in parse(lane["marbles"], timespan=1, lookup=lane["values"])]
        if parsed != received:
            failures.append("%s subscribed at frame %d at --frame 1ms: parsed %r, RxPY's subject gave %r" % (
                lane["lane"], lane["subscribedFrame"], parsed, received))
    late_counts[0] = sum(1 for lane in every if lane["lane"].startswith("late "))
    return failures


if __name__ == "__main__":
    arguments = sys.argv[1:]
    replacements = {}
    while "--replace" in arguments:
        at = arguments.index("--replace")
        name, _, expression = arguments[at + 1].partition("=")
        replacements[name] = expression
        del arguments[at:at + 2]
    sys.exit(main(*arguments[:2], replacements=replacements))
