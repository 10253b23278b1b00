// Settings of a distributed run, declared in a header: a launcher or a config
// parser in another translation unit fills them, so their defaults are not the
// values the run uses. Included by negative_header_config_default_not_trusted.cpp.
#pragma once

struct ClusterRunConfig {
  int grad_accumulation_steps = 1;
  bool sync_grads = true;
};
