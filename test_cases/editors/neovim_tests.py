#!/usr/bin/env python3
"""The documented Neovim configuration (editors/neovim/gradlint.lua, the same
text as the lua block of docs/editors.md) in a headless nvim with this build's gradlint
first on PATH: an example with a known finding gets it as a diagnostic, and a
quick fix is offered for it.

usage: neovim_tests.py GRADLINT SOURCE_DIR [NVIM]"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
SOURCE_DIR = os.path.abspath(sys.argv[2])
NVIM = sys.argv[3] if len(sys.argv) > 3 else shutil.which("nvim")
SNIPPET = os.path.join(SOURCE_DIR, "editors", "neovim", "gradlint.lua")
EXAMPLE = os.path.join(SOURCE_DIR, "examples", "mnist_accumulation_buggy.cpp")
# Analysis of a file takes seconds (more in a sanitized build); the wait ends
# as soon as the diagnostics arrive.
WAIT_MS = 120_000


def test_docs_embed_the_snippet():
    with open(SNIPPET, encoding="utf-8") as f:
        snippet = f.read()
    with open(os.path.join(SOURCE_DIR, "docs", "editors.md"), encoding="utf-8") as f:
        page = f.read()
    section = page.split("\n## Neovim\n", 1)[1].split("\n## ", 1)[0] \
        if "\n## Neovim\n" in page else ""
    block = re.search(r"```lua\n(.*?)```", section, re.S)
    check("1. the lua block of docs/editors.md's Neovim section is editors/neovim/gradlint.lua, "
          "unchanged", block is not None and block.group(1) == snippet,
          "no lua block under '## Neovim'" if block is None else "they differ")


def run_nvim(workdir):
    project = os.path.join(workdir, "project")
    os.makedirs(os.path.join(project, ".git"))  # a project root for the snippet to find
    source = os.path.join(project, "src", os.path.basename(EXAMPLE))
    os.makedirs(os.path.dirname(source))
    shutil.copy(EXAMPLE, source)
    init = os.path.join(workdir, "init.lua")
    result_file = os.path.join(workdir, "result.json")
    with open(init, "w") as f:
        f.write(f"vim.g.result_file = {json.dumps(result_file)}\n"
                f"vim.g.wait_ms = {WAIT_MS}\n"
                f"dofile({json.dumps(SNIPPET)})\n")
    # gradlint from PATH, as the snippet's cmd says; nothing from the user's
    # configuration, state or cache.
    env = dict(os.environ, PATH=os.path.dirname(GRADLINT) + os.pathsep + os.environ["PATH"])
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[name] = os.path.join(workdir, name.lower())
    started = time.monotonic()
    ran = subprocess.run([NVIM, "--headless", "-u", init, "-i", "NONE", "-n", source,
                          "-c", f"luafile {os.path.join(HERE, 'neovim_driver.lua')}"],
                         cwd=project, env=env, capture_output=True, text=True,
                         timeout=WAIT_MS / 1000 + 120, stdin=subprocess.DEVNULL)
    elapsed = time.monotonic() - started
    result = None
    if os.path.exists(result_file):
        with open(result_file) as f:
            result = json.load(f)
    check("2. nvim runs the configuration and the driver to the end",
          ran.returncode == 0 and result is not None,
          f"exit {ran.returncode}: {ran.stdout[-1000:]}{ran.stderr[-1500:]}")
    return result, elapsed, ran.stderr


def test_session(result, stderr):
    messages = result.get("messages", "")
    check("3. the configuration loads without an error",
          not re.search(r"E\d+:|Error", messages + stderr), messages + stderr)
    check("4. the C++ buffer has the filetype cpp", result.get("filetype") == "cpp",
          result.get("filetype"))
    check("5. the gradlint client is attached to it", result.get("clients") == ["gradlint"],
          result.get("clients"))
    diagnostics = result.get("diagnostics") or []
    codes = sorted({d.get("code") for d in diagnostics})
    check("6. gradlint's findings arrive as diagnostics: accum-missing-loss-division at line 81",
          any(d.get("code") == "accum-missing-loss-division" and d.get("lnum") == 80
              for d in diagnostics), diagnostics or messages)
    check("7. ... with the example's other findings (accum-misplaced-zero-grad at line 77)",
          any(d.get("code") == "accum-misplaced-zero-grad" and d.get("lnum") == 76
              for d in diagnostics), codes)
    actions = result.get("actions") or []
    check("8. a quick fix (code action of kind quickfix, with an edit) is offered at the finding",
          any(a.get("kind") == "quickfix" and a.get("has_edit") for a in actions), actions)


def main():
    if not NVIM:
        print("SKIP: nvim not found")
        return 77
    test_docs_embed_the_snippet()
    with tempfile.TemporaryDirectory(prefix="gradlint-neovim-") as workdir:
        result, elapsed, stderr = run_nvim(workdir)
        print(f"nvim session: {elapsed:.1f} s, Neovim "
              f"{'.'.join(str(result['version'][k]) for k in ('major', 'minor', 'patch')) if result else '?'}")
        if result:
            test_session(result, stderr)
    return summary("editors/neovim: ")


if __name__ == "__main__":
    sys.exit(main())
