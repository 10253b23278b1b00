#!/usr/bin/env python3
"""Every input is bounded before anything reads it, and every analysis has a
time and memory limit: a FIFO, a device or a directory given as a source, as
.gradlint.yaml or as compile_commands.json, an oversized source, a file that
exceeds --memory-limit or --timeout each give one one-line error naming the
file (and the limit), exit status 2, and a good file on the same command line
is still analysed. Nothing hangs (each run has a subprocess time-out) and
nothing reads /dev/zero until memory runs out (each run has an address-space
safety net).

usage: bounded_inputs_tests.py <gradlint>
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
GOOD_SOURCE = open(os.path.join(HERE, "..", "cli", "inputs", "buggy.cpp")).read()
# A bounded input is rejected at once; a hang (the old behaviour on a FIFO) fails the case.
RUN_LIMIT = 60
# The caps documented in docs/usage.md and --help.
SOURCE_CAP = 64 << 20
# Safety net for gradlint itself (a soft limit its children may lower): a
# gradlint that reads /dev/zero fails here instead of exhausting the machine.
SAFETY_NET_BYTES = 8 << 30
# The prefilter skips, unparsed, a file without the identifiers `step` and `backward`.
LOOP_TOKENS = "void step(); void backward();\n"


def safety_net():
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > SAFETY_NET_BYTES:
        resource.setrlimit(resource.RLIMIT_AS, (SAFETY_NET_BYTES, hard))


def run(*args, cwd=None, limit=RUN_LIMIT):
    started = time.time()
    try:
        result = subprocess.run([GRADLINT, *args], capture_output=True, cwd=cwd, timeout=limit,
                                preexec_fn=safety_net)
    except subprocess.TimeoutExpired:
        return None, time.time() - started
    return result, time.time() - started


def error_lines(result):
    text = result.stderr.decode("utf-8", "replace")
    return [line for line in text.splitlines() if ": error: " in line]


def expect_one_error(name, args, bad, good, message, cwd=None, limit=RUN_LIMIT):
    """One one-line error naming `bad` and saying `message`, exit 2, and `good`'s finding."""
    result, seconds = run(*args, cwd=cwd, limit=limit)
    if not check(f"{name}: finishes within {limit} s", result is not None,
                 f"still running after {limit} s (killed)"):
        return None
    errors = error_lines(result)
    stdout = result.stdout.decode("utf-8", "replace")
    print(f"  {name}: exit {result.returncode} in {seconds:.1f} s; "
          f"{errors[0] if errors else 'no error'}")
    check(f"{name}: exit status 2", result.returncode == 2, result.returncode)
    check(f"{name}: exactly one error line", len(errors) == 1, errors)
    check(f"{name}: the error names the input", errors and errors[0].startswith(bad + ":"), errors)
    check(f"{name}: the error says '{message}'", errors and message in errors[0], errors)
    check(f"{name}: no crash report or stack dump", "Stack dump" not in result.stderr.decode(
        "utf-8", "replace") and result.returncode >= 0, result.stderr[-500:])
    check(f"{name}: the good file is still analysed",
          f"{good}:6:5: warning:" in stdout and "[accum-misplaced-zero-grad]" in stdout, stdout[:300])
    return result


def write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path


def test_special_sources(tmp, good):
    fifo = os.path.join(tmp, "fifo.cpp")
    os.mkfifo(fifo)
    expect_one_error("FIFO as a source", [fifo, good], fifo, good,
                     "not a regular file (it is a FIFO)")
    # -j2: the FIFO must not block a worker either.
    expect_one_error("FIFO as a source, -j2", ["-j2", fifo, good], fifo, good,
                     "not a regular file (it is a FIFO)")
    expect_one_error("/dev/zero as a source", ["/dev/zero", good], "/dev/zero", good,
                     "not a regular file (it is a character device)")
    directory = os.path.join(tmp, "adir.cpp")
    os.makedirs(directory)
    expect_one_error("directory as a source", [directory, good], directory, good,
                     "not a regular file (it is a directory)")
    big = os.path.join(tmp, "big.cpp")
    with open(big, "wb") as f:
        f.truncate(SOURCE_CAP + 1)  # sparse: no disk space
    started = time.time()
    expect_one_error("source over the 64 MiB cap", [big, good], big, good, "too large")
    check("oversized source: rejected without reading it (fast)", time.time() - started < 30,
          time.time() - started)


def test_special_config(tmp, good):
    project = os.path.join(tmp, "fifo_config")
    os.makedirs(project)
    config = os.path.join(project, ".gradlint.yaml")
    os.mkfifo(config)
    source = write(os.path.join(project, "source.cpp"), GOOD_SOURCE)
    expect_one_error("FIFO as .gradlint.yaml", [source, good], config, good,
                     "not a regular file (it is a FIFO)")
    result, _ = run(f"--config-file={config}", good)
    check("FIFO as --config-file: finishes", result is not None)
    if result is not None:
        errors = error_lines(result)
        check("FIFO as --config-file: exit 2 and one error naming it",
              result.returncode == 2 and len(errors) == 1 and errors[0].startswith(config + ":")
              and "not a regular file" in errors[0], (result.returncode, errors))


def test_special_databases(tmp, good):
    directory = os.path.join(tmp, "fifo_db")
    os.makedirs(directory)
    os.mkfifo(os.path.join(directory, "compile_commands.json"))
    expect_one_error("FIFO as compile_commands.json (-p)", ["-p", directory, good], directory,
                     good, "compile_commands.json is not a regular file (it is a FIFO)")
    # Found above a file, without -p: Clang's search would open it.
    project = os.path.join(tmp, "fifo_db_project")
    os.makedirs(project)
    database = os.path.join(project, "compile_commands.json")
    os.mkfifo(database)
    source = write(os.path.join(project, "source.cpp"), GOOD_SOURCE)
    expect_one_error("FIFO as compile_commands.json found above a file", [source, good], database,
                     good, "not a regular file (it is a FIFO)")
    devices = os.path.join(tmp, "dev_db")
    os.makedirs(devices)
    os.symlink("/dev/zero", os.path.join(devices, "compile_commands.json"))
    expect_one_error("/dev/zero as compile_commands.json (-p)", ["-p", devices, good], devices,
                     good, "compile_commands.json is not a regular file (it is a character device)")


def test_memory_limit(tmp, good):
    # About 1 GB of string literal from macro expansion: Clang needs far more
    # than 512 MiB for it, the good file (bundled API model) far less.
    lines = [LOOP_TOKENS.strip(), '#define S0 "' + "x" * 1000 + '"']
    for level in range(1, 7):
        lines.append(f"#define S{level} " + " ".join([f"S{level - 1}"] * 10))
    lines.append("const char *big = S6;")
    hog = write(os.path.join(tmp, "hog.cpp"), "\n".join(lines) + "\n")
    expect_one_error("file over --memory-limit=512", ["--memory-limit=512", "--no-cache", hog, good],
                     hog, good, "exceeded the memory limit of 512 MiB", limit=120)
    # -j2: the limit is per child.
    expect_one_error("file over --memory-limit=512, -j2",
                     ["-j2", "--memory-limit=512", "--no-cache", hog, good],
                     hog, good, "exceeded the memory limit of 512 MiB", limit=120)
    result, _ = run("--memory-limit=0", "--timeout=0", good)
    check("--memory-limit=0 --timeout=0 (no limits): the file is analysed",
          result is not None and result.returncode == 1 and not error_lines(result),
          result and error_lines(result))


def test_timeout(tmp, good):
    # A constant expression that takes minutes to evaluate: the analysis of
    # this file stops at --timeout=10, and the error names the option.
    slow = write(os.path.join(tmp, "slow.cpp"), LOOP_TOKENS +
                 "constexpr long sum() { long s = 0; for (long i = 0; i < (1L << 40); ++i) "
                 "s += i % 7; return s; }\nstatic_assert(sum() != 1, \"\");\n")
    started = time.time()
    expect_one_error("file over --timeout=10", ["--timeout=10", slow, good, "--", "-std=c++17",
                                               "-fconstexpr-steps=2147483647"],
                     slow, good, "timed out after 10 s (--timeout")
    check("--timeout=10: the run ends soon after the limit", time.time() - started < 40,
          time.time() - started)


def test_usage(tmp, good):
    result, _ = run("--help")
    text = result.stdout.decode()
    check("--help documents the default time-out and memory limit",
          "--memory-limit=<MiB>" in text and "default 600" in text and "default 4096" in text,
          text)
    check("--help says the limits need isolation",
          "--timeout and --memory-limit cannot apply" in text, text)
    check("--help documents the input caps", "64 MiB" in text and "16 MiB" in text and
          "512 MiB" in text, text)
    for args in (["--memory-limit=lots"], ["--memory-limit=-5"], ["--timeout=-1"],
                 ["--memory-limit=100", "--no-isolation"]):
        result, _ = run(*args, good)
        errors = error_lines(result)
        check(f"{' '.join(args)}: a usage error", result.returncode == 2 and len(errors) == 1,
              errors)
    # The defaults do not stop --no-isolation.
    result, _ = run("--no-isolation", good)
    check("--no-isolation with the default limits: analysed",
          result.returncode == 1 and not error_lines(result), error_lines(result))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.path.realpath(tmp)
        good = write(os.path.join(tmp, "good.cpp"), GOOD_SOURCE)
        for test in (test_special_sources, test_special_config, test_special_databases,
                     test_memory_limit, test_timeout, test_usage):
            print(test.__name__)
            test(tmp, good)
    sys.exit(summary())


main()
