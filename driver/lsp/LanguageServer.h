// `gradlint lsp`: a Language Server Protocol 3.17 server. Editors send the
// text of open C++ files; gradlint analyses the unsaved text on a worker
// thread and publishes its findings as diagnostics, with the fix-its as quick
// fixes.
#pragma once

#include "driver/analysis/CompilationSetup.h"

#include <istream>
#include <ostream>

namespace gradlint {

/// Serves one client on `in`/`out` (JSON-RPC with Content-Length framing) and
/// logs to `log`. `commandLine` holds the cache options of `gradlint lsp`'s
/// command line; the client's initializationOptions override them. Returns
/// the exit code: 0 after shutdown + exit, 1 when the client exits (or closes
/// `in`) without asking for shutdown first.
int runLanguageServer(std::istream &in, std::ostream &out, std::ostream &log,
                      const SetupOptions &commandLine);

} // namespace gradlint
