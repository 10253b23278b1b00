#!/usr/bin/env python3
"""The caches against a fresh run: a seeded, random sequence of changes to a
small project, and after each change a cached gradlint run compared with a
--no-cache run. Findings (with their fix-its), errors and the exit code must
be the same after every step.

The changes: headers created, deleted, moved between the include directories
(and the main files' directory, which quoted includes search first) or edited
(some with the size and modification time kept); an include directory
created or deleted; a header that does not exist yet named by #include and by
__has_include; -D macros on the command line; the .gradlint.yaml; the API
model's files edited in place (same size, same mtime); the gradlint binary
replaced by a copy of another build (same size, same mtime, other build id).

The cached run alternates between both caches (the default) and the
precompiled preambles alone (--no-result-cache), on one cache directory.

usage: differential_tests.py <gradlint> <source dir> <steps> <seed>
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
SOURCE = os.path.abspath(sys.argv[2])
STEPS = int(sys.argv[3])
SEED = int(sys.argv[4])

# Each main file includes the project headers in its include prefix (the
# precompiled preamble covers them) and probes one more with __has_include in
# its body. Which header is found, and what it says, decides the findings.
MAIN = """// Trains with accumulation; the window and the scaling come from headers.
#include <torch/torch.h>
#include "steps.h"
#include "scale.h"
#if __has_include("extra.h")
#include "extra.h"
#endif

void train_{name}(torch::nn::Linear model, torch::optim::SGD &opt,
                 std::vector<torch::Tensor> &xs) {{
  for (size_t i = 0; i < xs.size(); ++i) {{
#ifdef ZERO_EVERY
    opt.zero_grad();
#endif
    auto loss = SCALE(model->forward(xs[i]).sum(), kAccum);
    loss.backward();
    if ((i + 1) % kAccum == 0) {{
      opt.step();
      opt.zero_grad();
    }}
  }}
}}
"""
# A file whose header is missing at first: an error until it appears.
LATE = """// Needs a header that is installed later.
#include <torch/torch.h>
#include "late.h"

void train_late(torch::nn::Linear model, torch::optim::SGD &opt,
                std::vector<torch::Tensor> &xs) {
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model->forward(xs[i]).sum();
    loss.backward();
    if ((i + 1) % kLateAccum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
"""
# Variants of each header; those of one header differ in content, and pairs
# of the same length let an edit keep the size.
HEADERS = {
    "steps.h": ["#pragma once\nconstexpr int kAccum = 4;\n",
                "#pragma once\nconstexpr int kAccum = 1;\n",
                "#pragma once\nconstexpr int kAccum = 8;\n",
                "#pragma once\nconstexpr int kAccum = 4;\n#define ZERO_EVERY\n"],
    "scale.h": ["#pragma once\n#define SCALE(loss, n) ((loss) / (n))\n",
                "#pragma once\n#define SCALE(loss, n) ((loss) * (1))\n",
                "#pragma once\n#define SCALE(loss, n) (loss)\n"],
    "extra.h": ["#pragma once\n#define ZERO_EVERY\n",
                "#pragma once\n// nothing\n",
                "#pragma once\n#error extra.h is not for this platform\n"],
    "late.h": ["#pragma once\nconstexpr int kLateAccum = 4;\n",
               "#pragma once\nconstexpr int kLateAccum = 1;\n"],
}
CONFIGS = [None, "Checks: '-*,accum-misplaced-zero-grad'\n", "Checks: '-*,accum-missing-loss-division'\n",
           "Checks: '*'\nWarningsAsErrors: 'accum-missing-loss-division'\n"]
MACROS = ["-DZERO_EVERY", "-DUNUSED_MACRO=1"]


class Project:
    def __init__(self, root, rng):
        self.root = root
        self.rng = rng
        self.src = os.path.join(root, "src")
        self.include_dirs = [os.path.join(root, name) for name in ("inc_a", "inc_b", "inc_c")]
        # The main files' directory comes first for quoted includes.
        self.places = [self.src] + self.include_dirs
        os.makedirs(self.src)
        for directory in self.include_dirs[:2]:  # inc_c does not exist at first
            os.makedirs(directory)
        self.mains = []
        for name in ("one", "two"):
            self.mains.append(os.path.join(self.src, f"train_{name}.cpp"))
            write(self.mains[-1], MAIN.format(name=name))
        self.mains.append(os.path.join(self.src, "train_late.cpp"))
        write(self.mains[-1], LATE)
        write(os.path.join(self.include_dirs[1], "steps.h"), HEADERS["steps.h"][0])
        # Not divided at first: the first run has a finding to lose.
        write(os.path.join(self.include_dirs[0], "scale.h"), HEADERS["scale.h"][2])
        self.macros = []
        # What the steps replace: the API model and the binary.
        self.api_model = os.path.join(root, "api_model")
        os.makedirs(os.path.join(self.api_model, "torch"))
        write(os.path.join(self.api_model, API_MODEL_FILE), API_MODEL)
        self.binary = os.path.join(root, "bin", "gradlint")
        os.makedirs(os.path.dirname(self.binary))
        shutil.copy2(GRADLINT, self.binary)

    def headers(self):
        """(place, name) of every header now on disk."""
        found = []
        for place in self.places:
            if os.path.isdir(place):
                found += [(place, name) for name in sorted(os.listdir(place)) if name in HEADERS]
        return found

    def flags(self):
        return ["-std=c++17"] + [f"-I{d}" for d in self.include_dirs] + self.macros

    def environment(self):
        env = dict(os.environ)
        env["GRADLINT_API_MODEL"] = self.api_model
        env["XDG_CACHE_HOME"] = os.path.join(self.root, "xdg")
        return env


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


def rewrite_keeping_stat(path, text):
    """New bytes under the old size and modification time: only the content tells."""
    before = os.stat(path)
    with open(path, "r+b") as f:
        f.write(text.encode())
        f.truncate(before.st_size)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


# The steps. Each returns a line saying what it did, or None when it does not apply.

def create_header(p):
    name = p.rng.choice(sorted(HEADERS))
    place = p.rng.choice([d for d in p.places if os.path.isdir(d)])
    path = os.path.join(place, name)
    if os.path.exists(path):
        return None
    write(path, p.rng.choice(HEADERS[name]))
    return f"created {os.path.relpath(path, p.root)}"


def delete_header(p):
    present = p.headers()
    if not present:
        return None
    place, name = p.rng.choice(present)
    os.remove(os.path.join(place, name))
    return f"deleted {os.path.relpath(os.path.join(place, name), p.root)}"


def move_header(p):
    present = p.headers()
    if not present:
        return None
    place, name = p.rng.choice(present)
    targets = [d for d in p.places if os.path.isdir(d) and not os.path.exists(os.path.join(d, name))]
    if not targets:
        return None
    target = p.rng.choice(targets)
    os.rename(os.path.join(place, name), os.path.join(target, name))
    return (f"moved {os.path.relpath(os.path.join(place, name), p.root)} to "
            f"{os.path.relpath(target, p.root)}")


def edit_header(p):
    present = p.headers()
    if not present:
        return None
    place, name = p.rng.choice(present)
    path = os.path.join(place, name)
    old = read(path)
    choices = [v for v in HEADERS[name] if v != old]
    new = p.rng.choice(choices)
    same_stat = [v for v in choices if len(v) == len(old)]
    if same_stat and p.rng.random() < 0.5:
        rewrite_keeping_stat(path, p.rng.choice(same_stat))
        return f"edited {os.path.relpath(path, p.root)} keeping its size and mtime"
    write(path, new)
    return f"edited {os.path.relpath(path, p.root)}"


def toggle_include_dir(p):
    """inc_c (the last on the path) comes and goes; it goes only when empty."""
    directory = p.include_dirs[2]
    if not os.path.isdir(directory):
        os.makedirs(directory)
        return "created inc_c/"
    if os.listdir(directory):
        return None
    os.rmdir(directory)
    return "deleted inc_c/"


def toggle_macro(p):
    macro = p.rng.choice(MACROS)
    if macro in p.macros:
        p.macros.remove(macro)
        return f"dropped {macro}"
    p.macros.append(macro)
    return f"added {macro}"


def change_config(p):
    path = os.path.join(p.root, ".gradlint.yaml")
    current = read(path) if os.path.exists(path) else None
    config = p.rng.choice([c for c in CONFIGS if c != current])
    if config is None:
        os.remove(path)
        return "removed .gradlint.yaml"
    write(path, config)
    return f"wrote .gradlint.yaml: {config.splitlines()[0]}"


# The API model the runs use (GRADLINT_API_MODEL): a small one, so that a
# fresh parse takes 0.2 s instead of the bundled model's 1.2 s. It declares
# what the checks look for under LibTorch's names; the bundled model is
# exercised by the cache tests beside this one.
API_MODEL_FILE = os.path.join("torch", "torch.h")
API_MODEL_FIRST_LINE = "// A LibTorch stand-in for the cache differential test: the names the checks know."
API_MODEL = API_MODEL_FIRST_LINE + """
#pragma once
#include <cstddef>
#include <vector>
namespace at {
class TensorBase {};
class Tensor : public TensorBase {
public:
  Tensor sum() const;
  void backward() const;
  Tensor operator/(double) const;
  Tensor operator*(double) const;
};
} // namespace at
namespace torch {
using at::Tensor;
namespace nn {
class Module {};
class LinearImpl : public Module {
public:
  Tensor forward(const Tensor &input);
};
template <typename Contained> class ModuleHolder {
public:
  Contained *operator->();
};
class Linear : public ModuleHolder<LinearImpl> {};
} // namespace nn
namespace optim {
class Optimizer {
public:
  virtual ~Optimizer() = default;
  void step();
  void zero_grad(bool set_to_none = true);
};
class SGD : public Optimizer {};
} // namespace optim
} // namespace torch
"""
# What one step writes over the model's first line: a macro the main files act
# on, or a harmless one (an in-place edit of an installed model, same size, same mtime).
API_MODEL_EDITS = ["#define ZERO_EVERY /* a model edit */", "#define MODEL_EDIT /* harmless */"]


def edit_api_model(p):
    path = os.path.join(p.api_model, API_MODEL_FILE)
    text = read(path)
    choice = p.rng.choice([API_MODEL_FIRST_LINE] + API_MODEL_EDITS)
    new = choice.ljust(len(API_MODEL_FIRST_LINE)) + API_MODEL[len(API_MODEL_FIRST_LINE):]
    if new == text:
        return None
    rewrite_keeping_stat(path, new)
    return f"edited the API model's {API_MODEL_FILE} ({choice[:30]}), same size and mtime"


def build_id_note(data):
    """Offset and length of the ELF GNU build-id's descriptor, or None."""
    marker = b"GNU\x00"
    start = 0
    while True:
        at = data.find(marker, start)
        if at < 0:
            return None
        # namesz=4, descsz, type=3 (NT_GNU_BUILD_ID) precede the name.
        if at >= 12:
            namesz = int.from_bytes(data[at - 12:at - 8], "little")
            descsz = int.from_bytes(data[at - 8:at - 4], "little")
            kind = int.from_bytes(data[at - 4:at], "little")
            if namesz == 4 and kind == 3 and 8 <= descsz <= 64:
                return at + 4, descsz
        start = at + 1


def replace_binary(p):
    """Another build of gradlint: other build id, same size and mtime."""
    with open(p.binary, "rb") as f:
        data = bytearray(f.read())
    note = build_id_note(data)
    if note is None:
        return None
    offset, length = note
    data[offset:offset + length] = bytes(p.rng.randrange(256) for _ in range(length))
    before = os.stat(p.binary)
    replacement = p.binary + ".new"
    with open(replacement, "wb") as f:
        f.write(data)
    os.chmod(replacement, 0o755)
    os.utime(replacement, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.rename(replacement, p.binary)
    p.binary_replaced = True
    return "replaced the gradlint binary (another build id, same size and mtime)"


STEPS_BY_WEIGHT = [(create_header, 5), (delete_header, 3), (move_header, 4), (edit_header, 4),
                   (toggle_include_dir, 1), (toggle_macro, 2), (change_config, 1),
                   (edit_api_model, 1), (replace_binary, 1)]


def outcome(p, *options):
    """What a run reports, comparable across runs, and its stderr."""
    result = subprocess.run([p.binary, "--format=json", *options, *p.mains, "--", *p.flags()],
                            capture_output=True, text=True, cwd=p.root, env=p.environment())
    try:
        document = json.loads(result.stdout)
    except json.JSONDecodeError:
        return ("unparsable", result.returncode, result.stdout, result.stderr[-2000:]), result.stderr
    return ((result.returncode, document["diagnostics"], document["errors"]), result.stderr)


def describe(reported):
    if reported[0] == "unparsable":
        return repr(reported)
    code, diagnostics, errors = reported
    lines = [f"exit {code}"]
    for d in diagnostics:
        lines.append(f"  {os.path.basename(d.get('file', '?'))}:{d.get('line')}: {d.get('check')}"
                     f"{' (fix)' if d.get('fix') else ''}: {d.get('message', '')[:90]}")
    for e in errors:
        lines.append(f"  error: {json.dumps(e)[:160]}")
    return "\n".join(lines)


def main():
    rng = random.Random(SEED)
    failures = 0
    with tempfile.TemporaryDirectory() as root:
        p = Project(root, rng)
        cache = ["--cache-dir=" + os.path.join(root, "cache")]
        history = []
        fresh, _ = outcome(p, "--no-cache")
        check("differential: the project's first run reports findings",
              fresh[0] != "unparsable" and len(fresh[1]) > 0, describe(fresh))
        outcome(p, *cache)  # fills both caches
        kinds = [step for step, weight in STEPS_BY_WEIGHT for _ in range(weight)]
        for index in range(STEPS):
            p.binary_replaced = False
            did = None
            while did is None:
                did = rng.choice(kinds)(p)
            mode = rng.choice(["both caches", "both caches", "preambles only"])
            history.append(f"step {index}: {did} [{mode}]")
            cached, log = outcome(p, *cache, "--verbose",
                                  *(["--no-result-cache"] if mode == "preambles only" else []))
            fresh, _ = outcome(p, "--no-cache")
            same = cached == fresh
            if not same:
                failures += 1
            check(f"differential seed {SEED} step {index}: {did} [{mode}]: cached == fresh", same,
                  "\n".join(history[-8:]) + "\ncached:\n" + describe(cached) + "\nfresh:\n" +
                  describe(fresh))
            if p.binary_replaced and mode == "both caches":
                check(f"differential seed {SEED} step {index}: another binary reuses no result",
                      "results of unchanged files: 0 reused" in log, log[-1500:])
            if failures >= 3:
                break
    print(f"differential: seed {SEED}, {len(history)} steps, {failures} differing")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
