// SARIF 2.1.0, shaped for GitHub code scanning: rule metadata from rules/*.md,
// repo-relative URIs under %SRCROOT%, fingerprints that survive unrelated
// edits, and NOLINT-suppressed findings kept with an inSource suppression.
#include "driver/output/Output.h"

#include "checks/Check.h"
#include "driver/analysis/BoundedFile.h"
#include "driver/config/Rules.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace gradlint {

using OrderedJson = nlohmann::ordered_json;

namespace {

constexpr const char *kSchemaUri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
constexpr const char *kSourceRootId = "%SRCROOT%";
constexpr const char *kFingerprintKey = "gradlintFindingHash/v1";

std::string resolvedPath(const std::string &file) {
  llvm::SmallString<256> path(file.empty() ? "." : file);
  llvm::sys::fs::make_absolute(path);
  llvm::sys::path::remove_dots(path, true);
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(path, real))
    return std::string(real);
  return std::string(path);
}

/// `path` relative to `root` when it lies under it, else "".
std::string relativeTo(const std::string &path, const std::string &root) {
  if (root.empty() || path.size() <= root.size() || path.compare(0, root.size(), root) != 0)
    return {};
  if (root.back() == '/')
    return path.substr(root.size());
  return path[root.size()] == '/' ? path.substr(root.size() + 1) : std::string();
}

/// Clang's columns count bytes; SARIF's count characters (run.columnKind).
unsigned codePointColumn(const std::string &lineText, unsigned byteColumn) {
  if (byteColumn == 0)
    return 0;
  unsigned column = 1;
  size_t bytes = byteColumn - 1;
  for (size_t i = 0; i < bytes; ++i)
    if (i >= lineText.size() || (static_cast<unsigned char>(lineText[i]) & 0xC0) != 0x80)
      ++column;
  return column;
}

/// The front matter of a rules/*.md document removed.
std::string ruleBody(const std::string &markdown) {
  if (markdown.rfind("---\n", 0) != 0)
    return markdown;
  size_t end = markdown.find("\n---\n", 3);
  return end == std::string::npos ? markdown : markdown.substr(end + 5);
}

/// The paragraph(s) of the "## What it does" section, joined into one line.
std::string whatItDoes(const std::string &body) {
  size_t start = body.find("## What it does");
  if (start == std::string::npos)
    return {};
  start = body.find('\n', start);
  if (start == std::string::npos)
    return {};
  size_t end = body.find("\n## ", start);
  std::string section =
      body.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
  std::string joined;
  for (char c : section) {
    if (c == '\n')
      c = ' ';
    if (c == ' ' && (joined.empty() || joined.back() == ' '))
      continue;
    joined.push_back(c);
  }
  while (!joined.empty() && joined.back() == ' ')
    joined.pop_back();
  return joined;
}

/// "accum-misplaced-zero-grad" -> "AccumMisplacedZeroGrad" (SARIF's reportingDescriptor.name).
std::string ruleName(const std::string &id) {
  std::string name;
  bool upper = true;
  for (char c : id) {
    if (c == '-') {
      upper = true;
      continue;
    }
    name.push_back(upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    upper = false;
  }
  return name;
}

std::string sarifLevel(const std::string &severity) {
  if (severity == "error")
    return "error";
  if (severity == "note")
    return "note";
  return "warning";
}

OrderedJson ruleDescriptor(const std::string &id) {
  OrderedJson rule = {{"id", id}, {"name", ruleName(id)}};
  std::string summary, fullDescription, help, severity = "warning";
  std::vector<std::string> tags;
  if (const RuleInfo *info = findRule(id)) {
    std::string body = ruleBody(info->markdown);
    summary = info->summary;
    fullDescription = whatItDoes(body);
    help = body;
    severity = info->severity;
    tags = {"correctness", "gradient-accumulation", "libtorch"};
  } else if (id == kUnusedSuppressionCheck) {
    summary = "a NOLINT comment that names a gradlint check but suppresses no finding";
    fullDescription = "Reported with --report-unused-suppressions: a NOLINT, NOLINTNEXTLINE or "
                      "NOLINTBEGIN comment whose check list names a gradlint check (or a "
                      "misspelt one) that has no finding where the comment applies.";
    help = fullDescription + " Remove the check name from the list, or the whole comment.";
    tags = {"maintainability", "suppression"};
  } else {
    summary = id;
  }
  if (fullDescription.empty())
    fullDescription = summary;
  rule["shortDescription"] = {{"text", summary}};
  rule["fullDescription"] = {{"text", fullDescription}};
  rule["help"] = {{"text", help.empty() ? fullDescription : help},
                  {"markdown", help.empty() ? fullDescription : help}};
  if (std::string help = ruleDocUrl(id); !help.empty())
    rule["helpUri"] = help;
  rule["defaultConfiguration"] = {{"level", sarifLevel(severity)}};
  rule["properties"] = {{"tags", tags}};
  return rule;
}

/// Reads source lines on demand, for the columns of fix edits.
class LineReader {
public:
  std::string line(const std::string &file, unsigned number) {
    auto found = files_.find(file);
    if (found == files_.end()) {
      std::vector<std::string> lines;
      if (std::unique_ptr<llvm::MemoryBuffer> buffer;
          !readBoundedFile(file, kMaxSourceBytes, "a source file", buffer)) {
        llvm::StringRef text = buffer->getBuffer();
        size_t start = 0;
        while (start <= text.size()) {
          size_t end = text.find('\n', start);
          lines.push_back(text.slice(start, end).rtrim('\r').str());
          if (end == llvm::StringRef::npos)
            break;
          start = end + 1;
        }
      }
      found = files_.emplace(file, std::move(lines)).first;
    }
    return number >= 1 && number <= found->second.size() ? found->second[number - 1]
                                                         : std::string();
  }

private:
  std::map<std::string, std::vector<std::string>> files_;
};

class SarifWriter {
public:
  SarifWriter(const RunResult &result, const std::vector<Diagnostic> &suppressed)
      : result_(result), suppressed_(suppressed) {
    // %SRCROOT% is the project of the first file the run reports on.
    std::string first;
    for (const auto *list : {&result.diagnostics, &suppressed})
      for (const Diagnostic &diagnostic : *list)
        if (first.empty())
          first = diagnostic.location.file;
    for (const FileError &error : result.errors)
      if (first.empty())
        first = error.file;
    sourceRoot_ = projectRoot(first.empty() ? "." : first);
  }

  /// A toolExecutionNotification for a file-level error or note.
  OrderedJson notificationFor(const FileError &error, const char *id, const char *level) {
    OrderedJson notification = {
        {"descriptor", {{"id", id}}}, {"level", level}, {"message", {{"text", error.message}}}};
    if (!error.file.empty()) {
      OrderedJson physical = {{"artifactLocation", artifactLocation(error.file)}};
      if (error.line) {
        physical["region"] = {{"startLine", error.line}};
        if (error.column)
          physical["region"]["startColumn"] = error.column;
      }
      notification["locations"] = OrderedJson::array({{{"physicalLocation", physical}}});
    }
    return notification;
  }

  OrderedJson document() {
    std::vector<const Diagnostic *> all;
    for (const Diagnostic &diagnostic : result_.diagnostics)
      all.push_back(&diagnostic);
    for (const Diagnostic &diagnostic : suppressed_)
      all.push_back(&diagnostic);
    fingerprints_ = stableFingerprints(all);

    OrderedJson rules = OrderedJson::array();
    for (const CheckFactory &factory : allChecks())
      addRule(factory.id, rules);
    for (const Diagnostic *diagnostic : all)
      addRule(diagnostic->check, rules);

    OrderedJson results = OrderedJson::array();
    for (const Diagnostic &diagnostic : result_.diagnostics)
      results.push_back(resultFor(diagnostic, false));
    for (const Diagnostic &diagnostic : suppressed_)
      results.push_back(resultFor(diagnostic, true));

    OrderedJson notifications = OrderedJson::array();
    for (const FileError &note : result_.notes)
      notifications.push_back(notificationFor(note, "gradlint-file-note", "note"));
    for (const FileError &error : result_.errors)
      notifications.push_back(notificationFor(error, "gradlint-file-error", "error"));

    OrderedJson driver = {{"name", "gradlint"},
                          {"version", GRADLINT_VERSION},
                          {"semanticVersion", GRADLINT_VERSION},
                          {"rules", rules}};
    if (std::string information = toolInformationUrl(); !information.empty())
      driver["informationUri"] = information;
    OrderedJson invocation = {
        {"executionSuccessful", result_.errors.empty()},
        {"toolExecutionNotifications", notifications},
        {"workingDirectory", {{"uri", fileUri(withSlash(resolvedPath(".")))}}}};
    OrderedJson run = {
        {"tool", {{"driver", driver}}},
        {"invocations", OrderedJson::array({invocation})},
        {"originalUriBaseIds", {{kSourceRootId, {{"uri", fileUri(withSlash(sourceRoot_))}}}}},
        {"columnKind", "unicodeCodePoints"},
        {"results", results}};
    return {{"$schema", kSchemaUri}, {"version", "2.1.0"}, {"runs", OrderedJson::array({run})}};
  }

private:
  static std::string withSlash(const std::string &path) {
    return !path.empty() && path.back() == '/' ? path : path + "/";
  }

  static std::string projectRoot(const std::string &file) {
    std::string root = gitWorkTreeRoot(file);
    return root.empty() ? resolvedPath(".") : root;
  }

  OrderedJson artifactLocation(const std::string &file) {
    std::string absolute = resolvedPath(file);
    std::string relative = relativeTo(absolute, sourceRoot_);
    if (relative.empty())
      return {{"uri", fileUri(absolute)}};
    return {{"uri", encodeUriPath(relative)}, {"uriBaseId", kSourceRootId}};
  }

  OrderedJson physicalLocation(const Location &location) {
    OrderedJson region = {{"startLine", location.line},
                          {"startColumn", codePointColumn(location.sourceLine, location.column)}};
    if (!location.sourceLine.empty())
      region["snippet"] = {{"text", location.sourceLine}};
    return {{"artifactLocation", artifactLocation(location.file)}, {"region", region}};
  }

  void addRule(const std::string &id, OrderedJson &rules) {
    if (ruleIndex_.count(id))
      return;
    ruleIndex_[id] = rules.size();
    rules.push_back(ruleDescriptor(id));
  }

  OrderedJson fixFor(const FixIt &fix) {
    // One artifactChange per file, its replacements in source order.
    std::map<std::string, std::vector<const TextEdit *>> byFile;
    std::vector<std::string> fileOrder;
    for (const TextEdit &edit : fix.edits) {
      if (!byFile.count(edit.file))
        fileOrder.push_back(edit.file);
      byFile[edit.file].push_back(&edit);
    }
    OrderedJson changes = OrderedJson::array();
    for (const std::string &file : fileOrder) {
      OrderedJson replacements = OrderedJson::array();
      for (const TextEdit *edit : byFile[file]) {
        OrderedJson deleted = {
            {"startLine", edit->line},
            {"startColumn", codePointColumn(lines_.line(file, edit->line), edit->column)},
            {"endLine", edit->endLine},
            {"endColumn", codePointColumn(lines_.line(file, edit->endLine), edit->endColumn)},
            {"byteOffset", edit->offset},
            {"byteLength", edit->length}};
        replacements.push_back(
            {{"deletedRegion", deleted}, {"insertedContent", {{"text", edit->replacement}}}});
      }
      changes.push_back(
          {{"artifactLocation", artifactLocation(file)}, {"replacements", replacements}});
    }
    return {{"description", {{"text", fix.description}}},
            {"artifactChanges", changes},
            {"properties", {{"safety", fix.safe ? "safe" : "unsafe"}}}};
  }

  OrderedJson resultFor(const Diagnostic &diagnostic, bool suppressed) {
    OrderedJson result = {
        {"ruleId", diagnostic.check},
        {"ruleIndex", ruleIndex_.at(diagnostic.check)},
        // A conditional finding asks for review: SARIF then requires level "none".
        {"kind", diagnostic.conditional ? "review" : "fail"},
        {"level", diagnostic.conditional ? "none" : sarifLevel(diagnostic.severity)},
        {"message", {{"text", diagnostic.message}}},
        {"locations",
         OrderedJson::array({{{"physicalLocation", physicalLocation(diagnostic.location)}}})}};
    if (!diagnostic.notes.empty()) {
      OrderedJson related = OrderedJson::array();
      for (size_t i = 0; i < diagnostic.notes.size(); ++i)
        related.push_back({{"id", i},
                           {"physicalLocation", physicalLocation(diagnostic.notes[i].location)},
                           {"message", {{"text", diagnostic.notes[i].message}}}});
      result["relatedLocations"] = related;
    }
    result["partialFingerprints"] = {{kFingerprintKey, fingerprints_.at(&diagnostic)}};
    if (diagnostic.fix && !diagnostic.fix->edits.empty())
      result["fixes"] = OrderedJson::array({fixFor(*diagnostic.fix)});
    if (suppressed)
      result["suppressions"] = OrderedJson::array({{{"kind", "inSource"}}});
    if (const auto &c = diagnostic.confirmation)
      result["properties"]["confirmation"] = confirmationToJson(*c);
    if (diagnostic.conditional)
      result["properties"]["conditional"] = true;
    return result;
  }

  const RunResult &result_;
  const std::vector<Diagnostic> &suppressed_;
  std::string sourceRoot_;
  std::map<std::string, size_t> ruleIndex_;
  std::map<const Diagnostic *, std::string> fingerprints_;
  LineReader lines_;
};

} // namespace

std::string gitWorkTreeRoot(const std::string &file) {
  std::string directory = resolvedPath(file);
  if (!llvm::sys::fs::is_directory(directory))
    directory = std::string(llvm::sys::path::parent_path(directory));
  while (!directory.empty()) {
    llvm::SmallString<256> marker(directory);
    llvm::sys::path::append(marker, ".git");
    if (llvm::sys::fs::exists(marker)) // a directory, or a file in a linked work tree
      return directory;
    std::string parent = std::string(llvm::sys::path::parent_path(directory));
    if (parent == directory)
      break;
    directory = parent;
  }
  return {};
}

std::string projectRelativePath(const std::string &file) {
  std::string absolute = resolvedPath(file);
  std::string root = gitWorkTreeRoot(file);
  std::string relative = relativeTo(absolute, root.empty() ? resolvedPath(".") : root);
  return relative.empty() ? file : relative;
}

void writeSarif(const RunResult &result, const std::vector<Diagnostic> &suppressed,
                std::ostream &out) {
  OrderedJson document = SarifWriter(result, suppressed).document();
  out << document.dump(2, ' ', false, OrderedJson::error_handler_t::replace) << '\n';
}

} // namespace gradlint
