// Stand-in for the launcher glue the original programs get from mpirun/torchrun:
// reads RANK / WORLD_SIZE / MASTER_ADDR / MASTER_PORT and builds a Gloo group.
#pragma once

#include <cstdlib>
#include <string>

#include <torch/torch.h>
#include <c10d/ProcessGroupGloo.hpp>
#include <c10d/TCPStore.hpp>

namespace dist_env {

inline int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

inline std::string env_str(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : fallback;
}

// Creates the world process group over Gloo (CPU) from the environment.
inline c10::intrusive_ptr<c10d::ProcessGroupGloo> create_gloo_group() {
  const int rank = env_int("RANK", 0);
  const int size = env_int("WORLD_SIZE", 1);
  c10d::TCPStoreOptions opts;
  opts.port = static_cast<std::uint16_t>(env_int("MASTER_PORT", 29500));
  opts.isServer = rank == 0;
  opts.numWorkers = size;
  auto store = c10::make_intrusive<c10d::TCPStore>(
      env_str("MASTER_ADDR", "127.0.0.1"), opts);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, size, options);
}

}  // namespace dist_env
