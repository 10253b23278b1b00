#!/usr/bin/env python3
"""The precompiled-preamble cache and the prefilter: the same findings with
and without the cache, invalidation by header content and flags, corrupt
cache files, two processes on one cache, an unusable cache directory, the
prefilter's skips (never a positive case or a buggy example), and the size
limit (--cache-max-size): least recently used entries evicted, a hit
refreshing recency, foreign files never touched, 0 for no limit.

usage: cache_tests.py <gradlint> <source dir> [pch|prefilter|faults|limits ...]
"""
import fcntl
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
SOURCE = os.path.abspath(sys.argv[2])
REAL_TORCH = "/usr/include/torch/csrc/api/include"


def run(*args, cwd=None, results=False):
    """gradlint; the PCH tests leave the result cache out (a hit would skip the parse)."""
    return subprocess.run([GRADLINT, *([] if results else ["--no-result-cache"]), *args],
                          capture_output=True, text=True, cwd=cwd)


def findings(result):
    """What a run found, comparable across runs."""
    try:
        document = json.loads(result.stdout)
    except json.JSONDecodeError:
        return ("unparsable", result.stdout, result.stderr)
    return (result.returncode, json.dumps(document["diagnostics"], sort_keys=True),
            json.dumps(document["errors"], sort_keys=True))


def pch_files(cache):
    return sorted(glob.glob(os.path.join(cache, "*.pch")))


LOOP_HEADER = """// A training loop in a project header, in the include prefix.
#pragma once
#include <torch/torch.h>

inline void header_train(torch::nn::Linear model, torch::optim::SGD &opt,
                         std::vector<torch::Tensor> &xs) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
#ifdef DIVIDE
    auto loss = model->forward(xs[i]).sum() / accum_steps;
#else
    auto loss = model->forward(xs[i]).sum();
#endif
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
"""
MAIN = """// Uses the header's loop.
#include <torch/torch.h>
#include "loop.h"

int main() { return 0; }
"""


def project(tmp):
    with open(os.path.join(tmp, "loop.h"), "w") as f:
        f.write(LOOP_HEADER)
    main = os.path.join(tmp, "main.cpp")
    with open(main, "w") as f:
        f.write(MAIN)
    return main


def test_identical_findings():
    files = sorted(glob.glob(os.path.join(SOURCE, "examples", "*.cpp")))
    for check_dir in sorted(glob.glob(os.path.join(SOURCE, "test_cases", "accum-*")))[:3]:
        files += sorted(glob.glob(os.path.join(check_dir, "positive_*.cpp")))[:1]
        files += sorted(glob.glob(os.path.join(check_dir, "negative_*.cpp")))[:1]
    with tempfile.TemporaryDirectory() as cache:
        reference = findings(run("--no-cache", "--format=json", "-j2", *files))
        cold = run(f"--cache-dir={cache}", "--format=json", "-j2", *files)
        check("a PCH is written to --cache-dir", len(pch_files(cache)) >= 1, os.listdir(cache))
        warm = run(f"--cache-dir={cache}", "--format=json", "--verbose", "-j2", *files)
        check("cold cache: same findings as --no-cache", findings(cold) == reference,
              (findings(cold), reference))
        check("warm cache: same findings as --no-cache", findings(warm) == reference,
              (findings(warm), reference))
        check("warm cache reuses every PCH", " 0 built" in warm.stderr and
              f"{len(files)} reused" in warm.stderr, warm.stderr)


def test_real_headers():
    if not os.path.exists(os.path.join(REAL_TORCH, "torch", "torch.h")):
        print("note: no real LibTorch headers; skipping the real-header check")
        return
    example = os.path.join(SOURCE, "examples", "mnist_accumulation_buggy.cpp")
    args = ["--format=json", example, "--", "-std=c++17", f"-I{REAL_TORCH}"]
    with tempfile.TemporaryDirectory() as cache:
        reference = findings(run("--no-cache", *args))
        run(f"--cache-dir={cache}", *args)
        warm = run(f"--cache-dir={cache}", "--verbose", *args)
        check("real headers: warm cache reused", "1 reused" in warm.stderr, warm.stderr)
        check("real headers: same findings with the cache", findings(warm) == reference,
              (findings(warm), reference))
        check("real headers: the example has findings", reference[0] == 1, reference)


def test_header_change_invalidates():
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        main = project(tmp)
        first = run(f"--cache-dir={cache}", "--format=json", main)
        check("header loop: finding without the division", first.returncode == 1, first.stdout)
        # A different size: clang's size/mtime check must see the change.
        with open(os.path.join(tmp, "loop.h"), "w") as f:
            f.write(LOOP_HEADER.replace("#ifdef DIVIDE", "#ifndef DIVIDE"))
        second = run(f"--cache-dir={cache}", "--format=json", "--verbose", main)
        check("changed header: the finding is gone", second.returncode == 0,
              (second.stdout, second.stderr))
        check("changed header: no error", '"errors": []' in second.stdout.replace("\n", "")
              or not json.loads(second.stdout)["errors"], second.stdout)
        time.sleep(1.1)  # the same size again: the mtime must differ
        with open(os.path.join(tmp, "loop.h"), "w") as f:
            f.write(LOOP_HEADER)
        third = run(f"--cache-dir={cache}", "--format=json", main)
        check("header changed back: the finding is back", third.returncode == 1, third.stdout)


def test_flag_changes_meaning():
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        main = project(tmp)
        for defines, expected in (([], 1), (["-DDIVIDE"], 0), ([], 1), (["-DDIVIDE"], 0)):
            result = run(f"--cache-dir={cache}", "--format=json", main, "--", "-std=c++17",
                         *defines)
            check(f"flags {defines}: exit {expected}", result.returncode == expected,
                  (result.stdout, result.stderr))
        check("two flag sets: two PCHs", len(pch_files(cache)) == 2, os.listdir(cache))


def test_directory_in_key():
    """The same sources in another directory share a PCH; a relative -I keeps
    the directories apart (the header it finds differs)."""
    with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second, \
            tempfile.TemporaryDirectory() as cache:
        for directory, header in ((first, LOOP_HEADER),
                                  (second, LOOP_HEADER.replace("#ifdef DIVIDE", "#ifndef DIVIDE"))):
            os.makedirs(os.path.join(directory, "include"))
            with open(os.path.join(directory, "include", "loop.h"), "w") as f:
                f.write(header)
            with open(os.path.join(directory, "relative.cpp"), "w") as f:
                f.write("#include <torch/torch.h>\n#include <loop.h>\n\nint main() { return 0; }\n")
            with open(os.path.join(directory, "absolute.cpp"), "w") as f:
                f.write("#include <torch/torch.h>\n" + LOOP_HEADER.split("#include <torch/torch.h>")[1])
        for directory, expected in ((first, 1), (second, 0)):
            result = run(f"--cache-dir={cache}", "--format=json", "relative.cpp", "--",
                         "-std=c++17", "-Iinclude", cwd=directory)
            check(f"relative -I, {'first' if expected else 'second'} directory: "
                  f"its own header's finding (exit {expected})", result.returncode == expected,
                  (result.stdout, result.stderr))
        check("relative -I: a PCH per directory", len(pch_files(cache)) == 2, os.listdir(cache))
        outputs = []
        for directory in (first, second):
            result = run(f"--cache-dir={cache}", "--format=json", "--verbose", "absolute.cpp",
                         "--", "-std=c++17", cwd=directory)
            reference = run("--no-cache", "--format=json", "absolute.cpp", "--", "-std=c++17",
                            cwd=directory)
            check(f"no relative path ({directory}): the same findings as --no-cache",
                  findings(result) == findings(reference) and result.returncode == 1,
                  (findings(result), findings(reference)))
            outputs.append(result.stderr)
        check("no relative path: the second directory reuses the first one's PCH",
              "1 reused, 0 built" in outputs[1], outputs)


def test_corrupt_cache_survived():
    example = os.path.join(SOURCE, "examples", "trainer_class_buggy.cpp")
    with tempfile.TemporaryDirectory() as cache:
        reference = findings(run("--no-cache", "--format=json", example))
        run(f"--cache-dir={cache}", "--format=json", example)
        for damage in ("truncate", "garbage", "empty"):
            for pch in pch_files(cache):
                size = os.path.getsize(pch)
                with open(pch, "r+b") as f:
                    if damage == "truncate":
                        f.truncate(size // 2)
                    elif damage == "garbage":
                        f.seek(size // 3)
                        f.write(os.urandom(4096))
                    else:
                        f.truncate(0)
            result = run(f"--cache-dir={cache}", "--format=json", "--verbose", example)
            check(f"{damage} PCH: same findings", findings(result) == reference,
                  (findings(result), reference, result.stderr))
            check(f"{damage} PCH: rebuilt", "1 built" in result.stderr, result.stderr)
            again = run(f"--cache-dir={cache}", "--format=json", "--verbose", example)
            check(f"{damage} PCH: reused after the rebuild", "1 reused" in again.stderr,
                  again.stderr)


def test_two_processes_share_a_cache():
    files = sorted(glob.glob(os.path.join(SOURCE, "examples", "*.cpp")))[:4]
    reference = findings(run("--no-cache", "--format=json", *files))
    with tempfile.TemporaryDirectory() as cache:
        processes = [subprocess.Popen([GRADLINT, "--no-result-cache", f"--cache-dir={cache}", "--format=json", *files],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                     for _ in range(2)]
        for index, process in enumerate(processes):
            stdout, stderr = process.communicate()
            result = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
            check(f"concurrent process {index}: same findings", findings(result) == reference,
                  (findings(result), reference))
        leftovers = [n for n in os.listdir(cache) if ".tmp-" in n]
        check("no temporary files left", not leftovers, leftovers)


def test_unusable_cache_dir():
    example = os.path.join(SOURCE, "examples", "trainer_class_buggy.cpp")
    reference = findings(run("--no-cache", "--format=json", example))
    with tempfile.TemporaryDirectory() as tmp:
        blocker = os.path.join(tmp, "a-file")
        open(blocker, "w").close()
        result = run(f"--cache-dir={os.path.join(blocker, 'cache')}", "--format=json", example)
        check("unusable cache dir: same findings", findings(result) == reference,
              (findings(result), reference))
        errors = [l for l in result.stderr.splitlines() if "error" in l]
        check("unusable cache dir: a note, no error", not errors and "cache directory" in
              result.stderr, result.stderr)


def test_prefilter():
    # Every positive case and buggy example passes the prefilter: unit/driver
    # (Prefilter.PassesEveryPositiveCaseAndBuggyExample), without parsing them.
    with tempfile.TemporaryDirectory() as cache:
        with tempfile.TemporaryDirectory() as tmp:
            main = project(tmp)  # step and backward only in the project header
            skipped = []
            for index in range(20):
                path = os.path.join(tmp, f"plain_{index}.cpp")
                with open(path, "w") as f:
                    f.write('#include <vector>\n// loss.backward(); optimizer.step();\n'
                            'const char *text = "backward step";\n'
                            f'int plain_{index}(std::vector<int> v) {{ return v.size(); }}\n')
                skipped.append(path)
            mixed = run(f"--cache-dir={cache}", "--verbose", "--format=json", main, *skipped)
            check("prefilter: 20 plain files skipped", "skipped 20 file(s)" in mixed.stderr,
                  mixed.stderr)
            check("prefilter: the header's loop is still found", mixed.returncode == 1,
                  (mixed.stdout, mixed.stderr))
            everything = run(f"--cache-dir={cache}", "--verbose", "--no-prefilter", *skipped)
            check("--no-prefilter parses every file", "skipped 0 file(s)" in everything.stderr
                  and everything.returncode == 0, everything.stderr)


def spelling_variants(text):
    """{name: text} of the same program as Clang reads it, spelled so that a
    naive token scan misses `step` or `backward`."""
    def splice_words(source):
        return source.replace(".step(", ".st\\\nep(").replace(".backward(", ".back\\  \nward(")
    pasted = ('#define GL_CAT(a, b) a##b\n' +
              text.replace(".step(", ".GL_CAT(st, ep)(").replace(".backward(",
                                                                ".GL_CAT(back, ward)("))
    return {
        "cr_only": text.replace("\n", "\r"),
        "crlf_spliced": splice_words(text).replace("\n", "\r\n"),
        "spliced": splice_words(text),
        "pasted": pasted,
    }


def test_prefilter_keeps_respelled_loops():
    """A file the parse finds bugs in is never skipped, however it is spelled."""
    example = os.path.join(SOURCE, "examples", "mnist_accumulation_buggy.cpp")
    with open(example, newline="") as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        for name, variant in spelling_variants(text).items():
            path = os.path.join(tmp, f"{name}.cpp")
            with open(path, "w", newline="") as f:
                f.write(variant)
            parsed = run(f"--cache-dir={cache}", "--no-prefilter", "--format=json", path)
            filtered = run(f"--cache-dir={cache}", "--verbose", "--format=json", path)
            check(f"prefilter variant {name}: the parse finds the loop's bugs",
                  parsed.returncode == 1 and findings(parsed), (parsed.stdout, parsed.stderr))
            check(f"prefilter variant {name}: not skipped, same findings",
                  "skipped 0 file(s)" in filtered.stderr and
                  findings(filtered) == findings(parsed),
                  (findings(filtered), findings(parsed), filtered.stderr))


def test_same_size_same_mtime_header_change():
    """A project header rewritten with the same size and mtime (rsync -t, fixed-mtime
    builds, coarse timestamps): Clang's size+mtime check passes, the content does not."""
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        main = project(tmp)
        header = os.path.join(tmp, "loop.h")
        first = run(f"--cache-dir={cache}", "--format=json", main)
        check("same-size change: the first run finds the missing division",
              first.returncode == 1, (first.stdout, first.stderr))
        before = os.stat(header)
        changed = LOOP_HEADER.replace("#ifdef DIVIDE", "#ifndef DIVID")  # divides now
        check("same-size change: the edit keeps the size", len(changed) == len(LOOP_HEADER), "")
        with open(header, "w") as f:
            f.write(changed)
        os.utime(header, ns=(before.st_atime_ns, before.st_mtime_ns))
        check("same-size change: size and mtime unchanged",
              (os.stat(header).st_size, os.stat(header).st_mtime_ns) ==
              (before.st_size, before.st_mtime_ns), "")
        reference = findings(run("--no-cache", "--format=json", main))
        second = run(f"--cache-dir={cache}", "--format=json", "--verbose", main)
        check("same-size change: the finding is gone, as with --no-cache",
              second.returncode == 0 and findings(second) == reference,
              (findings(second), reference, second.stderr))
        check("same-size change: the PCH was rebuilt", "1 built" in second.stderr, second.stderr)
        third = run(f"--cache-dir={cache}", "--format=json", "--verbose", main)
        check("same-size change: reused again after the rebuild",
              "1 reused" in third.stderr and findings(third) == reference, third.stderr)


def summary_line(cache, name):
    """The .pch.sum line of the file named `name`: "<hash> <signature> <path>"."""
    for summary_file in glob.glob(os.path.join(cache, "*.pch.sum")):
        for line in open(summary_file):
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) == 3 and os.path.basename(parts[2]) == name:
                return parts
    return None


def hashed(reasons_of_file):
    """How many files a PCH reuse hashed, from its --verbose reason; None if not reused."""
    match = re.match(r"reused: checked \d+ files \((\d+) hashed, the rest by status\) and "
                     r"\d+ absent paths in \d+ ms$", reasons_of_file.get("precompiled preamble", ""))
    return int(match.group(1)) if match else None


def test_status_signatures():
    """A PCH's files are stat'ed, not read, while their status signature (size,
    mtime, ctime, inode) is unchanged; a changed status costs one hash, after
    which the summary keeps the new signature; a same-size, same-mtime edit
    still changes the ctime and rebuilds the PCH."""
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        main = project(tmp)
        header = os.path.join(tmp, "loop.h")
        time.sleep(0.3)  # older than the build by more than the clock's margin
        first = run(f"--cache-dir={cache}", "--format=json", "--verbose", main)
        line = summary_line(cache, "loop.h")
        check("signatures: the summary has a signature for a header written before the build",
              line is not None and line[1] != "=", (line, first.stderr))
        second = run(f"--cache-dir={cache}", "--format=json", "--verbose", main)
        check("signatures: an unchanged project reuses the PCH without hashing a file",
              hashed(reasons(second, main)) == 0,
              (reasons(second, main), second.stderr))
        os.chmod(header, 0o600)  # the ctime changes, the contents do not
        time.sleep(0.3)
        third = run(f"--cache-dir={cache}", "--format=json", "--verbose", main)
        check("signatures: a changed status costs one hash and the PCH is reused",
              hashed(reasons(third, main)) == 1 and findings(third) == findings(first),
              (reasons(third, main), third.stderr))
        refreshed = summary_line(cache, "loop.h")
        check("signatures: the summary keeps the new signature",
              refreshed is not None and refreshed[1] not in ("=", line[1]) and
              refreshed[0] == line[0], (line, refreshed))
        fourth = run(f"--cache-dir={cache}", "--format=json", "--verbose", main)
        check("signatures: after the refresh, reused without hashing",
              hashed(reasons(fourth, main)) == 0,
              reasons(fourth, main))
        before = os.stat(header)
        with open(header, "w") as f:
            f.write(LOOP_HEADER.replace("#ifdef DIVIDE", "#ifndef DIVID"))
        os.utime(header, ns=(before.st_atime_ns, before.st_mtime_ns))
        time.sleep(0.3)
        reference = findings(run("--no-cache", "--format=json", main))
        fifth = run(f"--cache-dir={cache}", "--format=json", "--verbose", main)
        check("signatures: a same-size, same-mtime edit is seen (its ctime changed)",
              reasons(fifth, main).get("precompiled preamble", "").startswith("built: ") and
              findings(fifth) == reference and fifth.returncode == 0,
              (reasons(fifth, main), findings(fifth), reference))


def test_concurrent_cold_processes_build_each_pch_once():
    files = sorted(glob.glob(os.path.join(SOURCE, "examples", "*.cpp")))[:4]
    reference = findings(run("--no-cache", "--format=json", *files))
    with tempfile.TemporaryDirectory() as cache:
        processes = [subprocess.Popen([GRADLINT, "--no-result-cache", f"--cache-dir={cache}", "--format=json",
                                       "--verbose", *files],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                     for _ in range(4)]
        built = 0
        for index, process in enumerate(processes):
            stdout, stderr = process.communicate()
            result = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
            check(f"4 cold processes: process {index} has the same findings",
                  findings(result) == reference, (findings(result), reference))
            counts = re.search(r"precompiled preambles: (\d+) reused, (\d+) built", stderr)
            built += int(counts.group(2)) if counts else 1000
        distinct = len(pch_files(cache))
        check(f"4 cold processes: each of the {distinct} PCHs built once",
              distinct >= 1 and built == distinct, (built, distinct))


def mounted_full_disk(directory, size):
    """A tmpfs of `size` at `directory`; False where mounting is not allowed."""
    os.makedirs(directory, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", directory],
                             capture_output=True, text=True)
    return mounted.returncode == 0


def fill(directory):
    """Writes a file until the filesystem is full."""
    with open(os.path.join(directory, "filler"), "wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError:
            pass


def test_full_disk_never_fails_a_file():
    example = os.path.join(SOURCE, "examples", "mnist_accumulation_buggy.cpp")
    reference = findings(run("--no-cache", "--format=json", example))
    with tempfile.TemporaryDirectory() as tmp:
        disk = os.path.join(tmp, "disk")
        if not mounted_full_disk(disk, "2m"):
            if os.geteuid() == 0:
                check("full disk: a tmpfs can be mounted (root)", False, disk)
            print("note: cannot mount a tmpfs (not root); skipping the full-disk checks")
            return
        try:
            # 2 MB: the header fits, no PCH does; then not even the header.
            for stage in ("no room for a PCH", "no room at all"):
                if stage == "no room at all":
                    fill(disk)
                for mode in ([], ["--no-isolation"]):
                    cache = os.path.join(disk, "cache" + "".join(mode))
                    result = run(f"--cache-dir={cache}", "--format=json", *mode, example)
                    label = f"full disk ({stage}{', ' + mode[0] if mode else ''})"
                    check(f"{label}: same findings as --no-cache", findings(result) == reference,
                          (findings(result), reference, result.stderr[-600:]))
                    check(f"{label}: one note naming the problem",
                          "No space left on device" in result.stderr and
                          "analysing without precompiled headers" in result.stderr, result.stderr)
                    leftovers = [n for n in os.listdir(cache) if ".tmp" in n] \
                        if os.path.isdir(cache) else []
                    check(f"{label}: no temporary files left", not leftovers, leftovers)
                lsp_on_a_full_disk(os.path.join(disk, "lsp-cache"), example, stage)
        finally:
            subprocess.run(["umount", disk])


def lsp_on_a_full_disk(cache, example, stage):
    sys.path.insert(0, os.path.join(SOURCE, "test_cases", "lsp"))
    import lsp_tests  # noqa: E402 (its client; same arguments as this script)
    with open(example) as f:
        text = f.read()
    server = lsp_tests.Server(f"--cache-dir={cache}")
    try:
        lsp_tests.initialize(server)
        uri = lsp_tests.file_uri(example)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 1, "text": text}})
        published = server.publish(uri, 1, timeout=120)
        check(f"language server, full disk ({stage}): diagnostics published",
              published is not None and len(lsp_tests.codes(published)) >= 3,
              (published, server.log()[-800:]))
        alive = server.response(server.request("shutdown", None), timeout=10)
        check(f"language server, full disk ({stage}): still serving", alive is not None,
              server.log()[-800:])
    finally:
        server.kill()


ENTRY_FILE = re.compile(r"^([0-9a-f]{32})\.(h|pch|pch\.sum)$")


def cache_entries(cache):
    """{key: total bytes} of the cache's finished entries."""
    entries = {}
    for name in os.listdir(cache):
        match = ENTRY_FILE.match(name)
        path = os.path.join(cache, name)
        if match and os.path.isfile(path) and not os.path.islink(path):
            entries[match.group(1)] = entries.get(match.group(1), 0) + \
                os.path.getsize(os.path.join(cache, name))
    return entries


def age_entry(cache, key, seconds_ago):
    """Makes an entry look last used `seconds_ago`: its PCH's mtime (the header's
    stays: the PCH records it, and a changed one means a rebuild)."""
    when = time.time() - seconds_ago
    for suffix in (".pch", ".pch.sum"):
        if os.path.exists(os.path.join(cache, key + suffix)):
            os.utime(os.path.join(cache, key + suffix), (when, when))


def variant_run(cache, main, variant, *options):
    """One run whose -D flag gives its own cache entry (the API model's PCH)."""
    return run(f"--cache-dir={cache}", "--verbose", "--format=json", *options, main, "--",
               "-std=c++17", f"-DVARIANT={variant}")


def build_variants(cache, main, variants):
    """Builds one entry per variant, with no limit; returns their keys in order."""
    keys = []
    for variant in variants:
        before = set(cache_entries(cache))
        variant_run(cache, main, variant, "--cache-max-size=0")
        keys.append(sorted(set(cache_entries(cache)) - before))
    check("one new entry per variant", all(len(k) == 1 for k in keys), keys)
    check("--cache-max-size=0: every variant's entry is kept",
          set(sum(keys, [])) <= set(cache_entries(cache)), (keys, cache_entries(cache)))
    return [k[0] if k else None for k in keys]


def test_size_limit_evicts_oldest():
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        main = project(tmp)
        reference = findings(run("--no-cache", "--format=json", main, "--", "-std=c++17",
                                 "-DVARIANT=3"))
        keys = build_variants(cache, main, range(3))
        for index, key in enumerate(keys):
            age_entry(cache, key, 1000 - 100 * index)  # keys[0] is the oldest
        # Files that are not the cache's: never counted, never deleted.
        foreign = ["notes.txt", "old.pch", "0123456789abcdef0123456789abcdef.pch.bak",
                   "0123456789ABCDEF0123456789ABCDEF.pch", "0123456789abcdef0123456789abcdef.hpp"]
        for name in foreign:
            with open(os.path.join(cache, name), "w") as f:
                f.write("not gradlint's\n" * 64)
            os.utime(os.path.join(cache, name), (0, 0))
        huge = os.path.join(cache, "huge-foreign.bin")
        with open(huge, "w") as f:
            f.truncate(64 << 30)  # sparse: would evict everything if it counted
        os.utime(huge, (0, 0))
        # Named like entries, but a directory and a symlink (to an old foreign file).
        os.mkdir(os.path.join(cache, "fedcba9876543210fedcba9876543210.pch"))
        target = os.path.join(tmp, "linked.txt")
        with open(target, "w") as f:
            f.write("someone else's\n")
        os.utime(target, (0, 0))
        link = os.path.join(cache, "fedcba9876543210fedcba9876543211.pch")
        os.symlink(target, link)
        os.utime(link, (0, 0), follow_symlinks=False)
        # Another process's temporary file, being written, and a stale one.
        # (The second form is clang's own, while it writes the PCH.)
        young = os.path.join(cache, "abcdefabcdefabcdefabcdefabcdefab.pch.tmp-99999-0-1")
        stale = os.path.join(cache, "abcdefabcdefabcdefabcdefabcdef00.pch.tmp-99998-0-2")
        stale_clang = os.path.join(cache,
                                   "abcdefabcdefabcdefabcdefabcdef01.pch-0a1b2c3d.tmp-99997-0-3.tmp")
        for path in (young, stale, stale_clang):
            with open(path, "w") as f:
                f.write("partial")
        for path in (stale, stale_clang):
            os.utime(path, (time.time() - 3600, time.time() - 3600))
        size = max(cache_entries(cache).values())
        limited = variant_run(cache, main, 3, f"--cache-max-size={int(size * 2.5)}")
        left = cache_entries(cache)
        newest = sorted(set(left) - set(keys))
        check("size limit: the run succeeds with the same findings",
              findings(limited) == reference, (findings(limited), reference, limited.stderr))
        check("size limit: the newest entry stays", len(newest) == 1, (left, keys))
        check("size limit: the two oldest entries are evicted",
              keys[0] not in left and keys[1] not in left, (left, keys))
        check("size limit: the younger old entry stays", keys[2] in left, (left, keys))
        check("size limit: --verbose counts the evictions", "2 evicted (" in limited.stderr,
              limited.stderr)
        check("size limit: under the limit afterwards", sum(left.values()) <= size * 2.5,
              (sum(left.values()), size))
        survivors = [n for n in foreign + ["huge-foreign.bin"]
                     if os.path.isfile(os.path.join(cache, n))]
        check("size limit: foreign files are never deleted", survivors == foreign +
              ["huge-foreign.bin"], survivors)
        check("size limit: a symlink named like an entry stays", os.path.islink(link))
        check("size limit: another process's young temporary file stays", os.path.exists(young))
        check("size limit: stale temporary files (an hour old) are deleted",
              not os.path.exists(stale) and not os.path.exists(stale_clang),
              (os.path.exists(stale), os.path.exists(stale_clang)))
        check("size limit: no error lines", "error" not in limited.stderr, limited.stderr)


def test_hit_refreshes_recency():
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        main = project(tmp)
        keys = build_variants(cache, main, range(3))
        for index, key in enumerate(keys):
            age_entry(cache, key, 3000 - 1000 * index)  # keys[0] is the oldest
        hit = variant_run(cache, main, 0, "--cache-max-size=0")
        check("recency: the oldest entry is reused", "1 reused, 0 built" in hit.stderr,
              hit.stderr)
        size = max(cache_entries(cache).values())
        variant_run(cache, main, 3, f"--cache-max-size={int(size * 3.5)}")
        left = cache_entries(cache)
        check("recency: the entry just reused survives the eviction", keys[0] in left,
              (left, keys))
        check("recency: the least recently used one goes instead", keys[1] not in left,
              (left, keys))
        check("recency: the third stays", keys[2] in left and len(left) == 3, (left, keys))

        for key in left:
            age_entry(cache, key, 5000)
        unlimited = variant_run(cache, main, 4, "--cache-max-size=0")
        check("--cache-max-size=0: nothing evicted", set(left) <= set(cache_entries(cache)) and
              len(cache_entries(cache)) == 4 and "0 evicted" in unlimited.stderr,
              (cache_entries(cache), unlimited.stderr))


def test_limit_below_one_entry():
    """The entry a process is using is never evicted, even when it alone is over
    the limit; and concurrent runs with a tiny limit stay correct."""
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        main = project(tmp)
        reference = findings(run("--no-cache", "--format=json", main, "--", "-std=c++17",
                                 "-DVARIANT=0"))
        build_variants(cache, main, [1])
        tiny = variant_run(cache, main, 0, "--cache-max-size=1")
        check("1-byte limit: same findings", findings(tiny) == reference,
              (findings(tiny), reference))
        check("1-byte limit: built once, not rebuilt", "0 reused, 1 built" in tiny.stderr and
              "1 evicted" in tiny.stderr, tiny.stderr)
        check("1-byte limit: the entry in use stays", len(cache_entries(cache)) == 1,
              os.listdir(cache))
    files = sorted(glob.glob(os.path.join(SOURCE, "examples", "*.cpp")))[:2]
    reference = findings(run("--no-cache", "--format=json", *files))
    with tempfile.TemporaryDirectory() as cache:
        processes = [subprocess.Popen([GRADLINT, "--no-result-cache", f"--cache-dir={cache}", "--cache-max-size=1",
                                       "-j2", "--format=json", *files, "--", "-std=c++17",
                                       f"-DPROCESS={index}"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                     for index in range(2)]
        for index, process in enumerate(processes):
            stdout, stderr = process.communicate()
            result = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
            check(f"concurrent evicting process {index}: same findings",
                  findings(result) == reference, (findings(result), reference))
        leftovers = [n for n in os.listdir(cache) if ".tmp" in n]
        check("concurrent evicting processes: no temporary files left", not leftovers, leftovers)


def test_held_lock_keeps_its_entry():
    """An entry whose lock another process holds (it is building that key) is
    not evicted, lock file included; once released, it can be."""
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        main = project(tmp)
        keys = build_variants(cache, main, range(2))
        for index, key in enumerate(keys):
            age_entry(cache, key, 1000 - 100 * index)  # keys[0] is the oldest
        lock_path = os.path.join(cache, keys[0] + ".lock")
        check("held lock: the build left a lock file", os.path.isfile(lock_path),
              os.listdir(cache))
        size = max(cache_entries(cache).values())
        with open(lock_path, "r+") as holder:
            fcntl.flock(holder, fcntl.LOCK_EX)
            inode = os.fstat(holder.fileno()).st_ino
            limited = variant_run(cache, main, 2, f"--cache-max-size={int(size * 1.5)}")
            left = cache_entries(cache)
            check("held lock: its entry stays", keys[0] in left, (left, keys))
            check("held lock: its lock file stays, the same file",
                  os.path.exists(lock_path) and os.stat(lock_path).st_ino == inode,
                  os.listdir(cache))
            check("held lock: an unlocked older entry goes instead", keys[1] not in left,
                  (left, keys, limited.stderr))
        again = variant_run(cache, main, 3, f"--cache-max-size={int(size * 1.5)}")
        left = cache_entries(cache)
        check("released lock: the entry is evicted, lock file too",
              keys[0] not in left and not os.path.exists(lock_path),
              (left, os.listdir(cache), again.stderr))


def test_cache_max_size_option():
    example = os.path.join(SOURCE, "examples", "trainer_class_buggy.cpp")
    for bad in ("12Q", "", "G", "-1", "1.5G", "99999999999999999999", "17179869184G"):
        result = run(f"--cache-max-size={bad}", example)
        check(f"--cache-max-size={bad}: usage error", result.returncode == 2 and
              len(result.stderr.strip().splitlines()) == 1, (result.returncode, result.stderr))
    for good in ("0", "512K", "100m", "2G", "123"):
        result = run(f"--cache-max-size={good}", "--list-checks")
        check(f"--cache-max-size={good}: accepted", result.returncode == 0, result.stderr)


def results_note(result):
    """(reused, analysed) from --verbose's note on the result cache, or None."""
    match = re.search(r"results of unchanged files: (\d+) reused, (\d+) analysed", result.stderr)
    return (int(match.group(1)), int(match.group(2))) if match else None


def test_result_cache():
    """Unchanged files are not analysed again; any input that changes a result is a miss."""
    files = sorted(glob.glob(os.path.join(SOURCE, "examples", "*.cpp")))
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        copies = []
        for path in files:
            copies.append(os.path.join(tmp, os.path.basename(path)))
            shutil.copy(path, copies[-1])
        main = project(tmp)
        everything = copies + [main]
        cached = [f"--cache-dir={cache}", "--format=json", "--verbose"]
        reference = findings(run("--no-cache", "--format=json", *everything))
        cold = run(*cached, *everything, results=True)
        warm = run(*cached, *everything, results=True)
        check("result cache: cold run analyses every file",
              results_note(cold) == (0, len(everything)), cold.stderr)
        check("result cache: warm run reuses every file",
              results_note(warm) == (len(everything), 0), warm.stderr)
        check("result cache: same findings cold, warm and without a cache",
              findings(cold) == findings(warm) == reference, (findings(warm), reference))
        check("result cache: a reused result builds and reuses no PCH",
              "0 reused, 0 built" in warm.stderr, warm.stderr)

        # The file itself: a comment appended is a new analysis of that file only.
        with open(copies[0], "a") as f:
            f.write("\n// edited\n")
        edited = run(*cached, *everything, results=True)
        check("result cache: an edited file is analysed again, alone",
              results_note(edited) == (len(everything) - 1, 1), edited.stderr)

        # A header rewritten with the same size and modification time.
        header = os.path.join(tmp, "loop.h")
        before = os.stat(header)
        with open(header, "w") as f:
            f.write(LOOP_HEADER.replace("#ifdef DIVIDE", "#ifndef DIVID"))
        os.utime(header, ns=(before.st_atime_ns, before.st_mtime_ns))
        changed = run(*cached, main, results=True)
        check("result cache: a same-size, same-mtime header edit is seen",
              results_note(changed) == (0, 1) and changed.returncode == 0,
              (changed.stderr, changed.stdout))

        # The configuration, the command line's checks and the compile flags.
        with open(os.path.join(tmp, ".gradlint.yaml"), "w") as f:
            f.write("Checks: '-*,accum-misplaced-zero-grad'\n")
        configured = run(*cached, *copies, results=True)
        check("result cache: a new .gradlint.yaml analyses every file again",
              results_note(configured) == (0, len(copies)) and
              findings(configured) != findings(warm), configured.stderr)
        os.remove(os.path.join(tmp, ".gradlint.yaml"))
        back = run(*cached, *copies, results=True)
        check("result cache: the configuration removed again: its earlier results",
              results_note(back) == (len(copies), 0), back.stderr)
        narrowed = run(*cached, "--checks=-accum-missing-loss-division", *copies, results=True)
        check("result cache: --checks is part of the key",
              results_note(narrowed) == (0, len(copies)), narrowed.stderr)
        flagged = run(*cached, main, "--", "-std=c++17", "-DDIVIDE", results=True)
        check("result cache: compile flags are part of the key", results_note(flagged) == (0, 1),
              flagged.stderr)

        # A damaged entry is a miss, and replaced.
        for entry in glob.glob(os.path.join(cache, "results", "*.cbor")):
            with open(entry, "r+b") as f:
                f.truncate(max(1, os.path.getsize(entry) // 2))
        damaged = run(*cached, *copies, results=True)
        check("result cache: damaged entries are misses, same findings",
              results_note(damaged) == (0, len(copies)) and findings(damaged) == findings(back),
              damaged.stderr)
        again = run(*cached, *copies, results=True)
        check("result cache: damaged entries replaced", results_note(again) == (len(copies), 0),
              again.stderr)

        # Confirmed analyses are kept under their backend and trace length: a
        # second --confirm reuses the first's numbers, and a plain and a
        # confirmed result never answer for each other.
        buggy = next(copy for copy in copies if "buggy" in os.path.basename(copy))
        confirm = ["--confirm", "--backend=cpu"]
        fresh = findings(run("--no-cache", "--format=json", *confirm, buggy))
        first = run(*cached, *confirm, buggy, results=True)
        second = run(*cached, *confirm, buggy, results=True)
        check("result cache: --confirm does not reuse the plain result",
              results_note(first) == (0, 1), first.stderr)
        check("result cache: a second --confirm reuses the confirmed result",
              results_note(second) == (1, 0), second.stderr)
        check("result cache: the same confirmations fresh, stored and reused",
              findings(first) == findings(second) == fresh and '"verdict"' in second.stdout,
              (findings(second), fresh))
        plain = run(*cached, buggy, results=True)
        check("result cache: a plain run after --confirm reuses the plain result",
              results_note(plain) == (1, 0) and '"verdict"' not in plain.stdout, plain.stderr)
        plotted = run(*cached, *confirm, f"--plot={os.path.join(tmp, 'plot.svg')}", buggy,
                      results=True)
        check("result cache: --plot's traces are part of the key",
              results_note(plotted) == (0, 1), plotted.stderr)

        # The opt-outs do not use it.
        for option in ("--no-cache", "--no-result-cache"):
            off = run(*cached, option, *copies, results=True)
            check(f"result cache: {option} analyses every file", results_note(off) is None and
                  findings(off) == findings(back), off.stderr)


STEPS_TRAIN = """// The window comes from a project header found on the include path.
#include <torch/torch.h>
#include "steps.h"

void train(torch::nn::Linear model, torch::optim::SGD &opt, std::vector<torch::Tensor> &xs) {
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model->forward(xs[i]).sum();
    loss.backward();
    if ((i + 1) % kAccum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
"""


def reasons(result, file):
    """--verbose's per-file lines about `file`: {"result cache": ..., "precompiled preamble": ...}."""
    found = {}
    for line in result.stderr.splitlines():
        match = re.match(r"gradlint: note: (.*?): (result cache|precompiled preamble)[^:]*: (.*)$",
                         line)
        if match and match.group(1) == file:
            found[match.group(2)] = match.group(3)
    return found


def test_negative_dependencies():
    """A header created earlier on the include path, or one installed after a
    "file not found", is seen by both caches (issue 30's two reports)."""
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        first, second = os.path.join(tmp, "first"), os.path.join(tmp, "second")
        os.makedirs(first)
        os.makedirs(second)
        main = os.path.join(tmp, "train.cpp")
        with open(main, "w") as f:
            f.write(STEPS_TRAIN)
        with open(os.path.join(second, "steps.h"), "w") as f:
            f.write("#pragma once\nconstexpr int kAccum = 4;\n")
        flags = ["--", "-std=c++17", f"-I{first}", f"-I{second}"]
        cached = [f"--cache-dir={cache}", "--format=json", "--verbose"]
        for mode in ("both caches", "preambles only"):
            extra = ["--no-result-cache"] if mode == "preambles only" else []
            before = run(*cached, *extra, main, *flags, results=True)
            check(f"negative dependencies [{mode}]: N = 4 from the second directory",
                  "N = kAccum = 4" in before.stdout, before.stdout[:600])
            shadow = os.path.join(first, "steps.h")
            with open(shadow, "w") as f:
                f.write("#pragma once\nconstexpr int kAccum = 1;\n")
            after = run(*cached, *extra, main, *flags, results=True)
            fresh = run("--no-cache", "--format=json", main, *flags)
            check(f"negative dependencies [{mode}]: a header created earlier on the path is seen",
                  findings(after) == findings(fresh) and "kAccum" not in after.stdout,
                  (after.stdout[:600], after.stderr))
            why = reasons(after, main)
            wanted = {"both caches": ("result cache", shadow + " exists now"),
                      "preambles only": ("precompiled preamble", shadow + " exists now")}[mode]
            check(f"negative dependencies [{mode}]: --verbose says which path appeared",
                  wanted[1] in why.get(wanted[0], ""), after.stderr)
            os.remove(shadow)

        # A header missing at first, installed later (issue 30: jsoncpp, cxxopts).
        late = os.path.join(tmp, "late.cpp")
        with open(late, "w") as f:
            f.write(STEPS_TRAIN.replace('"steps.h"', '"late_steps.h"'))
        missing = run(*cached, late, *flags, results=True)
        check("negative dependencies: a missing header is an error",
              "late_steps.h' file not found" in missing.stdout, missing.stdout[:600])
        again = run(*cached, late, *flags, results=True)
        check("negative dependencies: an error whose lookups were recorded is reused",
              results_note(again) == (1, 0) and findings(again) == findings(missing),
              again.stderr)
        installed = os.path.join(second, "late_steps.h")
        with open(installed, "w") as f:
            f.write("#pragma once\nconstexpr int kAccum = 4;\n")
        found = run(*cached, late, *flags, results=True)
        check("negative dependencies: the header installed since is found",
              "file not found" not in found.stdout and "N = kAccum = 4" in found.stdout and
              findings(found) == findings(run("--no-cache", "--format=json", late, *flags)),
              (found.stdout[:600], found.stderr))
        check("negative dependencies: --verbose names the installed header",
              installed + " exists now" in reasons(found, late).get("result cache", ""),
              found.stderr)
        # What a miss of the key itself says.
        flagged = run(*cached, late, *flags, "-DSOMETHING", results=True)
        check("result cache: --verbose names the part of the key that changed",
              reasons(flagged, late).get("result cache", "").endswith(
                  "the compile command changed"), flagged.stderr)
        reused = run(*cached, late, *flags, "-DSOMETHING", results=True)
        check("result cache: --verbose says what a reuse checked",
              re.match(r"reused: \d+ files unchanged \(\d+ hashed, the rest by status\), "
                       r"\d+ paths still absent",
                       reasons(reused, late).get("result cache", "")), reused.stderr)


def result_hashes(result, file):
    """How many files a result-cache reuse hashed, from --verbose; None if not reused."""
    match = re.match(r"reused: \d+ files unchanged \((\d+) hashed, the rest by status\)",
                     reasons(result, file).get("result cache", ""))
    return int(match.group(1)) if match else None


def test_result_signatures():
    """The result cache stats a file whose status signature is unchanged instead
    of hashing it; a changed status costs a hash; a same-size, same-mtime edit
    changes the ctime and is a miss with the fresh run's findings."""
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        main = project(tmp)
        header = os.path.join(tmp, "loop.h")
        time.sleep(0.3)  # older than the run by more than the clock's margin
        cached = [f"--cache-dir={cache}", "--format=json", "--verbose"]
        first = run(*cached, main, results=True)
        second = run(*cached, main, results=True)
        check("result signatures: an unchanged file is reused without hashing a file",
              result_hashes(second, main) == 0 and findings(second) == findings(first),
              (reasons(second, main), second.stderr))
        os.chmod(header, 0o600)
        time.sleep(0.3)
        third = run(*cached, main, results=True)
        check("result signatures: a changed status costs one hash, the entry is reused",
              result_hashes(third, main) == 1 and findings(third) == findings(first),
              reasons(third, main))
        before = os.stat(header)
        with open(header, "w") as f:
            f.write(LOOP_HEADER.replace("#ifdef DIVIDE", "#ifndef DIVID"))
        os.utime(header, ns=(before.st_atime_ns, before.st_mtime_ns))
        time.sleep(0.3)
        reference = findings(run("--no-cache", "--format=json", main))
        fourth = run(*cached, main, results=True)
        check("result signatures: a same-size, same-mtime edit is a miss (its ctime changed)",
              reasons(fourth, main).get("result cache", "").endswith("loop.h changed") and
              findings(fourth) == reference and fourth.returncode == 0,
              (reasons(fourth, main), findings(fourth), reference))


def build_id_offset(data):
    """Where the ELF GNU build id's bytes are in an executable, or None."""
    at = data.find(b"GNU\x00")
    while at >= 12:
        namesz, descsz, kind = (int.from_bytes(data[at - n:at - n + 4], "little")
                                for n in (12, 8, 4))
        if namesz == 4 and kind == 3 and 8 <= descsz <= 64:
            return at + 4, descsz
        at = data.find(b"GNU\x00", at + 1)
    return None


def test_another_build_is_a_miss():
    """A gradlint replaced by another build with the same size and mtime (the
    build id differs) reuses no result."""
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        binary = os.path.join(tmp, "bin", "gradlint")
        os.makedirs(os.path.dirname(binary))
        shutil.copy2(GRADLINT, binary)
        example = os.path.join(SOURCE, "examples", "mnist_accumulation_buggy.cpp")
        env = dict(os.environ, GRADLINT_API_MODEL=os.path.join(SOURCE, "api_model"))
        command = [binary, f"--cache-dir={cache}", "--verbose", example]
        first = subprocess.run(command, capture_output=True, text=True, env=env)
        second = subprocess.run(command, capture_output=True, text=True, env=env)
        check("another build: the same binary reuses its result", results_note(second) == (1, 0),
              second.stderr)
        with open(binary, "rb") as f:
            data = bytearray(f.read())
        note = build_id_offset(data)
        check("another build: the executable has a build id", note is not None)
        if note is None:
            return
        offset, length = note
        data[offset:offset + length] = bytes((b + 1) % 256 for b in data[offset:offset + length])
        before = os.stat(binary)
        with open(binary + ".new", "wb") as f:
            f.write(data)
        os.chmod(binary + ".new", 0o755)
        os.utime(binary + ".new", ns=(before.st_atime_ns, before.st_mtime_ns))
        os.rename(binary + ".new", binary)
        third = subprocess.run(command, capture_output=True, text=True, env=env)
        check("another build: same size and mtime, other build id: no result reused",
              results_note(third) == (0, 1) and third.stdout == first.stdout and
              "the gradlint build changed" in reasons(third, example).get("result cache", ""),
              third.stderr)


GROUPS = {
    # The PCH cache's findings, invalidation and faults.
    "pch": (test_identical_findings, test_real_headers, test_header_change_invalidates,
            test_flag_changes_meaning, test_directory_in_key, test_corrupt_cache_survived,
            test_two_processes_share_a_cache, test_unusable_cache_dir),
    "prefilter": (test_prefilter, test_prefilter_keeps_respelled_loops),
    # Faults: a full disk, concurrent cold processes, a same-size same-mtime edit.
    "faults": (test_full_disk_never_fails_a_file,
               test_concurrent_cold_processes_build_each_pch_once,
               test_same_size_same_mtime_header_change, test_status_signatures),
    # --cache-max-size: eviction order, recency, limits below one entry.
    "results": (test_result_cache, test_negative_dependencies, test_another_build_is_a_miss,
                test_result_signatures),
    "limits": (test_size_limit_evicts_oldest, test_hit_refreshes_recency,
               test_limit_below_one_entry, test_held_lock_keeps_its_entry,
               test_cache_max_size_option),
}


def main():
    # Separate ctest entries (one group each) run in parallel and time out apart.
    names = sys.argv[3:] or list(GROUPS)
    for name in names:
        for test in GROUPS[name]:
            test()
    return summary()


if __name__ == "__main__":
    sys.exit(main())
