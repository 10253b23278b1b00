// libFuzzer target: input bytes are a C++ source file. Each run parses it in
// process against the bundled LibTorch API model and does what the gradlint CLI
// does on the AST: builds the training-loop model, dumps it, runs every check
// (with the fix-its they compute), resolves each fix-it's edits to file
// offsets, lowers each loop and applies the firing checks' program fixes. The
// runtime never executes anything here.
//
// Built with -DGRADLINT_FUZZ=ON and clang++-19 (test_cases/fuzz/smoke.sh).
// The API model is precompiled once at startup and loaded before each input:
// inputs see it even without an #include, and their macros cannot change it.
// Parsing examples/ddp_gloo_buggy.cpp takes 0.2 s instead of 1.0 s that way;
// the model and the checks walk the input's own declarations only, as in the
// CLI, so that they do not load the whole API model from the PCH.
// GRADLINT_FUZZ_NO_PCH=1 parses the headers per input, as the CLI does;
// GRADLINT_FUZZ_VERBOSE=1 prints Clang's diagnostics and the model's loops.
#include "checks/Check.h"
#include "confirm/interpreter/Translate.h"
#include "model/ModelBuilder.h"
#include "model/ModelDump.h"
#include "model/UserCode.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#ifndef GRADLINT_FUZZ_API_MODEL
#error "GRADLINT_FUZZ_API_MODEL must name api_model"
#endif

namespace {

// The headers the test cases and examples include; the precompiled header
// holds all of them, so an input that includes any of them finds it parsed.
const char *const kApiModelHeaders = "#include <torch/torch.h>\n"
                                     "#include <c10d/FileStore.hpp>\n"
                                     "#include <c10d/ProcessGroup.hpp>\n"
                                     "#include <c10d/ProcessGroupGloo.hpp>\n";

std::vector<std::string> baseArgs() {
  // The error-recovery flags are the CLI's (CompilationSetup::commandFor).
  return {"-std=c++17",
          "-fsyntax-only",
          "-w",
          "-fno-spell-checking",
          "-ferror-limit=500",
          "-isystem",
          GRADLINT_FUZZ_API_MODEL,
          "-resource-dir=" GRADLINT_FUZZ_RESOURCE_DIR};
}

std::vector<std::string> &compileArgs() {
  static std::vector<std::string> args = baseArgs();
  return args;
}

/// Precompiles the API model headers with clang++-19 (the same Clang as the
/// shared libraries) into temporary files, removed at exit (the PCH refers to
/// its header). Returns the PCH's path; empty when that fails.
std::string precompileApiModel() {
  static llvm::SmallString<128> header, pch;
  if (llvm::sys::fs::createTemporaryFile("gradlint-fuzz-api-model", "h", header) ||
      llvm::sys::fs::createTemporaryFile("gradlint-fuzz-api-model", "pch", pch))
    return "";
  std::atexit([] {
    llvm::sys::fs::remove(header);
    llvm::sys::fs::remove(pch);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(header, ec);
    if (ec)
      return "";
    out << kApiModelHeaders;
  }
  std::vector<std::string> argv = {GRADLINT_FUZZ_CLANGXX, "-x", "c++-header"};
  for (const std::string &arg : baseArgs())
    if (arg != "-fsyntax-only")
      argv.push_back(arg);
  argv.insert(argv.end(), {std::string(header), "-o", std::string(pch)});
  std::vector<llvm::StringRef> refs(argv.begin(), argv.end());
  if (llvm::sys::ExecuteAndWait(GRADLINT_FUZZ_CLANGXX, refs) != 0)
    return "";
  return std::string(pch);
}

std::unique_ptr<clang::ASTUnit> parse(const std::string &code, clang::DiagnosticConsumer &diags) {
  return clang::tooling::buildASTFromCodeWithArgs(
      code, compileArgs(), "input.cpp", "gradlint-model-fuzzer",
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), clang::tooling::FileContentMappings(),
      &diags);
}

/// Whether a trivial training program parses with the current arguments: a
/// broken setup would otherwise reject every input silently.
bool setupParses() {
  clang::IgnoringDiagConsumer ignore;
  std::unique_ptr<clang::ASTUnit> unit =
      parse("#include <torch/torch.h>\nint main() { torch::Tensor t; t.backward(); }\n", ignore);
  return unit && !unit->getDiagnostics().hasErrorOccurred();
}

/// Checks what the CLI's fix-it resolution relies on: an edit that is not in
/// a macro and stays in one file has a begin before its end, inside the file.
void resolveFix(const clang::SourceManager &sm, const gradlint::FindingFix &fix) {
  for (const gradlint::SourceEdit &edit : fix.edits) {
    clang::SourceLocation begin = edit.range.getBegin(), end = edit.range.getEnd();
    if (edit.range.isTokenRange())
      end = clang::Lexer::getLocForEndOfToken(end, 0, sm, clang::LangOptions());
    if (begin.isInvalid() || end.isInvalid() || begin.isMacroID() || end.isMacroID() ||
        sm.isInSystemHeader(begin) || sm.getFileID(begin) != sm.getFileID(end))
      continue;
    unsigned from = sm.getFileOffset(begin), to = sm.getFileOffset(end);
    bool invalid = false;
    llvm::StringRef buffer = sm.getBufferData(sm.getFileID(begin), &invalid);
    if (invalid || from > to || to > buffer.size()) {
      std::fprintf(stderr, "fix-it edit [%u, %u) outside its file of %zu bytes or reversed\n", from,
                   to, buffer.size());
      std::abort();
    }
  }
}

bool verbose() {
  static bool on = std::getenv("GRADLINT_FUZZ_VERBOSE") != nullptr;
  return on;
}

void analyse(clang::ASTContext &context) {
  // As the CLI does (driver/analysis/Analyzer.cpp): the model and the checks
  // walk the user's declarations, not every one of the precompiled API model.
  std::vector<clang::Decl *> userDecls;
  for (clang::Decl *decl : context.getTranslationUnitDecl()->decls())
    if (gradlint::isUserCode(context.getSourceManager(), decl->getLocation()))
      userDecls.push_back(decl);
  context.setTraversalScope(userDecls);
  gradlint::ModelBuilder builder(context);
  gradlint::TrainingLoopModel model = builder.build();
  std::string dump;
  llvm::raw_string_ostream dumpStream(dump);
  gradlint::dumpModel(model, builder.facts(), dumpStream);
  if (verbose())
    llvm::errs() << dump;

  std::vector<std::unique_ptr<gradlint::Check>> checks;
  for (const gradlint::CheckFactory &factory : gradlint::allChecks())
    checks.push_back(factory.create());
  std::vector<gradlint::Finding> findings;
  gradlint::CheckContext checkContext(builder.facts(), findings);
  for (const gradlint::TrainingLoop &loop : model.loops) {
    for (const std::unique_ptr<gradlint::Check> &check : checks)
      check->check(loop, checkContext);
    // gradlint --confirm's translation of the loop's code, without running it.
    (void)gradlint::interp::translateLoop(loop, builder.facts());
  }
  for (const gradlint::Finding &finding : findings) {
    (void)checkContext.line(finding.loc);
    for (const gradlint::FindingNote &note : finding.notes)
      (void)checkContext.line(note.loc);
    if (finding.fix)
      resolveFix(context.getSourceManager(), *finding.fix);
  }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  if (!std::getenv("GRADLINT_FUZZ_NO_PCH")) {
    std::string pch = precompileApiModel();
    if (!pch.empty()) {
      compileArgs().insert(compileArgs().end(), {"-include-pch", pch});
      if (setupParses())
        return 0;
      compileArgs() = baseArgs();
    }
    std::fprintf(stderr, "gradlint fuzzer: no precompiled API model; parsing it per input\n");
  }
  if (!setupParses()) {
    std::fprintf(stderr, "gradlint fuzzer: a trivial program does not parse with %s\n",
                 GRADLINT_FUZZ_API_MODEL);
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The CLI refuses empty files and files with NUL bytes before parsing.
  std::string code(reinterpret_cast<const char *>(data), size);
  if (code.empty() || code.find('\0') != std::string::npos)
    return -1;
  auto start = std::chrono::steady_clock::now();
  clang::IgnoringDiagConsumer ignore;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> printOptions(new clang::DiagnosticOptions());
  clang::TextDiagnosticPrinter print(llvm::errs(), printOptions.get());
  std::unique_ptr<clang::ASTUnit> unit =
      parse(code, verbose() ? static_cast<clang::DiagnosticConsumer &>(print) : ignore);
  // Like the CLI, a translation unit with errors is analysed on the AST
  // Clang recovered: the model must survive broken code.
  if (!unit)
    return 0;
  auto parsed = std::chrono::steady_clock::now();
  analyse(unit->getASTContext());
  if (verbose())
    std::fprintf(stderr, "gradlint fuzzer: parse %lld ms, model and checks %lld ms\n",
                 static_cast<long long>(
                     std::chrono::duration_cast<std::chrono::milliseconds>(parsed - start).count()),
                 static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                            std::chrono::steady_clock::now() - parsed)
                                            .count()));
  return 0;
}
