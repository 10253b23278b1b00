#include "driver/analysis/LibraryInstantiations.h"

#include "model/UserCode.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Sema/Sema.h"

namespace gradlint {
namespace {

/// Where a class's members are written: its template's pattern for an
/// instantiated specialization.
const clang::Decl *definitionSite(const clang::CXXRecordDecl *record) {
  if (const auto *specialization = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(record))
    if (specialization->getSpecializationKind() != clang::TSK_ExplicitSpecialization)
      return specialization->getSpecializedTemplate();
  return record;
}

} // namespace

void dropLibraryVTableUses(clang::Sema &sema) {
  sema.LoadExternalVTableUses(); // those a PCH recorded
  // VTablesUsed keeps the classes: a later use does not add them back.
  llvm::erase_if(sema.VTableUses, [&](const clang::Sema::VTableUse &use) {
    return !isUserCode(sema.getSourceManager(), definitionSite(use.first)->getLocation());
  });
}

} // namespace gradlint
