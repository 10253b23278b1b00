// Runtime.h - the whole public API of the gradlint reference runtime.
#pragma once

#include "Batch.h"
#include "Clip.h"
#include "GradBuffer.h"
#include "Loss.h"
#include "Metrics.h"
#include "Model.h"
#include "Optimizers.h"
#include "ProcessGroup.h"
#include "Random.h"
#include "Tensor.h"
#include "kernels/Backend.h"
#include "kernels/KernelMath.h"
