#pragma once
#include <c10/macros/Macros.h>
#include <cstdint>
#include <iosfwd>

namespace c10 {
enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d, NumOptions };
C10_API std::ostream& operator<<(std::ostream& stream, at::MemoryFormat memory_format);
} // namespace c10

namespace at {
using MemoryFormat = c10::MemoryFormat;
}
