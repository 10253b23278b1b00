// libFuzzer targets for the driver: the code that reads what users and their
// tools hand gradlint before any analysis runs. One executable for all of
// them (one sanitized link instead of five), run under the name of a target,
// gradlint_<target>_fuzzer (a link to it; `-` spelled `_`), or with
// GRADLINT_DRIVER_FUZZ_TARGET=<target>:
//   prefilter         scanSource, held to Clang's raw lexer (a `step`,
//                     `backward` or quoted #include Clang sees must be seen)
//   config            parseConfig on a .gradlint.yaml
//   compile-database  a compile_commands.json loaded as -p does and as found
//                     beside a source (the same verdict), each file's
//                     command built (response files expanded, bounded)
//   jsonrpc           LSP framing, the nesting limit and the JSON parse
//   fix-applier       fix-its with arbitrary offsets chosen, applied to a
//                     scratch file and exported
#include "driver/analysis/CompilationSetup.h"
#include "driver/analysis/Prefilter.h"
#include "driver/config/Config.h"
#include "driver/fix/FixApplier.h"
#include "driver/lsp/JsonRpc.h"
#include "driver/lsp/Uri.h"
#include "test_cases/support/ClangRawLexer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

using namespace gradlint;

namespace {

/// A scratch directory of this process, made once.
const std::string &scratch() {
  static const std::string directory = [] {
    llvm::SmallString<128> path;
    llvm::sys::fs::createUniqueDirectory("gradlint-driver-fuzz", path);
    return std::string(path);
  }();
  return directory;
}

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

/// Fails the run (libFuzzer reports the input) when `holds` is false.
void require(bool holds, const std::string &what = "") {
  if (holds)
    return;
  std::fprintf(stderr, "driver fuzzer: %s\n", what.c_str());
  __builtin_trap();
}

void fuzzPrefilter(const std::string &text) {
  // The prefilter's promise covers UTF-8 text; other files are always parsed.
  if (!llvm::json::isUTF8(text))
    return;
  ScannedFile scan = scanSource(text);
  if (scan.unclear)
    return; // such a file is always kept
  testing::LexedByClang clang = testing::lexWithClang(text);
  if (!clang.reliable)
    return;
  require(!clang.identifiers.count("step") || scan.hasStep, "missed `step`");
  require(!clang.identifiers.count("backward") || scan.hasBackward, "missed `backward`");
  // Both names found: the file is kept whatever it includes, so the scan stops.
  if (scan.computedInclude || (scan.hasStep && scan.hasBackward))
    return;
  for (const std::string &include : clang.quotedIncludes) {
    bool seen = false;
    for (const ScannedFile::Include &mine : scan.includes)
      seen = seen || (!mine.angled && mine.name == include);
    std::string found;
    for (const ScannedFile::Include &mine : scan.includes)
      found += " " + mine.name;
    require(seen, "missed #include \"" + include + "\"; found" + found);
  }
}

void fuzzConfig(const std::string &text) {
  static const std::vector<std::string> checks = {"accum-misplaced-zero-grad",
                                                  "accum-missing-loss-division"};
  ConfigFile config;
  parseConfig(scratch() + "/.gradlint.yaml", text, checks, config);
}

void fuzzCompileDatabase(const std::string &text) {
  std::string directory = scratch() + "/db";
  llvm::sys::fs::create_directories(directory);
  writeFile(directory + "/compile_commands.json", text);
  SetupOptions options;
  options.buildPath = directory;
  options.noCache = true;
  std::unique_ptr<CompilationSetup> setup;
  std::optional<std::string> explicitError = CompilationSetup::create(options, setup);
  // The same file found by gradlint itself (no -p), beside a source: the
  // same verdict as -p, and a command for the source either way.
  SetupOptions discovering;
  discovering.noCache = true;
  std::unique_ptr<CompilationSetup> discovered;
  require(!CompilationSetup::create(discovering, discovered) && discovered);
  std::string source = directory + "/train.cpp";
  require(discovered->databaseProblem(source).has_value() == explicitError.has_value());
  require(!discovered->commandFor(source).args.empty());
  if (explicitError || !setup)
    return;
  // The files the database names, and one it does not.
  std::vector<std::string> files = {directory + "/absent.cpp"};
  size_t at = 0;
  while (files.size() < 8 && (at = text.find("\"file\"", at)) != std::string::npos) {
    size_t open = text.find('"', at + 6);
    size_t close = open == std::string::npos ? open : text.find('"', open + 1);
    if (close == std::string::npos)
      break;
    files.push_back(CompilationSetup::absolutePath(text.substr(open + 1, close - open - 1)));
    at = close;
  }
  for (const std::string &file : files) {
    FileCommand command = setup->commandFor(file);
    require(!command.args.empty());
  }
}

void fuzzJsonRpc(const std::string &bytes) {
  std::istringstream in(bytes);
  RpcReader reader(in);
  while (std::optional<RpcFrame> frame = reader.next()) {
    if (!frame->problem.empty() || jsonNestingProblem(frame->body))
      continue;
    nlohmann::json message = nlohmann::json::parse(frame->body, nullptr, false);
    if (message.is_discarded() || !message.is_object())
      continue;
    // What the server reads first: the method, the id, a document's URI.
    const nlohmann::json *uri = nullptr;
    if (message.contains("params") && message["params"].is_object() &&
        message["params"].contains("textDocument") &&
        message["params"]["textDocument"].is_object() &&
        message["params"]["textDocument"].contains("uri"))
      uri = &message["params"]["textDocument"]["uri"];
    if (uri && uri->is_string())
      if (std::optional<std::string> path = lsp::fileUriToPath(uri->get<std::string>()))
        require(lsp::fileUriToPath(lsp::pathToFileUri(*path)) == path);
    std::ostringstream out;
    RpcWriter(out).send(message);
  }
}

/// Input: a control byte (bit 0: --fix, else --fix-dry-run; bit 1: export;
/// bit 2: unsafe fixes), a source text up to a NUL, then edits of 6 bytes
/// each (offset, length, replacement length / flags) taking replacement text
/// from what follows.
void fuzzFixApplier(const std::string &bytes) {
  if (bytes.empty())
    return;
  unsigned char control = static_cast<unsigned char>(bytes[0]);
  size_t nul = bytes.find('\0', 1);
  std::string source = bytes.substr(1, nul == std::string::npos ? std::string::npos : nul - 1);
  std::string rest = nul == std::string::npos ? "" : bytes.substr(nul + 1);
  std::string file = scratch() + "/fixed.cpp";
  writeFile(file, source);
  uint64_t hash = llvm::xxh3_64bits(source);
  RunResult result;
  size_t at = 0;
  while (at + 6 <= rest.size() && result.diagnostics.size() < 16) {
    auto byte = [&](size_t i) { return static_cast<unsigned char>(rest[at + i]); };
    TextEdit edit;
    edit.file = file;
    edit.offset = (byte(0) | byte(1) << 8) % (source.size() + 8);
    edit.length = byte(2) % 16;
    size_t replacement = byte(3) % 24;
    edit.replacement = rest.substr(at + 6, replacement);
    edit.contentHash = (byte(5) & 1) ? hash + 1 : hash; // sometimes "changed since analysed"
    Diagnostic diagnostic;
    diagnostic.check = "accum-misplaced-zero-grad";
    diagnostic.location = {file, 1, 1, ""};
    if (result.diagnostics.empty() || (byte(4) & 1))
      diagnostic.fix = FixIt{"fuzzed", (byte(4) & 2) == 0, {}};
    else
      diagnostic = result.diagnostics.back(); // another edit of the same fix
    diagnostic.fix->edits.push_back(edit);
    if (result.diagnostics.empty() || (byte(4) & 1))
      result.diagnostics.push_back(diagnostic);
    else
      result.diagnostics.back() = diagnostic;
    at += 6 + replacement;
  }
  FixSettings settings;
  settings.apply = control & 1;
  settings.dryRun = !(control & 1);
  settings.includeUnsafe = control & 4;
  if (control & 2)
    settings.exportFile = scratch() + "/fixes.yaml";
  FixReport report = processFixes(result, settings);
  require(report.applied <= result.diagnostics.size());
}

} // namespace

namespace {
using FuzzTarget = void (*)(const std::string &);

FuzzTarget targetNamed(const std::string &name) {
  if (name == "prefilter")
    return fuzzPrefilter;
  if (name == "config")
    return fuzzConfig;
  if (name == "compile-database")
    return fuzzCompileDatabase;
  if (name == "jsonrpc")
    return fuzzJsonRpc;
  if (name == "fix-applier")
    return fuzzFixApplier;
  return nullptr;
}

FuzzTarget chosenTarget = nullptr;
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  std::string name;
  if (const char *fromEnvironment = std::getenv("GRADLINT_DRIVER_FUZZ_TARGET")) {
    name = fromEnvironment;
  } else {
    // gradlint_compile_database_fuzzer -> compile-database
    llvm::StringRef program = llvm::sys::path::filename((*argv)[0]);
    if (program.consume_front("gradlint_") && program.consume_back("_fuzzer"))
      name = program.str();
    std::replace(name.begin(), name.end(), '_', '-');
  }
  chosenTarget = targetNamed(name);
  if (!chosenTarget) {
    std::fprintf(stderr,
                 "%s: error: no driver fuzz target '%s'; run it as gradlint_<target>_fuzzer or "
                 "with GRADLINT_DRIVER_FUZZ_TARGET=<target> (prefilter, config, "
                 "compile-database, jsonrpc, fix-applier)\n",
                 (*argv)[0], name.c_str());
    std::exit(2);
  }
  (void)argc;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  chosenTarget(std::string(reinterpret_cast<const char *>(data), size));
  return 0;
}
