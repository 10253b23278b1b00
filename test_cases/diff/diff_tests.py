#!/usr/bin/env python3
"""Pull-request mode: --diff=<range> and --diff-file=<patch|-> report only the
findings on lines the diff adds or changes, and without file arguments analyse
the changed C++ sources (clang-tidy-diff's behaviour).

usage: diff_tests.py <gradlint> <repository root>
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]

# A second training loop with a missing loss division, appended by the "pull request".
NEW_LOOP = """
void train_more(torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
                std::vector<torch::Tensor> &ys) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    if ((i + 1) % accum == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
"""


def run(*args, cwd, stdin=None):
    return subprocess.run([GRADLINT, *args], capture_output=True, text=True, cwd=cwd, input=stdin)


def found(result):
    document = json.loads(result.stdout)
    return sorted((os.path.basename(d["file"]), d["line"], d["check"]) for d in document["diagnostics"])


def git(*args, cwd):
    return subprocess.run(["git", *args], capture_output=True, text=True, cwd=cwd, check=True).stdout


with tempfile.TemporaryDirectory() as repo:
    git("init", "-q", cwd=repo)
    git("config", "user.email", "ci@example.com", cwd=repo)
    git("config", "user.name", "ci", cwd=repo)
    os.makedirs(os.path.join(repo, "src"))
    legacy = os.path.join(repo, "src", "legacy.cpp")  # an old bug nobody touches
    train = os.path.join(repo, "src", "train.cpp")
    shutil.copy(os.path.join(ROOT, "test_cases", "accum-missing-loss-division",
                             "positive_autograd_backward.cpp"), legacy)
    shutil.copy(os.path.join(ROOT, "test_cases", "accum-missing-loss-division",
                             "positive_autograd_backward.cpp"), train)
    with open(os.path.join(repo, "README"), "w") as f:
        f.write("docs\n")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "base", cwd=repo)
    with open(train) as f:
        old_lines = f.read().count("\n")
    with open(train, "a") as f:
        f.write(NEW_LOOP)
    new_backward = old_lines + NEW_LOOP.split("\n").index("    loss.backward();") + 1

    everything = found(run("--format=json", "src/legacy.cpp", "src/train.cpp", cwd=repo))
    check("without --diff every finding is reported", len(everything) == 3, everything)
    expected = [("train.cpp", new_backward, "accum-missing-loss-division")]

    only_new = run("--format=json", "--diff=HEAD", "src/train.cpp", "src/legacy.cpp", cwd=repo)
    check("--diff=HEAD: only the finding on the added lines", found(only_new) == expected,
          found(only_new))
    auto = run("--format=json", "--diff=HEAD", cwd=repo)
    check("--diff without files analyses the changed sources only",
          found(auto) == expected and json.loads(auto.stdout)["files"] == 1, auto.stdout[:300])
    sub = run("--format=json", "--diff=HEAD", cwd=os.path.join(repo, "src"))
    check("--diff from a subdirectory of the work tree", found(sub) == expected, sub.stderr)

    patch = os.path.join(repo, "..", os.path.basename(repo) + ".patch")
    with open(patch, "w") as f:
        f.write(git("diff", "HEAD", cwd=repo))  # 3 lines of context
    from_file = run("--format=json", f"--diff-file={patch}", cwd=repo)
    check("--diff-file with context lines", found(from_file) == expected, from_file.stderr)
    piped = run("--format=json", "--diff-file=-", "src/train.cpp", cwd=repo,
                stdin=git("diff", "-U0", "HEAD", cwd=repo))
    check("--diff-file=- reads the diff from stdin", found(piped) == expected, piped.stderr)
    sarif = json.loads(run("--format=sarif", "--diff=HEAD", cwd=repo).stdout)
    check("SARIF in diff mode has only the changed-line finding",
          [r["locations"][0]["physicalLocation"]["region"]["startLine"]
           for r in sarif["runs"][0]["results"]] == [new_backward], sarif["runs"][0]["results"])

    git("commit", "-qam", "pull request", cwd=repo)
    ranged = run("--format=json", "--diff=HEAD~1..HEAD", cwd=repo)
    check("--diff=<range> of commits", found(ranged) == expected, ranged.stderr)
    clean = run("--format=json", "--diff=HEAD", "src/train.cpp", cwd=repo)
    check("nothing changed: no findings, exit 0", found(clean) == [] and clean.returncode == 0,
          clean.stdout[:200])

    with open(os.path.join(repo, "README"), "a") as f:
        f.write("more docs\n")
    docs_only = run("--diff=HEAD", cwd=repo)
    check("a diff without C++ sources: exit 0 and a note",
          docs_only.returncode == 0 and "changes no C++ source" in docs_only.stderr, docs_only.stderr)

    bad = run("--diff=no-such-revision", "src/train.cpp", cwd=repo)
    check("a bad revision range: exit 2, one line naming it",
          bad.returncode == 2 and "no-such-revision" in bad.stderr and
          len(bad.stderr.strip().splitlines()) == 1, bad.stderr)
    outside = tempfile.mkdtemp()
    not_git = run("--diff=HEAD", "x.cpp", cwd=outside)
    check("--diff outside a git work tree: exit 2, one line",
          not_git.returncode == 2 and "not in a git work tree" in not_git.stderr and
          len(not_git.stderr.strip().splitlines()) == 1, not_git.stderr)
    missing = run("--diff-file=/nonexistent.patch", "src/train.cpp", cwd=repo)
    check("a missing patch file: exit 2 naming it",
          missing.returncode == 2 and "/nonexistent.patch" in missing.stderr, missing.stderr)
    shutil.rmtree(outside)
    os.remove(patch)

sys.exit(summary())
