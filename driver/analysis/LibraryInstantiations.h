#pragma once

#include "clang/Sema/Sema.h"

namespace gradlint {

/// Keeps Clang from instantiating, at the end of the translation unit, the
/// virtual members of library class templates (LibTorch, the standard
/// library) whose vtables the headers or the user's code used. Nothing
/// gradlint analyses lives there, and with the real LibTorch headers they
/// were most of a file's parse time (c10::ListType::equals,
/// Conv1dImpl::pretty_print, Cloneable<...>::clone...). The user's own
/// classes keep their vtables. Call it while parsing (from
/// HandleTopLevelDecl), never during Sema's end of the translation unit,
/// which iterates the list this edits.
void dropLibraryVTableUses(clang::Sema &sema);

} // namespace gradlint
