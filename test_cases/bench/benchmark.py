#!/usr/bin/env python3
"""Speed of gradlint next to clang on a generated project that includes the
real <torch/torch.h>: prints one table of medians and ratios, all measured in
this one run, the compared commands alternating.

usage: benchmark.py [--gradlint build/bin/gradlint] [--tidy-plugin build/lib/libGradlintTidy.so]
                    [-k 3] [--project-k 1] [--tus 20] [--plain-files 2000] [--keep DIR]

-k: runs per single-TU measurement; --project-k: runs per whole-project
measurement (each is minutes on 2 cores). Not a ctest test.
"""
import argparse
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import tempfile
import time

TORCH = "/usr/include/torch/csrc/api/include"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TU = """// Generated training loop {index} ({kind}).
#include <torch/torch.h>
#include <vector>

static torch::Tensor batch_{index}(int64_t rows) {{ return torch::randn({{rows, {width}}}); }}

void train_{index}(torch::nn::Linear model, torch::optim::SGD &opt, int64_t batches) {{
  const int accum_steps = {steps};
  for (int64_t i = 0; i < batches; ++i) {{
{zero_top}    auto loss = model->forward(batch_{index}(8)).pow(2).mean(){divide};
    loss.backward();
{clip}    if ((i + 1) % accum_steps == 0) {{
      opt.step();
      opt.zero_grad();
    }}
  }}
}}
"""
KINDS = {  # kind: (zero_grad at the top, divide, clip per micro-batch)
    "clean": ("", " / accum_steps", ""),
    "missing-division": ("", "", ""),
    "misplaced-zero-grad": ("    opt.zero_grad();\n", " / accum_steps", ""),
    "clip-per-micro-batch": ("", " / accum_steps",
                             "    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);\n"),
}
PLAIN = """// Generated utility code without a training loop.
#include <vector>
#include "util_{group}.h"

int sum_{index}(const std::vector<int> &values) {{
  int total = 0;  // no loss.backward() or optimizer.step() here
  for (int value : values) total += value * {index};
  return total + util_{group}();
}}
"""


def measure(command, cwd=None):
    """(wall seconds, peak RSS in MiB, exit status) of one command."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def measure_parallel(commands):
    """Wall seconds of commands run at once (one process per command)."""
    start = time.perf_counter()
    processes = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for c in commands]
    for process in processes:
        process.wait()
    return time.perf_counter() - start


PCH_REUSE = re.compile(r"precompiled preamble \S+: reused: checked (\d+) files \((\d+) hashed, "
                       r"the rest by status\) and (\d+) absent paths in (\d+) ms")
RESULT_LOOKUPS = re.compile(r"results of unchanged files: (\d+) reused, \d+ analysed; (\d+) paths "
                            r"checked .*; lookups took (\d+) ms")


def verbose_figures(command, pattern):
    """The numbers of the first --verbose note matching `pattern` (ms last), and the wall time."""
    start = time.perf_counter()
    result = subprocess.run([command[0], "--verbose", *command[1:]], capture_output=True, text=True)
    wall = time.perf_counter() - start
    match = pattern.search(result.stderr)
    if not match:
        raise SystemExit(f"benchmark: no such --verbose note in: {result.stderr[-2000:]}")
    return tuple(int(g) for g in match.groups()) + (wall,)


def forget_signatures(cache):
    """Drops the stat signatures of every PCH summary in `cache`: the next reuse hashes
    every file, as after a checkout or a cache restored in CI (new ctimes)."""
    for name in os.listdir(cache):
        if name.endswith(".pch.sum"):
            path = os.path.join(cache, name)
            with open(path) as f:
                lines = f.read().split("\n")
            lines = [re.sub(r"^([0-9A-F]+) \S+ ", r"\1 = ", line) for line in lines]
            with open(path, "w") as f:
                f.write("\n".join(lines))


def alternate(k, named):
    """Runs each named thunk k times, round-robin; medians by name."""
    samples = {name: [] for name in named}
    for _ in range(k):
        for name, thunk in named.items():
            samples[name].append(thunk())
    return samples


def median(values, index=None):
    return statistics.median(v[index] if index is not None else v for v in values)


def generate(directory, tus, plain_files):
    project = os.path.join(directory, "project")
    os.makedirs(project)
    kinds = list(KINDS)
    files = []
    for index in range(tus):
        kind = kinds[index % len(kinds)]
        zero_top, divide, clip = KINDS[kind]
        path = os.path.join(project, f"loop_{index:02d}.cpp")
        with open(path, "w") as f:
            f.write(TU.format(index=index, kind=kind, width=4 + index, steps=2 + index % 5,
                              zero_top=zero_top, divide=divide, clip=clip))
        files.append(path)
    commands = [{"directory": project, "file": path,
                 "command": f"clang++ -std=c++17 -I{TORCH} -c {path} -o {path}.o"}
                for path in files]
    with open(os.path.join(project, "compile_commands.json"), "w") as f:
        json.dump(commands, f, indent=1)
    plain = os.path.join(directory, "plain")
    os.makedirs(plain)
    for group in range(20):
        with open(os.path.join(plain, f"util_{group}.h"), "w") as f:
            f.write(f"#pragma once\ninline int util_{group}() {{ return {group}; }}\n")
    plain_paths = []
    for index in range(plain_files):
        path = os.path.join(plain, f"plain_{index:04d}.cpp")
        with open(path, "w") as f:
            f.write(PLAIN.format(index=index, group=index % 20))
        plain_paths.append(path)
    return project, files, plain_paths


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gradlint", default=os.path.join(ROOT, "build", "bin", "gradlint"))
    parser.add_argument("--tidy-plugin", default=os.path.join(ROOT, "build", "lib",
                                                              "libGradlintTidy.so"))
    parser.add_argument("-k", type=int, default=3)
    parser.add_argument("--project-k", type=int, default=1)
    parser.add_argument("--tus", type=int, default=20)
    parser.add_argument("--plain-files", type=int, default=2000)
    parser.add_argument("--keep", help="generate into this directory and keep it")
    parser.add_argument("--only-confirm", action="store_true",
                        help="only the --confirm rows (j), (j'), (j'')")
    args = parser.parse_args()
    gradlint = os.path.abspath(args.gradlint)
    if not os.path.exists(os.path.join(TORCH, "torch", "torch.h")):
        raise SystemExit(f"benchmark needs the real LibTorch headers in {TORCH}")

    directory = args.keep or tempfile.mkdtemp(prefix="gradlint-bench-")
    os.makedirs(directory, exist_ok=True)
    project, files, plain = generate(directory, args.tus, args.plain_files)
    cache = os.path.join(directory, "cache")
    one = files[1]  # a buggy TU
    real_args = ["--", "-std=c++17", f"-I{TORCH}"]
    rows = []

    def row(name, ours, theirs, target, lower_is_better=True, unit="s"):
        ratio = ours / theirs if theirs else float("inf")
        if target is None:
            rows.append((name, f"{ours:.2f} {unit}", f"{theirs:.2f} {unit}", f"{ratio:.2f}x",
                         "-", ""))
            return
        ok = ratio <= target if lower_is_better else ratio >= target
        rows.append((name, f"{ours:.2f} {unit}", f"{theirs:.2f} {unit}", f"{ratio:.2f}x",
                     f"{'<=' if lower_is_better else '>='} {target}x", "PASS" if ok else "MISS"))

    def confirm_rows():
        """(j): --confirm against the analysis alone on one real-header TU with findings."""
        listed = subprocess.run([gradlint, "--no-result-cache", f"--cache-dir={cache}", one,
                                 *real_args], capture_output=True, text=True)
        findings = listed.stdout.count(": warning: ") + listed.stderr.count(": warning: ")
        confirm = ["--confirm", "--backend=cpu"]
        runs = alternate(args.k, {
            "plain-nocache": lambda: measure([gradlint, "--no-result-cache", "--no-cache", one,
                                              *real_args]),
            "confirm-nocache": lambda: measure([gradlint, "--no-result-cache", "--no-cache",
                                                *confirm, one, *real_args]),
            "plain-warm": lambda: measure([gradlint, "--no-result-cache", f"--cache-dir={cache}",
                                           one, *real_args]),
            "confirm-warm": lambda: measure([gradlint, "--no-result-cache", f"--cache-dir={cache}",
                                             *confirm, one, *real_args]),
        })
        row(f"(j) 1 real-header TU, {findings} finding{'s' if findings != 1 else ''}, --no-cache: "
            "--confirm / without",
            median(runs["confirm-nocache"], 0), median(runs["plain-nocache"], 0), 2.0)
        row(f"(j') the same, warm cache: --confirm / without",
            median(runs["confirm-warm"], 0), median(runs["plain-warm"], 0), None)
        # (j''): the file unchanged since its last run: both answers come from
        # the result cache (a confirmed result is kept under its backend).
        results = os.path.join(directory, "confirm-results")
        for extra in ([], confirm):
            subprocess.run([gradlint, f"--cache-dir={results}", *extra, one, *real_args],
                           capture_output=True)
        reruns = alternate(args.k, {
            "plain": lambda: measure([gradlint, f"--cache-dir={results}", one, *real_args]),
            "confirm": lambda: measure([gradlint, f"--cache-dir={results}", *confirm, one,
                                        *real_args]),
        })
        row(f"(j'') the same file unchanged, result cache: --confirm / without",
            median(reruns["confirm"], 0), median(reruns["plain"], 0), 2.0)

    # Warm the cache for the single TU and the project (not measured).
    subprocess.run([gradlint, "--no-result-cache", f"--cache-dir={cache}", one, *real_args], capture_output=True)
    subprocess.run([gradlint, "--no-result-cache", f"--cache-dir={cache}", one, "--", "-std=c++17"], capture_output=True)

    if args.only_confirm:
        confirm_rows()
        report(rows, args)
        if not args.keep:
            shutil.rmtree(directory, ignore_errors=True)
        return

    # (d-h): the headers alone. Both sides include the C++ standard library
    # (LibTorch's headers and the API model alike); precompiled once for both,
    # it leaves LibTorch's own headers against the model's.
    std_header = os.path.join(directory, "std.h")
    with open(std_header, "w") as f:
        f.write("#include <bits/stdc++.h>\n")
    std_pch = std_header + ".pch"
    subprocess.run(["clang++-19", "-std=c++17", "-x", "c++-header", std_header, "-o", std_pch],
                   check=True)
    api_model = os.path.join(ROOT, "api_model")
    model_std = sorted({line.split("<", 1)[1].split(">", 1)[0]
                        for root, _, names in os.walk(api_model) for name in names
                        if name.endswith((".h", ".hpp"))
                        for line in open(os.path.join(root, name))
                        if line.startswith("#include <") and "/" not in line and ".h>" not in line})
    model_std_tu = os.path.join(directory, "model_std.cpp")
    with open(model_std_tu, "w") as f:
        f.write("".join(f"#include <{name}>\n" for name in model_std))
    headers = alternate(args.k, {
        "real": lambda: measure(["clang++-19", "-fsyntax-only", "-std=c++17", "-include-pch",
                                 std_pch, f"-I{TORCH}", one]),
        "model": lambda: measure(["clang++-19", "-fsyntax-only", "-std=c++17", "-include-pch",
                                  std_pch, "-isystem", api_model, one]),
        "model-std": lambda: measure(["clang++-19", "-fsyntax-only", "-std=c++17", model_std_tu]),
    })

    # (a) + (e): one real-header TU, gradlint warm vs clang -fsyntax-only.
    single = alternate(args.k, {
        "gradlint-warm": lambda: measure([gradlint, "--no-result-cache", f"--cache-dir={cache}", one, *real_args]),
        "clang": lambda: measure(["clang++-19", "-fsyntax-only", "-std=c++17", f"-I{TORCH}", one]),
        "gradlint-nocache": lambda: measure([gradlint, "--no-result-cache", "--no-cache", one, *real_args]),
        "api-model-nocache": lambda: measure([gradlint, "--no-result-cache", "--no-cache", one, "--", "-std=c++17"]),
        "api-model-warm": lambda: measure([gradlint, "--no-result-cache", f"--cache-dir={cache}", one, "--",
                                           "-std=c++17"]),
        # In-process: the parse without the isolated child's process start.
        "gradlint-warm-inprocess": lambda: measure([gradlint, "--no-result-cache", "--no-isolation",
                                                    f"--cache-dir={cache}", one, *real_args]),
        "api-model-warm-inprocess": lambda: measure([gradlint, "--no-result-cache", "--no-isolation",
                                                     f"--cache-dir={cache}", one, "--",
                                                     "-std=c++17"]),
        # The PCH's checks before a reuse, from --verbose: by status, then all hashed.
        "pch-checks": lambda: verbose_figures([gradlint, "--no-result-cache", f"--cache-dir={cache}",
                                               one, *real_args], PCH_REUSE),
        "pch-checks-hashed": lambda: (forget_signatures(cache), verbose_figures(
            [gradlint, "--no-result-cache", f"--cache-dir={cache}", one, *real_args],
            PCH_REUSE))[1],
    })
    warm, clang = single["gradlint-warm"], single["clang"]
    row("(a) 1 real-header TU: gradlint (warm cache) / clang++ -fsyntax-only",
        median(warm, 0), median(clang, 0), 1.10)
    row("(a') 1 real-header TU: gradlint --no-cache / clang++ -fsyntax-only",
        median(single["gradlint-nocache"], 0), median(clang, 0), 1.10)
    row("(d) real-header TU / API-model TU, both --no-cache",
        median(single["gradlint-nocache"], 0), median(single["api-model-nocache"], 0), 20,
        lower_is_better=False)
    row("(d-h) LibTorch headers / API-model headers (clang++, std library precompiled)",
        median(headers["real"], 0), median(headers["model"], 0), 20, lower_is_better=False)
    row(f"(d-max) real-header TU (d) / the model's {len(model_std)} std headers alone: (d)'s ceiling",
        median(single["gradlint-nocache"], 0), median(headers["model-std"], 0), None)
    row("(d') real-header TU / API-model TU, both warm cache",
        median(warm, 0), median(single["api-model-warm"], 0), 20, lower_is_better=False)
    row("(d'') the same, warm cache, --no-isolation (no process start)",
        median(single["gradlint-warm-inprocess"], 0),
        median(single["api-model-warm-inprocess"], 0), 20, lower_is_better=False)
    checks, hashed = single["pch-checks"], single["pch-checks-hashed"]
    row(f"(h) PCH reuse checks: {checks[0][0]} files by status, {checks[0][2]} absent paths "
        "/ the warm TU", median(checks, 3) / 1000, median(warm, 0), None)
    row(f"(h') the same after a checkout: {hashed[0][1]} files hashed / the warm TU",
        median(hashed, 3) / 1000, median(warm, 0), None)
    row("(e) peak RSS per TU: gradlint (warm) / clang++ -fsyntax-only",
        median(warm, 1), median(clang, 1), 1.2, unit="MiB")
    row("(e') peak RSS per TU: gradlint --no-cache / clang++ -fsyntax-only",
        median(single["gradlint-nocache"], 1), median(clang, 1), 1.2, unit="MiB")

    # (b) + (f): the project; clang-tidy as two processes over halves, like -j2.
    half = (len(files) + 1) // 2
    tidy = ["clang-tidy-19", f"-load={os.path.abspath(args.tidy_plugin)}", "-checks=-*,accum-*",
            "-p", project, "--quiet"]
    project_cache = os.path.join(directory, "project-cache")

    def cold():
        shutil.rmtree(project_cache, ignore_errors=True)
        return measure([gradlint, "--no-result-cache", f"--cache-dir={project_cache}", "-j2", *files])[0]

    # (g): re-linting the unchanged project from the result cache (warmed once,
    # not measured) against re-analysing it with warm PCHs, and cold.
    results_cache = os.path.join(directory, "results-cache")
    subprocess.run([gradlint, f"--cache-dir={results_cache}", "-j2", *files], capture_output=True)

    projects = alternate(args.project_k, {
        "gradlint-result-cache": lambda: measure([gradlint, f"--cache-dir={results_cache}", "-j2",
                                                  *files])[0],
        "result-lookups": lambda: verbose_figures([gradlint, f"--cache-dir={results_cache}", "-j2",
                                                   *files], RESULT_LOOKUPS),
        "gradlint-cold": cold,
        "gradlint-warm-j2": lambda: measure([gradlint, "--no-result-cache", f"--cache-dir={project_cache}", "-j2",
                                             *files])[0],
        "clang-tidy": lambda: measure_parallel([tidy + files[:half], tidy + files[half:]]),
        "gradlint-warm-j1": lambda: measure([gradlint, "--no-result-cache", f"--cache-dir={project_cache}", "-j1",
                                             *files])[0],
    })
    tidy_median = median(projects["clang-tidy"])
    row(f"(b) {len(files)} TUs: gradlint -j2 cold cache / clang-tidy-19 plugin x2",
        median(projects["gradlint-cold"]), tidy_median, 0.4)
    row(f"(b') {len(files)} TUs: gradlint -j2 warm cache / clang-tidy-19 plugin x2",
        median(projects["gradlint-warm-j2"]), tidy_median, 0.4)
    row(f"(f) {len(files)} TUs warm: gradlint -j2 / -j1",
        median(projects["gradlint-warm-j2"]), median(projects["gradlint-warm-j1"]), None)
    row(f"(g) {len(files)} unchanged TUs re-linted: result cache / warm PCHs without it (-j2)",
        median(projects["gradlint-result-cache"]), median(projects["gradlint-warm-j2"]), 0.1)
    row(f"(g') {len(files)} unchanged TUs re-linted: result cache / cold cache (-j2)",
        median(projects["gradlint-result-cache"]), median(projects["gradlint-cold"]), 0.02)
    lookups = projects["result-lookups"]
    row(f"(i) its entries' checks: {lookups[0][1]} paths (files hashed, absent paths stat'ed) "
        "/ the re-lint", median(lookups, 2) / 1000, median(projects["gradlint-result-cache"]), None)

    # (c): the prefilter's skip path over plain files.
    prefilter = alternate(args.k, {"plain": lambda: measure([gradlint, "--no-result-cache", "--no-cache", *plain])[0]})
    seconds = median(prefilter["plain"])
    rate = len(plain) / seconds
    rows.append((f"(c) prefilter: {len(plain)} files without a training loop",
                 f"{rate:.0f} files/s", f"{seconds:.2f} s", "", ">= 200 files/s",
                 "PASS" if rate >= 200 else "MISS"))

    confirm_rows()
    report(rows, args)
    if not args.keep:
        shutil.rmtree(directory, ignore_errors=True)


def report(rows, args):
    cpu = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    print(f"machine: {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {cpu}, "
          f"{platform.system()} {platform.release()}, load {os.getloadavg()[0]:.1f}")
    print(f"runs: k={args.k} per single-TU figure, {args.project_k} per project figure; medians")
    header = ("measurement", "gradlint", "reference", "ratio", "target", "")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(r, widths)).rstrip())


if __name__ == "__main__":
    main()
