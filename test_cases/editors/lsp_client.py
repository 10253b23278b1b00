"""A minimal LSP client over a child's stdin and stdout (Content-Length
framing), enough for the editor tests to drive `gradlint lsp` as an editor's
client would."""
import json
import os
import queue
import subprocess
import threading
import time


class LspClient:
    def __init__(self, command, env=None):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=env)
        self.messages = queue.Queue()
        self.received = []
        self.next_id = 1
        self.stderr_lines = []
        threading.Thread(target=self._read_messages, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_messages(self):
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                headers[name.strip().lower()] = value.strip()
            body = stream.read(int(headers.get("content-length", "0")))
            self.messages.put(json.loads(body))

    def _read_stderr(self):
        for line in self.process.stderr:
            self.stderr_lines.append(line.decode("utf-8", "replace"))

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout=60):
        request_id = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return self.wait_for(lambda m: m.get("id") == request_id and "method" not in m, timeout)

    def wait_for(self, predicate, timeout):
        """The first message (received so far or later) that matches, or None."""
        for message in self.received:
            if predicate(message):
                return message
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                message = self.messages.get(timeout=min(1.0, deadline - time.monotonic()))
            except queue.Empty:
                if self.process.poll() is not None and self.messages.empty():
                    return None  # the server has exited: nothing more will come
                continue
            self.received.append(message)
            if predicate(message):
                return message
        return None

    def close(self):
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            self.process.kill()
            self.process.wait()


def file_uri(path):
    return "file://" + os.path.abspath(path)
