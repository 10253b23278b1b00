#!/usr/bin/env python3
"""Command-line behaviour of gradlint: exit codes, errors, the JSON contract,
check selection, compilation databases, header de-duplication and -j.

usage: cli_tests.py <gradlint>
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
BUGGY = os.path.join(HERE, "inputs", "buggy.cpp")
CLEAN = os.path.join(HERE, "inputs", "clean.cpp")


def run(*args, cwd=None):
    return subprocess.run([GRADLINT, *args], capture_output=True, text=True, cwd=cwd)


def test_exit_codes():
    check("clean file exits 0", run(CLEAN).returncode == 0)
    buggy = run(BUGGY)
    check("findings exit 1", buggy.returncode == 1, buggy.stderr)
    check("usage error exits 2", run("--no-such-flag", CLEAN).returncode == 2)
    check("no input exits 2", run().returncode == 2)


def test_text_format():
    out = run(BUGGY).stdout.splitlines()
    warnings = [l for l in out if ": warning: " in l]
    check("text has clang-style warnings", len(warnings) == 2, out)
    first = warnings[0] if warnings else ""
    check("warning names file:line:col and [check]",
          first.startswith(BUGGY + ":") and first.endswith("[accum-misplaced-zero-grad]"), first)
    index = out.index(first) if first in out else 0
    check("source line and caret follow", len(out) > index + 2 and out[index + 2].strip() == "^",
          out[index:index + 3])
    check("notes follow", any(": note: accumulation window" in l for l in out))
    check("a note says the fix", any(": note: fix:" in l for l in out))


def test_json_contract():
    result = run("--format=json", BUGGY, CLEAN)
    document = json.loads(result.stdout)
    check("json top-level keys",
          set(document) == {"diagnostics", "errors", "notes", "files", "hidden_conditional"},
          document.keys())
    check("json file count", document["files"] == 2)
    diagnostic = document["diagnostics"][0]
    check("json diagnostic keys",
          set(diagnostic) - {"fix"} == {"check", "severity", "file", "line", "column", "message",
                                        "conditional", "notes"}, diagnostic.keys())
    if "fix" in diagnostic:
        check("json fix keys", set(diagnostic["fix"]) == {"description", "safe", "edits"},
              diagnostic["fix"].keys())
    check("json note keys", set(diagnostic["notes"][0]) == {"file", "line", "column", "message"})
    check("json severity", diagnostic["severity"] == "warning")


def test_errors_do_not_stop_the_run():
    with tempfile.TemporaryDirectory() as tmp:
        broken = os.path.join(tmp, "broken.cpp")
        with open(broken, "w") as f:
            # step and backward: the prefilter would skip a file without a training loop.
            f.write("int main() { step(); backward(); return 0 }\n")
        empty = os.path.join(tmp, "empty.cpp")
        open(empty, "w").close()
        missing = os.path.join(tmp, "missing.cpp")
        result = run("--format=json", missing, tmp, broken, empty, BUGGY)
        document = json.loads(result.stdout)
        check("errors exit 2", result.returncode == 2)
        errors = {e["file"]: e["message"] for e in document["errors"]}
        check("missing file error", "No such file" in errors.get(missing, ""), errors)
        check("directory error", "directory" in errors.get(tmp, ""), errors)
        located = [e for e in document["errors"] if e["file"] == broken]
        check("parse error names the line and column",
              located and located[0].get("line") == 1 and located[0].get("column"), located)
        check("empty file error", "empty" in errors.get(empty, ""), errors)
        check("other files still analysed", len(document["diagnostics"]) == 2, document)
        text = run(missing, BUGGY)
        lines = [l for l in text.stderr.splitlines() if "error" in l]
        check("one-line error on stderr", lines == [f"{missing}: error: cannot open file: "
                                                     "No such file or directory"], lines)


def test_check_selection():
    only = run("--format=json", "--checks=-*,accum-missing-loss-division", BUGGY)
    checks = {d["check"] for d in json.loads(only.stdout)["diagnostics"]}
    check("--checks selects", checks == {"accum-missing-loss-division"}, checks)
    unknown = run("--checks=-*,accum-nope", BUGGY)
    check("unknown check is an error", unknown.returncode == 2 and "accum-nope" in unknown.stderr,
          unknown.stderr)
    listed = run("--list-checks").stdout
    every = run("--list-checks", "--checks=*").stdout
    ids = lambda text: [l.split()[0] for l in text.splitlines() if l.strip().startswith("accum-")]
    check("--list-checks lists every registered check by default",
          ids(listed) and ids(listed) == ids(every), listed)
    disabled = run("--checks=-accum-*", BUGGY)
    check("all disabled gives exit 0", disabled.returncode == 0, disabled.stdout)


def test_compilation_database_and_dedup():
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        os.makedirs(src)
        os.makedirs(os.path.join(tmp, "include"))
        shutil.copy(os.path.join(HERE, "inputs", "shared_loop.h"), os.path.join(tmp, "include"))
        for name in ("a.cpp", "b.cpp"):
            with open(os.path.join(src, name), "w") as f:
                f.write('#include "shared_loop.h"\nint use_%s() { return 0; }\n' % name[0])
        build = os.path.join(tmp, "build")
        os.makedirs(build)
        commands = [{"directory": tmp, "file": f"src/{n}",
                     "command": f"c++ -std=c++17 -Iinclude -c src/{n} -o {n}.o"}
                    for n in ("a.cpp", "b.cpp")]
        with open(os.path.join(build, "compile_commands.json"), "w") as f:
            json.dump(commands, f)
        files = [os.path.join(src, "a.cpp"), os.path.join(src, "b.cpp")]
        result = run("--format=json", "-p", build, "-j", "2", *files)
        document = json.loads(result.stdout)
        check("-p finds the include directory", not document["errors"], document["errors"])
        check("header finding reported once across TUs", len(document["diagnostics"]) == 1,
              document["diagnostics"])
        # Without -p: the database above the file is found automatically.
        shutil.copy(os.path.join(build, "compile_commands.json"), tmp)
        auto = json.loads(run("--format=json", *files).stdout)
        check("compile_commands.json above the file is used", not auto["errors"] and
              len(auto["diagnostics"]) == 1, auto)
        # A file missing from the database gets a command inferred from its
        # neighbours, which ends in "-- <file>": the PCH options go before it.
        other = os.path.join(src, "not_in_db.cpp")
        shutil.copy(BUGGY, other)
        cache = os.path.join(tmp, "cache")
        inferred = [run("--verbose", "--no-result-cache", f"--cache-dir={cache}", "-p", build, other)
                    for _ in range(2)]
        check("inferred command: the preamble is built, then reused",
              "0 reused, 1 built, 0 failed" in inferred[0].stderr and
              "1 reused, 0 built, 0 failed" in inferred[1].stderr and
              all(r.returncode == 1 for r in inferred), [r.stderr for r in inferred])
        broken_db = run("-p", os.path.join(tmp, "nowhere"), files[0])
        check("unusable -p is an error", broken_db.returncode == 2 and "nowhere" in broken_db.stderr,
              broken_db.stderr)


def test_api_model_note():
    result = run(BUGGY)
    check("api model note on stderr", "bundled LibTorch API model" in result.stderr, result.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "plain.cpp")
        with open(plain, "w") as f:
            f.write("#include <vector>\nint sum(const std::vector<int> &v) { return v.size(); }\n"
                    "void step() {}\nvoid backward() {}\n")  # not skipped by the prefilter
        without_torch = run("--no-cache", plain, "--", "-std=c++17")
        check("no api model note for a file that does not include torch",
              without_torch.returncode == 0 and "API model" not in without_torch.stderr,
              without_torch.stderr)


def test_progress_line():
    # On a terminal (stderr is a pty) a multi-file run shows "[done/total] file"
    # and erases it; in a pipe there is none of it.
    import pty
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm")
    process = subprocess.Popen([GRADLINT, BUGGY, CLEAN], stdout=subprocess.PIPE,
                               stderr=slave, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the pty closes when the process exits
            break
        if not chunk:
            break
        chunks.append(chunk)
    stdout = process.communicate()[0].decode()
    os.close(master)
    terminal = b"".join(chunks).decode(errors="replace")
    check("terminal: progress names each file with done/total",
          "[0/2] " + BUGGY in terminal or "[1/2] " + BUGGY in terminal, terminal[:300])
    check("terminal: progress counts files done", "/2] " + CLEAN in terminal, terminal[:300])
    check("terminal: the progress line is erased", terminal.rstrip().count("\033[K") >= 3, terminal)
    check("terminal: the report on stdout has no progress", "/2]" not in stdout, stdout[:200])
    piped = run(BUGGY, CLEAN)
    check("pipe: no progress line", "/2]" not in piped.stderr and "\033[K" not in piped.stderr,
          piped.stderr)


def test_database_in_build_directory():
    """clangd's layout: the database in build/ beside a directory above the
    file, found without -p; without one, an include that is not found says
    where gradlint looked and names -p."""
    with tempfile.TemporaryDirectory() as tmp:
        project = os.path.join(tmp, "proj")
        src = os.path.join(project, "src", "loops")
        os.makedirs(src)
        os.makedirs(os.path.join(project, "include", "proj"))
        shutil.copy(os.path.join(HERE, "inputs", "shared_loop.h"),
                    os.path.join(project, "include", "proj", "trainer.h"))
        source = os.path.join(src, "train.cpp")
        with open(BUGGY) as f:
            loop = f.read()
        with open(source, "w") as f:
            f.write('#include "proj/trainer.h"\n' + loop)
        missing = run("--format=json", source)
        document = json.loads(missing.stdout)
        message = " ".join(e["message"] for e in document["errors"])
        check("no database: the include is an error", missing.returncode == 2 and
              "'proj/trainer.h' file not found" in message, document)
        check("... whose one line names -p and where gradlint looked",
              "pass -p <build directory>" in message and "build/" in message and
              "\n" not in message, message)
        build = os.path.join(project, "build")
        os.makedirs(build)
        with open(os.path.join(build, "compile_commands.json"), "w") as f:
            json.dump([{"directory": build, "file": source,
                        "command": f"c++ -std=c++17 -I{project}/include -c {source}"}], f)
        found = json.loads(run("--format=json", source).stdout)
        check("build/compile_commands.json beside a parent directory is used",
              not found["errors"] and len(found["diagnostics"]) >= 2 and
              any(d["file"].endswith("trainer.h") for d in found["diagnostics"]), found)
        # A database nearer the file wins over build/ higher up.
        with open(os.path.join(src, "compile_flags.txt"), "w") as f:
            f.write("-std=c++17\n-DNOTHING\n")
        nearer = json.loads(run("--format=json", source).stdout)
        check("a nearer database wins over build/ above",
              any("file not found" in e["message"] for e in nearer["errors"]), nearer)


def test_output_conventions():
    """--output-file, --exit-zero, --color and --statistics, as ruff has them."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        written = run("--format=json", "--output-file", report, BUGGY)
        with open(report) as f:
            document = json.load(f)
        check("--output-file: the report is in the file, stdout is empty",
              written.stdout == "" and len(document["diagnostics"]) >= 1, written.stdout)
        check("--output-file: the exit status still counts findings", written.returncode == 1)
        # A report that cannot be written: an error, exit 2, and nothing half written.
        blocked = os.path.join(tmp, "no-such-dir", "report.txt")
        failed = run("-o", blocked, BUGGY)
        check("--output-file into a missing directory: exit 2, one error naming it",
              failed.returncode == 2 and blocked in failed.stderr and
              failed.stderr.count("error:") == 1, failed.stderr)
        check("--exit-zero: findings exit 0", run("--exit-zero", BUGGY).returncode == 0)
        bad = os.path.join(tmp, "bad.cpp")
        with open(bad, "w") as f:
            f.write("int main( {\n")
        check("--exit-zero: errors still exit 2",
              run("--exit-zero", "--no-prefilter", bad).returncode == 2)
        colored = run("--color=always", BUGGY).stdout
        plain = run("--color=never", BUGGY).stdout
        check("--color=always colors a pipe", "\033[" in colored, colored[:200])
        check("--color=never and a pipe: no color", "\033[" not in plain and
              "\033[" not in run(BUGGY).stdout, plain[:200])
        check("--color=auto on a pipe: no color", "\033[" not in run("--color=auto", BUGGY).stdout)
        check("--color=bogus: a usage error", run("--color=bogus", BUGGY).returncode == 2)
        stats = run("--statistics", BUGGY, CLEAN)
        findings = json.loads(run("--format=json", BUGGY, CLEAN).stdout)["diagnostics"]
        counts = {}
        for finding in findings:
            counts[finding["check"]] = counts.get(finding["check"], 0) + 1
        lines = stats.stdout.strip().splitlines()
        check("--statistics: one line per check with its count, and a total",
              len(lines) == len(counts) + 1 and
              all(any(line.split()[:2] == [str(n), c] for line in lines)
                  for c, n in counts.items()) and
              lines[-1].split()[0] == str(len(findings)), (stats.stdout, counts))
        check("--statistics: exit status as without it", stats.returncode == 1)
        table = json.loads(run("--statistics", "--format=json", BUGGY).stdout)
        check("--statistics --format=json: check, count, fixable",
              {row["check"]: row["count"] for row in table} == counts and all(
                  set(row) == {"check", "count", "conditional", "fixable", "fixable_unsafe"}
                  for row in table),
              table)
        check("--statistics with SARIF: a usage error",
              run("--statistics", "--format=sarif", BUGGY).returncode == 2)


def test_conditional_findings():
    """A finding that holds only for values the code does not show is hidden unless
    --inconclusive (or `Inconclusive: true`) asks for it, and marked in every format."""
    source = os.path.join(HERE, "inputs", "trailing_two_loops.cpp")
    trailing = "[accum-trailing-micro-batches]"
    default = run("--checks=-*,accum-trailing-micro-batches", source)
    shown = [l for l in default.stdout.splitlines() if l.endswith(trailing)]
    check("conditional: only the definite finding by default",
          len(shown) == 1 and ":26:" in shown[0] and "(conditional)" not in shown[0] and
          "runs 10 batches" in shown[0], default.stdout)
    check("conditional: stderr says one was left out",
          "1 conditional finding not shown" in default.stderr, default.stderr)
    check("conditional: a definite finding still fails the run", default.returncode == 1)
    both = run("--checks=-*,accum-trailing-micro-batches", "--inconclusive", source)
    marked = [l for l in both.stdout.splitlines() if l.endswith(trailing)]
    check("--inconclusive: both, the conditional one marked",
          len(marked) == 2 and ":12:" in marked[0] and ": warning: (conditional) " in marked[0] and
          "(conditional)" not in marked[1], both.stdout)
    document = json.loads(run("--checks=-*,accum-trailing-micro-batches", "--format=json",
                              source).stdout)
    check("json: hidden_conditional counts what was left out",
          document["hidden_conditional"] == 1 and
          [d["conditional"] for d in document["diagnostics"]] == [False], document)
    sarif = json.loads(run("--checks=-*,accum-trailing-micro-batches", "--inconclusive",
                           "--format=sarif", source).stdout)
    results = sarif["runs"][0]["results"]
    check("sarif: conditional is kind review, level none; definite is kind fail",
          [(r["kind"], r["level"]) for r in results] == [("review", "none"), ("fail", "warning")]
          and results[0]["properties"]["conditional"] is True, results)
    stats = run("--checks=-*,accum-trailing-micro-batches", "--inconclusive", "--statistics",
                source)
    check("--statistics: the conditional share per check",
          "2  accum-trailing-micro-batches  1 conditional" in stats.stdout, stats.stdout)
    hidden = run("--checks=-*,accum-trailing-micro-batches", "--statistics", source)
    check("--statistics: the hidden ones counted",
          "1  conditional finding not shown" in hidden.stdout, hidden.stdout)
    github = run("--checks=-*,accum-trailing-micro-batches", "--inconclusive", "--format=github",
                 source).stdout.splitlines()
    check("github: conditional is a notice", [l.split(" ")[0] for l in github] ==
          ["::notice", "::warning"], github)
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "train.cpp")
        shutil.copy(source, copy)
        with open(os.path.join(tmp, ".gradlint.yaml"), "w") as f:
            f.write("Checks: '-*,accum-trailing-micro-batches'\nInconclusive: true\n")
        configured = run(copy)
        check("Inconclusive: true in .gradlint.yaml shows both",
              len([l for l in configured.stdout.splitlines() if l.endswith(trailing)]) == 2,
              configured.stdout)
        check("--dump-config shows Inconclusive",
              "Inconclusive: true" in run("--dump-config", copy).stdout)
        with open(os.path.join(tmp, ".gradlint.yaml"), "w") as f:
            f.write("Inconclusive: maybe\n")
        bad = run(copy)
        check("Inconclusive: a non-boolean is a one-line error, exit 2",
              bad.returncode == 2 and "Inconclusive must be true or false" in bad.stderr,
              bad.stderr)


for test in [test_exit_codes, test_text_format, test_json_contract, test_errors_do_not_stop_the_run,
             test_check_selection, test_compilation_database_and_dedup, test_api_model_note,
             test_progress_line, test_database_in_build_directory, test_output_conventions,
             test_conditional_findings]:
    test()
sys.exit(summary())
