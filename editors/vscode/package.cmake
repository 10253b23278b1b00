# Builds the VS Code extension's .vsix; run by the vscode-extension target and
# by the editors/vscode test, so both package it the same way.
#   cmake -DNPM=<npm> -DVSIX=<output .vsix> -P package.cmake
cmake_minimum_required(VERSION 3.20)
if(NOT NPM OR NOT VSIX)
  message(FATAL_ERROR "usage: cmake -DNPM=<npm> -DVSIX=<output .vsix> -P package.cmake")
endif()
set(extension_dir ${CMAKE_CURRENT_LIST_DIR})

function(run_in_extension_dir)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${extension_dir}
                  RESULT_VARIABLE status INPUT_FILE /dev/null)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "vscode-extension: '${command}' failed (${status})")
  endif()
endfunction()

# npm ci deletes and refetches node_modules, so only when it is missing
# (.ci/setup has usually run it already; the build then needs no network).
# No install scripts: they fetch keytar and vsce-sign binaries, which only
# publishing uses, not `vsce package`.
if(NOT EXISTS ${extension_dir}/node_modules)
  run_in_extension_dir(${NPM} ci --no-audit --no-fund --ignore-scripts)
endif()
get_filename_component(vsix_dir ${VSIX} DIRECTORY)
file(MAKE_DIRECTORY ${vsix_dir})
file(REMOVE_RECURSE ${extension_dir}/out)
run_in_extension_dir(${NPM} run --silent compile)
# The repository's LICENSE goes into the .vsix (vsce takes extension/LICENSE
# and stores it as extension/LICENSE.txt); copied, not committed twice, and
# ignored by git there. Without it vsce would ask, and with stdin at /dev/null
# the packaging fails. No repository URL: vsce would ask for that too.
configure_file(${extension_dir}/../../LICENSE ${extension_dir}/LICENSE COPYONLY)
run_in_extension_dir(${NPM} exec --offline -- vsce package --allow-missing-repository
                     --out ${VSIX})
