// How the gradlint.* settings become the server's command line and
// initializationOptions. Kept free of the vscode module so that a test can
// run it with plain node.

/** Reads one setting under gradlint.*, as WorkspaceConfiguration.get does. */
export type SettingReader = <T>(name: string) => T | undefined;

export interface ServerLaunch {
  command: string;
  args: string[];
  initializationOptions: Record<string, unknown>;
}

/** Replaces ${workspaceFolder} so that settings can name paths in the project. */
function expandWorkspaceFolder(value: string, workspaceFolder: string | undefined): string {
  return workspaceFolder === undefined
    ? value
    : value.split("${workspaceFolder}").join(workspaceFolder);
}

export function serverLaunch(read: SettingReader, workspaceFolder?: string): ServerLaunch {
  const options: Record<string, unknown> = {};
  // Paths: an empty setting means "the server's default", so it is left out
  // rather than sent as an empty path.
  const paths: Array<[setting: string, option: string]> = [
    ["compileCommandsDir", "compileCommandsDir"],
    ["configFile", "configFile"],
    ["cacheDir", "cacheDir"],
  ];
  for (const [setting, option] of paths) {
    const value = read<string>(setting);
    if (typeof value === "string" && value.trim() !== "") {
      options[option] = expandWorkspaceFolder(value.trim(), workspaceFolder);
    }
  }
  const numbers = ["debounceMs", "timeout", "memoryLimit"];
  for (const name of numbers) {
    const value = read<number>(name);
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) {
      options[name] = Math.floor(value);
    }
  }
  for (const name of ["isolation", "noCache"]) {
    const value = read<boolean>(name);
    if (typeof value === "boolean") {
      options[name] = value;
    }
  }
  // The server takes checks as one comma-separated string, as --checks does.
  const checks = read<string[] | string>("checks");
  const globs = (Array.isArray(checks) ? checks : typeof checks === "string" ? [checks] : [])
    .map((glob) => String(glob).trim())
    .filter((glob) => glob !== "");
  if (globs.length > 0) {
    options.checks = globs.join(",");
  }

  const path = read<string>("path");
  const command =
    typeof path === "string" && path.trim() !== ""
      ? expandWorkspaceFolder(path.trim(), workspaceFolder)
      : "gradlint";
  return { command, args: ["lsp"], initializationOptions: options };
}
