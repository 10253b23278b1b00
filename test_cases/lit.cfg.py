# lit configuration for the annotated test cases (see check_gradlint.py).
import os
import sys

import lit.formats

config.name = "gradlint"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cpp"]
config.excludes = ["unit", "cli"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gradlint_build_dir, "test_cases")

check = os.path.join(config.test_source_root, "check_gradlint.py")
config.substitutions.append(
    ("%check_gradlint", f"{sys.executable} {check} {config.gradlint_binary}"))
config.substitutions.append(("%real_pch", config.real_headers_pch))
config.environment["FILECHECK"] = config.filecheck
# lit passes no HOME: without this each case would reparse the API model's
# headers instead of using gradlint's preamble cache, as users' runs do.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.gradlint_build_dir, "test-cache")
