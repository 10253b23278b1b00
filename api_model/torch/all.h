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

// The real <torch/torch.h> transitively provides most of the standard library, and
// training code relies on that (std::cout, std::map, std::sort, ...). Mirror it unless
// GRADLINT_API_MODEL_MINIMAL_STD is defined.
#ifndef GRADLINT_API_MODEL_MINIMAL_STD
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iomanip>
#include <iostream>
#include <list>
#include <map>
#include <mutex>
#include <numeric>
#include <queue>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#endif
