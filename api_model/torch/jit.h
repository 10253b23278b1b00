#pragma once
#include <torch/csrc/jit/api/module.h>
