"""Are the Hold'em ``replay_hand`` answers byte for byte what another checkout of the code gave?

A change to the engine's insides (issue #13 froze ``HoldemHand``) must not
change one byte of what ``python manage.py replay_hand`` answers. This
writes a file of hand lines once, then replays it with each checkout and
compares the answers, written as the command writes them::

    .venv/bin/python bench/holdem_replay_unchanged.py lines /tmp/lines.jsonl [--hands 3000]
    (cd OLD_CHECKOUT && python /path/to/bench/holdem_replay_unchanged.py answers /tmp/lines.jsonl /tmp/old.out)
    .venv/bin/python bench/holdem_replay_unchanged.py answers /tmp/lines.jsonl /tmp/new.out
    cmp /tmp/old.out /tmp/new.out

The lines: every Hold'em line in tests/ (``golden_lines.jsonl``), then
random complete hands from ``bench_holdem.py``, each also cut after a
random act (a hand in progress: ``to_act``, ``legal``, side pots) and with
one act spoiled (a refusal: the error and its index). ``answers`` imports
``casino`` from the current directory, so run it from the checkout to test.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def write_lines(path: Path, hands: int, seed: int) -> int:
    sys.path.insert(0, str(HERE.parent))
    sys.path.insert(0, str(HERE))
    from bench_holdem import bench_engine  # noqa: PLC0415 - only this subcommand needs the engine

    golden = HERE.parent / "tests" / "rules" / "holdem" / "golden_lines.jsonl"
    lines = [json.dumps(json.loads(text)["line"]) for text in golden.read_text().splitlines() if text.strip()]
    rng = random.Random(seed)
    _, played = bench_engine(hands, seed)
    for text, _stacks in played:
        line = json.loads(text)
        lines.append(text)
        acts = line["actions"]
        if acts:
            lines.append(json.dumps({**line, "actions": acts[:rng.randrange(len(acts))]}))
            spoiled = [dict(a) for a in acts]
            victim = spoiled[rng.randrange(len(spoiled))]
            victim["act"] = rng.choice(("check", "bet", "raise", "call", "all-in", "fold", "misdeal"))
            if victim["act"] in ("bet", "raise"):
                victim["to"] = rng.choice((1, 150, 250, 10_000, 99_999))
            else:
                victim.pop("to", None)
            lines.append(json.dumps({**line, "actions": spoiled}))
    path.write_text("".join(line + "\n" for line in lines))
    return len(lines)


def write_answers(source: Path, target: Path) -> tuple[int, str]:
    sys.path.insert(0, str(Path.cwd()))
    import casino  # noqa: PLC0415 - from the checkout being tested
    from casino.rules.replay import replay_lines  # noqa: PLC0415

    with source.open(encoding="utf-8") as lines, target.open("w", encoding="utf-8") as out:
        count = 0
        for answer in replay_lines(lines):
            out.write(json.dumps(answer, ensure_ascii=False) + "\n")  # as the replay_hand command writes it
            count += 1
    return count, str(Path(casino.__file__).parent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    lines = commands.add_parser("lines", help="write the hand lines to replay")
    lines.add_argument("target", type=Path)
    lines.add_argument("--hands", type=int, default=3000)
    lines.add_argument("--seed", type=int, default=13)
    answers = commands.add_parser("answers", help="replay the lines with the checkout in the current directory")
    answers.add_argument("source", type=Path)
    answers.add_argument("target", type=Path)
    args = parser.parse_args()
    if args.command == "lines":
        print(f"{write_lines(args.target, args.hands, args.seed):,} lines written to {args.target}")
    else:
        count, code = write_answers(args.source, args.target)
        print(f"{count:,} answers written to {args.target} by the code in {code}")


if __name__ == "__main__":
    main()
