#!/usr/bin/env python3
"""The Debian package (cpack -G DEB) installed into a fresh root with dpkg
--root, and run from outside the source and build trees: gradlint finds its
CUDA runtime library, its API model and its rule documents relative to
itself, and gives the findings of the build tree's gradlint. The package
carries its documentation and Debian's machine-readable copyright file.

usage: package_tests.py BUILD_DIR SOURCE_DIR [CLANG_TIDY]"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, summary  # noqa: E402

BUILD_DIR = os.path.abspath(sys.argv[1])
SOURCE_DIR = os.path.abspath(sys.argv[2])
CLANG_TIDY = sys.argv[3] if len(sys.argv) > 3 else None


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=900, **kwargs)


def installed_package(workdir):
    """Builds the package and installs it into a fresh dpkg root; the root's path."""
    made = run(["cpack", "-G", "DEB", "-B", os.path.join(workdir, "package"),
                "--config", os.path.join(BUILD_DIR, "CPackConfig.cmake")])
    debs = glob.glob(os.path.join(workdir, "package", "gradlint_*.deb"))
    check("cpack builds one .deb", made.returncode == 0 and len(debs) == 1,
          made.stdout[-1500:] + made.stderr)
    if len(debs) != 1:
        return None, None
    root = os.path.join(workdir, "root")
    for folder in ("var/lib/dpkg/info", "var/lib/dpkg/updates"):
        os.makedirs(os.path.join(root, folder))
    open(os.path.join(root, "var/lib/dpkg/status"), "w").close()
    # Unpacked, not configured: the root has no shell to run the maintainer
    # scripts in (CPack's ldconfig call, checked below), and its database
    # knows none of the dependencies (checked against this system's below).
    installed = run(["dpkg", f"--root={root}", "--force-depends", "--force-not-root",
                     "--log=/dev/null", "--unpack", debs[0]])
    check("dpkg unpacks the package into the fresh root", installed.returncode == 0,
          installed.stdout + installed.stderr)
    scripts = os.path.join(workdir, "control")
    run(["dpkg-deb", "-e", debs[0], scripts])
    for name in ("preinst", "postinst", "prerm", "postrm"):
        path = os.path.join(scripts, name)
        if os.path.exists(path):
            with open(path) as f:
                commands = [line.strip() for line in f if line.strip() and
                            not line.startswith(("#", "set ", "if ", "fi")) and
                            line.strip() != "fi"]
            check(f"{name} only runs ldconfig", commands == ["ldconfig"], commands)
    return debs[0], root


def test_dependencies(deb):
    depends = run(["dpkg-deb", "-f", deb, "Depends"]).stdout.strip()
    names = [alternative.split()[0] for part in depends.split(",")
             for alternative in [part.strip().split("|")[0]] if alternative]
    check("Depends: Debian's LLVM 19 runtime libraries and Clang's resource headers",
          {"libllvm19", "libclang-cpp19", "libclang-common-19-dev"} <= set(names), depends)
    check("Depends: no LibTorch, no -dev package but the resource headers",
          not any("torch" in n or "gloo" in n for n in names) and
          [n for n in names if n.endswith("-dev")] == ["libclang-common-19-dev"], depends)
    missing = [n for n in names
               if "install ok installed" not in run(["dpkg-query", "-W", "-f=${Status}", n]).stdout]
    check("every dependency is a package this Debian system has installed", not missing, missing)


def test_layout(root):
    binary = os.path.join(root, "usr", "bin", "gradlint")
    dynamic = run(["readelf", "-d", binary]).stdout
    runpaths = [line.split("[", 1)[1].rstrip("]") for line in dynamic.splitlines()
                if "RUNPATH" in line or "RPATH" in line]
    check("the binary's RUNPATH is relative to itself only",
          runpaths == ["$ORIGIN/../lib/gradlint"], runpaths)
    with open(binary, "rb") as f:
        image = f.read()
    check("the binary names neither the source nor the build tree",
          SOURCE_DIR.encode() not in image and BUILD_DIR.encode() not in image)
    resolved = run(["ldd", binary]).stdout
    loaded = [os.path.normpath(line.split("=>")[1].split("(")[0].strip())
              for line in resolved.splitlines() if "=>" in line]
    if "libgradlint_runtime_cuda" in dynamic:
        check("the CUDA runtime library loads from the installed tree",
              os.path.join(root, "usr/lib/gradlint/libgradlint_runtime_cuda.so") in loaded,
              resolved)
    check("no library is missing", "not found" not in resolved, resolved)
    rules = sorted(os.path.basename(p) for p in glob.glob(os.path.join(SOURCE_DIR, "rules", "*.md")))
    installed_rules = sorted(os.listdir(os.path.join(root, "usr/share/gradlint/rules")))
    check("every rule document is installed", rules == installed_rules, installed_rules)
    check("the API model is installed",
          os.path.isfile(os.path.join(root, "usr/share/gradlint/api_model/torch/torch.h")))


def deb822_paragraphs(text):
    """[{field: value}] of a Debian control-style file; continuation lines kept
    with their leading space dropped, a lone '.' as an empty line."""
    paragraphs, fields, last = [], {}, None
    for line in text.splitlines() + [""]:
        if not line.strip():
            if fields:
                paragraphs.append(fields)
            fields, last = {}, None
        elif line[0] in " \t" and last:
            fields[last] += "\n" + ("" if line.strip() == "." else line[1:])
        elif ":" in line:
            last, value = line.split(":", 1)
            fields[last] = value.strip()
    return paragraphs


def words(text):
    return " ".join(text.split())


def test_copyright(deb, root):
    """/usr/share/doc/gradlint/copyright in DEP-5 format, naming LICENSE's license
    with its LLVM exceptions; the README and the docs/ pages beside it."""
    pages = sorted(os.path.basename(p)
                   for p in glob.glob(os.path.join(SOURCE_DIR, "docs", "*.md")))
    docs = os.path.join(root, "usr/share/doc/gradlint/docs")
    installed_pages = sorted(os.listdir(docs)) if os.path.isdir(docs) else []
    check("the README and every docs/ page are installed",
          os.path.isfile(os.path.join(root, "usr/share/doc/gradlint/README.md")) and
          pages and pages == installed_pages, installed_pages)
    listed = run(["dpkg-deb", "-c", deb]).stdout
    check("the .deb carries usr/share/doc/gradlint/copyright",
          "./usr/share/doc/gradlint/copyright\n" in listed + "\n", listed[-1500:])
    path = os.path.join(root, "usr/share/doc/gradlint/copyright")
    if not os.path.isfile(path):
        return
    with open(path, encoding="utf-8") as f:
        paragraphs = deb822_paragraphs(f.read())
    header = paragraphs[0] if paragraphs else {}
    check("copyright: machine-readable format 1.0",
          header.get("Format") ==
          "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/", header)
    everything = [p for p in paragraphs if p.get("Files") == "*"]
    check("copyright: Files: * is under Apache-2.0 WITH LLVM-exception, with a copyright",
          len(everything) == 1 and everything[0].get("Copyright") and
          everything[0].get("License") == "Apache-2.0 WITH LLVM-exception", everything)
    text = next((p["License"] for p in paragraphs if "Files" not in p and
                 p.get("License", "").startswith("Apache-2.0 WITH LLVM-exception\n")), "")
    with open(os.path.join(SOURCE_DIR, "LICENSE"), encoding="utf-8") as f:
        license_text = f.read()
    exceptions = license_text[license_text.find("---- LLVM Exceptions"):]
    check("LICENSE ends with the LLVM exceptions", exceptions.startswith("---- LLVM Exceptions")
          and "Apache License" in license_text and "Version 2.0, January 2004" in license_text)
    check("copyright: the license paragraph holds LICENSE's LLVM exceptions, word for word",
          exceptions and words(exceptions) in words(text) and
          "/usr/share/common-licenses/Apache-2.0" in text, text[-400:])


def test_runs_outside_the_trees(root, workdir):
    binary = os.path.join(root, "usr", "bin", "gradlint")
    project = os.path.join(workdir, "user-project")
    shutil.copytree(os.path.join(SOURCE_DIR, "examples"), project)
    sources = sorted(os.path.basename(p) for p in glob.glob(os.path.join(project, "*.cpp")))
    # No variable points gradlint anywhere: it finds its data itself.
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRADLINT")}
    env["XDG_CACHE_HOME"] = os.path.join(workdir, "cache")
    installed = run([binary, "--format=json", *sources], cwd=project, env=env)
    reference = run([os.path.join(BUILD_DIR, "bin", "gradlint"), "--format=json", *sources],
                    cwd=project, env=env)
    check("the installed gradlint exits 1 on the examples (findings, no error)",
          installed.returncode == 1, installed.stderr[-1500:])
    check("... using the installed API model",
          os.path.join(root, "usr/share/gradlint/api_model") in installed.stderr,
          installed.stderr[-800:])
    try:
        got, expected = json.loads(installed.stdout), json.loads(reference.stdout)
    except json.JSONDecodeError as error:
        check("both runs print JSON", False, error)
        return
    key = lambda d: (d["file"], d["line"], d["column"], d["check"], d["message"])  # noqa: E731
    check("... the same findings as the build tree's gradlint",
          got["diagnostics"] and sorted(map(key, got["diagnostics"])) ==
          sorted(map(key, expected["diagnostics"])) and not got["errors"],
          (len(got["diagnostics"]), len(expected["diagnostics"]), got["errors"]))
    confirmed = run([binary, "--confirm", "mnist_accumulation_buggy.cpp"], cwd=project, env=env)
    check("--confirm runs on the installed runtime", confirmed.returncode == 1 and
          "confirmed" in confirmed.stdout.lower(), confirmed.stdout[-800:] + confirmed.stderr[-400:])
    if CLANG_TIDY:
        plugin = os.path.join(root, "usr/lib/gradlint/libGradlintTidy.so")
        listed = run([CLANG_TIDY, f"-load={plugin}", "-checks=-*,accum-*", "--list-checks"])
        check("clang-tidy loads the installed plugin and lists the accum-* checks",
              listed.returncode == 0 and listed.stdout.count("accum-") == len(
                  glob.glob(os.path.join(SOURCE_DIR, "rules", "accum-*.md"))),
              listed.stdout + listed.stderr)


def main():
    if not shutil.which("cpack") or not shutil.which("dpkg"):
        print("skipped: cpack or dpkg is missing")
        return 77
    workdir = tempfile.mkdtemp(prefix="gradlint-package-")
    try:
        deb, root = installed_package(workdir)
        if deb:
            test_dependencies(deb)
            test_layout(root)
            test_copyright(deb, root)
            test_runs_outside_the_trees(root, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
