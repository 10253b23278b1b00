// gradlint: finds gradient-accumulation bugs in C++ LibTorch training loops.
#include "Analyzer.h"
#include "Check.h"
#include "CompilationSetup.h"
#include "Options.h"
#include "Output.h"
#include "Rules.h"

#include "llvm/Support/Process.h"

#include <algorithm>
#include <atomic>
#include <iostream>
#include <set>
#include <thread>
#include <tuple>

using namespace gradlint;

namespace {

int usageError(const std::string &message) {
  std::cerr << "gradlint: error: " << message << '\n';
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  if (auto error = parseOptions(argc, argv, options))
    return usageError(*error);
  if (options.help) {
    std::cout << usageText();
    return 0;
  }
  if (options.version) {
    std::cout << "gradlint " << GRADLINT_VERSION << '\n';
    return 0;
  }

  std::vector<std::string> available;
  for (const CheckFactory &factory : allChecks())
    available.push_back(factory.id);
  std::vector<std::string> enabled;
  if (auto error = selectChecks(options.checks, available, enabled))
    return usageError(*error);

  if (options.listChecks) {
    std::cout << "Enabled checks:\n";
    for (const std::string &id : enabled) {
      const RuleInfo *rule = findRule(id);
      std::cout << "    " << id;
      if (rule)
        std::cout << "  " << rule->summary;
      std::cout << '\n';
    }
    return 0;
  }
  if (options.files.empty())
    return usageError("no input files (see --help)");

  ConfirmTarget confirm;
  if (options.confirm) {
    runtime::BackendKind kind = runtime::parseBackendKind(options.backend);
    if (kind == runtime::BackendKind::Cuda && !runtime::cudaAvailable())
      return usageError("--backend=cuda: no CUDA device is available");
    if (kind == runtime::BackendKind::Auto && !runtime::cudaAvailable())
      std::cerr << "gradlint: note: no CUDA device found; confirming on the CPU\n";
    confirm.backend = &runtime::selectBackend(kind);
    confirm.name = confirm.backend == runtime::cudaBackend() && confirm.backend ? "cuda" : "cpu";
  }

  RunResult result;
  std::unique_ptr<CompilationSetup> setup;
  if (auto error = CompilationSetup::create(options, setup)) {
    result.errors.push_back({options.buildPath, *error});
    Options fallback = options;
    fallback.buildPath.clear();
    CompilationSetup::create(fallback, setup);
  }

  std::vector<FileAnalysis> analyses(options.files.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < options.files.size(); i = next++)
      analyses[i] = analyseFile(options.files[i], *setup, enabled, options.dumpModel, confirm);
  };
  unsigned jobs = std::min<size_t>(options.jobs, options.files.size());
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j)
    threads.emplace_back(worker);
  worker();
  for (std::thread &thread : threads)
    thread.join();

  if (options.dumpModel) {
    for (size_t i = 0; i < analyses.size(); ++i)
      std::cout << "== " << options.files[i] << "\n" << analyses[i].modelDump;
  }

  // A header shared by several TUs reports its findings once.
  std::set<std::tuple<std::string, std::string, unsigned, unsigned>> seen;
  bool usedApiModel = false;
  for (FileAnalysis &analysis : analyses) {
    usedApiModel = usedApiModel || analysis.usedApiModel;
    std::vector<std::pair<Diagnostic, std::string>> ordered;
    for (size_t i = 0; i < analysis.diagnostics.size(); ++i)
      ordered.emplace_back(analysis.diagnostics[i], analysis.realPaths[i]);
    std::stable_sort(ordered.begin(), ordered.end(), [](const auto &a, const auto &b) {
      return std::tie(a.second, a.first.location.line, a.first.location.column, a.first.check) <
             std::tie(b.second, b.first.location.line, b.first.location.column, b.first.check);
    });
    for (auto &[diagnostic, real] : ordered)
      if (seen.insert({real, diagnostic.check, diagnostic.location.line, diagnostic.location.column}).second)
        result.diagnostics.push_back(std::move(diagnostic));
    for (FileError &error : analysis.errors)
      result.errors.push_back(std::move(error));
  }
  result.files = static_cast<unsigned>(options.files.size());

  if (usedApiModel)
    std::cerr << "gradlint: note: <torch/torch.h> is not on the include path; using the "
                 "bundled LibTorch API model ("
              << CompilationSetup::apiModelDir() << ")\n";
  if (options.format == OutputFormat::Json) {
    writeJson(result, std::cout);
  } else {
    bool color = llvm::sys::Process::StandardOutIsDisplayed() && !std::getenv("NO_COLOR");
    writeText(result, std::cout, color);
    for (const FileError &error : result.errors)
      std::cerr << error.file << ": error: " << error.message << '\n';
  }
  if (!result.errors.empty())
    return 2;
  return result.diagnostics.empty() ? 0 : 1;
}
