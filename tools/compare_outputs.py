#!/usr/bin/env python3
"""Runs two gradlint binaries on the same inputs, in every output mode, and
fails on the first byte of output that differs.

A restructuring must not change what users see. This compares a baseline
build (say, of main before the change) with the current one on examples/,
every annotated test case and every fixture program: the five formats, the
fix-its (--fix-dry-run, --export-fixes), --dump-model, --confirm (text and
JSON), --emit-runs, --plot, and --list-checks.

usage: compare_outputs.py <baseline gradlint> <new gradlint> [--keep <dir>]

Each binary runs with its own library directory (<bin>/../lib) first on
LD_LIBRARY_PATH, so a copied build directory can serve as the baseline.
"""
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMATS = ["text", "json", "sarif", "github", "markdown"]


def input_groups():
    """(name, files) groups; each group is analysed by one invocation."""
    groups = [("examples", sorted(glob.glob(os.path.join(ROOT, "examples", "*.cpp"))))]
    for directory in sorted(glob.glob(os.path.join(ROOT, "test_cases", "accum-*"))):
        groups.append((os.path.basename(directory),
                       sorted(glob.glob(os.path.join(directory, "*.cpp")))))
    fixture_files = sorted(glob.glob(os.path.join(ROOT, "fixtures", "*", "*.cpp")))
    groups.append(("fixtures", [f for f in fixture_files if "/harness/" not in f
                                and "/claims/" not in f]))
    return [(name, files) for name, files in groups if files]


def modes(files, scratch):
    """(label, argv tail, files written) for every output mode."""
    rel = [os.path.relpath(f, ROOT) for f in files]
    compile_args = ["--", "-std=c++17"]
    yield "list-checks", ["--list-checks"], []
    for fmt in FORMATS:
        yield f"format-{fmt}", [f"--format={fmt}"] + rel + compile_args, []
    yield "fix-dry-run", ["--fix-dry-run", "--unsafe-fixes"] + rel + compile_args, []
    exported = os.path.join(scratch, "fixes.yaml")
    yield "export-fixes", [f"--export-fixes={exported}"] + rel + compile_args, [exported]
    yield "dump-model", ["--dump-model"] + rel + compile_args, []
    yield "confirm-text", ["--confirm", "--backend=cpu"] + rel + compile_args, []
    yield "confirm-json", ["--confirm", "--backend=cpu", "--format=json"] + rel + compile_args, []
    runs = os.path.join(scratch, "runs.json")
    yield "emit-runs", ["--backend=cpu", f"--emit-runs={runs}"] + rel + compile_args, [runs]
    plot = os.path.join(scratch, "plot.svg")
    yield "plot", ["--confirm", "--backend=cpu", f"--plot={plot}"] + rel + compile_args, [plot]


def run(binary, argv, written, cache):
    env = dict(os.environ)
    lib = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(binary))), "lib")
    env["LD_LIBRARY_PATH"] = lib + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    env["XDG_CACHE_HOME"] = cache
    for path in written:
        if os.path.exists(path):
            os.remove(path)
    done = subprocess.run([binary] + argv, cwd=ROOT, env=env, capture_output=True)
    build = os.path.dirname(os.path.dirname(os.path.abspath(binary)))

    # Where each build keeps its API model (named in a note) is not output.
    def normalise(data):
        return data.replace(build.encode(), b"<build>")

    files = {}
    for path in written:
        if os.path.exists(path):
            with open(path, "rb") as handle:
                data = handle.read()
            if path.endswith(".json"):
                # --emit-runs times each run: measured, not computed.
                data = re.sub(rb'"seconds": [0-9.e+-]+', b'"seconds": <time>', data)
            files[os.path.basename(path)] = normalise(data)
    return done.returncode, normalise(done.stdout), normalise(done.stderr), files


def run_both(binaries, argv, written, work):
    """Both binaries at once, each writing its files in its own folder."""
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        futures = []
        for i, binary in enumerate(binaries):
            scratch = os.path.join(work, f"scratch{i}")
            os.makedirs(scratch, exist_ok=True)
            mine = [os.path.join(scratch, os.path.basename(p)) for p in written]
            args = [a.replace(os.path.dirname(written[0]), scratch) if written else a for a in argv]
            futures.append(pool.submit(run, binary, args, mine, os.path.join(work, f"cache{i}")))
        results = [f.result() for f in futures]
    # Each side wrote into its own folder: the folder names are not output.
    for i in range(2):
        rc, out, err, files = results[i]
        scratch = os.path.join(work, f"scratch{i}").encode()
        results[i] = (rc, out.replace(scratch, b"<scratch>"), err.replace(scratch, b"<scratch>"), files)
    return results


def first_difference(a, b):
    for index, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return index
    return min(len(a), len(b))


def main():
    args = sys.argv[1:]
    keep = None
    if "--keep" in args:
        keep = args[args.index("--keep") + 1]
        del args[args.index("--keep"):args.index("--keep") + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    baseline, current = args
    work = tempfile.mkdtemp(prefix="gradlint-compare-")
    compared = differing = 0
    try:
        for name, files in input_groups():
            for label, argv, written_names in modes(files, os.path.join(work, "scratch")):
                results = run_both((baseline, current), argv, written_names, work)
                compared += 1
                (rc_a, out_a, err_a, files_a), (rc_b, out_b, err_b, files_b) = results
                problems = []
                if rc_a != rc_b:
                    problems.append(f"exit status {rc_a} vs {rc_b}")
                for what, a, b in (("stdout", out_a, out_b), ("stderr", err_a, err_b)):
                    if a != b:
                        at = first_difference(a, b)
                        problems.append(f"{what} differs at byte {at}: "
                                        f"{a[max(0, at - 60):at + 60]!r} vs {b[max(0, at - 60):at + 60]!r}")
                if files_a != files_b:
                    problems.append(f"written files differ: {sorted(files_a)} vs {sorted(files_b)}"
                                    if sorted(files_a) != sorted(files_b) else
                                    "written files differ: " + ", ".join(
                                        k for k in files_a if files_a[k] != files_b.get(k)))
                if problems:
                    differing += 1
                    print(f"DIFFERS {name} {label}: " + "; ".join(problems))
                    if keep:
                        os.makedirs(keep, exist_ok=True)
                        for side, (rc, out, err, fs) in zip(("baseline", "current"), results):
                            stem = os.path.join(keep, f"{name}.{label}.{side}")
                            with open(stem + ".out", "wb") as h:
                                h.write(out)
                            with open(stem + ".err", "wb") as h:
                                h.write(err)
                            for fname, data in fs.items():
                                with open(f"{stem}.{fname}", "wb") as h:
                                    h.write(data)
                else:
                    print(f"same    {name} {label} (exit {rc_a}, {len(out_a)} bytes)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{compared} runs compared, {differing} differ")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
