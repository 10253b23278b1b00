#!/usr/bin/env python3
"""The VS Code extension (editors/vscode): packaged by editors/vscode/package.cmake
(as the vscode-extension target does) into a .vsix whose contents are checked;
its activate() run under node with a stub vscode module, recording the server
command and initializationOptions it gives vscode-languageclient, through a
settings change and gradlint.restart; then this build's `gradlint lsp` started
with exactly those options on an example with findings.

usage: vscode_tests.py GRADLINT SOURCE_DIR [NPM [CMAKE]]"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from testlib import check, summary  # noqa: E402
from lsp_client import LspClient, file_uri  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
SOURCE_DIR = os.path.abspath(sys.argv[2])
NPM = sys.argv[3] if len(sys.argv) > 3 else shutil.which("npm")
CMAKE = sys.argv[4] if len(sys.argv) > 4 else shutil.which("cmake")
EXTENSION_DIR = os.path.join(SOURCE_DIR, "editors", "vscode")
EXAMPLE = os.path.join(SOURCE_DIR, "examples", "mnist_accumulation_buggy.cpp")
ONLY_CHECK = "accum-missing-loss-division"

# Each gradlint.* setting and the initializationOptions name the server reads.
SETTINGS = {"debounceMs": "debounceMs", "compileCommandsDir": "compileCommandsDir",
            "configFile": "configFile", "checks": "checks", "isolation": "isolation",
            "timeout": "timeout", "memoryLimit": "memoryLimit", "cacheDir": "cacheDir",
            "noCache": "noCache"}


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)


def build_vsix(workdir):
    vsix = os.path.join(workdir, "out", "gradlint.vsix")
    built = run([CMAKE, f"-DNPM={NPM}", f"-DVSIX={vsix}", "-P",
                 os.path.join(EXTENSION_DIR, "package.cmake")])
    check("1. package.cmake (the vscode-extension target's script) builds the .vsix",
          built.returncode == 0 and os.path.isfile(vsix), built.stdout[-1500:] + built.stderr)
    return vsix if os.path.isfile(vsix) else None


def test_contents(vsix):
    """The manifest and the files; returns the packaged package.json."""
    check("2. the .vsix is a valid zip", zipfile.is_zipfile(vsix))
    with zipfile.ZipFile(vsix) as archive:
        names = archive.namelist()
        manifest = json.loads(archive.read("extension/package.json"))
    with open(os.path.join(EXTENSION_DIR, "package.json")) as f:
        source_manifest = json.load(f)
    check("3. extension/package.json is the source's, version included",
          manifest.get("version") == source_manifest["version"] and
          manifest.get("name") == source_manifest["name"], manifest.get("version"))
    properties = manifest.get("contributes", {}).get("configuration", {}).get("properties", {})
    expected = {f"gradlint.{name}" for name in ["path", *SETTINGS]}
    check("4. contributes.configuration has every gradlint.* setting",
          expected <= set(properties), sorted(expected - set(properties)))
    undocumented = [name for name, spec in properties.items()
                    if not spec.get("description") or "type" not in spec or "default" not in spec]
    check("5. ... each with a type, a default and a description", not undocumented, undocumented)
    check("6. gradlint.path defaults to the gradlint on PATH",
          properties.get("gradlint.path", {}).get("default") == "gradlint")
    commands = [c.get("command") for c in manifest.get("contributes", {}).get("commands", [])]
    check("7. the gradlint.restart command is contributed", "gradlint.restart" in commands, commands)
    events = set(manifest.get("activationEvents", []))
    check("8. activated by C, C++ and CUDA C++ files",
          {"onLanguage:cpp", "onLanguage:c", "onLanguage:cuda-cpp"} <= events, events)
    main = os.path.normpath(os.path.join("extension", manifest.get("main", "")))
    check("9. the compiled extension (package.json's main) is in the .vsix",
          main.endswith(".js") and main in names, main)
    check("10. vscode-languageclient is in the .vsix",
          "extension/node_modules/vscode-languageclient/node.js" in names and
          "extension/node_modules/vscode-jsonrpc/package.json" in names)
    dev_dependencies = [f"extension/node_modules/{name}/"
                        for name in source_manifest.get("devDependencies", {})]
    unwanted = [n for n in names if
                (n.endswith(".ts") and not n.endswith(".d.ts")) or n.startswith("extension/src/") or
                any(n.startswith(prefix) for prefix in dev_dependencies) or
                n.endswith(("tsconfig.json", "package.cmake", ".vsix"))]
    check("11. no TypeScript sources, build files or devDependencies in the .vsix",
          not unwanted, unwanted[:20])
    size = os.path.getsize(vsix)
    check("12. the .vsix is small (under 1 MB)", size < 1 << 20, size)
    # The license: package.json names it, the repository's LICENSE travels as
    # extension/LICENSE.txt (vsce's name for it) and the VSIX manifest points there.
    check("12a. package.json's license is Apache-2.0 WITH LLVM-exception",
          manifest.get("license") == "Apache-2.0 WITH LLVM-exception", manifest.get("license"))
    with open(os.path.join(SOURCE_DIR, "LICENSE"), encoding="utf-8") as f:
        license_text = f.read()
    with zipfile.ZipFile(vsix) as archive:
        packaged = (archive.read("extension/LICENSE.txt").decode("utf-8")
                    if "extension/LICENSE.txt" in names else None)
        vsix_manifest = (archive.read("extension.vsixmanifest").decode("utf-8")
                         if "extension.vsixmanifest" in names else "")
    check("12b. the repository's LICENSE is in the .vsix as extension/LICENSE.txt, unchanged",
          packaged == license_text, "missing" if packaged is None else "it differs")
    check("12c. extension.vsixmanifest names it as the license",
          "<License>extension/LICENSE.txt</License>" in vsix_manifest and
          'Type="Microsoft.VisualStudio.Services.Content.License" Path="extension/LICENSE.txt"'
          in vsix_manifest, vsix_manifest[-1500:])
    return manifest


def load_extension(extension_dir, settings, changed_settings):
    loaded = run(["node", os.path.join(HERE, "load_extension.js"), extension_dir,
                  json.dumps(settings), json.dumps(changed_settings)])
    try:
        return json.loads(loaded.stdout), loaded.stderr
    except json.JSONDecodeError:
        return None, loaded.stdout[-1500:] + loaded.stderr


def test_activation(vsix, manifest, workdir):
    """activate() under a stub vscode; returns the server launch it recorded."""
    unpacked = os.path.join(workdir, "unpacked")
    with zipfile.ZipFile(vsix) as archive:
        archive.extractall(unpacked)
    extension_dir = os.path.join(unpacked, "extension")
    defaults = {name.split(".", 1)[1]: spec.get("default") for name, spec in
                manifest["contributes"]["configuration"]["properties"].items()}

    settings = dict(defaults, path=GRADLINT, debounceMs=50, checks=["-*", ONLY_CHECK],
                    cacheDir=os.path.join(workdir, "preamble-cache"), timeout=120)
    changed = dict(settings, compileCommandsDir="${workspaceFolder}/build",
                   configFile="/etc/gradlint.yaml", checks=[" -* ", "", "accum-*"],
                   isolation=False, noCache=True, memoryLimit=2048, cacheDir="  ")
    session, errors = load_extension(extension_dir, settings, changed)
    check("13. the packaged extension activates under node with a stub vscode module",
          session is not None, errors)
    if session is None:
        return None
    check("14. vscode-languageclient resolves from the .vsix's own node_modules",
          (session["languageClientPath"] or "").startswith(extension_dir + os.sep),
          session["languageClientPath"])
    counts = session["counts"]
    clients = session["clients"]
    check("15. activate() starts one language client", counts["afterActivate"] == 1 and
          clients[0]["started"] and clients[0]["id"] == "gradlint", session)
    if not clients:
        return None
    first = clients[0]
    check("16. the server command is [gradlint.path, 'lsp']",
          first["serverOptions"] == {"command": GRADLINT, "args": ["lsp"]}, first["serverOptions"])
    selector = first["clientOptions"].get("documentSelector")
    check("17. documents: file scheme, languages cpp, c and cuda-cpp",
          sorted((s.get("scheme"), s.get("language")) for s in selector or []) ==
          [("file", "c"), ("file", "cpp"), ("file", "cuda-cpp")], selector)
    expected_options = {"debounceMs": 50, "checks": f"-*,{ONLY_CHECK}", "isolation": True,
                        "timeout": 120, "memoryLimit": 4096,
                        "cacheDir": settings["cacheDir"], "noCache": False}
    options = first["clientOptions"].get("initializationOptions")
    check("18. initializationOptions: the settings under the server's names, checks joined "
          "with commas, empty paths left out", options == expected_options,
          f"got {options}, expected {expected_options}")
    check("19. a change to another section's settings does not restart the server",
          counts["afterUnrelatedChange"] == 1, counts)
    check("20. a gradlint.* change stops the server and starts one with the new settings",
          counts["afterGradlintChange"] == 2 and first["stopped"] and clients[1]["started"], counts)
    if len(clients) > 1:
        changed_options = clients[1]["clientOptions"].get("initializationOptions")
        expected_changed = {"debounceMs": 50, "checks": "-*,accum-*", "isolation": False,
                            "timeout": 120, "memoryLimit": 2048, "noCache": True,
                            "compileCommandsDir": "/workspace/project/build",
                            "configFile": "/etc/gradlint.yaml"}
        check("21. ... compileCommandsDir (${workspaceFolder} expanded), configFile, "
              "isolation, noCache, memoryLimit mapped", changed_options == expected_changed,
              f"got {changed_options}, expected {expected_changed}")
    check("22. gradlint.restart starts a new client; deactivate() stops it",
          counts["afterRestartCommand"] == 3 and clients[-1]["stopped"] and
          "gradlint.restart" in session["commands"], counts)
    check("23. no error message was shown", not session["errors"], session["errors"])

    default_session, errors = load_extension(extension_dir, defaults, defaults)
    default_client = (default_session or {"clients": [{}]})["clients"][0]
    check("24. with the defaults: `gradlint lsp` from PATH and the server's own defaults",
          default_client.get("serverOptions") == {"command": "gradlint", "args": ["lsp"]} and
          default_client.get("clientOptions", {}).get("initializationOptions") ==
          {"debounceMs": 200, "isolation": True, "timeout": 600, "memoryLimit": 4096,
           "noCache": False}, default_client or errors)
    return first


def test_server(launch, workdir):
    """The real gradlint lsp, started as the extension would start it."""
    source = os.path.join(workdir, "project", os.path.basename(EXAMPLE))
    os.makedirs(os.path.dirname(source))
    shutil.copy(EXAMPLE, source)
    with open(source) as f:
        text = f.read()
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(workdir, "xdg-cache"))
    server_options = launch["serverOptions"]
    client = LspClient([server_options["command"], *server_options["args"]], env=env)
    try:
        initialized = client.request("initialize", {
            "processId": os.getpid(), "rootUri": file_uri(os.path.dirname(source)),
            "capabilities": {}, "initializationOptions":
                launch["clientOptions"]["initializationOptions"]})
        check("25. gradlint lsp answers initialize with the extension's options",
              initialized is not None and "result" in initialized,
              initialized or "".join(client.stderr_lines[-20:]))
        if not initialized:
            return
        client.notify("initialized", {})
        uri = file_uri(source)
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 1, "text": text}})
        published = client.wait_for(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and
            m["params"]["uri"] == uri and m["params"]["diagnostics"], timeout=120)
        diagnostics = published["params"]["diagnostics"] if published else []
        codes = sorted({d.get("code") for d in diagnostics})
        check("26. the example gets gradlint's finding: accum-missing-loss-division at line 81",
              any(d.get("code") == ONLY_CHECK and d["range"]["start"]["line"] == 80
                  for d in diagnostics), diagnostics or "".join(client.stderr_lines[-20:]))
        check("27. ... and no other check's (gradlint.checks reached the server)",
              codes == [ONLY_CHECK], codes)
        cache = launch["clientOptions"]["initializationOptions"]["cacheDir"]
        check("28. the preamble went to gradlint.cacheDir",
              os.path.isdir(cache) and any(files for _, _, files in os.walk(cache)),
              os.listdir(cache) if os.path.isdir(cache) else "no folder")
    finally:
        client.close()


def main():
    if not NPM or not CMAKE or not shutil.which("node"):
        print("SKIP: node, npm or cmake not found")
        return 77
    with tempfile.TemporaryDirectory(prefix="gradlint-vscode-") as workdir:
        vsix = build_vsix(workdir)
        if vsix:
            manifest = test_contents(vsix)
            launch = test_activation(vsix, manifest, workdir)
            if launch:
                test_server(launch, workdir)
    return summary("editors/vscode: ")


if __name__ == "__main__":
    sys.exit(main())
