// Bounded reads of inputs. Every file the user names (a source, a
// .gradlint.yaml, a compile_commands.json) is read only when it is a regular
// file no larger than a cap: a FIFO would block open() or read() forever, and
// /dev/zero would be read until memory runs out, in the main process, before
// any isolation or --timeout applies.
#pragma once

#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

namespace gradlint {

/// The caps (documented in docs/usage.md and --help).
constexpr uint64_t kMaxSourceBytes = 64ull << 20;    ///< a source file or project header
constexpr uint64_t kMaxConfigBytes = 16ull << 20;    ///< .gradlint.yaml
constexpr uint64_t kMaxDatabaseBytes = 512ull << 20; ///< compile_commands.json, compile_flags.txt

/// Why a file may not be read.
struct BoundedReadFailure {
  std::error_code io;  ///< open or read failed (problem is empty)
  std::string problem; ///< "not a regular file (it is a FIFO)", "too large (...)"

  /// `problem`, or `ioPrefix` followed by the system's message.
  std::string describe(const std::string &ioPrefix) const {
    return problem.empty() ? ioPrefix + io.message() : problem;
  }
};

/// Without opening it: why `path` is no regular file of at most `maxBytes`
/// (from stat, following symbolic links); nullopt when it is one, or when it
/// cannot be stat'ed (a later read reports that). `what` names the kind of
/// file in the size message ("a source file").
std::optional<BoundedReadFailure> checkBoundedFile(const std::string &path, uint64_t maxBytes,
                                                   const char *what);

/// Reads `path` when it is a regular file of at most `maxBytes`: checks with
/// stat, opens with O_NONBLOCK (never blocks in open(), even on a FIFO that
/// appeared since) and checks the descriptor again with fstat before reading.
std::optional<BoundedReadFailure> readBoundedFile(const std::string &path, uint64_t maxBytes,
                                                  const char *what,
                                                  std::unique_ptr<llvm::MemoryBuffer> &out,
                                                  bool requiresNullTerminator = true);

} // namespace gradlint
