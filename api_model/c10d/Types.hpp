#pragma once
#include <torch/csrc/distributed/c10d/Types.hpp>
