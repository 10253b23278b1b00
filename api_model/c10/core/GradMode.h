#pragma once
#include <c10/macros/Macros.h>

namespace c10 {
struct C10_API GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};
struct C10_API AutoGradMode {
  AutoGradMode(bool enabled);
  ~AutoGradMode();
  bool prev_mode;
};
struct C10_API NoGradGuard : public AutoGradMode {
  NoGradGuard() : AutoGradMode(/*enabled=*/false) {}
};
struct C10_API AutoFwGradMode {
  AutoFwGradMode(bool enabled);
  ~AutoFwGradMode();
  bool prev_mode;
};
struct C10_API InferenceMode {
  InferenceMode(bool enabled = true);
  ~InferenceMode();
  static bool is_enabled();
};
} // namespace c10
