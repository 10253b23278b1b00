#!/usr/bin/env python3
"""Bad input never crashes gradlint: each bad input gives exactly one one-line
error naming it, exit status 2, and a good file in the same run is still
analysed (its finding appears). Also: crash isolation and --timeout through
the test hook, and inputs that are merely hostile (deep nesting, 5 MB).

Test hook: GRADLINT_TEST_CRASH_ON=<mode>:<substring>[,...] (mode segv, abort
or hang) makes the isolated child analysing a file whose path contains
<substring> crash or hang; without the variable it does nothing.

usage: badinput_tests.py <gradlint>
"""
import glob
import json
import os
import re
import random
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
GOOD_SOURCE = open(os.path.join(HERE, "..", "cli", "inputs", "buggy.cpp")).read()
# The bounded cases must end well within this; a hang fails the case.
RUN_LIMIT = 300


def run(*args, cwd=None, env=None, limit=RUN_LIMIT):
    started = time.time()
    try:
        result = subprocess.run([GRADLINT, *args], capture_output=True, cwd=cwd, env=env,
                                timeout=limit)
    except subprocess.TimeoutExpired:
        return None, time.time() - started
    return result, time.time() - started


def error_lines(result):
    text = result.stderr.decode("utf-8", "replace")
    return [line for line in text.splitlines() if ": error: " in line]


def expect_one_error(name, args, bad, good, cwd=None, env=None, message=None, limit=RUN_LIMIT):
    """One one-line error naming `bad`, exit 2, and `good`'s finding reported."""
    result, seconds = run(*args, cwd=cwd, env=env, limit=limit)
    if not check(f"{name}: finishes", result is not None, f"still running after {limit} s"):
        return None
    errors = error_lines(result)
    stdout = result.stdout.decode("utf-8", "replace")
    print(f"  {name}: exit {result.returncode} in {seconds:.1f} s; "
          f"{errors[0] if errors else 'no error'}")
    check(f"{name}: exit status 2", result.returncode == 2, result.returncode)
    check(f"{name}: exactly one error line", len(errors) == 1, errors)
    check(f"{name}: the error names the input", errors and errors[0].startswith(bad + ":"), errors)
    if message:
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


def test_unreadable_inputs(tmp, good):
    expect_one_error("missing file", [os.path.join(tmp, "missing.cpp"), good],
                     os.path.join(tmp, "missing.cpp"), good, message="No such file")
    os.makedirs(os.path.join(tmp, "adir"))
    expect_one_error("directory", [os.path.join(tmp, "adir"), good], os.path.join(tmp, "adir"),
                     good, message="directory")
    empty = write(os.path.join(tmp, "empty.cpp"), "")
    expect_one_error("empty file", [empty, good], empty, good, message="empty")
    rng = random.Random(1234)
    garbage = write(os.path.join(tmp, "garbage.cpp"),
                    bytes(rng.randrange(256) for _ in range(64 * 1024)) + b"\0")
    expect_one_error("binary garbage with NUL bytes", [garbage, good], garbage, good,
                     message="NUL")
    noisy = write(os.path.join(tmp, "noise.cpp"),
                  bytes(rng.randrange(1, 256) for _ in range(64 * 1024)))
    expect_one_error("binary garbage without NUL bytes", [noisy, good], noisy, good)


def test_non_utf8(tmp, good):
    # Latin-1 in a comment is fine for Clang: the file is analysed, the finding
    # on that very line reported, and every output format stays valid.
    comment = write(os.path.join(tmp, "latin1_comment.cpp"),
                    GOOD_SOURCE.encode().replace(b"opt.zero_grad();",
                                                 b"opt.zero_grad(); // caf\xe9 na\xefve \xff"))
    for fmt in ("json", "sarif"):
        result, _ = run(f"--format={fmt}", comment)
        try:
            document = json.loads(result.stdout)
        except ValueError as error:
            document = None
            check(f"Latin-1 comment: {fmt} output is valid JSON", False, error)
        else:
            check(f"Latin-1 comment: {fmt} output is valid JSON", True)
        check(f"Latin-1 comment: {fmt} reports the findings", result.returncode == 1,
              result.stderr[-300:])
    text, _ = run(comment)
    check("Latin-1 comment: text output shows the line's bytes", b"caf\xe9" in text.stdout)
    identifier = write(os.path.join(tmp, "latin1_identifier.cpp"),
                       b"int caf\xe9 = 1;\nint main() { return caf\xe9; }\n")
    expect_one_error("Latin-1 identifier", [identifier, good], identifier, good,
                     message="not valid UTF-8")


# The prefilter skips, unparsed, a file without the identifiers `step` and
# `backward`; these inputs declare both so that they are parsed.
LOOP_TOKENS = "void step(); void backward();\n"


def test_parse_failures(tmp, good):
    syntax = write(os.path.join(tmp, "syntax.cpp"), LOOP_TOKENS + "int main( { return 0 }\nclass {\n")
    expect_one_error("syntax errors", [syntax, good], syntax, good, message="does not parse")
    include = write(os.path.join(tmp, "include.cpp"),
                    '#include "no/such/header.h"\n' + LOOP_TOKENS + 'int x;\n')
    expect_one_error("missing include", [include, good], include, good, message="not found")


def test_deep_nesting(tmp, good):
    depth = 10000
    cases = {
        "braces": LOOP_TOKENS + "void f() " + "{" * depth + "}" * depth + "\n",
        "parentheses": LOOP_TOKENS + "int f(int x) { return " + "(" * depth + "x" + ")" * depth +
                       "; }\n",
    }
    for name, source in cases.items():
        path = write(os.path.join(tmp, f"deep_{name}.cpp"), source)
        # Clang's bracket-depth limit (256) makes these parse errors.
        expect_one_error(f"{depth}-deep {name}", [path, good], path, good, message="nesting")
    for isolation in ([], ["--no-isolation"]):
        ifs = write(os.path.join(tmp, "deep_ifs.cpp"),
                    LOOP_TOKENS + "void f(int x) {\n" + "if (x)\n" * depth + ";\n}\n")
        result, seconds = run(*isolation, ifs, good)
        label = f"{depth}-deep nested ifs{' (no isolation)' if isolation else ''}"
        print(f"  {label}: exit {result.returncode} in {seconds:.1f} s")
        check(f"{label}: analysed without error", result.returncode == 1 and not error_lines(result),
              error_lines(result) or result.returncode)
    # A training loop whose zero_grad() sits 2000 ifs deep: parses, and the
    # model's recursive visitors reach it without overflowing the stack.
    head, tail = GOOD_SOURCE.split("    opt.zero_grad();\n")
    loop = write(os.path.join(tmp, "deep_loop.cpp"),
                 head.replace("std::vector<torch::Tensor> &xs)", "std::vector<torch::Tensor> &xs, int x)")
                 + "    if (x)\n" * 2000 + "      opt.zero_grad();\n    opt.zero_grad();\n" + tail)
    for isolation in ([], ["--no-isolation"]):
        result, seconds = run(*isolation, "--format=json", loop, good)
        label = f"2000-deep ifs in a training loop{' (no isolation)' if isolation else ''}"
        document = json.loads(result.stdout) if result.returncode in (0, 1) else {}
        print(f"  {label}: exit {result.returncode} in {seconds:.1f} s")
        check(f"{label}: no error", result.returncode == 1 and not document.get("errors"),
              result.stderr[-300:])
        check(f"{label}: the loop's findings are reported",
              any(d["file"] == loop for d in document.get("diagnostics", [])), document)


def test_big_source(tmp, good):
    function = GOOD_SOURCE.split("\n", 1)[1]
    parts, size, index = ["#include <torch/torch.h>\n"], 0, 0
    while size < 5 * 1024 * 1024:
        part = function.replace("void train(", f"void train_{index}(")
        parts.append(part)
        size += len(part)
        index += 1
    big = write(os.path.join(tmp, "big.cpp"), "".join(parts))
    result, seconds = run("--format=json", big, good, limit=600)
    if not check("5 MB source: finishes within 600 s", result is not None):
        return
    document = json.loads(result.stdout)
    findings = sum(d["file"] == big for d in document["diagnostics"])
    print(f"  5 MB source ({index} training loops): exit {result.returncode} in {seconds:.1f} s, "
          f"{findings} findings")
    check("5 MB source: every loop's two findings", findings == 2 * index, findings)
    # No speed bound here (the time is printed): the suite also runs under
    # ASan on a loaded machine; 600 s is the hang guard.


def write_database(tmp, name, content):
    directory = os.path.join(tmp, "db", name)
    os.makedirs(directory, exist_ok=True)
    write(os.path.join(directory, "compile_commands.json"),
          content if isinstance(content, (str, bytes)) else json.dumps(content))
    return directory


def test_compilation_databases(tmp, good):
    target = write(os.path.join(tmp, "target.cpp"), GOOD_SOURCE)
    unloadable = {
        "not JSON": "this is { not json",
        "an object, not an array": {"directory": tmp},
        "\"arguments\": 5": [{"directory": tmp, "file": target, "arguments": 5}],
        "missing command": [{"directory": tmp, "file": target}],
        "missing file": [{"directory": tmp, "command": "c++ -c x.cpp"}],
        "binary": bytes(range(256)),
        # nlohmann throws out_of_range, not parse_error, here: it ended the process.
        "a number out of range": '[{"directory": "/tmp", "command": "c++ -c x.cpp", '
                                 '"file": "x.cpp", "weight": 555e555}]',
    }
    for name, content in unloadable.items():
        directory = write_database(tmp, name.replace(" ", "_").replace('"', ""), content)
        expect_one_error(f"compile_commands.json: {name}", ["-p", directory, good], directory, good,
                         message="cannot load compile_commands.json")
    # The same databases found by gradlint itself (no -p): beside the source, or
    # in build/ of a directory above it. They crashed the run (SIGSEGV in
    # inferMissingCompileCommands) and every other file's result was lost.
    valid = [{"directory": tmp, "file": target, "command": f"c++ -std=c++17 -c {target}"}]
    discovered = dict(unloadable)
    # A CMake configure that has written part of the file.
    discovered["half-written"] = json.dumps(valid)[:40]
    for index, (name, content) in enumerate(discovered.items()):
        for layout in ("beside the source", "in build/ above it"):
            project = os.path.join(tmp, "found", f"{index}_{layout.split()[1].rstrip('/')}")
            database_dir = os.path.join(project, "build" if "build" in layout else "src")
            os.makedirs(os.path.join(project, "src"), exist_ok=True)
            os.makedirs(database_dir, exist_ok=True)
            database = write(os.path.join(database_dir, "compile_commands.json"),
                             content if isinstance(content, (str, bytes)) else json.dumps(content))
            source = write(os.path.join(project, "src", "train.cpp"), GOOD_SOURCE)
            expect_one_error(f"compile_commands.json found {layout}: {name}", [source, good],
                             database, good, message="cannot load compile_commands.json")
    # Loadable but odd: the files are still analysed, with no error.
    good_entry = {"directory": os.path.dirname(good), "file": good,
                  "command": f"c++ -std=c++17 -c {good}"}
    odd = {
        "\"file\": null": [{"directory": tmp, "file": None, "command": "c++ -c x.cpp"}, good_entry],
        "directory that does not exist": [
            {"directory": "/nowhere/at/all", "file": target, "command": f"c++ -std=c++17 -c {target}"},
            good_entry],
        "relative directory and file": [
            {"directory": "rel/dir", "file": "target.cpp", "command": "c++ -c target.cpp"}, good_entry],
        "entries for files outside the tree": [
            {"directory": "/", "file": "/etc/passwd", "command": "c++ -c /etc/passwd"},
            {"directory": "/", "file": "../../../../etc/shadow", "command": "c++ -c x"}, good_entry],
        "a huge command line": [
            {"directory": tmp, "file": target,
             "arguments": ["c++", "-std=c++17"] + [f"-DMACRO_{i}=value_{i}" for i in range(200000)]
             + ["-c", target]}, good_entry],
    }
    for name, content in odd.items():
        directory = write_database(tmp, name.replace(" ", "_").replace('"', "").replace(":", ""),
                                   content)
        result, seconds = run("--format=json", "-p", directory, target, good)
        if not check(f"compile_commands.json: {name}: finishes", result is not None):
            continue
        document = json.loads(result.stdout)
        files = {d["file"] for d in document["diagnostics"]}
        print(f"  compile_commands.json: {name}: exit {result.returncode} in {seconds:.1f} s; "
              f"errors {document['errors']}")
        check(f"compile_commands.json: {name}: both files analysed, no error",
              result.returncode == 1 and not document["errors"] and files == {target, good},
              (document["errors"], files))
    # Shell metacharacters are compiler arguments, never run by a shell.
    marker = os.path.join(tmp, "PWNED")
    command = (f"c++ -c {target}; touch {marker}1 $(touch {marker}2) `touch {marker}3` "
               f"| tee {marker}4 && touch {marker}5")
    directory = write_database(tmp, "shell", [{"directory": tmp, "file": target, "command": command},
                                              good_entry])
    expect_one_error("compile_commands.json: shell metacharacters", ["-p", directory, target, good],
                     target, good, message="unusable compile command")
    check("shell metacharacters: nothing was executed",
          not [f for f in os.listdir(tmp) if f.startswith("PWNED")], os.listdir(tmp))


def test_response_files(tmp, good):
    """A response file's text never reaches an output: the messages name the
    @argument instead. Response files that work still work; FIFOs, /dev/zero and
    loops of files naming each other are not read."""
    target = write(os.path.join(tmp, "rsp_target.cpp"), GOOD_SOURCE)
    secret = write(os.path.join(tmp, "secret.txt"),
                   "root:$y$j9T$TOPSECRETHASH:19000:0:99999:7:::\n-DTOKEN=hunter2secret\n"
                   "-fbogus-SECRETFLAG\n")
    flags = write(os.path.join(tmp, "flags.rsp"), "-std=c++17 '-DQUOTED=a b' @nested.rsp\n")
    write(os.path.join(tmp, "nested.rsp"), "-DDEPTH=2\n")
    loop = write(os.path.join(tmp, "loop.rsp"), "@loop.rsp\n")
    fifo = os.path.join(tmp, "fifo.rsp")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    for name, response in (("secret", secret), ("loop", loop), ("fifo", fifo),
                           ("/dev/zero", "/dev/zero")):
        directory = write_database(tmp, "rsp_" + name.replace("/", ""), [
            {"directory": tmp, "file": target, "command": f"c++ -c @{response} {target}"}])
        for output in ("--format=json", "--format=sarif", "--format=text"):
            result, seconds = run(output, "-p", directory, target, limit=120)
            if not check(f"response file {name} ({output}): finishes", result is not None):
                continue
            everything = (result.stdout + result.stderr).decode("utf-8", "replace")
            leaked = [word for word in ("TOPSECRETHASH", "hunter2secret", "SECRETFLAG", "root:")
                      if word in everything]
            check(f"response file {name} ({output}): no contents in the output", not leaked,
                  (leaked, everything[-400:]))
            check(f"response file {name} ({output}): the file is still analysed",
                  result.returncode in (1, 2) and "accum-misplaced-zero-grad" in everything,
                  everything[-400:])
            if name == "secret" and output == "--format=text":
                check("response file secret: the error names the @argument",
                      f"@{secret}" in everything, everything[-400:])
    # A response file that works: its nested file and quoting too.
    directory = write_database(tmp, "rsp_working", [
        {"directory": tmp, "file": target, "command": f"c++ @{flags} -c {target}"}])
    result, _ = run("--format=json", "-p", directory, target, limit=120)
    document = json.loads(result.stdout) if result and result.stdout else {}
    check("working response files: no error, the finding reported",
          result is not None and result.returncode == 1 and not document.get("errors"),
          document.get("errors"))


def test_configuration(tmp, good):
    project = os.path.join(tmp, "project")
    os.makedirs(project)
    config = write(os.path.join(project, ".gradlint.yaml"), "Checks: [unclosed\n  : :\n")
    source = write(os.path.join(project, "source.cpp"), GOOD_SOURCE)
    expect_one_error("malformed .gradlint.yaml", [source, good], config, good)
    other = os.path.join(tmp, "other")
    os.makedirs(other)
    config = write(os.path.join(other, ".gradlint.yaml"), "Checks: '-*,accum-no-such-check'\n")
    source = write(os.path.join(other, "source.cpp"), GOOD_SOURCE)
    expect_one_error("unknown check in .gradlint.yaml", [source, good], config, good,
                     message="accum-no-such-check")
    # On the command line an unknown check is a usage error: nothing runs.
    result, _ = run("--checks=-*,accum-no-such-check", good)
    errors = error_lines(result)
    check("unknown check in --checks: exit 2 and one error naming it",
          result.returncode == 2 and len(errors) == 1 and "accum-no-such-check" in errors[0], errors)
    for args in (["--timeout=soon"], ["--timeout=-1"], ["--timeout=5", "--no-isolation"]):
        result, _ = run(*args, good)
        errors = error_lines(result)
        check(f"{' '.join(args)}: a usage error", result.returncode == 2 and len(errors) == 1,
              errors)


def test_read_only_fix(tmp, good):
    fixable = write(os.path.join(tmp, "fixable.cpp"), GOOD_SOURCE)
    locked = write(os.path.join(tmp, "locked.cpp"), GOOD_SOURCE)
    os.chmod(locked, stat.S_IRUSR | stat.S_IRGRP)
    result = expect_one_error("read-only file with --fix", ["--fix", locked, fixable, good],
                              locked, good, message="read-only")
    os.chmod(locked, stat.S_IRUSR | stat.S_IWUSR)
    check("read-only file untouched", open(locked).read() == GOOD_SOURCE)
    check("the writable file was fixed", open(fixable).read() != GOOD_SOURCE)


def test_crash_and_timeout(tmp, good):
    crashing = write(os.path.join(tmp, "crashes_here.cpp"), GOOD_SOURCE)
    aborting = write(os.path.join(tmp, "aborts_here.cpp"), GOOD_SOURCE)
    hanging = write(os.path.join(tmp, "hangs_here.cpp"), GOOD_SOURCE)
    env = dict(os.environ, GRADLINT_TEST_CRASH_ON="segv:crashes_here,abort:aborts_here,"
                                                  "hang:hangs_here")
    expect_one_error("crash in one TU", [crashing, good], crashing, good, env=env,
                     message="analysis crashed (Segmentation fault); the other files were analysed")
    crash_result = expect_one_error("abort in one TU", ["-j2", aborting, good], aborting, good,
                                    env=env, message="analysis crashed (Aborted)")
    log = re.search(r"its output \(a stack trace\) is in (\S+)$", error_lines(crash_result)[0])
    check("crash: the error names a log with the child's stack trace",
          log is not None and os.path.exists(log.group(1)) and
          re.search(r"^ *#\d+ 0x[0-9a-f]+ ", open(log.group(1)).read(), re.M) is not None,
          error_lines(crash_result))
    if log:
        mode = os.stat(log.group(1)).st_mode & 0o777
        check("crash: the log is readable by its owner only (it quotes the user's code)",
              mode == 0o600, oct(mode))
        os.remove(log.group(1))
    started = time.time()
    expect_one_error("time-out in one TU", ["--timeout=2", hanging, good], hanging, good, env=env,
                     message="analysis timed out after 2 s", limit=60)
    check("time-out: the run ends soon after the limit", time.time() - started < 30,
          time.time() - started)
    # All three at once, in parallel, in JSON: three errors, the good file's findings.
    result, _ = run("--format=json", "-j3", "--timeout=2", crashing, aborting, hanging, good,
                    env=env, limit=60)
    document = json.loads(result.stdout)
    check("crash, abort and time-out together: three errors",
          sorted(e["file"] for e in document["errors"]) == sorted([crashing, aborting, hanging]),
          document["errors"])
    check("crash, abort and time-out together: the good file analysed",
          {d["file"] for d in document["diagnostics"]} == {good}, document["diagnostics"])
    # Without the variable the hook is inert.
    result, _ = run(crashing, good)
    check("without the test variable nothing crashes", result.returncode == 1 and
          not error_lines(result), error_lines(result))


def test_isolation_matches_in_process(tmp, good):
    """Whatever crosses the process boundary (findings, notes, fix-its,
    confirmations, plots' traces, loop runs, the model dump, real paths for
    de-duplication, the API-model note) gives the same output in-process."""
    examples = sorted(glob.glob(os.path.join(HERE, "..", "..", "examples", "*.cpp")))
    outputs = {}
    for mode in ("isolated", "in-process"):
        flags = ["--no-isolation"] if mode == "in-process" else []
        out = os.path.join(tmp, mode)
        os.makedirs(out)
        files = {name: os.path.join(out, name) for name in ("plot.svg", "runs.json", "fixes.yaml")}
        first, seconds = run(*flags, "-j2", "--format=sarif", "--confirm", "--backend=cpu",
                             f"--plot={files['plot.svg']}", f"--emit-runs={files['runs.json']}",
                             f"--export-fixes={files['fixes.yaml']}", *examples)
        second, _ = run(*flags, "--format=json", "--dump-model", *examples, good)
        text, _ = run(*flags, *examples, good)
        runs = json.load(open(files["runs.json"]))
        for entry in runs:
            entry.pop("seconds")  # a timing
        outputs[mode] = {"sarif": first.stdout, "exit": (first.returncode, second.returncode),
                         "dump-model and json": second.stdout, "text": text.stdout,
                         "stderr": text.stderr, "plot": open(files["plot.svg"], "rb").read(),
                         "emitted runs": runs,
                         "exported fixes": open(files["fixes.yaml"]).read().replace(mode, "")}
        print(f"  {mode}: --confirm --plot --emit-runs on the examples in {seconds:.1f} s")
    for key, value in outputs["isolated"].items():
        check(f"isolated and in-process give the same {key}", value == outputs["in-process"][key],
              f"{str(value)[:200]} != {str(outputs['in-process'][key])[:200]}")
    check("the comparison covers confirmations and fix-its",
          b'"confirmation"' in outputs["isolated"]["sarif"] or b"confirmed" in
          outputs["isolated"]["sarif"], outputs["isolated"]["sarif"][:200])
    check("the comparison covers fix-its", "ReplacementText" in outputs["isolated"]["exported fixes"]
          or "Replacement" in outputs["isolated"]["exported fixes"],
          outputs["isolated"]["exported fixes"][:200])
    check("the comparison covers loop runs", len(outputs["isolated"]["emitted runs"]) > 0)
    check("the comparison covers the model dump",
          outputs["isolated"]["dump-model and json"].count(b"== ") >= len(examples))
    # The cost of isolation: one process start per file.
    timings = {}
    for mode, flags in (("isolated", []), ("in-process", ["--no-isolation"])):
        started = time.time()
        run(*flags, *examples)
        timings[mode] = time.time() - started
    print(f"  {len(examples)} examples, -j1: isolated {timings['isolated']:.2f} s, "
          f"in-process {timings['in-process']:.2f} s "
          f"({(timings['isolated'] - timings['in-process']) / len(examples) * 1000:+.0f} ms per file)")


# Three groups, each its own ctest test (bad-input/<group>), so that a loaded
# or sanitized run spreads them over both cores and times them apart.
GROUPS = {
    "inputs": (test_unreadable_inputs, test_non_utf8, test_parse_failures, test_deep_nesting),
    # Thousands of training loops in one file: the release build's (under ASan
    # it alone took most of 10 minutes on a loaded machine).
    "big": (test_big_source,),
    "databases": (test_compilation_databases, test_response_files, test_configuration),
    "processes": (test_read_only_fix, test_crash_and_timeout, test_isolation_matches_in_process),
}


def main():
    names = sys.argv[2:] or list(GROUPS)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.path.realpath(tmp)
        for test in (t for name in names for t in GROUPS[name]):
            print(test.__name__)
            # Afresh for each test: --fix changes it.
            good = write(os.path.join(tmp, "good.cpp"), GOOD_SOURCE)
            test(tmp, good)
    sys.exit(summary())


main()
