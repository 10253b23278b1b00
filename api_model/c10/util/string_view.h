#pragma once
#include <c10/macros/Macros.h>
#include <string_view>

namespace c10 {
template <class CharT>
using basic_string_view = std::basic_string_view<CharT>;
using string_view = std::string_view;
} // namespace c10
