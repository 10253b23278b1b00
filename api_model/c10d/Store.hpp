#pragma once
#include <torch/csrc/distributed/c10d/Store.hpp>
