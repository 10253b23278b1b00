#pragma once
#include <c10/macros/Macros.h>
#include <functional>
#include <string>

namespace at {
TORCH_API void init_num_threads();
TORCH_API void set_num_threads(int);
TORCH_API int get_num_threads();
TORCH_API int get_thread_num();
TORCH_API bool in_parallel_region();
TORCH_API void set_num_interop_threads(int);
TORCH_API int get_num_interop_threads();
TORCH_API std::string get_parallel_info();
TORCH_API int intraop_default_num_threads();
TORCH_API void intraop_launch(std::function<void()> func);
} // namespace at
