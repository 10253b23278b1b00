import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";
import { serverLaunch } from "./serverSettings";

let client: LanguageClient | undefined;

function createClient(): LanguageClient {
  const settings = vscode.workspace.getConfiguration("gradlint");
  const workspaceFolder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const launch = serverLaunch((name) => settings.get(name), workspaceFolder);
  const serverOptions: ServerOptions = { command: launch.command, args: launch.args };
  const clientOptions: LanguageClientOptions = {
    // gradlint analyses files on disk with their compile commands, so only
    // the file scheme; unsaved edits reach it through didChange.
    documentSelector: [
      { scheme: "file", language: "cpp" },
      { scheme: "file", language: "c" },
      { scheme: "file", language: "cuda-cpp" },
    ],
    initializationOptions: launch.initializationOptions,
  };
  return new LanguageClient("gradlint", "gradlint", serverOptions, clientOptions);
}

async function startClient(): Promise<void> {
  client = createClient();
  try {
    await client.start();
  } catch (error) {
    // Not fatal to the extension: gradlint.restart retries, e.g. after gradlint.path is fixed.
    void vscode.window.showErrorMessage(`gradlint: the language server did not start: ${error}`);
  }
}

async function restartClient(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    await running.stop();
  }
  await startClient();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("gradlint.restart", restartClient),
    // The server reads its settings once, at initialize: a change needs a new server.
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("gradlint")) {
        void restartClient();
      }
    }),
  );
  await startClient();
}

export async function deactivate(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    await running.stop();
  }
}
