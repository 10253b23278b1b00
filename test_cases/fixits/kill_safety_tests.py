#!/usr/bin/env python3
"""--fix survives SIGKILL: gradlint --fix runs on N buggy files (40) and is killed
at random moments (most of them a few milliseconds after the first fixed file appears).
Every file must then be byte-identical to its original or to its fully fixed
version (from a clean --fix run on separate copies); nothing is truncated; a
temporary file left behind is named .<name>.gradlint-tmp-XXXXXX; no isolated
analysis process outlives the killed gradlint, and no analysis log is left in
its temporary directory (TMPDIR).

usage: kill_safety_tests.py <gradlint> <source dir> [repeats (10)] [files (40)]
"""
import glob
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
SOURCE = os.path.abspath(sys.argv[2])
REPEATS = int(sys.argv[3]) if len(sys.argv) > 3 else 10
FILES = int(sys.argv[4]) if len(sys.argv) > 4 else 40


def inputs():
    buggy = sorted(glob.glob(os.path.join(SOURCE, "examples", "*_buggy.cpp")))
    buggy += sorted(glob.glob(os.path.join(SOURCE, "test_cases", "accum-*", "positive_*.cpp")))
    return [buggy[i % len(buggy)] for i in range(FILES)]


def populate(directory, sources):
    os.makedirs(directory)
    paths = []
    for index, source in enumerate(sources):
        path = os.path.join(directory, f"{index:02d}_{os.path.basename(source)}")
        shutil.copy(source, path)
        paths.append(path)
    return paths


def read(path):
    with open(path, "rb") as f:
        return f.read()


def children_of(pid):
    """Isolated analysis processes started by gradlint `pid` that still run."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                arguments = f.read().split(b"\0")
        except OSError:
            continue
        if f"--internal-parent-pid={pid}".encode() in arguments:
            found.append(int(entry))
    return found


def main():
    sources = inputs()
    rng = random.Random(20240607)
    with tempfile.TemporaryDirectory() as tmp:
        originals = [read(s) for s in sources]
        reference_paths = populate(os.path.join(tmp, "reference"), sources)
        started = time.time()
        clean = subprocess.run([GRADLINT, "-j2", "--fix", *reference_paths], capture_output=True)
        duration = time.time() - started
        fixed = [read(p) for p in reference_paths]
        changed = sum(f != o for f, o in zip(fixed, originals))
        print(f"clean --fix run: exit {clean.returncode} in {duration:.1f} s, "
              f"{changed} of {FILES} files fixed")
        check("the clean run fixes most files", changed >= FILES // 2, changed)
        check("the clean run has no error", clean.returncode in (0, 1), clean.stderr[-500:])

        fixable = [i for i in range(FILES) if fixed[i] != originals[i]]
        mixed_runs = 0
        for repeat in range(REPEATS):
            paths = populate(os.path.join(tmp, f"run{repeat}"), sources)
            process_tmp = os.path.join(tmp, f"tmpdir{repeat}")
            os.makedirs(process_tmp)
            process = subprocess.Popen([GRADLINT, "-j2", "--fix", *paths],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       env=dict(os.environ, TMPDIR=process_tmp))
            if repeat % 3 == 0:
                # At a random moment of the run (mostly still analysing).
                delay = duration * rng.uniform(0.05, 1.0)
                time.sleep(delay)
                moment = f"after {delay:.2f} s"
            else:
                # While the fixes are being written: a few milliseconds after
                # the first fixed file appears.
                before = {i: os.stat(paths[i]).st_ino for i in fixable}
                deadline = time.time() + 3 * duration
                while process.poll() is None and time.time() < deadline and all(
                        os.stat(paths[i]).st_ino == before[i] for i in fixable):
                    time.sleep(0.001)
                delay = rng.uniform(0, 0.02)
                time.sleep(delay)
                moment = f"{delay * 1000:.0f} ms after the first file was written"
            process.send_signal(signal.SIGKILL)
            process.wait()
            time.sleep(0.5)  # the children get SIGKILL when their parent dies
            orphans = children_of(process.pid)
            for orphan in orphans:
                os.kill(orphan, signal.SIGKILL)
            states = []
            for index, (path, original, want) in enumerate(zip(paths, originals, fixed)):
                data = read(path)
                if index not in fixable:
                    state = "unchanged" if data == original else "other"
                else:
                    state = "fixed" if data == want else "original" if data == original else "other"
                states.append(state)
                check(f"run {repeat}: {os.path.basename(path)} is its original or fixed version",
                      state != "other", f"{len(data)} bytes")
            logs = [f for f in os.listdir(process_tmp) if f.startswith("gradlint-analysis")]
            check(f"run {repeat}: no analysis log is left in TMPDIR", not logs, logs)
            leftovers = [f for f in os.listdir(os.path.dirname(paths[0]))
                         if os.path.join(os.path.dirname(paths[0]), f) not in paths]
            check(f"run {repeat}: leftover temporary files are named as gradlint's",
                  all(f.startswith(".") and ".gradlint-tmp-" in f for f in leftovers), leftovers)
            check(f"run {repeat}: no analysis process outlives gradlint", not orphans, orphans)
            counts = {s: states.count(s) for s in ("original", "fixed", "unchanged", "other")}
            if counts["original"] and counts["fixed"]:
                mixed_runs += 1
            print(f"run {repeat}: killed {moment} (exit {process.returncode}): "
                  f"{counts['fixed']} fixed, {counts['original']} original, "
                  f"{counts['unchanged']} without fixes, {counts['other']} other, "
                  f"{len(leftovers)} temporary files left")
        print(f"{mixed_runs} of {REPEATS} kills landed while the fixes were being written")
    sys.exit(summary())


main()
