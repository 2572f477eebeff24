"""Floors for the quality checks that score Headroom's tracks with TrackEval
(real_data_quality.py, vtest_quality.py): `--record FILE` writes a run's figures, less a margin,
as the floors; `--floors FILE` fails the check when a figure falls below its floor.
"""
import json
import sys

METRICS = ("idf1", "hota")


def take_options(arguments):
    """Removes `--floors FILE` and `--record FILE` from `arguments`; returns them by flag."""
    options = {}
    for flag in ("--floors", "--record"):
        if flag in arguments:
            index = arguments.index(flag)
            if index + 1 >= len(arguments):
                sys.exit(f"{flag}: expected a file")
            options[flag] = arguments[index + 1]
            del arguments[index:index + 2]
    return options


def apply(options, results, margin, name):
    """Records or checks the floors of `results` ({row: {metric: value}}) as `options` say, prints
    what fell below, and exits: 1 when something did, else 0. `name` starts the summary line."""
    if "--record" in options:
        floors = {row: {metric: round(values[metric] - margin, 3) for metric in METRICS}
                  for row, values in results.items()}
        with open(options["--record"], "w") as handle:
            json.dump(floors, handle, indent=1, sort_keys=True)
            handle.write("\n")
    failed = []
    if "--floors" in options:
        with open(options["--floors"]) as handle:
            floors = json.load(handle)
        for row, floor in floors.items():
            for metric, minimum in floor.items():
                if results[row][metric] < minimum:
                    failed.append(f"{row} {metric} {results[row][metric]:.3f} < floor {minimum:.3f}")
    for line in failed:
        print("BELOW FLOOR:", line)
    if "--floors" in options and not failed:
        print(f"{name}: every row at or above its floor ({options['--floors']})")
    sys.exit(1 if failed else 0)
