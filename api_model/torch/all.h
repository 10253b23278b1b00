#pragma once
// gradlint LibTorch API model of <torch/all.h> (LibTorch 1.13 names; declarations only).
#include <torch/autograd.h>
#include <torch/cuda.h>
#include <torch/data.h>
#include <torch/enum.h>
#include <torch/jit.h>
#include <torch/nn.h>
#include <torch/optim.h>
#include <torch/serialize.h>
#include <torch/types.h>
#include <torch/utils.h>
#include <torch/version.h>
// torch::special, linalg, fft and the other nn::functional functions, generated.
#include <torch/gradlint_generated_torch.h>
#include <torch/gradlint_generated_namespaces.h>
// Names of LibTorch 2.x that 1.13 lacks (torch::mps, scaled_dot_product_attention, ...).
#include <torch/gradlint_libtorch2_names.h>

// The real <torch/torch.h> transitively provides most of the standard library, and
// training code relies on that (std::cout, std::map, std::sort, ...). Mirror it unless
// GRADLINT_API_MODEL_MINIMAL_STD is defined.
#ifndef GRADLINT_API_MODEL_MINIMAL_STD
#include <algorithm>
#include <array>
#include <atomic>
#include <bitset>
#include <cassert>
#include <chrono>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <complex>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <forward_list>
#include <iomanip>
#include <iostream>
#include <list>
#include <map>
#include <mutex>
#include <numeric>
#include <queue>
#include <set>
#include <shared_mutex>
#include <sstream>
#include <stack>
#include <thread>
#include <typeindex>
#include <unordered_map>
#include <unordered_set>
#endif
