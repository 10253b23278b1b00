// Loads an unpacked .vsix's extension under a stub `vscode` module and a
// recording LanguageClient, runs a session of activate(), settings changes,
// gradlint.restart and deactivate(), and prints what happened as JSON.
//   node load_extension.js <extension folder> <settings JSON> <changed settings JSON>
"use strict";
const Module = require("module");
const path = require("path");

const [extensionDir, settingsJson, changedSettingsJson] = process.argv.slice(2);
let settings = JSON.parse(settingsJson);
const workspaceFolder = "/workspace/project";

const clients = [];
const commands = {};
const configurationListeners = [];
const errors = [];

class RecordingLanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    this.record = { id, name, serverOptions, clientOptions, started: false, stopped: false };
    clients.push(this.record);
  }
  async start() { this.record.started = true; }
  async stop() { this.record.stopped = true; }
}

const disposable = { dispose() {} };
const vscodeStub = {
  workspace: {
    workspaceFolders: [{ uri: { fsPath: workspaceFolder } }],
    getConfiguration(section) {
      if (section !== "gradlint") throw new Error(`unexpected section ${section}`);
      return { get: (name) => settings[name] };
    },
    onDidChangeConfiguration(listener) {
      configurationListeners.push(listener);
      return disposable;
    },
  },
  commands: {
    registerCommand(id, handler) {
      commands[id] = handler;
      return disposable;
    },
  },
  window: { showErrorMessage: async (message) => { errors.push(message); } },
};

// The real vscode-languageclient must come from the .vsix itself (its
// node_modules), not from anywhere else: resolved here from the extension.
let languageClientPath = null;
try {
  languageClientPath = require.resolve("vscode-languageclient/node", { paths: [extensionDir] });
} catch (error) {
  languageClientPath = null;
}

const stubs = { vscode: vscodeStub, "vscode-languageclient/node": { LanguageClient: RecordingLanguageClient } };
const originalResolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request in stubs) return `stub:${request}`;
  return originalResolve.call(this, request, ...rest);
};
for (const [request, exports] of Object.entries(stubs)) {
  const stub = new Module(`stub:${request}`);
  stub.exports = exports;
  stub.loaded = true;
  require.cache[`stub:${request}`] = stub;
}

async function main() {
  const packageJson = require(path.join(extensionDir, "package.json"));
  const extension = require(path.join(extensionDir, packageJson.main));
  const context = { subscriptions: [] };
  await extension.activate(context);
  const afterActivate = clients.length;

  // A change elsewhere leaves the server alone; a gradlint.* change restarts it.
  for (const listener of configurationListeners) {
    listener({ affectsConfiguration: (section) => section === "editor" });
  }
  const afterUnrelatedChange = clients.length;
  settings = JSON.parse(changedSettingsJson);
  for (const listener of configurationListeners) {
    listener({ affectsConfiguration: (section) => section === "gradlint" || section === "gradlint.checks" });
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  const afterGradlintChange = clients.length;
  if (commands["gradlint.restart"]) await commands["gradlint.restart"]();
  const afterRestartCommand = clients.length;
  await extension.deactivate();

  process.stdout.write(JSON.stringify({
    languageClientPath, clients, commands: Object.keys(commands), errors,
    subscriptions: context.subscriptions.length,
    counts: { afterActivate, afterUnrelatedChange, afterGradlintChange, afterRestartCommand },
  }));
}

main().catch((error) => {
  process.stderr.write(`${error && error.stack || error}\n`);
  process.exit(1);
});
