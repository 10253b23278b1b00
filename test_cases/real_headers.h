// The real LibTorch headers every test case may use, precompiled once per
// build so that the header-parity test parses LibTorch once, not per case.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroup.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <c10d/TCPStore.hpp>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>
