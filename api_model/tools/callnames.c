// Prints "<line>:<col> <kind> <qualified-name-of-referenced-decl>" for every call /
// member reference / decl reference inside functions whose name starts with "train"
// (or methods of classes in the main file whose name starts with "train").
#include <clang-c/Index.h>
#include <stdio.h>
#include <string.h>

static void qualname(CXCursor c, char* buf, size_t n) {
  char tmp[4096] = "";
  buf[0] = 0;
  while (!clang_Cursor_isNull(c) && clang_getCursorKind(c) != CXCursor_TranslationUnit) {
    enum CXCursorKind k = clang_getCursorKind(c);
    CXString s = clang_getCursorSpelling(c);
    const char* sp = clang_getCString(s);
    if (k == CXCursor_Namespace || k == CXCursor_ClassDecl || k == CXCursor_StructDecl ||
        k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization ||
        k == CXCursor_UnionDecl || k == CXCursor_EnumDecl || k == CXCursor_CXXMethod ||
        k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_Constructor ||
        k == CXCursor_ConversionFunction || k == CXCursor_EnumConstantDecl || k == CXCursor_FieldDecl ||
        k == CXCursor_VarDecl || k == CXCursor_TypeAliasDecl || k == CXCursor_TypedefDecl || k == CXCursor_Destructor) {
      if (sp && *sp) {
        snprintf(tmp, sizeof tmp, "%s%s%s", sp, buf[0] ? "::" : "", buf);
        snprintf(buf, n, "%s", tmp);
      } else if (k == CXCursor_Namespace) {
        snprintf(tmp, sizeof tmp, "(anon)::%s", buf);
        snprintf(buf, n, "%s", tmp);
      }
    }
    clang_disposeString(s);
    c = clang_getCursorSemanticParent(c);
  }
}

static int in_train = 0;

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData d) {
  enum CXCursorKind k = clang_getCursorKind(c);
  CXSourceLocation loc = clang_getCursorLocation(c);
  if (!clang_Location_isFromMainFile(loc)) return CXChildVisit_Continue;
  if (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
      k == CXCursor_Constructor) {
    CXString s = clang_getCursorSpelling(c);
    int t = strncmp(clang_getCString(s), "train", 5) == 0;
    clang_disposeString(s);
    int saved = in_train;
    in_train = in_train || t;
    clang_visitChildren(c, visit, d);
    in_train = saved;
    return CXChildVisit_Continue;
  }
  if (in_train && (k == CXCursor_CallExpr || k == CXCursor_MemberRefExpr || k == CXCursor_DeclRefExpr)) {
    CXCursor r = clang_getCursorReferenced(c);
    if (!clang_Cursor_isNull(r)) {
      enum CXCursorKind rk = clang_getCursorKind(r);
      if (rk != CXCursor_VarDecl && rk != CXCursor_ParmDecl) {
        char q[4096];
        qualname(r, q, sizeof q);
        unsigned line, col;
        clang_getSpellingLocation(loc, NULL, &line, &col, NULL);
        const char* kind = k == CXCursor_CallExpr ? "call" : (k == CXCursor_MemberRefExpr ? "member" : "ref");
        if (q[0]) printf("%u:%u %s %s\n", line, col, kind, q);
      }
    }
  }
  clang_visitChildren(c, visit, d);
  return CXChildVisit_Continue;
}

int main(int argc, char** argv) {
  CXIndex idx = clang_createIndex(0, 1);
  CXTranslationUnit tu = clang_parseTranslationUnit(idx, argv[1], (const char* const*)argv + 2, argc - 2, NULL, 0,
                                                    CXTranslationUnit_SkipFunctionBodies * 0);
  if (!tu) { fprintf(stderr, "parse failed\n"); return 1; }
  clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, NULL);
  return 0;
}
