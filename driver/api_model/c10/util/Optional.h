#pragma once
// Model: c10::optional is represented by std::optional (C++17).
#include <c10/macros/Macros.h>
#include <optional>

namespace c10 {
template <class T>
using optional = std::optional<T>;
using std::make_optional;
using std::nullopt;
using std::nullopt_t;
using std::bad_optional_access;
} // namespace c10
