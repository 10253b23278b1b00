#!/usr/bin/env python3
"""`gradlint lsp`: a scripted editor session over JSON-RPC with Content-Length
framing. Initialize, diagnostics of unsaved text, stale versions dropped,
quick fixes that remove their finding, UTF-16 and UTF-8 positions, NOLINT in
unsaved text, stale findings while a half-typed line hides the loop, pull
diagnostics, an #include not found shown on its line, errors (-32002,
-32601, -32800, malformed frames), didClose,
shutdown and exit codes; the preamble cache for unsaved text (a hit after a
body edit, a new PCH when the include lines change, eviction), the cache
options, and 10,000 nested ifs in a buffer. Every wait has a timeout.

usage: lsp_tests.py <gradlint> <source-root>
"""
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
SOURCE_ROOT = os.path.abspath(sys.argv[2])
EXAMPLE = os.path.join(SOURCE_ROOT, "examples", "mnist_accumulation_buggy.cpp")
TRAILING = os.path.join(SOURCE_ROOT, "test_cases", "cli", "inputs", "trailing_two_loops.cpp")
with open(EXAMPLE, encoding="utf-8") as example_file:
    # 0-based line of the example's misplaced zero_grad().
    RESET_LINE = next(i for i, line in enumerate(example_file) if "BUG 1" in line and "zero_grad" in line)
# 0-based lines of the example's findings (examples/README.md gives them 1-based).
EXPECTED = {"accum-misplaced-zero-grad": 76, "accum-missing-loss-division": 80,
            "accum-per-micro-batch-clip": 83}
TIMEOUT = 60  # seconds for one analysis to be published; a hang fails, never blocks
DEBOUNCE_MS = 150


class Server:
    """A `gradlint lsp` process; a thread reads its frames into a queue."""

    def __init__(self, *args, env=None):
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen([GRADLINT, "lsp", *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.stderr,
                                        env=env)
        self.inbox = queue.Queue()
        self.seen = []  # every message received, in order
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            body = stream.read(length)
            self.inbox.put(json.loads(body))

    def send_raw(self, data):
        try:
            self.process.stdin.write(data)
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass  # the server died: the waits that follow fail the checks

    def send(self, message):
        body = json.dumps(message).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return request_id

    def wait_for(self, predicate, timeout=TIMEOUT):
        """The first message (received now or earlier, not yet taken) that matches."""
        for message in self.seen:
            if not message.get("_taken") and predicate(message):
                message["_taken"] = True
                return message
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                message = self.inbox.get(timeout=left)
            except queue.Empty:
                return None
            if message is None:
                return None
            self.seen.append(message)
            if predicate(message):
                message["_taken"] = True
                return message

    def response(self, request_id, timeout=TIMEOUT):
        return self.wait_for(lambda m: m.get("id") == request_id and "method" not in m, timeout)

    def publish(self, uri, version, timeout=TIMEOUT):
        """The diagnostics published for `uri` at `version` (None: without a version)."""
        def matches(message):
            if message.get("method") != "textDocument/publishDiagnostics":
                return False
            params = message["params"]
            return params["uri"] == uri and params.get("version") == version
        message = self.wait_for(matches, timeout)
        return message["params"] if message else None

    def drain(self, seconds):
        """Collects what arrives in `seconds` (for asserting that something did not)."""
        self.wait_for(lambda m: False, seconds)

    def published_versions(self, uri):
        return [m["params"].get("version") for m in self.seen
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]

    def log(self):
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")

    def shutdown(self, timeout=10):
        """shutdown, then exit; the exit code, or None when it does not exit."""
        self.request("shutdown", None)
        self.notify("exit", None)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def file_uri(path):
    return "file://" + urllib.parse.quote(path)


def codes(published):
    return sorted(d["code"] for d in published["diagnostics"]) if published else None


def find(published, code):
    for diagnostic in (published or {}).get("diagnostics", []):
        if diagnostic["code"] == code:
            return diagnostic
    return None


def utf16_units(text):
    return len(text.encode("utf-16-le")) // 2


def offset_of(text, position, encoding="utf-16"):
    """The str index of an LSP position in `text`."""
    lines = text.split("\n")
    index = sum(len(line) + 1 for line in lines[:position["line"]])
    line = lines[position["line"]] if position["line"] < len(lines) else ""
    units = 0
    for i, char in enumerate(line):
        if units >= position["character"]:
            return index + i
        units += utf16_units(char) if encoding == "utf-16" else len(char.encode())
    return index + len(line)


def apply_edits(text, edits):
    located = [(offset_of(text, e["range"]["start"]), offset_of(text, e["range"]["end"]),
                e["newText"]) for e in edits]
    for start, end, new_text in sorted(located, reverse=True):
        text = text[:start] + new_text + text[end:]
    return text


def initialize(server, encodings=("utf-16",), **settings):
    request_id = server.request("initialize", {
        "processId": os.getpid(), "rootUri": None,
        "capabilities": {"general": {"positionEncodings": list(encodings)}},
        "initializationOptions": {"debounceMs": DEBOUNCE_MS, **settings}})
    reply = server.response(request_id, timeout=10)
    server.notify("initialized", {})
    return reply


def main():
    # Two ctest entries (one group each), so that a sanitized build on a loaded
    # machine runs them side by side, each within its time limit.
    groups = {
        "editing": (run_session, run_utf8_session, run_config_session, run_pull_session,
                    run_include_not_found_session, run_broken_database_session),
        "cache-and-isolation": (run_cache_session, run_cache_options, run_isolation_session),
    }
    selected = sys.argv[3:] or list(groups)
    workdir = tempfile.mkdtemp(prefix="gradlint-lsp-")
    try:
        for name in selected:
            for session in groups[name]:
                started = time.monotonic()
                session(workdir)
                print(f"{session.__name__}: {time.monotonic() - started:.1f} s")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(summary())


def run_pull_session(workdir):
    """A client that pulls diagnostics (textDocument/diagnostic, LSP 3.17)."""
    source = os.path.join(workdir, "pulled.cpp")
    shutil.copy(EXAMPLE, source)
    with open(EXAMPLE, encoding="utf-8") as f:
        buggy = f.read()
    uri = file_uri(source)
    server = Server()
    try:
        request_id = server.request("initialize", {
            "processId": os.getpid(), "rootUri": None,
            "capabilities": {"textDocument": {"diagnostic": {"dynamicRegistration": False}}},
            "initializationOptions": {"debounceMs": DEBOUNCE_MS}})
        reply = server.response(request_id, timeout=10)
        server.notify("initialized", {})
        provider = (reply or {}).get("result", {}).get("capabilities", {}).get("diagnosticProvider")
        check("pull: diagnosticProvider, per document",
              provider is not None and provider.get("interFileDependencies") is False and
              provider.get("workspaceDiagnostics") is False, provider)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 1, "text": buggy}})
        # Asked at once: the answer waits for the analysis of the open version.
        first = server.response(server.request("textDocument/diagnostic",
                                               {"textDocument": {"uri": uri}}))
        report = (first or {}).get("result", {})
        check("pull: a full report with the findings",
              report.get("kind") == "full" and codes({"diagnostics": report.get("items", [])}) ==
              sorted(EXPECTED), report)
        again = server.response(server.request("textDocument/diagnostic", {
            "textDocument": {"uri": uri}, "previousResultId": report.get("resultId")}))
        check("pull: unchanged for the same result id",
              (again or {}).get("result", {}).get("kind") == "unchanged", again)
        lines = buggy.split("\n")
        lines[EXPECTED["accum-misplaced-zero-grad"]] += "  // NOLINT(accum-misplaced-zero-grad)"
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                 "contentChanges": [{"text": "\n".join(lines)}]})
        changed = server.response(server.request("textDocument/diagnostic", {
            "textDocument": {"uri": uri}, "previousResultId": report.get("resultId")}))
        items = (changed or {}).get("result", {}).get("items")
        check("pull: after a change, the new version's findings",
              items is not None and codes({"diagnostics": items}) ==
              sorted(set(EXPECTED) - {"accum-misplaced-zero-grad"}), changed)
        server.drain(1)
        check("pull: nothing pushed to a client that pulls",
              server.published_versions(uri) == [], server.published_versions(uri))
        closed = os.path.join(workdir, "never-opened.cpp")
        unknown = server.response(server.request("textDocument/diagnostic",
                                                 {"textDocument": {"uri": file_uri(closed)}}))
        check("pull: a document not open gets an empty report",
              (unknown or {}).get("result") == {"kind": "full", "items": []}, unknown)
        server.shutdown()
    finally:
        server.kill()


def run_include_not_found_session(workdir):
    """An #include not found (no compile_commands.json gave the include path)
    is shown on its line, with what to set."""
    project = os.path.join(workdir, "no-database")
    os.makedirs(project)
    source = os.path.join(project, "train.cpp")
    text = '#include <torch/torch.h>\n#include "proj/trainer.h"\n\nint main() { return 0; }\n'
    with open(source, "w", encoding="utf-8") as f:
        f.write(text)
    uri = file_uri(source)
    server = Server()
    try:
        initialize(server)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 1, "text": text}})
        published = server.publish(uri, 1)
        shown = [d for d in (published or {}).get("diagnostics", [])
                 if "proj/trainer.h" in d.get("message", "")]
        check("include not found: a diagnostic on the #include line",
              len(shown) == 1 and shown[0]["range"]["start"]["line"] == 1, published)
        check("include not found: it names compileCommandsDir and -p",
              shown and "compileCommandsDir" in shown[0]["message"] and
              "-p" in shown[0]["message"], shown)
        server.shutdown()
    finally:
        server.kill()


def run_broken_database_session(workdir):
    """A compile_commands.json found beside the document that is half written
    (a CMake configure under way): one diagnostic naming it, the server keeps
    running, and once the file is complete the document's findings arrive."""
    project = os.path.join(workdir, "half-configured")
    os.makedirs(project)
    source = os.path.join(project, "train.cpp")
    shutil.copy(EXAMPLE, source)
    with open(EXAMPLE, encoding="utf-8") as f:
        buggy = f.read()
    database = os.path.join(project, "compile_commands.json")
    complete = json.dumps([{"directory": project, "file": source,
                            "command": f"c++ -std=c++17 -c {source}"}])
    with open(database, "w", encoding="utf-8") as f:
        f.write(complete[:30])
    uri = file_uri(source)
    server = Server()
    try:
        initialize(server)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 1, "text": buggy}})
        published = server.publish(uri, 1)
        diagnostics = (published or {}).get("diagnostics", [])
        check("broken database: one diagnostic naming the database",
              len(diagnostics) == 1 and database in diagnostics[0].get("message", "") and
              "not valid JSON" in diagnostics[0].get("message", ""), published)
        with open(database, "w", encoding="utf-8") as f:
            f.write(complete)
        # A later mtime than the half-written file's, on filesystems with coarse times.
        later = time.time() + 2
        os.utime(database, (later, later))
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                 "contentChanges": [{"text": buggy + "\n"}]})
        published = server.publish(uri, 2)
        check("broken database: once it is complete, the findings",
              published is not None and codes(published) == sorted(EXPECTED), published)
        exit_code = server.shutdown()
        check("broken database: the server exits cleanly", exit_code == 0, exit_code)
    finally:
        server.kill()


def run_isolation_session(workdir):
    """Each analysis runs in a forked child under a time and a memory limit: a
    document that crashes the analysis, one that never finishes and a macro
    bomb each get one diagnostic saying so, while another document opened
    after them is analysed as usual and the server keeps answering."""
    with open(EXAMPLE, encoding="utf-8") as f:
        buggy = f.read()
    paths = {name: os.path.join(workdir, f"{name}.cpp")
             for name in ("crashme", "hangme", "bomb", "healthy")}
    # 10^9 tokens: a buffer whose preprocessing takes all memory.
    bomb = "#define X0 1,\n" + "".join(
        f"#define X{i} " + " ".join([f"X{i - 1}"] * 10) + "\n" for i in range(1, 10)) + \
        "int bomb[] = { X9 };\n" + buggy
    texts = {"crashme": buggy, "hangme": buggy, "bomb": bomb, "healthy": buggy}
    for name, path in paths.items():
        with open(path, "w") as f:
            f.write(texts[name])
    env = dict(os.environ, GRADLINT_TEST_CRASH_ON="segv:crashme,hang:hangme")
    # A sanitized build analyses the healthy document several times slower: the
    # hanging one's limit must stay longer than that for the ordering check.
    time_limit = 20 * int(os.environ.get("GRADLINT_TEST_TIME_SCALE", "1"))
    server = Server("--no-cache", env=env)
    try:
        initialize(server, timeout=time_limit, memoryLimit=1024)
        for name in ("crashme", "hangme", "bomb", "healthy"):
            server.notify("textDocument/didOpen", {"textDocument": {
                "uri": file_uri(paths[name]), "languageId": "cpp", "version": 1,
                "text": texts[name]}})
        healthy = server.publish(file_uri(paths["healthy"]), 1, timeout=120)
        check("isolation: a healthy document is analysed while another hangs",
              healthy is not None and "accum-misplaced-zero-grad" in (codes(healthy) or []),
              server.log()[-800:])
        hang_published = any(m.get("method") == "textDocument/publishDiagnostics" and
                             m["params"]["uri"] == file_uri(paths["hangme"]) for m in server.seen)
        check("isolation: ... before the hanging one's time limit", not hang_published, "")
        expected = {"crashme": "analysis crashed (Segmentation fault)",
                    "hangme": f"analysis timed out after {time_limit} s",
                    "bomb": "memory limit of 1024 MiB"}
        for name, words in expected.items():
            published = server.publish(file_uri(paths[name]), 1, timeout=60 + 2 * time_limit)
            messages = [d["message"] for d in (published or {}).get("diagnostics", [])]
            check(f"isolation: {name}: one diagnostic saying '{words}'",
                  len(messages) == 1 and words in messages[0] and
                  messages[0].startswith("gradlint could not analyse this version"),
                  (messages, server.log()[-800:]))
        alive = server.response(server.request("gradlint/stillThere", {}), timeout=10)
        check("isolation: the server still answers",
              alive is not None and alive.get("error", {}).get("code") == -32601, alive)
        code = server.shutdown()
        check("isolation: the server exits 0", code == 0, code)
    finally:
        server.kill()


def run_session(workdir):
    # Unsaved text is what counts: a space in the path checks percent-encoding too.
    source = os.path.join(workdir, "my loop.cpp")
    shutil.copy(EXAMPLE, source)
    with open(EXAMPLE, encoding="utf-8") as f:
        buggy = f.read()
    fixed_copy = os.path.join(workdir, "fixed.cpp")
    shutil.copy(EXAMPLE, fixed_copy)
    subprocess.run([GRADLINT, "--fix", fixed_copy], capture_output=True, timeout=120)
    with open(fixed_copy, encoding="utf-8") as f:
        fixed = f.read()
    check("gradlint --fix changed the copy", fixed != buggy)
    uri = file_uri(source)

    server = Server()
    try:
        # Requests before initialize.
        early = server.response(server.request("textDocument/codeAction", {}), timeout=10)
        check("request before initialize: -32002",
              early is not None and early.get("error", {}).get("code") == -32002, early)

        reply = initialize(server)
        capabilities = (reply or {}).get("result", {}).get("capabilities", {})
        sync = capabilities.get("textDocumentSync", {})
        check("initialize: full sync (change = 1)", sync.get("change") == 1, capabilities)
        check("initialize: openClose and save", sync.get("openClose") is True and "save" in sync,
              sync)
        check("initialize: quickfix code actions",
              capabilities.get("codeActionProvider", {}).get("codeActionKinds") == ["quickfix"],
              capabilities)
        check("initialize: utf-16 positions when the client offers only utf-16",
              capabilities.get("positionEncoding") == "utf-16", capabilities)
        version = subprocess.run([GRADLINT, "--version"], capture_output=True,
                                 text=True).stdout.split()[-1]
        info = (reply or {}).get("result", {}).get("serverInfo", {})
        check("initialize: serverInfo", info == {"name": "gradlint", "version": version}, info)
        again = server.response(server.request("initialize", {"capabilities": {}}), timeout=10)
        check("second initialize is refused",
              again is not None and again.get("error", {}).get("code") == -32600, again)

        # didOpen: the example's findings.
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 1, "text": buggy}})
        opened = server.publish(uri, 1)
        check("didOpen: the expected checks", codes(opened) == sorted(EXPECTED), codes(opened))
        for code, line in EXPECTED.items():
            diagnostic = find(opened, code) or {}
            check(f"{code}: 0-based line {line}",
                  diagnostic.get("range", {}).get("start", {}).get("line") == line, diagnostic)
            check(f"{code}: source gradlint", diagnostic.get("source") == "gradlint", diagnostic)
            check(f"{code}: severity warning", diagnostic.get("severity") == 2, diagnostic)
            href = diagnostic.get("codeDescription", {}).get("href", "")
            check(f"{code}: codeDescription.href is the rule document beside the binary",
                  href.startswith("file:///") and href.endswith(f"/rules/{code}.md") and
                  os.path.isfile(urllib.parse.unquote(href[len("file://"):])), diagnostic)
            related = diagnostic.get("relatedInformation", [])
            check(f"{code}: relatedInformation for the notes",
                  len(related) >= 1 and all(r["location"]["uri"] == uri and r["message"]
                                            for r in related), related)
        zero_grad = find(opened, "accum-misplaced-zero-grad") or {}
        start = zero_grad.get("range", {}).get("start", {})
        line_text = buggy.split("\n")[76]
        check("range starts at the call (utf-16 column of 'optimizer')",
              start.get("character") == line_text.index("optimizer"), start)

        # didChange to the fixed text, not saved: no findings; the file on disk stays buggy.
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                 "contentChanges": [{"text": fixed}]})
        cleaned = server.publish(uri, 2)
        check("didChange to fixed unsaved text: no findings",
              cleaned is not None and cleaned["diagnostics"] == [], cleaned)
        with open(source, encoding="utf-8") as f:
            check("the file on disk is still the buggy one", f.read() == buggy)

        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                                 "contentChanges": [{"text": buggy}]})
        back = server.publish(uri, 3)
        check("didChange back to buggy: findings return", codes(back) == sorted(EXPECTED),
              codes(back))

        # A burst: version 4 starts analysing, 5..8 arrive meanwhile; only 8 is published.
        # Version 4 includes a header of this run's directory: its new precompiled
        # preamble keeps it busy for a second or more.
        shifted = "// two lines\n// added at the top\n" + buggy
        with open(os.path.join(workdir, "burst.h"), "w") as f:
            f.write("#pragma once\n#include <regex>\n#include <future>\n#include <random>\n")
        slow = fixed.replace("#include <torch/torch.h>\n", '#include <torch/torch.h>\n#include "burst.h"\n', 1)
        check("burst: version 4 has its own include line", slow != fixed)
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4},
                                                 "contentChanges": [{"text": slow}]})
        time.sleep(DEBOUNCE_MS / 1000 + 0.25)  # past the debounce: version 4 is being analysed
        for version, text in [(5, buggy), (6, fixed), (7, buggy), (8, shifted)]:
            server.notify("textDocument/didChange",
                          {"textDocument": {"uri": uri, "version": version},
                           "contentChanges": [{"text": text}]})
        latest = server.publish(uri, 8)
        server.drain(1.5)
        versions = server.published_versions(uri)
        check("burst: the last version is published", latest is not None, versions)
        check("burst: no stale version is published (4..7)",
              not any(v in (4, 5, 6, 7) for v in versions), versions)
        check("burst: version 4 was analysed and its result dropped",
              "dropped the findings of version 4" in server.log(), server.log()[-500:])
        check("burst: the last version's text was analysed (lines shifted by 2)",
              (find(latest, "accum-misplaced-zero-grad") or {}).get("range", {}).get(
                  "start", {}).get("line") == RESET_LINE + 2, latest)

        # Quick fix: applying the edit removes the finding.
        diagnostic = find(latest, "accum-missing-loss-division") or {}
        asked = server.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diagnostic.get("range"),
            "context": {"diagnostics": [diagnostic], "triggerKind": 1}})
        actions = (server.response(asked) or {}).get("result") or []
        ours = [a for a in actions if a.get("diagnostics", [{}])[0].get("code") ==
                "accum-missing-loss-division"]
        check("codeAction: one quickfix for the finding",
              len(ours) == 1 and ours[0].get("kind") == "quickfix" and ours[0].get("title"),
              actions)
        action = ours[0] if ours else {}
        check("codeAction: a safe fix is preferred", action.get("isPreferred") is True, action)
        edits = action.get("edit", {}).get("changes", {}).get(uri, [])
        check("codeAction: edits for this document", len(edits) >= 1, action)
        repaired = apply_edits(shifted, edits)
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 9},
                                                 "contentChanges": [{"text": repaired}]})
        after = server.publish(uri, 9)
        check("applied quick fix: its finding is gone, the others stay",
              codes(after) == sorted(set(EXPECTED) - {"accum-missing-loss-division"}), codes(after))

        # A code action asked right after a change waits for that version's analysis;
        # one cancelled meanwhile gets -32800.
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 10},
                                                 "contentChanges": [{"text": buggy}]})
        whole_file = {"start": {"line": 0, "character": 0}, "end": {"line": 200, "character": 0}}
        kept = server.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": whole_file, "context": {"diagnostics": []}})
        cancelled = server.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": whole_file, "context": {"diagnostics": []}})
        server.notify("$/cancelRequest", {"id": cancelled})
        cancel_reply = server.response(cancelled)
        check("cancelled request: -32800",
              cancel_reply is not None and cancel_reply.get("error", {}).get("code") == -32800,
              cancel_reply)
        kept_reply = server.response(kept)
        titles = [a["title"] for a in (kept_reply or {}).get("result") or []]
        check("code action for the new version: answered after its analysis, one per fix",
              len(titles) == 3, titles)
        check("version 10 was published before that answer",
              10 in server.published_versions(uri), server.published_versions(uri))
        unknown_cancel = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 9999}}
        server.send(unknown_cancel)  # nothing pending: ignored

        # UTF-16 columns: a comment with non-ASCII text (one astral character) before the call.
        lines = buggy.split("\n")
        prefix = "/* ∂é 😀 */ "
        lines[76] = lines[76].replace("optimizer.zero_grad", prefix + "optimizer.zero_grad")
        unicode_text = "\n".join(lines)
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 11},
                                                 "contentChanges": [{"text": unicode_text}]})
        unicode_published = server.publish(uri, 11)
        found = find(unicode_published, "accum-misplaced-zero-grad") or {}
        character = found.get("range", {}).get("start", {}).get("character")
        before = lines[76][:lines[76].index("optimizer.zero_grad")]
        check("utf-16: the column counts UTF-16 code units",
              character == utf16_units(before), (character, utf16_units(before)))
        check("utf-16: differs from the byte column (the test means something)",
              utf16_units(before) != len(before.encode()))
        check("utf-16: the range ends after 'optimizer'",
              found.get("range", {}).get("end", {}).get("character") ==
              utf16_units(before) + len("optimizer"), found)

        # NOLINT in unsaved text silences the finding.
        lines = buggy.split("\n")
        lines[76] += "  // NOLINT(accum-misplaced-zero-grad)"
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 12},
                                                 "contentChanges": [{"text": "\n".join(lines)}]})
        silenced = server.publish(uri, 12)
        check("NOLINT in the unsaved text suppresses the finding",
              codes(silenced) == sorted(set(EXPECTED) - {"accum-misplaced-zero-grad"}),
              codes(silenced))

        # Text that does not parse (a half-typed line): the findings of the
        # code Clang recovered stay, and the reason is logged once.
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 13},
                                                 "contentChanges": [{"text": buggy + "\nint x = ;\n"}]})
        broken = server.publish(uri, 13)
        check("text that does not parse: the other findings are still published",
              broken is not None and codes(broken) == sorted(EXPECTED), broken and codes(broken))
        logged = server.wait_for(lambda m: m.get("method") == "window/logMessage" and
                                 "does not parse" in m["params"]["message"], timeout=5)
        check("text that does not parse: the reason is logged to the client", logged is not None)
        check("text that does not parse: nothing marked stale when Clang recovered it all",
              broken is not None and
              not any(d.get("data", {}).get("stale") for d in broken["diagnostics"]), broken)

        # A half-typed statement in the loop body: Clang drops the loop, and
        # with it every finding there. The last findings that parsed stay,
        # marked stale, moved below the new line, and without quick fixes.
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 14},
                                                 "contentChanges": [{"text": buggy}]})
        check("the text parses again: its findings", codes(server.publish(uri, 14)) ==
              sorted(EXPECTED))
        half_typed = buggy.split("\n")
        half_typed.insert(EXPECTED["accum-missing-loss-division"] - 1, "      auto x = ")
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 15},
                                                 "contentChanges": [{"text": "\n".join(half_typed)}]})
        typing = server.publish(uri, 15)
        check("half-typed line in the loop: the last findings that parsed are still shown",
              codes(typing) == sorted(EXPECTED), typing and codes(typing))
        for code, line in EXPECTED.items():
            moved = line + (line >= EXPECTED["accum-missing-loss-division"] - 1)
            diagnostic = find(typing, code) or {}
            check(f"half-typed line: {code} marked stale, at its line after the insertion",
                  diagnostic.get("data", {}).get("stale") is True and
                  "from the last version that parsed" in diagnostic.get("message", "") and
                  diagnostic.get("range", {}).get("start", {}).get("line") == moved, diagnostic)
        stale_fix = server.response(server.request("textDocument/codeAction", {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": RESET_LINE, "character": 0},
                      "end": {"line": RESET_LINE, "character": 200}},
            "context": {"diagnostics": []}}))
        check("half-typed line: no quick fix from a stale finding",
              stale_fix is not None and stale_fix.get("result") == [], stale_fix)
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 16},
                                                 "contentChanges": [{"text": buggy}]})
        recovered = server.publish(uri, 16)
        check("the line finished: fresh findings, none stale",
              codes(recovered) == sorted(EXPECTED) and
              not any(d.get("data", {}).get("stale") for d in recovered["diagnostics"]),
              recovered)

        # Errors: unknown method, malformed frames and JSON, a non-file URI.
        unknown = server.response(server.request("gradlint/noSuchMethod", {}), timeout=10)
        check("unknown method: -32601",
              unknown is not None and unknown.get("error", {}).get("code") == -32601, unknown)
        server.send_raw(b"Content-Length: 9\r\n\r\n{not json")
        parse_error = server.wait_for(lambda m: m.get("error", {}).get("code") == -32700, 10)
        check("malformed JSON: a parse error response", parse_error is not None)
        server.send_raw(b"Content-Length: lots\r\n\r\n")
        server.send_raw(b"Content-Type: nothing-else\r\n\r\n")
        # 600,000 nested '[' (the JSON library recursed on them: a stack overflow)
        # and a 32 MB header line: refused before parsing, bounded in memory.
        nested = b'{"jsonrpc":"2.0","id":77,"method":"x","params":' + b"[" * 600000 + \
            b"]" * 600000 + b"}"
        server.send_raw(b"Content-Length: %d\r\n\r\n" % len(nested) + nested)
        too_deep = server.wait_for(lambda m: m.get("error", {}).get("code") == -32700 and
                                   "nested deeper" in m["error"].get("message", ""), 20)
        check("600,000 nested arrays: a parse error response, no crash", too_deep is not None,
              server.log()[-500:])
        server.send_raw(b"X-Padding: " + b"p" * (32 << 20) + b"\r\n")
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": "untitled:Untitled-1", "languageId": "cpp", "version": 1, "text": buggy}})
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri}})  # bad params
        alive = server.response(server.request("gradlint/stillThere", {}), timeout=10)
        check("after malformed frames and params the server still answers",
              alive is not None and alive.get("error", {}).get("code") == -32601, alive)
        check("a non-file URI is not analysed",
              not any(m.get("method") == "textDocument/publishDiagnostics" and
                      m["params"]["uri"].startswith("untitled:") for m in server.seen))
        check("the server logs malformed messages to stderr", "malformed" in server.log(),
              server.log()[-500:])

        # didClose: diagnostics cleared.
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        closed = server.publish(uri, None)
        check("didClose: empty diagnostics", closed is not None and closed["diagnostics"] == [],
              closed)

        # shutdown answers promptly even while an analysis runs.
        other = os.path.join(workdir, "ddp.cpp")
        shutil.copy(os.path.join(SOURCE_ROOT, "examples", "ddp_gloo_buggy.cpp"), other)
        with open(other, encoding="utf-8") as f:
            server.notify("textDocument/didOpen", {"textDocument": {
                "uri": file_uri(other), "languageId": "cpp", "version": 1, "text": f.read()}})
        time.sleep(0.1)
        began = time.monotonic()
        down = server.response(server.request("shutdown", None), timeout=10)
        took = time.monotonic() - began
        check("shutdown: result null", down is not None and "result" in down and
              down["result"] is None, down)
        check("shutdown: answered promptly during an analysis", took < 0.5, took)
        after_shutdown = server.response(server.request("textDocument/codeAction", {}), timeout=10)
        check("a request after shutdown: -32600",
              after_shutdown is not None and
              after_shutdown.get("error", {}).get("code") == -32600, after_shutdown)
        server.notify("exit", None)
        try:
            code = server.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        check("exit after shutdown: exit code 0 within 5 s", code == 0, code)
    finally:
        server.kill()


def run_utf8_session(workdir):
    """A client offering UTF-8 positions gets them; exit without shutdown exits 1."""
    source = os.path.join(workdir, "utf8.cpp")
    with open(EXAMPLE, encoding="utf-8") as f:
        lines = f.read().split("\n")
    lines[76] = lines[76].replace("optimizer.zero_grad", "/* ∂é 😀 */ optimizer.zero_grad")
    text = "\n".join(lines)
    with open(source, "w", encoding="utf-8") as f:
        f.write(text)
    server = Server()
    try:
        reply = initialize(server, encodings=("utf-16", "utf-8"))
        encoding = (reply or {}).get("result", {}).get("capabilities", {}).get("positionEncoding")
        check("initialize: utf-8 chosen when offered", encoding == "utf-8", reply)
        uri = file_uri(source)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 7, "text": text}})
        published = server.publish(uri, 7)
        found = find(published, "accum-misplaced-zero-grad") or {}
        before = lines[76][:lines[76].index("optimizer.zero_grad")]
        check("utf-8: the column counts bytes",
              found.get("range", {}).get("start", {}).get("character") == len(before.encode()),
              found)
        server.notify("exit", None)
        try:
            code = server.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        check("exit without shutdown: exit code 1", code == 1, code)
    finally:
        server.kill()


def run_config_session(workdir):
    """.gradlint.yaml above the document applies, and an edit to it applies at once."""
    project = os.path.join(workdir, "configured")
    source = os.path.join(project, "src", "train.cpp")
    os.makedirs(os.path.dirname(source))
    shutil.copy(EXAMPLE, source)
    config = os.path.join(project, ".gradlint.yaml")
    with open(config, "w") as f:
        f.write("Checks: '-*,accum-missing-loss-division'\n"
                "WarningsAsErrors: accum-missing-loss-division\n")
    with open(EXAMPLE, encoding="utf-8") as f:
        text = f.read()
    server = Server()
    try:
        initialize(server)
        uri = file_uri(source)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 1, "text": text}})
        published = server.publish(uri, 1)
        check("config: only the checks .gradlint.yaml enables",
              codes(published) == ["accum-missing-loss-division"], codes(published))
        check("config: WarningsAsErrors gives severity 1",
              (find(published, "accum-missing-loss-division") or {}).get("severity") == 1, published)
        with open(config, "w") as f:
            f.write("Checks: 'accum-*'\nChekcs: '-*'\n")
        server.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        broken = server.publish(uri, 1)
        check("config: a broken .gradlint.yaml publishes no findings",
              broken is not None and broken["diagnostics"] == [], broken)
        logged = server.wait_for(lambda m: m.get("method") == "window/logMessage" and
                                 f"{config}:2:1" in m["params"]["message"], timeout=10)
        check("config: the broken file's line is logged to the client", logged is not None)
        # A conditional finding (a batch count the code does not show) appears
        # only with Inconclusive: true, as information, marked.
        with open(TRAILING, encoding="utf-8") as f:
            trailing_text = f.read()
        trailing = os.path.join(project, "src", "trailing.cpp")
        shutil.copy(TRAILING, trailing)
        with open(config, "w") as f:
            f.write("Checks: '-*,accum-trailing-micro-batches'\n")
        trailing_uri = file_uri(trailing)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": trailing_uri, "languageId": "cpp", "version": 1, "text": trailing_text}})
        hidden = server.publish(trailing_uri, 1)
        check("config: without Inconclusive only the definite finding",
              hidden is not None and [(d["range"]["start"]["line"], d["severity"])
                                      for d in hidden["diagnostics"]] == [(25, 2)], hidden)
        with open(config, "w") as f:
            f.write("Checks: '-*,accum-trailing-micro-batches'\nInconclusive: true\n")
        server.notify("textDocument/didSave", {"textDocument": {"uri": trailing_uri}})
        shown = server.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics" and
                                m["params"]["uri"] == trailing_uri and
                                len(m["params"]["diagnostics"]) == 2, timeout=TIMEOUT)
        diagnostics = shown["params"]["diagnostics"] if shown else []
        check("config: Inconclusive: true adds the conditional one at severity 3, marked",
              [(d["range"]["start"]["line"], d["severity"], d["message"].startswith(
                  "(conditional) ")) for d in diagnostics] == [(11, 3, True), (25, 2, False)],
              diagnostics)
        server.request("shutdown", None)
        server.notify("exit", None)
        server.process.wait(timeout=5)
    finally:
        server.kill()


EXTRA_HEADER = "#pragma once\nconstexpr int kExtraSteps = 6;\n"


def cache_session_texts(buggy):
    """The edits of the cache session, by version: the example; a body edit; an
    include added that the body needs; 10,000 nested ifs; the example again."""
    body_edit = buggy.replace("const int accum_steps = 4;", "const int accum_steps = 8;")
    with_extra = body_edit.replace("#include <torch/torch.h>\n",
                                   '#include <torch/torch.h>\n#include "extra.h"\n', 1).replace(
        "const int accum_steps = 8;", "const int accum_steps = kExtraSteps;")
    deep = "void f(int x) {\n" + "if (x)\n" * 10000 + ";\n}\n"
    return {1: buggy, 2: body_edit, 3: with_extra, 4: deep, 5: buggy}


def analysed_line(log, version):
    """The server's log line about the analysis of `version` (one per analysis)."""
    lines = [l for l in log.splitlines() if f"analysed version {version} of " in l]
    return lines


def run_cache_session(workdir):
    """The preamble cache for unsaved text: the same diagnostics as without a
    cache, a hit after a body edit, a new PCH when the include lines change,
    --cache-max-size eviction, and 10,000 nested ifs answered."""
    project = os.path.join(workdir, "cached")
    os.makedirs(project)
    with open(os.path.join(project, "extra.h"), "w") as f:
        f.write(EXTRA_HEADER)
    source = os.path.join(project, "train.cpp")
    # On disk: a longer include prefix than the unsaved text's. A preamble taken
    # from the disk would skip into the unsaved body and break the parse.
    with open(source, "w") as f:
        f.write("// a long comment on disk\n" * 120 + "#include <torch/torch.h>\n#include <vector>\n"
                "int on_disk_only();\n")
    with open(EXAMPLE, encoding="utf-8") as f:
        texts = cache_session_texts(f.read())
    uri = file_uri(source)
    cache = os.path.join(workdir, "lsp-cache")

    def session(server, settings):
        initialize(server, **settings)
        published = {}
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 1, "text": texts[1]}})
        published[1] = server.publish(uri, 1)
        for version in (2, 3, 4, 5):
            server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": [{"text": texts[version]}]})
            published[version] = server.publish(uri, version)
            if version == 4:
                alive = server.response(server.request("gradlint/stillThere", {}), timeout=10)
                check("cache session: after 10,000 nested ifs the server still answers",
                      alive is not None and alive.get("error", {}).get("code") == -32601, alive)
            if version == 3:
                listing = sorted(os.listdir(cache)) if os.path.isdir(cache) else []
                published["pch after 3"] = [n for n in listing if n.endswith(".pch")]
        return published, server.shutdown()

    reference_server = Server()
    try:
        reference, reference_code = session(reference_server, {"noCache": True})
        reference_log = reference_server.log()
    finally:
        reference_server.kill()
    check("no cache: initializationOptions.noCache turns the cache off",
          "precompiled preamble: none (cache off)" in " ".join(analysed_line(reference_log, 1)),
          reference_log[-800:])
    for version in (1, 2, 3, 5):
        check(f"no cache: version {version} has findings", bool(codes(reference.get(version))),
              reference.get(version))

    server = Server(f"--cache-dir={cache}", "--cache-max-size=1")
    try:
        cached, code = session(server, {})
        log = server.log()
    finally:
        server.kill()
    check("cache: the server exits 0 after the session", code == 0 and reference_code == 0,
          (code, reference_code, log[-800:]))
    for version in (1, 2, 3, 4, 5):
        mine = (cached.get(version) or {}).get("diagnostics")
        theirs = (reference.get(version) or {}).get("diagnostics")
        check(f"cache: version {version}: diagnostics identical to --no-cache",
              mine is not None and mine == theirs, (mine, theirs))
    first, second, third = (analysed_line(log, v) for v in (1, 2, 3))
    check("cache: one log line per analysis", all(len(l) == 1 for l in (first, second, third)),
          (first, second, third))
    check("cache: the first analysis builds the PCH in --cache-dir",
          f"precompiled preamble: built {cache}/" in " ".join(first), first)
    check("cache: a body edit reuses it", "precompiled preamble: reused" in " ".join(second) and
          " ".join(first).split("built ")[-1] == " ".join(second).split("reused ")[-1],
          (first, second))
    check("cache: new include lines build a new PCH, not the stale one",
          "precompiled preamble: built" in " ".join(third) and
          " ".join(third).split("built ")[-1] != " ".join(first).split("built ")[-1], third)
    check("cache: --cache-max-size=1 evicted the first PCH when the second was built",
          "evicted 1 old cache entries" in " ".join(third) and
          len(cached.get("pch after 3", [])) == 1, (third, cached.get("pch after 3")))
    check("cache: 10,000 nested ifs get a response (empty diagnostics)",
          cached.get(4) is not None and cached[4]["diagnostics"] == [], cached.get(4))
    check("cache: the example's findings after the deep buffer",
          codes(cached.get(5)) == sorted(EXPECTED), codes(cached.get(5)))


def run_cache_options(workdir):
    """initializationOptions.cacheDir, and bad `gradlint lsp` options."""
    cache = os.path.join(workdir, "lsp-cache-from-settings")
    source = os.path.join(workdir, "settings.cpp")
    shutil.copy(EXAMPLE, source)
    with open(EXAMPLE, encoding="utf-8") as f:
        text = f.read()
    server = Server("--no-cache")  # initializationOptions win over the command line
    try:
        initialize(server, cacheDir=cache, noCache=False, cacheMaxSize="2G")
        uri = file_uri(source)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 1, "text": text}})
        published = server.publish(uri, 1)
        check("settings: findings", codes(published) == sorted(EXPECTED), codes(published))
        pchs = [n for n in os.listdir(cache) if n.endswith(".pch")] if os.path.isdir(cache) else []
        check("settings: initializationOptions.cacheDir holds the PCH", len(pchs) == 1,
              server.log()[-800:])
        server.request("shutdown", None)
        server.notify("exit", None)
        server.process.wait(timeout=10)
    finally:
        server.kill()
    for flag in ("--help", "-h"):
        result = subprocess.run([GRADLINT, "lsp", flag], capture_output=True, text=True,
                                stdin=subprocess.DEVNULL, timeout=10)
        check(f"gradlint lsp {flag}: usage on stdout, exit 0",
              result.returncode == 0 and result.stdout.startswith("usage: gradlint lsp") and
              "initializationOptions" in result.stdout and "memoryLimit" in result.stdout,
              (result.returncode, result.stdout[:200], result.stderr))
    for bad in (["--cache-max-size=12Q"], ["--checks=-*"], ["--cache-dir"]):
        result = subprocess.run([GRADLINT, "lsp", *bad], capture_output=True, text=True,
                                stdin=subprocess.DEVNULL, timeout=10)
        check(f"gradlint lsp {' '.join(bad)}: exit 2 with one error line",
              result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1,
              (result.returncode, result.stderr))


if __name__ == "__main__":
    main()
