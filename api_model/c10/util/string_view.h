#pragma once
#include <c10/macros/Macros.h>
#include <string_view>

namespace c10 {
using string_view = std::string_view;
} // namespace c10
