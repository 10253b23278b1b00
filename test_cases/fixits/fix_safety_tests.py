#!/usr/bin/env python3
"""--fix writes only what it analysed, and keeps what the file is:

1. two concurrent --fix runs on the same 20 files: every file ends up exactly
   as one --fix run leaves it; the run that lost a file says so (exit 2);
2. a file changed between the analysis and the write: a one-line error naming
   it, exit 2, the user's edit kept, the other files fixed (--fix with
   --unsafe-fixes, and --fix-dry-run);
3. a symbolic link: the link stays, its target is fixed;
4. a hard link: both names see the fix, on the same inode;
5. mode 0640 kept, and (as root) the owner and group of another user;
6. (as root, run as `nobody`) a file the user cannot write, in a
   world-writable directory: refused with an error and untouched.

The window between the analysis and the write is made deterministic with the
test-only hook GRADLINT_TEST_BEFORE_FIX_WRITE (a shell command gradlint runs
once before it writes any fix).

usage: fix_safety_tests.py <gradlint> <repository root>
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
HOOK = "GRADLINT_TEST_BEFORE_FIX_WRITE"
NOBODY = 65534

# Positive cases whose fixes the lit tests pin (CHECK-FIXES).
SOURCES = [os.path.join(ROOT, "test_cases", path) for path in (
    "accum-missing-loss-division/positive_divided_by_batch_size.cpp",
    "accum-missing-loss-division/positive_divided_by_other_constant.cpp",
    "accum-missing-loss-division/positive_multiplied_not_divided.cpp",
    "accum-misplaced-zero-grad/positive_every_micro_batch.cpp",
    "accum-misplaced-zero-grad/positive_boundary_before_step_reference.cpp",
)]


def read(path):
    with open(path, "rb") as f:
        return f.read()


def gradlint(*args, env=None, user=None):
    command = [GRADLINT, *args]
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    full_env = dict(os.environ)
    full_env.pop(HOOK, None)
    full_env.update(env or {})
    return subprocess.run(command, capture_output=True, text=True, env=full_env)


def populate(directory, count):
    """`count` copies of SOURCES (cycled) in `directory`; their paths and sources."""
    os.makedirs(directory, exist_ok=True)
    paths, origins = [], []
    for index in range(count):
        source = SOURCES[index % len(SOURCES)]
        path = os.path.join(directory, f"{index:02d}_{os.path.basename(source)}")
        shutil.copy(source, path)
        paths.append(path)
        origins.append(source)
    return paths, origins


def error_lines(stderr, needle):
    return [line for line in stderr.splitlines() if ": error: " in line and needle in line]


def changed_errors(stderr):
    return error_lines(stderr, "changed since it was analysed")


def leftovers(directory, expected):
    return sorted(f for f in os.listdir(directory) if f not in expected)


def main():
    tmp = tempfile.mkdtemp(prefix="gradlint-fix-safety-")
    os.chmod(tmp, 0o755)  # `nobody` reaches its directory below
    try:
        run_tests(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(summary())


def run_tests(tmp):
    # What one --fix (and one --fix --unsafe-fixes) run makes of each source.
    reference, reference_unsafe = {}, {}
    for flags, table, name in ((["--fix"], reference, "reference"),
                               (["--fix", "--unsafe-fixes"], reference_unsafe, "reference-unsafe")):
        paths, origins = populate(os.path.join(tmp, name), len(SOURCES))
        run = gradlint(*flags, *paths)
        check(f"{name}: the single --fix run has no error", run.returncode in (0, 1), run.stderr)
        for path, source in zip(paths, origins):
            table[source] = read(path)
            check(f"{name}: {os.path.basename(source)} is fixable",
                  table[source] != read(source))

    # 1. Two concurrent --fix runs on the same 20 files.
    for synchronised in (True, False):
        label = "lined-up runs" if synchronised else "concurrent runs"
        directory = os.path.join(tmp, "concurrent-" + ("lined-up" if synchronised else "free"))
        paths, origins = populate(directory, 20)
        env = {}
        if synchronised:
            # Each run waits (up to 60 s) until both have analysed every file.
            barrier = os.path.join(tmp, "barrier")
            os.makedirs(barrier)
            env[HOOK] = (f'touch "{barrier}/$$"; i=0; '
                         f'while [ "$(ls "{barrier}" | wc -l)" -lt 2 ] && [ $i -lt 6000 ]; '
                         f'do sleep 0.01; i=$((i+1)); done')
        full_env = dict(os.environ)
        full_env.pop(HOOK, None)
        full_env.update(env)
        processes = [subprocess.Popen([GRADLINT, "-j2", "--fix", *paths], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, env=full_env)
                     for _ in range(2)]
        outcomes = [(p.returncode, out, err) for p in processes
                    for out, err in [p.communicate(timeout=600)]]
        garbled = [os.path.basename(p) for p, s in zip(paths, origins) if read(p) != reference[s]]
        check(f"{label}: every file is exactly the single-run fixed text", not garbled, garbled)
        check(f"{label}: no temporary file is left",
              not leftovers(directory, {os.path.basename(p) for p in paths}),
              leftovers(directory, {os.path.basename(p) for p in paths}))
        lost = 0
        for index, (code, _, err) in enumerate(outcomes):
            errors = [line for line in err.splitlines() if ": error: " in line]
            stale = changed_errors(err)
            lost += len(stale)
            check(f"{label}: run {index} exits 2 exactly when it reports an error",
                  (code == 2) == bool(errors) and code in (0, 1, 2), (code, err[-1500:]))
            check(f"{label}: run {index} reports only files changed by the other run",
                  errors == stale, err[-1500:])
            check(f"{label}: run {index}'s errors each name one of the files",
                  all(any(line.startswith(p + ": ") for p in paths) for line in stale), stale)
        print(f"{label}: exits {[code for code, _, _ in outcomes]}, "
              f"{lost} files reported as changed by the other run")
        if synchronised:
            # Both analysed the originals: each file is fixed by one run and
            # reported as changed by the other.
            check(f"{label}: each file is lost by exactly one run", lost == len(paths),
                  f"{lost} 'changed' errors for {len(paths)} files: "
                  + " | ".join(err[-600:] for _, _, err in outcomes))

    # 2. A file changed between the analysis and the write.
    directory = os.path.join(tmp, "changed")
    paths, origins = populate(directory, 3)
    edited = paths[1]
    edit = f"printf '// the user saved this line\\n' | cat - '{edited}' > '{edited}.new' && " \
           f"cat '{edited}.new' > '{edited}' && rm '{edited}.new'"
    run = gradlint("--fix", "--unsafe-fixes", *paths, env={HOOK: edit})
    user_text = b"// the user saved this line\n" + read(origins[1])
    check("changed file: exit 2", run.returncode == 2, run.stderr)
    check("changed file: one error line naming it",
          len(changed_errors(run.stderr)) == 1
          and changed_errors(run.stderr)[0].startswith(edited + ": "), run.stderr)
    check("changed file: the user's edit is kept, no fix applied", read(edited) == user_text,
          read(edited)[:400])
    check("changed file: the other files are fixed",
          all(read(p) == reference_unsafe[s] for i, (p, s) in enumerate(zip(paths, origins))
              if i != 1))
    summary_line = re.search(r"applied \d+ fix(?:es)? to (\d+) files?", run.stderr)
    check("changed file: the summary counts only the files fixed",
          summary_line and summary_line.group(1) == "2", run.stderr)

    # ... and with --fix-dry-run: the diff leaves the changed file out.
    paths, origins = populate(os.path.join(tmp, "changed-dry"), 2)
    edited = paths[0]
    edit = f"printf '// the user saved this line\\n' >> '{edited}'"
    run = gradlint("--fix-dry-run", *paths, env={HOOK: edit})
    check("changed file, dry run: exit 2", run.returncode == 2, run.stderr)
    check("changed file, dry run: an error naming it",
          any(line.startswith(edited + ": ") for line in changed_errors(run.stderr)), run.stderr)
    check("changed file, dry run: the diff has only the other file",
          edited not in run.stdout and paths[1] in run.stdout, run.stdout[:800])

    # 3. A symbolic link: kept, its target fixed.
    directory = os.path.join(tmp, "symlink")
    targets = os.path.join(directory, "targets")
    sources = os.path.join(directory, "src")
    os.makedirs(targets)
    os.makedirs(sources)
    target = os.path.join(targets, "real.cpp")
    shutil.copy(SOURCES[0], target)
    link = os.path.join(sources, "link.cpp")
    os.symlink("../targets/real.cpp", link)
    run = gradlint("--fix", link)
    check("symlink: --fix succeeds", run.returncode in (0, 1), run.stderr)
    check("symlink: the link is still a link to the same target",
          os.path.islink(link) and os.readlink(link) == "../targets/real.cpp")
    check("symlink: the target is fixed", read(target) == reference[SOURCES[0]], read(target)[:300])
    check("symlink: no temporary file is left",
          sorted(os.listdir(targets)) == ["real.cpp"] and sorted(os.listdir(sources)) == ["link.cpp"],
          (os.listdir(targets), os.listdir(sources)))

    # 4. A hard link: both names see the fix, on the same inode.
    directory = os.path.join(tmp, "hardlink")
    os.makedirs(directory)
    first = os.path.join(directory, "first.cpp")
    second = os.path.join(directory, "second.cpp")
    shutil.copy(SOURCES[1], first)
    os.link(first, second)
    inode = os.stat(first).st_ino
    run = gradlint("--fix", first)
    check("hard link: --fix succeeds", run.returncode in (0, 1), run.stderr)
    check("hard link: both names see the fix",
          read(first) == reference[SOURCES[1]] and read(second) == reference[SOURCES[1]])
    check("hard link: same inode, still two links",
          os.stat(first).st_ino == inode == os.stat(second).st_ino
          and os.stat(first).st_nlink == 2, (inode, os.stat(first), os.stat(second)))
    check("hard link: no temporary file is left",
          sorted(os.listdir(directory)) == ["first.cpp", "second.cpp"], os.listdir(directory))

    # 5. Mode, and as root the owner and group of another user.
    directory = os.path.join(tmp, "owner")
    os.makedirs(directory)
    private = os.path.join(directory, "private.cpp")
    shutil.copy(SOURCES[2], private)
    os.chmod(private, 0o640)
    root = os.geteuid() == 0
    if root:
        os.chown(private, NOBODY, NOBODY)
    run = gradlint("--fix", private)
    check("mode: --fix succeeds", run.returncode in (0, 1), run.stderr)
    check("mode: the file is fixed", read(private) == reference[SOURCES[2]])
    check("mode: 0640 kept", stat.S_IMODE(os.stat(private).st_mode) == 0o640,
          oct(os.stat(private).st_mode))
    if root:
        info = os.stat(private)
        check("owner: another user's owner and group kept",
              (info.st_uid, info.st_gid) == (NOBODY, NOBODY), (info.st_uid, info.st_gid))
    else:
        print("skipped: owner and group of another user (needs root)")

    # 6. A file the user cannot write, in a world-writable directory.
    if root and shutil.which("setpriv"):
        directory = os.path.join(tmp, "shared")
        os.makedirs(directory)
        os.chmod(directory, 0o777)
        protected = os.path.join(directory, "root_owned.cpp")
        mine = os.path.join(directory, "mine.cpp")
        shutil.copy(SOURCES[3], protected)
        os.chmod(protected, 0o644)
        shutil.copy(SOURCES[3], mine)
        os.chown(mine, NOBODY, NOBODY)
        run = gradlint("--no-cache", "--fix", protected, mine, user=NOBODY)
        info = os.stat(protected)
        check("not writable: exit 2", run.returncode == 2, run.stderr)
        check("not writable: a one-line error naming it",
              any(line.startswith(protected + ": ") and "permission" in line
                  for line in run.stderr.splitlines()), run.stderr)
        check("not writable: untouched, still root's 0644 file",
              read(protected) == read(SOURCES[3]) and (info.st_uid, info.st_gid) == (0, 0)
              and stat.S_IMODE(info.st_mode) == 0o644, (info, read(protected)[:200]))
        check("not writable: the user's own file is still fixed",
              read(mine) == reference[SOURCES[3]], run.stderr)

        # Writable through its group, owned by root: fixed in place (the
        # user cannot give a new file root's ownership), owner and mode kept.
        shared = os.path.join(directory, "group_writable.cpp")
        shutil.copy(SOURCES[4], shared)
        os.chown(shared, 0, NOBODY)
        os.chmod(shared, 0o664)
        inode = os.stat(shared).st_ino
        run = gradlint("--no-cache", "--fix", shared, user=NOBODY)
        info = os.stat(shared)
        check("group-writable: fixed", run.returncode in (0, 1)
              and read(shared) == reference[SOURCES[4]], run.stderr)
        check("group-writable: owner, group, mode and inode kept",
              (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode), info.st_ino)
              == (0, NOBODY, 0o664, inode), info)
        check("group-writable: no temporary file is left",
              sorted(os.listdir(directory)) == ["group_writable.cpp", "mine.cpp", "root_owned.cpp"],
              os.listdir(directory))
    else:
        print("skipped: a file the user cannot write (needs root and setpriv to run as nobody)")


main()
