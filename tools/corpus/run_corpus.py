#!/usr/bin/env python3
"""Run gradlint over the real-world LibTorch corpus listed in manifest.json.

usage: run_corpus.py --gradlint PATH [--mirror /work/.mirror] [--work DIR]
                     [--json OUT] [--only REPO] [-j N]
       run_corpus.py --from-json OUT...   (the report of saved runs)

Each repository is extracted at its pinned commit from a snapshot (a bare git
directory at <mirror>/<owner+name>/repo or <mirror>/<owner+name>), then every
training file is analysed twice, one gradlint process per file:
  model mode: no LibTorch on the include path (gradlint's bundled API model);
  real mode:  the installed LibTorch headers (/usr/include/torch/...).
The report gives, per repository and in total, the files analysed, the errors
by cause, the findings by check, the parity between the modes and the names
and headers the API model lacks. --json writes every per-file result.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import time

MODES = ("model", "real")
REAL_HEADER_FLAGS = ["-isystem", "/usr/include/torch/csrc/api/include", "-DUSE_C10D_GLOO",
                     "-isystem", "/usr/include/torch/csrc/distributed"]
# Third-party headers the projects use, in both modes where installed (Debian's
# libopencv-dev puts OpenCV under opencv4/; Boost and jsoncpp need no flag).
THIRD_PARTY_FLAGS = [flag for path in ["/usr/include/opencv4"] if os.path.isdir(path)
                     for flag in ("-isystem", path)]
TIMEOUT_S = 300
LIBTORCH_HEADER = re.compile(r"^(torch|ATen|c10|caffe2)/")
HEADER_NOT_FOUND = re.compile(r"'([^']+)' file not found")
MODEL_HAS_NO_HEADER = re.compile(r"the API model has no <([^>]+)>")
# Patterns that name what a header set lacks, most specific first.
MISSING_NAME_PATTERNS = [
    re.compile(r"no (?:member|type|template) named '([^']+)' in (?:namespace )?'([^']+)'"),
    re.compile(r"(?:use of undeclared identifier|unknown type name|no template named) '([^']+)'"),
    re.compile(r"no matching (?:member )?function for call to '([^']+)'"),
    re.compile(r"no matching constructor for initialization of '([^']+)'"),
]


def snapshot_dir(mirror, repo):
    base = os.path.join(mirror, repo.replace("/", "+"))
    for candidate in (os.path.join(base, "repo"), base):
        if os.path.isfile(os.path.join(candidate, "HEAD")):
            return candidate
    return None


def extract(git_dir, commit, dest):
    """Extracts commit into dest once; returns an error string or None."""
    marker = os.path.join(dest, ".corpus-commit")
    if os.path.exists(marker) and open(marker).read().strip() == commit:
        return None
    os.makedirs(dest, exist_ok=True)
    archive = subprocess.Popen(["git", "--git-dir", git_dir, "archive", commit],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    untar = subprocess.run(["tar", "-x", "-C", dest], stdin=archive.stdout,
                           stderr=subprocess.DEVNULL)
    archive.stdout.close()
    if archive.wait() != 0 or untar.returncode != 0:
        # Snapshots omit big blobs, which makes git archive stop early: copy blob by blob.
        problem = extract_present_blobs(git_dir, commit, dest)
        if problem:
            return problem
    with open(marker, "w") as out:
        out.write(commit + "\n")
    return None


def extract_present_blobs(git_dir, commit, dest):
    listing = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "-z", commit],
                             capture_output=True)
    if listing.returncode != 0:
        return "commit %s not in the snapshot" % commit
    entries = []
    for record in listing.stdout.split(b"\0"):
        if record:
            meta, path = record.split(b"\t", 1)
            mode, kind, sha = meta.split()
            if kind == b"blob" and mode != b"120000":
                entries.append((sha.decode(), path.decode(errors="replace")))
    batch = subprocess.Popen(["git", "--git-dir", git_dir, "cat-file", "--batch"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    batch.stdin.write("".join(sha + "\n" for sha, _ in entries).encode())
    batch.stdin.close()
    for sha, path in entries:
        header = batch.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            continue
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)  # the newline after each object
        target = os.path.join(dest, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as out:
            out.write(data)
    batch.wait()
    return None


def classify(message, repo_root):
    found = HEADER_NOT_FOUND.search(message)
    if found:
        header = found.group(1)
        if LIBTORCH_HEADER.match(header):
            return "header not found: LibTorch/ATen/c10"
        own = subprocess.run(["find", repo_root, "-path", "*/" + header, "-print", "-quit"],
                             capture_output=True, text=True).stdout.strip()
        return "header not found: project's own" if own else "header not found: third-party"
    if re.search(r"undeclared identifier|no member named|unknown type name|no (type|template) "
                 r"named|does not name a|undeclared", message):
        return "undeclared identifier / no member"
    if re.search(r"no matching (member )?(function|constructor)|no viable", message):
        return "no matching function"
    if re.search(r"expected |extraneous|unterminated|invalid token", message):
        return "syntax error"
    if re.search(r"timed out|timeout|crash|signal|could not process", message):
        return "timeout/crash"
    return "other"


def missing_name(message):
    found = HEADER_NOT_FOUND.search(message) or MODEL_HAS_NO_HEADER.search(message)
    if found:
        return "header " + found.group(1)
    for pattern in MISSING_NAME_PATTERNS:
        match = pattern.search(message)
        if match:
            groups = match.groups()
            return groups[1] + "::" + groups[0] if len(groups) == 2 else groups[0]
    return re.sub(r"^.*?:\d+:\d+: ", "", message)[:120]


def run_one(gradlint, repo_root, entry, mode):
    # --inconclusive: conditional findings are read too; the report marks them.
    command = [gradlint, "--format=json", "--inconclusive", entry["path"], "--",
               "-std=" + entry["std"]]
    if entry["path"].endswith((".h", ".hpp", ".cuh")):
        command += ["-x", "c++"]  # a header alone would be parsed as C
    command += ["-I" + os.path.join(repo_root, d) for d in entry["include_dirs"]]
    command += ["-D" + d for d in entry["defines"]]
    command += THIRD_PARTY_FLAGS
    if mode == "real":
        command += REAL_HEADER_FLAGS
    started = time.time()
    process = subprocess.Popen(command, cwd=repo_root, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # gradlint's per-file child too
        process.communicate()
        stdout, stderr = None, "timed out after %d s" % TIMEOUT_S
    result = {"mode": mode, "file": entry["path"], "seconds": round(time.time() - started, 2),
              "errors": [], "notes": [], "findings": []}
    try:
        document = json.loads(stdout)
        result["errors"] = [e["message"] for e in document["errors"]]
        # What the API model lacked in a file analysed anyway (no error).
        result["notes"] = [n["message"] for n in document.get("notes", [])]
        result["findings"] = [{k: d.get(k) for k in ("check", "file", "line", "column",
                                                      "message", "notes", "conditional")}
                              for d in document["diagnostics"]]
    except (TypeError, ValueError, KeyError):
        tail = (stderr or "").strip().splitlines()[-1:] or ["no output"]
        result["errors"] = ["crash (exit %s): %s" % (process.returncode, tail[0])
                            if stdout is not None else stderr]
    result["causes"] = [classify(m, repo_root) for m in result["errors"]]
    return result


def finding_keys(result):
    return sorted((f["check"], f["line"], f["column"]) for f in result["findings"])


def summarize(title, results, wall, out):
    out.append("== %s" % title)
    for mode in MODES:
        mine = [r for r in results if r["mode"] == mode]
        clean = [r for r in mine if not r["errors"]]
        noted = [r for r in clean if r.get("notes")]
        causes = collections.Counter(c for r in mine for c in r["causes"][:1])
        # A file with an error is still analysed on the AST Clang recovered.
        checks = collections.Counter(f["check"] + (" (conditional)" if f.get("conditional") else "")
                                     for r in mine for f in r["findings"])
        in_error_files = sum(len(r["findings"]) for r in mine if r["errors"])
        seconds = sum(r["seconds"] for r in mine)
        out.append("  %-5s files %3d  analysed without error %3d (with API-model notes %3d)  "
                   "errors %3d  findings %3d (%d in files with errors)  time %6.0f s"
                   % (mode, len(mine), len(clean), len(noted), len(mine) - len(clean),
                      sum(checks.values()), in_error_files, seconds))
        for cause, count in causes.most_common():
            out.append("        error  %-40s %3d" % (cause, count))
        for check, count in checks.most_common():
            out.append("        found  %-40s %3d" % (check, count))
    if wall is not None:
        out.append("  wall time %.0f s" % wall)


def report(manifest, results, walls, skipped):
    out = []
    for repo in manifest:
        name = repo["repo"]
        if name in skipped:
            out.append("== %s@%s  SKIPPED: %s" % (name, repo["commit"][:8], skipped[name]))
            continue
        summarize("%s@%s (%s)" % (name, repo["commit"][:8], repo["kind"]),
                  [r for r in results if r["repo"] == name], walls.get(name), out)
    out.append("")
    summarize("TOTAL (%d repositories)" % (len(manifest) - len(skipped)), results,
              sum(walls.values()), out)

    by_file = collections.defaultdict(dict)
    for r in results:
        by_file[(r["repo"], r["file"])][r["mode"]] = r
    pairs = [p for p in by_file.values() if len(p) == 2]
    real_clean = [p for p in pairs if not p["real"]["errors"]]
    both_clean = [p for p in real_clean if not p["model"]["errors"]]
    share = 100.0 * len(both_clean) / len(real_clean) if real_clean else 0.0
    out.append("")
    out.append("== PARITY: of %d files analysed without error with the real headers, %d (%.1f%%)"
               " are analysed without error with the API model (target >= 95%%)"
               % (len(real_clean), len(both_clean), share))
    model_only = [p for p in pairs if not p["model"]["errors"] and p["real"]["errors"]]
    out.append("   (%d files are analysed only with the API model)" % len(model_only))
    for pair in real_clean:
        if pair["model"]["errors"]:
            r = pair["real"]
            out.append("   model-mode error  %s %s: %s" % (r["repo"], r["file"],
                                                          pair["model"]["errors"][0]))
    out.append("== findings that differ between the modes (every file, errors or not)")
    for pair in pairs:
        if finding_keys(pair["model"]) != finding_keys(pair["real"]):
            out.append("   %s %s" % (pair["real"]["repo"], pair["real"]["file"]))
            for mode in MODES:
                for f in pair[mode]["findings"]:
                    out.append("      %-5s %s:%s:%s %s" % (mode, f["check"], f["line"],
                                                          f["column"], f["message"]))

    missing, confirmed = collections.Counter(), collections.Counter()
    for pair in pairs:
        gaps = set(pair["model"]["errors"]) - set(pair["real"]["errors"])
        gaps |= set(pair["model"].get("notes", []))
        for message in gaps:
            missing[missing_name(message)] += 1
            confirmed[missing_name(message)] += not pair["real"]["errors"]
    out.append("")
    out.append("== names and headers the API model lacks (model-mode errors absent in real mode;")
    out.append("   second count: files whose real-mode analysis has no error at all)")
    for name, count in sorted(missing.items(), key=lambda item: (-item[1], item[0])):
        out.append("   %3d %3d  %s" % (count, confirmed[name], name))
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gradlint")
    parser.add_argument("--from-json", nargs="+", metavar="OUT",
                        help="print the report of saved --json runs (of disjoint repositories)")
    parser.add_argument("--mirror", default="/work/.mirror")
    parser.add_argument("--work", default="/tmp/gradlint-corpus")
    parser.add_argument("--json", dest="json_out")
    parser.add_argument("--only", nargs="+", metavar="OWNER/NAME",
                        help="run these repositories only")
    parser.add_argument("--modes", default=",".join(MODES),
                        help="comma-separated header modes to run (default: model,real); "
                        "--from-json merges runs of different modes")
    parser.add_argument("-j", type=int, default=1, dest="jobs")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    manifest = json.load(open(os.path.join(here, "manifest.json")))
    if args.only:
        manifest = [r for r in manifest if r["repo"] in args.only]
    modes = [m for m in args.modes.split(",") if m]
    if not set(modes) <= set(MODES):
        parser.error("--modes: choose from " + ",".join(MODES))
    if args.from_json:
        saved = {"results": [], "skipped": {}, "walls": {}}
        for path in args.from_json:  # several partial runs make one report
            part = json.load(open(path))
            saved["results"] += part["results"]
            saved["skipped"].update(part["skipped"])
            saved["walls"].update(part["walls"])
        ran = {r["repo"] for r in saved["results"]} | set(saved["skipped"])
        manifest = [r for r in manifest if r["repo"] in ran]  # a partial run covers fewer
        print(report(manifest, saved["results"], saved["walls"], saved["skipped"]))
        return
    if not args.gradlint:
        parser.error("--gradlint is required")

    gradlint = os.path.abspath(args.gradlint)
    results, walls, skipped = [], {}, {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for repo in manifest:
            git_dir = snapshot_dir(args.mirror, repo["repo"])
            root = os.path.join(os.path.abspath(args.work), repo["repo"].replace("/", "+"))
            problem = "no snapshot under " + args.mirror if git_dir is None else \
                extract(git_dir, repo["commit"], root)
            if problem:
                skipped[repo["repo"]] = problem
                print("skip %s: %s" % (repo["repo"], problem), file=sys.stderr)
                continue
            started = time.time()
            jobs = []
            for item in repo["files"]:
                entry = {"path": item} if isinstance(item, str) else dict(item)
                entry["include_dirs"] = repo["include_dirs"] + entry.get("include_dirs", [])
                entry["defines"] = repo.get("defines", []) + entry.get("defines", [])
                entry["std"] = repo.get("std", "c++17")
                for mode in modes:
                    jobs.append(pool.submit(run_one, gradlint, root, entry, mode))
            for job in jobs:
                result = job.result()
                result["repo"] = repo["repo"]
                results.append(result)
                print("%-5s %6.1fs %s %s %s" % (result["mode"], result["seconds"], repo["repo"],
                                                result["file"], result["errors"][:1] or
                                                "%d findings" % len(result["findings"])),
                      file=sys.stderr, flush=True)
                walls[repo["repo"]] = time.time() - started
                if args.json_out:  # after each file, so an interrupted run still has data
                    with open(args.json_out, "w") as out:
                        json.dump({"results": results, "skipped": skipped, "walls": walls},
                                  out, indent=1)
    print(report(manifest, results, walls, skipped))


if __name__ == "__main__":
    main()
