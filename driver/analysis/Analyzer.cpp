#include "driver/analysis/Analyzer.h"

#include "confirm/Confirm.h"
#include "confirm/interpreter/Translate.h"
#include "driver/analysis/ApiModelFileSystem.h"
#include "driver/analysis/BoundedFile.h"
#include "driver/analysis/LibraryInstantiations.h"
#include "driver/analysis/LookupRecordingFileSystem.h"
#include "driver/analysis/ParseErrors.h"
#include "driver/analysis/Prefilter.h"
#include "driver/cache/PreambleCache.h"
#include "driver/config/Rules.h"
#include "clang/Lex/Lexer.h"

#include "checks/Check.h"
#include "model/ModelBuilder.h"
#include "model/ModelDump.h"
#include "model/UserCode.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Serialization/ASTReader.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/xxhash.h"

#include <map>
#include <optional>

namespace gradlint {

namespace {

Location resolve(const clang::SourceManager &sm, clang::SourceLocation loc,
                 const std::string &mainFile, const std::string &displayName,
                 std::string *realPath) {
  Location location;
  loc = sm.getExpansionLoc(loc);
  if (loc.isInvalid())
    return location;
  clang::FileID file = sm.getFileID(loc);
  std::string name = std::string(sm.getFilename(loc));
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(name, real))
    real = name;
  location.file = std::string(real) == mainFile ? displayName : name;
  if (realPath)
    *realPath = std::string(real);
  location.line = sm.getExpansionLineNumber(loc);
  location.column = sm.getExpansionColumnNumber(loc);
  bool invalid = false;
  llvm::StringRef buffer = sm.getBufferData(file, &invalid);
  if (!invalid) {
    unsigned offset = sm.getFileOffset(loc);
    size_t start = buffer.rfind('\n', offset == 0 ? 0 : offset - 1);
    start = (start == llvm::StringRef::npos || offset == 0) ? 0 : start + 1;
    size_t end = buffer.find('\n', offset);
    location.sourceLine = buffer.slice(start, end).str();
    if (!location.sourceLine.empty() && location.sourceLine.back() == '\r')
      location.sourceLine.pop_back();
  }
  return location;
}

/// What one translation unit's analysis needs and where it writes.
struct TranslationUnitJob {
  FileAnalysis &out;
  const FileConfig &config;
  std::string mainFile;    ///< real path of the main file
  std::string displayName; ///< the path as the user wrote it
  AnalysisRequest request;
  /// Set when the file has a `using namespace` of a namespace the API model
  /// declares: an undeclared name may then be one the model lacks.
  bool *usesModelNamespace;
};

/// Every file `compiler` read besides `mainFile` (a real path), absolute: those
/// its source manager opened and the inputs of a precompiled preamble, whose
/// headers the source manager may never open.
std::vector<std::string> filesReadBy(clang::CompilerInstance &compiler,
                                     const std::string &mainFile) {
  std::set<std::string> files;
  clang::FileManager &fileManager = compiler.getFileManager();
  // The main file under any name (a link, a relative path) is the same inode.
  // The file manager's stat cache answers that for the headers the compiler
  // already looked at; resolving each real path cost a readlink per directory
  // (thousands of headers in a preamble: 0.25 s of a 0.31 s analysis).
  std::optional<llvm::sys::fs::UniqueID> mainID;
  if (auto entry = fileManager.getOptionalFileRef(mainFile))
    mainID = entry->getUniqueID();
  // ".." is resolved on the disk, once per directory: lexically, the driver's
  // "/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12" (through the
  // /lib -> usr/lib link) became /include/c++/12, a path that does not exist.
  std::map<std::string, std::string> realDirectories;
  auto add = [&](llvm::StringRef name) {
    llvm::SmallString<256> path(name);
    fileManager.makeAbsolutePath(path);
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/false);
    if (llvm::StringRef(path).contains("/../")) {
      std::string directory = llvm::sys::path::parent_path(path).str();
      auto known = realDirectories.find(directory);
      if (known == realDirectories.end()) {
        llvm::SmallString<256> real;
        if (llvm::sys::fs::real_path(directory, real))
          real = directory; // gone: kept as named, a later stat finds it absent
        known = realDirectories.emplace(directory, std::string(real)).first;
      }
      llvm::SmallString<256> resolved(known->second);
      llvm::sys::path::append(resolved, llvm::sys::path::filename(path));
      path = resolved;
    }
    if (path == mainFile)
      return;
    if (auto entry = fileManager.getOptionalFileRef(path); entry && entry->getUniqueID() == mainID)
      return;
    files.insert(std::string(path));
  };
  const clang::SourceManager &sm = compiler.getSourceManager();
  for (auto file = sm.fileinfo_begin(); file != sm.fileinfo_end(); ++file)
    add(file->first.getName());
  if (llvm::IntrusiveRefCntPtr<clang::ASTReader> reader = compiler.getASTReader())
    for (clang::serialization::ModuleFile &module : reader->getModuleManager())
      reader->visitInputFileInfos(module, /*IncludeSystem=*/true,
                                  [&](const clang::serialization::InputFileInfo &info, bool) {
                                    if (!info.Overridden && !info.Transient)
                                      add(info.Filename);
                                  });
  return {files.begin(), files.end()};
}

/// Whether a using-directive in the user's code nominates one of LibTorch's
/// namespaces (torch, at, c10, c10d, caffe2 or one inside them).
bool usesLibraryNamespace(clang::ASTContext &context, const std::vector<clang::Decl *> &decls) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::SourceManager &sm;
    bool found = false;
    explicit Finder(const clang::SourceManager &sm) : sm(sm) {}
    bool VisitUsingDirectiveDecl(clang::UsingDirectiveDecl *directive) {
      const clang::NamespaceDecl *ns = directive->getNominatedNamespace();
      if (ns && !isUserCode(sm, ns->getLocation())) {
        // The name outlives the StringRef into it (ASan: stack-use-after-scope).
        std::string qualified = ns->getQualifiedNameAsString();
        llvm::StringRef outermost = llvm::StringRef(qualified).split("::").first;
        found = llvm::is_contained({"torch", "at", "c10", "c10d", "caffe2"}, outermost);
      }
      return !found;
    }
  } finder(context.getSourceManager());
  for (clang::Decl *decl : decls)
    if (!finder.found)
      finder.TraverseDecl(decl);
  return finder.found;
}

/// Whether namespace torch comes from the bundled API model's headers.
bool torchDeclaredByApiModel(clang::ASTContext &context) {
  auto found = context.getTranslationUnitDecl()->lookup(&context.Idents.get("torch"));
  if (found.empty())
    return false;
  const clang::SourceManager &sources = context.getSourceManager();
  llvm::StringRef file = sources.getFilename(sources.getSpellingLoc(found.front()->getLocation()));
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(file, real))
    real = file;
  llvm::SmallString<256> modelDir;
  if (llvm::sys::fs::real_path(CompilationSetup::apiModelDir(), modelDir))
    modelDir = CompilationSetup::apiModelDir();
  return llvm::StringRef(real).starts_with(modelDir);
}

class AnalysisConsumer : public clang::ASTConsumer {
public:
  AnalysisConsumer(const TranslationUnitJob &job, clang::CompilerInstance &compiler)
      : job_(job), compiler_(compiler) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef) override {
    if (compiler_.hasSema())
      dropLibraryVTableUses(compiler_.getSema());
    return true;
  }

  void HandleTranslationUnit(clang::ASTContext &context) override {
    // The API model was on the include path; say so only if the file used it.
    if (job_.out.usedApiModel)
      job_.out.usedApiModel = torchDeclaredByApiModel(context);
    // Fix-its ask for parents; a parent map of the user's declarations alone
    // spares walking (and deserializing from a PCH) every LibTorch declaration.
    std::vector<clang::Decl *> userDecls;
    for (clang::Decl *decl : context.getTranslationUnitDecl()->decls())
      if (isUserCode(context.getSourceManager(), decl->getLocation()))
        userDecls.push_back(decl);
    context.setTraversalScope(userDecls);
    // A file with errors is analysed on the AST Clang recovered.
    if (context.getDiagnostics().hasErrorOccurred())
      *job_.usesModelNamespace = usesLibraryNamespace(context, userDecls);
    // Checks configured with the same model options share one model.
    std::vector<std::pair<ModelOptions, std::vector<std::string>>> groups;
    for (const std::string &id : job_.config.enabledChecks) {
      auto options = job_.config.modelOptions.find(id);
      const ModelOptions &wanted =
          options == job_.config.modelOptions.end() ? ModelOptions() : options->second;
      auto group = std::find_if(groups.begin(), groups.end(),
                                [&](const auto &g) { return g.first == wanted; });
      if (group == groups.end())
        groups.push_back({wanted, {id}});
      else
        group->second.push_back(id);
    }
    if (groups.empty() && (job_.request.dumpModel || job_.request.runEveryLoop))
      groups.push_back({ModelOptions(), {}});
    std::vector<Finding> findings;
    for (size_t g = 0; g < groups.size(); ++g)
      analyseWith(context, groups[g].first, groups[g].second, /*first=*/g == 0, findings);
    const clang::SourceManager &sm = context.getSourceManager();
    for (size_t index = 0; index < findings.size(); ++index) {
      const Finding &finding = findings[index];
      Diagnostic diagnostic;
      diagnostic.check = finding.check;
      const RuleInfo *rule = findRule(finding.check);
      diagnostic.severity = job_.config.isWarningAsError(finding.check) ? "error"
                            : rule                                      ? rule->severity
                                                                        : "warning";
      std::string real;
      diagnostic.location = resolve(sm, finding.loc, job_.mainFile, job_.displayName, &real);
      diagnostic.message = finding.message;
      diagnostic.conditional = finding.conditional;
      for (const FindingNote &note : finding.notes)
        diagnostic.notes.push_back(
            {resolve(sm, note.loc, job_.mainFile, job_.displayName, nullptr), note.message});
      if (finding.fix)
        diagnostic.fix = resolveFix(sm, *finding.fix);
      job_.out.diagnostics.push_back(std::move(diagnostic));
      job_.out.realPaths.push_back(real);
    }
    job_.out.filesRead = filesReadBy(compiler_, job_.mainFile);
  }

private:
  /// Builds the model with `options` and runs `checkIds` on every loop. The
  /// first model also serves --dump-model and --emit-runs.
  void analyseWith(clang::ASTContext &context, const ModelOptions &options,
                   const std::vector<std::string> &checkIds, bool first,
                   std::vector<Finding> &findings) {
    ModelBuilder builder(context, options);
    TrainingLoopModel model = builder.build();
    const AnalysisRequest &request = job_.request;
    if (request.dumpModel && first) {
      llvm::raw_string_ostream stream(job_.out.modelDump);
      dumpModel(model, builder.facts(), stream);
    }
    std::vector<std::unique_ptr<Check>> checks;
    for (const CheckFactory &factory : allChecks())
      if (std::find(checkIds.begin(), checkIds.end(), factory.id) != checkIds.end())
        checks.push_back(factory.create());
    CheckContext checkContext(builder.facts(), findings);
    for (size_t index = 0; index < model.loops.size(); ++index) {
      const TrainingLoop &loop = model.loops[index];
      FileAnalysis::TranslatedLoop entry;
      for (const std::unique_ptr<Check> &check : checks) {
        size_t before = findings.size();
        check->check(loop, checkContext);
        if (findings.size() > before)
          entry.firing.push_back({check->id(), {before, findings.size()}});
      }
      entry.emitRun = first && request.runEveryLoop;
      bool confirmHere = request.translateDiagnosed && !entry.firing.empty();
      bool translateHere = first && request.translateEveryLoop;
      if (!entry.emitRun && !confirmHere && !translateHere)
        continue;
      if (!confirmHere)
        entry.firing.clear();
      entry.loopIndex = index;
      entry.code = interp::translateLoop(loop, builder.facts());
      entry.location =
          resolve(context.getSourceManager(), loop.loc, job_.mainFile, job_.displayName, nullptr);
      job_.out.translatedLoops.push_back(std::move(entry));
    }
  }

  /// File offsets and line/column of each edit; no fix when an edit would
  /// touch a system header or a macro expansion.
  std::optional<FixIt> resolveFix(const clang::SourceManager &sm, const FindingFix &fix) const {
    FixIt resolved;
    resolved.description = fix.description;
    resolved.safe = fix.safe;
    for (const SourceEdit &edit : fix.edits) {
      clang::SourceLocation begin = edit.range.getBegin(), end = edit.range.getEnd();
      if (edit.range.isTokenRange())
        end = clang::Lexer::getLocForEndOfToken(end, 0, sm, clang::LangOptions());
      if (begin.isInvalid() || end.isInvalid() || begin.isMacroID() || end.isMacroID() ||
          sm.isInSystemHeader(begin) || sm.getFileID(begin) != sm.getFileID(end))
        return std::nullopt;
      TextEdit text;
      Location from = resolve(sm, begin, job_.mainFile, job_.displayName, nullptr);
      Location to = resolve(sm, end, job_.mainFile, job_.displayName, nullptr);
      text.file = from.file;
      text.offset = sm.getFileOffset(begin);
      text.length = sm.getFileOffset(end) - text.offset;
      text.line = from.line;
      text.column = from.column;
      text.endLine = to.line;
      text.endColumn = to.column;
      text.replacement = edit.replacement;
      text.contentHash = contentHash(sm, sm.getFileID(begin));
      resolved.edits.push_back(std::move(text));
    }
    return resolved;
  }

  /// xxh3-64 of the text Clang parsed for `file` (what the edits' offsets
  /// refer to), computed once per file.
  std::optional<uint64_t> contentHash(const clang::SourceManager &sm, clang::FileID file) const {
    auto known = hashes_.find(file);
    if (known != hashes_.end())
      return known->second;
    bool invalid = false;
    llvm::StringRef text = sm.getBufferData(file, &invalid);
    std::optional<uint64_t> hash;
    if (!invalid)
      hash = llvm::xxh3_64bits(text);
    hashes_[file] = hash;
    return hash;
  }

  const TranslationUnitJob &job_;
  clang::CompilerInstance &compiler_;
  mutable std::map<clang::FileID, std::optional<uint64_t>> hashes_;
};

class AnalysisAction : public clang::ASTFrontendAction {
public:
  explicit AnalysisAction(TranslationUnitJob job) : job_(std::move(job)) {}

  bool BeginSourceFileAction(clang::CompilerInstance &compiler) override {
    // Keeps clang from printing "N errors generated." on its own.
    compiler.getDiagnosticOpts().ShowCarets = false;
    return true;
  }

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &compiler,
                                                        llvm::StringRef) override {
    return std::make_unique<AnalysisConsumer>(job_, compiler);
  }

private:
  TranslationUnitJob job_;
};

} // namespace

namespace {

/// Whether the prefilter may skip this file: never when the whole model is
/// wanted (--dump-model, --confirm, --emit-runs).
bool prefilterSkips(const std::string &absolute, llvm::StringRef contents,
                    const FileCommand &command, CompilationSetup &setup,
                    const AnalysisRequest &request) {
  // Non-UTF-8 text is parsed, so that Clang can say whether it is an error.
  return !request.wantsWholeModel() && setup.prefilter() && llvm::json::isUTF8(contents) &&
         !setup.prefilter()->mayContainTrainingLoop(absolute, contents, command.args,
                                                    command.directory);
}

/// Model gaps become notes (the first few, each once); the first user error
/// becomes the file's error, and then no fix is offered: edits computed on
/// code Clang had to recover may be wrong (clang-tidy's rule too).
/// What to add to an #include that was not found when no compilation
/// database gave the file's command: where gradlint looked, and -p.
const char *const kNoDatabaseHint =
    "; no compile_commands.json was found above the file (nor in a build/ directory beside "
    "one of those directories): pass -p <build directory> or the compiler flags after --";

void reportParseErrors(const ParseErrorVerdict &verdict, const std::set<std::string> &placeholders,
                       const std::string &displayName, const std::string &mainRealPath,
                       bool commandFromNoDatabase, FileAnalysis &result) {
  auto inMainFile = [&](const ParseError &error) {
    llvm::SmallString<256> real;
    if (llvm::sys::fs::real_path(error.file, real))
      real = error.file;
    return error.line != 0 && std::string(real) == mainRealPath;
  };
  const size_t maxNotes = 8;
  std::set<std::string> said;
  for (const std::string &header : placeholders)
    if (said.insert(header).second && result.notes.size() < maxNotes)
      result.notes.push_back({displayName, "the API model has no <" + header +
                                               ">; analysed without its declarations"});
  size_t unsaid = 0;
  for (const ParseError &gap : verdict.modelGaps) {
    if (!said.insert(gap.message).second)
      continue;
    if (result.notes.size() >= maxNotes) {
      ++unsaid;
      continue;
    }
    bool here = inMainFile(gap);
    result.notes.push_back({displayName,
                            "not in the LibTorch API model: " + gap.message +
                                "; analysed the rest of the file (findings that need it may be "
                                "missed; real LibTorch headers on the include path avoid this)",
                            here ? gap.line : 0, here ? gap.column : 0});
  }
  if (unsaid)
    result.notes.push_back(
        {displayName, std::to_string(unsaid) + " more names are not in the LibTorch API model"});
  if (verdict.userErrors.empty())
    return;
  const ParseError &first = verdict.userErrors.front();
  // Without a source location, the error is about the compile command.
  if (first.line == 0) {
    result.errors.push_back({displayName, "unusable compile command: " + first.message});
    return;
  }
  std::string hint = first.includeNotFound && commandFromNoDatabase ? kNoDatabaseHint : "";
  if (inMainFile(first))
    result.errors.push_back({displayName, "does not parse: " + first.message + hint, first.line,
                             first.column, first.includeNotFound});
  else
    result.errors.push_back(
        {displayName, "does not parse: " + llvm::sys::path::filename(first.file).str() + ":" +
                          std::to_string(first.line) + ":" + std::to_string(first.column) + ": " +
                          first.message + hint});
  for (Diagnostic &diagnostic : result.diagnostics)
    diagnostic.fix.reset();
}

/// analyseFile's work; `unsavedContents` (an editor's buffer) replaces the
/// file's contents on disk when given. `usedCommand`, when given, gets the
/// file's compile command once it is known.
FileAnalysis analyse(const std::string &displayName, const std::string *unsavedContents,
                     CompilationSetup &setup, const FileConfig &config,
                     const AnalysisRequest &request, FileCommand *usedCommand = nullptr);

/// `contents` with the edits of `fixes` (each edit in this file), or nothing
/// when an edit is elsewhere or two overlap.
std::optional<std::string> withFixes(const std::string &contents,
                                     const std::vector<const FixIt *> &fixes,
                                     const std::string &displayName, const std::string &real) {
  std::vector<const TextEdit *> edits;
  for (const FixIt *fix : fixes)
    for (const TextEdit &edit : fix->edits) {
      if (edit.file != displayName && edit.file != real)
        return std::nullopt;
      if (edit.offset + edit.length > contents.size())
        return std::nullopt;
      edits.push_back(&edit);
    }
  std::sort(edits.begin(), edits.end(),
            [](const TextEdit *a, const TextEdit *b) { return a->offset > b->offset; });
  std::string edited = contents;
  unsigned limit = static_cast<unsigned>(contents.size());
  for (const TextEdit *edit : edits) {
    if (edit->offset + edit->length > limit)
      return std::nullopt; // overlapping edits
    edited.replace(edit->offset, edit->length, edit->replacement);
    limit = edit->offset;
  }
  return edited;
}

/// --confirm: each finding runs on the loop's own code as written and with its
/// fix-it applied in memory and re-parsed; when the loop has findings of other
/// checks too, "as written" has their fix-its applied, so the numbers show this
/// one. The variants are file-wide (loops do not share code), so a file takes
/// one re-parse with every fix-it plus one per check that shares a loop.
void prepareFindingCode(FileAnalysis &result, const std::string &contents,
                        const std::string &displayName, const std::string &real,
                        CompilationSetup &setup, const FileConfig &config) {
  std::map<std::string, FileAnalysis> parsed; // by edited contents
  auto codeOf = [&](const std::string &edited, size_t loopIndex,
                    std::string &problem) -> std::shared_ptr<const interp::LoopCode> {
    auto found = parsed.find(edited);
    if (found == parsed.end()) {
      AnalysisRequest translate;
      translate.translateEveryLoop = true;
      found = parsed.emplace(edited, analyse(displayName, &edited, setup, config, translate)).first;
    }
    if (!found->second.errors.empty()) {
      problem = "the source with the fix-it applied does not parse";
      return nullptr;
    }
    for (const FileAnalysis::TranslatedLoop &loop : found->second.translatedLoops)
      if (loop.loopIndex == loopIndex && loop.code)
        return loop.code;
    problem = "the loop is not found in the source with the fix-it applied";
    return nullptr;
  };
  // Every finding's fix-it, by check.
  std::map<std::string, std::vector<const FixIt *>> fixesByCheck;
  std::vector<const FixIt *> allFixes;
  auto fixesOf = [&](const std::pair<size_t, size_t> &range) {
    std::vector<const FixIt *> fixes;
    for (size_t d = range.first; d < range.second && d < result.diagnostics.size(); ++d)
      if (result.diagnostics[d].fix)
        fixes.push_back(&*result.diagnostics[d].fix);
    return fixes;
  };
  for (const FileAnalysis::TranslatedLoop &loop : result.translatedLoops)
    for (const auto &[check, range] : loop.firing)
      for (const FixIt *fix : fixesOf(range)) {
        fixesByCheck[check].push_back(fix);
        allFixes.push_back(fix);
      }
  auto allBut = [&](const std::string &check) {
    std::vector<const FixIt *> fixes;
    for (const auto &[other, list] : fixesByCheck)
      if (other != check)
        fixes.insert(fixes.end(), list.begin(), list.end());
    return fixes;
  };
  auto loopFixes = [&](const FileAnalysis::TranslatedLoop &loop) {
    std::vector<const FixIt *> fixes;
    for (const auto &firing : loop.firing)
      for (const FixIt *fix : fixesOf(firing.second))
        fixes.push_back(fix);
    return fixes;
  };
  for (FileAnalysis::TranslatedLoop &loop : result.translatedLoops) {
    for (size_t f = 0; f < loop.firing.size(); ++f) {
      const auto &[check, range] = loop.firing[f];
      FindingCode code;
      code.asWritten = loop.code;
      std::string problem;
      bool othersFixed = false;
      for (size_t g = 0; g < loop.firing.size(); ++g) {
        if (g == f)
          continue;
        bool hasFixIt = !fixesOf(loop.firing[g].second).empty();
        othersFixed = othersFixed || hasFixIt;
        // Another finding without a fix-it: both runs apply its program-level fix.
        ConfirmationPlan::ProgramFix other = confirmationPlanOf(loop.firing[g].first).programFix;
        if (!hasFixIt && other != ConfirmationPlan::ProgramFix::None)
          code.otherFixes.push_back(other);
      }
      if (othersFixed) {
        std::optional<std::string> edited = withFixes(contents, allBut(check), displayName, real);
        if (edited)
          if (auto translated = codeOf(*edited, loop.loopIndex, problem))
            code.asWritten = translated;
      }
      if (fixesOf(range).empty()) {
        code.noFix = "the finding has no fix-it";
      } else if (std::optional<std::string> edited =
                     withFixes(contents, allFixes, displayName, real)
                         .value_or(
                             withFixes(contents, loopFixes(loop), displayName, real).value_or(""));
                 !edited->empty()) {
        // Every fix-it of the file; when some other loop's cannot be applied, this loop's.
        code.fixed = codeOf(*edited, loop.loopIndex, problem);
        if (!code.fixed)
          code.noFix = problem;
      } else {
        code.noFix = "the fix-it edits another file or overlaps another fix-it";
      }
      loop.findingCode.push_back(std::move(code));
    }
  }
}

FileAnalysis analyse(const std::string &displayName, const std::string *unsavedContents,
                     CompilationSetup &setup, const FileConfig &config,
                     const AnalysisRequest &request, FileCommand *usedCommand) {
  FileAnalysis result;
  auto fail = [&](const std::string &message) {
    result.errors.push_back({displayName, message});
    // Before the parse, on the file's bytes alone; after it, on what the recorder saw.
    result.inputsRecorded = true;
    return result;
  };
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  if (unsavedContents) {
    buffer = llvm::MemoryBuffer::getMemBuffer(*unsavedContents, displayName);
  } else {
    if (auto failure = readBoundedFile(displayName, kMaxSourceBytes, "a source file", buffer))
      return fail(failure->problem.empty() ? "cannot open file: " + failure->io.message()
                                           : failure->problem + "; not analysed");
  }
  llvm::StringRef contents = buffer->getBuffer();
  if (contents.empty())
    return fail("file is empty");
  if (contents.contains('\0'))
    return fail("not a C++ source file (contains NUL bytes)");

  llvm::SmallString<256> absolute(displayName);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, true);
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(absolute, real))
    real = absolute;

  FileCommand command = setup.commandFor(std::string(absolute));
  if (usedCommand)
    *usedCommand = command;
  result.usedApiModel = command.usesApiModel;
  // Files on disk only: an editor's buffer always gets a full parse.
  if (!unsavedContents &&
      prefilterSkips(std::string(absolute), contents, command, setup, request)) {
    result.skipped = true;
    result.usedApiModel = false;
    return result;
  }
  // An editor's buffer too: the PCH covers only the include lines, taken (like
  // -preamble-bytes) from `contents`, the unsaved text.
  PreambleCache *cache = setup.preambleCache();
  std::optional<PreambleCache::Preamble> preamble;
  if (cache)
    preamble = cache->preambleFor(command, std::string(absolute), contents);

  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem =
      llvm::vfs::createPhysicalFileSystem();
  if (unsavedContents) {
    // The editor's text shadows the file on disk, under both of its names.
    auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(fileSystem);
    auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    memory->addFile(absolute, 0, llvm::MemoryBuffer::getMemBufferCopy(*unsavedContents, absolute));
    if (real != absolute)
      memory->addFile(real, 0, llvm::MemoryBuffer::getMemBufferCopy(*unsavedContents, real));
    overlay->pushOverlay(memory);
    fileSystem = overlay;
  }
  llvm::IntrusiveRefCntPtr<ApiModelFileSystem> modelFileSystem;
  if (command.usesApiModel) {
    modelFileSystem = makeApiModelFileSystem(fileSystem, CompilationSetup::apiModelDir());
    fileSystem = modelFileSystem;
  }
  fileSystem->setCurrentWorkingDirectory(command.directory);
  // A PCH that does not load is rebuilt once, then the file is parsed without.
  for (int attempt = 0;; ++attempt) {
    // Over everything the parse sees: a placeholder the API model serves is found.
    auto lookups = llvm::makeIntrusiveRefCnt<LookupRecordingFileSystem>(fileSystem);
    llvm::IntrusiveRefCntPtr<clang::FileManager> files(
        new clang::FileManager(clang::FileSystemOptions(), lookups));
    ParseErrorCollector collector(command.usesApiModel ? CompilationSetup::apiModelDir() : "");
    bool usesModelNamespace = false;
    clang::tooling::ToolInvocation invocation(
        preamble ? PreambleCache::argsWith(command.args, *preamble) : command.args,
        std::make_unique<AnalysisAction>(TranslationUnitJob{
            result, config, std::string(real), displayName, request, &usesModelNamespace}),
        files.get());
    invocation.setDiagnosticConsumer(&collector);
    bool ok = invocation.run();
    if (preamble && collector.preambleFailed) {
      result.diagnostics.clear();
      result.realPaths.clear();
      result.translatedLoops.clear();
      preamble = attempt == 0
                     ? cache->preambleFor(command, std::string(absolute), contents, &*preamble)
                     : std::nullopt;
      continue;
    }
    if (preamble)
      result.preambleUse = {true, preamble->built, preamble->pchPath, preamble->reason};
    // The preamble's own lookups, which this parse did not repeat, count too.
    std::vector<std::string> absent = lookups->absentPaths();
    if (preamble)
      absent.insert(absent.end(), preamble->absentPaths.begin(), preamble->absentPaths.end());
    llvm::sort(absent);
    absent.erase(std::unique(absent.begin(), absent.end()), absent.end());
    result.filesAbsent = std::move(absent);
    result.inputsRecorded = true;
    std::set<std::string> placeholders;
    if (modelFileSystem)
      placeholders = modelFileSystem->servedHeaders();
    reportParseErrors(classifyParseErrors(collector.errors, command.usesApiModel,
                                          usesModelNamespace, !placeholders.empty()),
                      placeholders, displayName, std::string(real), command.fromNoDatabase, result);
    if (!ok && collector.errors.empty())
      return fail("the compiler could not process this file");
    break;
  }
  if (request.translateDiagnosed && !result.translatedLoops.empty())
    prepareFindingCode(result, contents.str(), displayName, std::string(real), setup, config);
  return result;
}

} // namespace

bool skippedWithoutParsing(const std::string &displayName, CompilationSetup &setup,
                           const AnalysisRequest &request) {
  // Never blocks (a FIFO) nor reads without bound (/dev/zero): this runs in
  // the main process, before isolation and --timeout.
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  // Unreadable, special, huge, empty or binary files go to the analysis, which says why.
  if (readBoundedFile(displayName, kMaxSourceBytes, "a source file", buffer) ||
      buffer->getBuffer().empty() || buffer->getBuffer().contains('\0'))
    return false;
  std::string absolute = CompilationSetup::absolutePath(displayName);
  FileCommand command = setup.commandFor(absolute);
  return prefilterSkips(absolute, buffer->getBuffer(), command, setup, request);
}

namespace {

/// The analysis's errors and notes without the text of the file's response
/// files (an unknown argument, a missing input, a bad -D quote them).
FileAnalysis withoutResponseFileText(FileAnalysis analysis, const FileCommand &command) {
  if (command.responseFiles.empty())
    return analysis;
  for (std::vector<FileError> *messages : {&analysis.errors, &analysis.notes})
    for (FileError &message : *messages)
      message.message = withoutResponseFileText(message.message, command);
  return analysis;
}

} // namespace

FileAnalysis analyseFile(const std::string &displayName, CompilationSetup &setup,
                         const FileConfig &config, const AnalysisRequest &request) {
  FileCommand command;
  FileAnalysis analysis = analyse(displayName, nullptr, setup, config, request, &command);
  return withoutResponseFileText(std::move(analysis), command);
}

FileAnalysis analyseUnsavedFile(const std::string &path, const std::string &contents,
                                CompilationSetup &setup, const FileConfig &config) {
  FileCommand command;
  FileAnalysis analysis = analyse(path, &contents, setup, config, {}, &command);
  return withoutResponseFileText(std::move(analysis), command);
}

FileAnalysis::CacheUse cacheUseOf(PreambleCache &cache, unsigned evictedEntriesBefore,
                                  uint64_t evictedBytesBefore) {
  return {cache.hits,
          cache.builds,
          cache.buildFailures,
          cache.takeNote(),
          cache.evictedEntries - evictedEntriesBefore,
          cache.evictedBytes - evictedBytesBefore,
          cache.failedKeys(),
          cache.unusable()};
}

void runTranslatedLoops(FileAnalysis &analysis, const LoopRunSettings &settings) {
  for (const FileAnalysis::TranslatedLoop &loop : analysis.translatedLoops) {
    if (loop.emitRun && settings.emitRunsWindows > 0 && settings.emitRunsBackend)
      analysis.loopRuns.push_back(runCodeAsWritten(*loop.code, settings.emitRunsWindows,
                                                   loop.location.file, loop.location.line,
                                                   *settings.emitRunsBackend));
    if (!settings.confirmBackend)
      continue;
    std::vector<ConfirmationPlan> firing;
    for (const auto &[check, range] : loop.firing)
      firing.push_back(confirmationPlanOf(check));
    for (size_t f = 0; f < loop.firing.size(); ++f) {
      const auto &[check, range] = loop.firing[f];
      FindingCode code;
      if (f < loop.findingCode.size())
        code = loop.findingCode[f];
      else
        code.asWritten = loop.code;
      if (range.first < analysis.diagnostics.size())
        code.line = analysis.diagnostics[range.first].location.line;
      Confirmation confirmation = confirmFinding(code, firing, firing[f], *settings.confirmBackend,
                                                 settings.confirmBackendName, settings.traceSteps);
      for (size_t index = range.first; index < range.second && index < analysis.diagnostics.size();
           ++index)
        analysis.diagnostics[index].confirmation = confirmation;
    }
  }
  analysis.translatedLoops.clear();
}

} // namespace gradlint
