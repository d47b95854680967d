#!/usr/bin/env python3
"""What a subscriber that comes after an error meets, in RxPY on its virtual-time TestScheduler,
two ways; a Swift test (EndToEndTests, "after an error") runs the program's chain through the
same moves and compares.

Usage: check_rxpy_share.py COLUMNS ROWS MOVES   (MOVES: JSON, the position's cells in turn,
each {"cell":[c,r],"screen":[COLUMNS,ROWS]}; the first is the subject's value at the start)

The chain is the position (a BehaviorSubject) through `tryMap` (RxPY's map raising in a corner,
`out_of_bounds`), then a late subscriber after each move:

- `replay`: the chain shared as the program shares it, `replay(1)` connected at once and kept
  (RxSwift's `replay(1)` with `connect()`; `share(replay: 1, scope: .forever)` meets the same
  after the end): a late subscriber gets the last value, then the error, at once, for ever.
- `rerun`: the chain shared as RxSwift's `share(replay: 1)` does by default (scope
  `.whileConnected`): once the error ended the connection, a new subscriber connects anew, a run
  of the chain of its own (here a fresh subscription): the Behavior subject hands it the position
  now, an error again only if the ball is still in a corner.

Prints one JSON object: for each way, what each late subscriber got at once, a list of values
(the positions) and "#" for the error.
"""
import json
import sys

from reactivex import operators as ops
from reactivex.notification import OnError, OnNext
from reactivex.subject import BehaviorSubject
from reactivex.testing import TestScheduler

from check_rxpy_marbles import out_of_bounds


def main(columns, rows, moves):
    moves = json.loads(moves)
    scheduler = TestScheduler()
    subject = BehaviorSubject(moves[0])
    chain = subject.pipe(ops.map(out_of_bounds))
    shared = chain.pipe(ops.replay(buffer_size=1))
    shared.connect(scheduler)
    got = {"replay": [], "rerun": []}
    for time, move in enumerate(moves[1:], start=1):
        scheduler.schedule_absolute(float(time), lambda _s, _st, m=move: subject.on_next(m))
        for way, source in (("replay", shared), ("rerun", chain)):
            def late(_s, _st, way=way, source=source):
                observer = scheduler.create_observer()
                subscription = source.subscribe(observer, scheduler=scheduler)
                got[way].append([m.value.value if isinstance(m.value, OnNext) else "#"
                                 for m in observer.messages if isinstance(m.value, (OnNext, OnError))])
                subscription.dispose()
            scheduler.schedule_absolute(time + 0.5, late)
    scheduler.start()
    print(json.dumps(got))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
