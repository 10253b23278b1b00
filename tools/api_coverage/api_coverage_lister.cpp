// Lists the public names a set of LibTorch headers declares, one per line:
//   <kind>\t<qualified name>\t<header path>
// kind: namespace, class, enum, enumerator, function, method, field, alias, variable.
// Parses one translation unit (the file given, usually one that includes every public
// header) with libclang and walks every declaration in files under the --root
// directories; the header path is relative to the root that holds it. Overloads,
// redeclarations and specializations collapse to one line (the first header wins).
// What counts as public, and why, is in tools/api_coverage/README.md.
//
// Usage: api_coverage_lister [--signatures] --root DIR [--root DIR]... FILE -- COMPILER-ARGS...
#include <clang-c/Index.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

struct ListerState {
  std::vector<std::string> roots;
  // qualified name -> (kind, header); std::map keeps the output sorted.
  std::map<std::string, std::pair<std::string, std::string>> names;
  // --signatures: also print each function's and alias's declaration text (generate_model.py).
  bool printSignatures = false;
  CXTranslationUnit unit = nullptr;
};

std::string takeString(CXString s) {
  const char *c = clang_getCString(s);
  std::string out = c ? c : "";
  clang_disposeString(s);
  return out;
}

// Namespaces whose names are implementation details by LibTorch's own convention.
bool isDetailNamespace(const std::string &name) {
  return name == "detail" || name == "impl" || name == "internal" || name == "details" ||
         name.empty();
}

const char *kindOf(CXCursor cursor) {
  CXCursorKind parentKind = clang_getCursorKind(clang_getCursorSemanticParent(cursor));
  bool memberOfClass = parentKind == CXCursor_ClassDecl || parentKind == CXCursor_StructDecl ||
                       parentKind == CXCursor_ClassTemplate || parentKind == CXCursor_UnionDecl ||
                       parentKind == CXCursor_ClassTemplatePartialSpecialization;
  switch (clang_getCursorKind(cursor)) {
  case CXCursor_Namespace: return "namespace";
  case CXCursor_ClassDecl:
  case CXCursor_StructDecl:
  case CXCursor_UnionDecl:
  case CXCursor_ClassTemplate: return "class";
  case CXCursor_EnumDecl: return "enum";
  case CXCursor_EnumConstantDecl: return "enumerator";
  case CXCursor_FunctionDecl:
  case CXCursor_FunctionTemplate: return memberOfClass ? "method" : "function";
  case CXCursor_CXXMethod: return "method";
  case CXCursor_FieldDecl: return "field";
  case CXCursor_TypedefDecl:
  case CXCursor_TypeAliasDecl:
  case CXCursor_TypeAliasTemplateDecl: return "alias";
  case CXCursor_VarDecl: return memberOfClass ? "field" : "variable";
  default: return nullptr;
  }
}

// The qualified name through namespaces and classes; empty when any scope on the way
// is an implementation detail (detail/impl/internal namespace, anonymous scope, a name
// starting with '_', a private or protected member).
std::string publicQualifiedName(CXCursor cursor) {
  std::string qualified;
  for (CXCursor c = cursor; !clang_Cursor_isNull(c);) {
    CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_TranslationUnit)
      break;
    if (kind == CXCursor_LinkageSpec) {
      c = clang_getCursorSemanticParent(c);
      continue;
    }
    std::string name = takeString(clang_getCursorSpelling(c));
    if (kind == CXCursor_Namespace &&
        (isDetailNamespace(name) || clang_Cursor_isInlineNamespace(c)))
      return {};
    if (name.empty() || name[0] == '_')
      return {};
    CX_CXXAccessSpecifier access = clang_getCXXAccessSpecifier(c);
    if (access == CX_CXXPrivate || access == CX_CXXProtected)
      return {};
    qualified = qualified.empty() ? name : name + "::" + qualified;
    c = clang_getCursorSemanticParent(c);
  }
  return qualified;
}

bool inLibTorchNamespace(const std::string &qualified) {
  for (const char *prefix : {"torch", "at", "c10", "c10d"}) {
    size_t n = std::strlen(prefix);
    if (qualified.compare(0, n, prefix) == 0 &&
        (qualified.size() == n || qualified.compare(n, 2, "::") == 0))
      return true;
  }
  return false;
}

// The declaration's header relative to the root holding it, or "" if outside every root.
std::string headerUnderRoots(CXCursor cursor, const std::vector<std::string> &roots) {
  CXFile file;
  clang_getExpansionLocation(clang_getCursorLocation(cursor), &file, nullptr, nullptr, nullptr);
  if (!file)
    return {};
  std::string path = takeString(clang_File_tryGetRealPathName(file));
  if (path.empty())
    path = takeString(clang_getFileName(file));
  for (const std::string &root : roots)
    if (path.compare(0, root.size(), root) == 0 && path.size() > root.size() &&
        path[root.size()] == '/')
      return path.substr(root.size() + 1);
  return {};
}

// The declaration's tokens up to its body or ';', joined by spaces (no comments).
std::string declarationText(CXCursor cursor, CXTranslationUnit unit) {
  CXToken *tokens = nullptr;
  unsigned count = 0;
  clang_tokenize(unit, clang_getCursorExtent(cursor), &tokens, &count);
  std::string text;
  int depth = 0;
  for (unsigned t = 0; t < count; ++t) {
    if (clang_getTokenKind(tokens[t]) == CXToken_Comment)
      continue;
    std::string token = takeString(clang_getTokenSpelling(unit, tokens[t]));
    if (depth == 0 && (token == "{" || token == ";"))
      break;
    if (token == "(" || token == "<")
      ++depth;
    else if (token == ")" || token == ">")
      --depth;
    else if (token == ">>")
      depth -= 2;
    text += (text.empty() ? "" : " ") + token;
  }
  clang_disposeTokens(unit, tokens, count);
  return text;
}

CXChildVisitResult visitDeclaration(CXCursor cursor, CXCursor, CXClientData data) {
  auto &state = *static_cast<ListerState *>(data);
  CXCursorKind kind = clang_getCursorKind(cursor);
  // Only scopes can hold further declarations; nothing public hides in function bodies.
  bool isScope = kind == CXCursor_Namespace || kind == CXCursor_ClassDecl ||
                 kind == CXCursor_StructDecl || kind == CXCursor_UnionDecl ||
                 kind == CXCursor_ClassTemplate || kind == CXCursor_EnumDecl ||
                 kind == CXCursor_LinkageSpec;
  const char *listedKind = kindOf(cursor);
  if (listedKind) {
    std::string header = headerUnderRoots(cursor, state.roots);
    std::string qualified = header.empty() ? "" : publicQualifiedName(cursor);
    if (!qualified.empty() && inLibTorchNamespace(qualified)) {
      // A class seen first through a forward declaration keeps the header that defines it.
      auto [it, inserted] = state.names.emplace(qualified, std::make_pair(listedKind, header));
      if (!inserted && clang_isCursorDefinition(cursor) && kind != CXCursor_Namespace)
        it->second.second = header;
      bool function = kind == CXCursor_FunctionDecl || kind == CXCursor_FunctionTemplate ||
                      kind == CXCursor_CXXMethod || kind == CXCursor_TypeAliasDecl ||
                      kind == CXCursor_TypedefDecl;
      // A method once, where its class declares it (not its out-of-line definition).
      if (state.printSignatures && function &&
          clang_equalCursors(clang_getCursorLexicalParent(cursor),
                             clang_getCursorSemanticParent(cursor)))
        std::printf("signature\t%s\t%s\t%s\n", qualified.c_str(), header.c_str(),
                    declarationText(cursor, state.unit).c_str());
    }
  }
  if (isScope)
    return CXChildVisit_Recurse;
  return CXChildVisit_Continue;
}

int usage() {
  std::fprintf(stderr, "usage: api_coverage_lister --root DIR [--root DIR]... FILE -- ARGS...\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  ListerState state;
  std::string source;
  std::vector<const char *> compilerArgs;
  int i = 1;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--")
      break;
    if (arg == "--root" && i + 1 < argc) {
      char resolved[4096];
      state.roots.push_back(realpath(argv[++i], resolved) ? resolved : argv[i]);
    } else if (arg == "--signatures") {
      state.printSignatures = true;
    } else if (source.empty()) {
      source = arg;
    } else {
      return usage();
    }
  }
  if (source.empty() || state.roots.empty())
    return usage();
  for (++i; i < argc; ++i)
    compilerArgs.push_back(argv[i]);
  // The innermost root names a header: torch/... under .../api/include, not under /usr/include.
  std::sort(state.roots.begin(), state.roots.end(),
            [](const std::string &a, const std::string &b) { return a.size() > b.size(); });

  CXIndex index = clang_createIndex(/*excludeDeclarationsFromPCH=*/0, /*displayDiagnostics=*/0);
  CXTranslationUnit unit = nullptr;
  CXErrorCode status = clang_parseTranslationUnit2(
      index, source.c_str(), compilerArgs.data(), static_cast<int>(compilerArgs.size()), nullptr, 0,
      CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_KeepGoing, &unit);
  if (status != CXError_Success || !unit) {
    std::fprintf(stderr, "api_coverage_lister: cannot parse %s\n", source.c_str());
    return 2;
  }
  // Errors would hide declarations: report them and fail, so a list is always complete.
  unsigned errors = 0;
  for (unsigned d = 0, n = clang_getNumDiagnostics(unit); d < n; ++d) {
    CXDiagnostic diagnostic = clang_getDiagnostic(unit, d);
    if (clang_getDiagnosticSeverity(diagnostic) >= CXDiagnostic_Error) {
      ++errors;
      std::fprintf(
          stderr, "%s\n",
          takeString(clang_formatDiagnostic(diagnostic, clang_defaultDiagnosticDisplayOptions()))
              .c_str());
    }
    clang_disposeDiagnostic(diagnostic);
  }
  state.unit = unit;
  clang_visitChildren(clang_getTranslationUnitCursor(unit), visitDeclaration, &state);
  for (const auto &[qualified, kindAndHeader] : state.names)
    std::printf("%s\t%s\t%s\n", kindAndHeader.first.c_str(), qualified.c_str(),
                kindAndHeader.second.c_str());
  clang_disposeTranslationUnit(unit);
  clang_disposeIndex(index);
  return errors ? 1 : 0;
}
