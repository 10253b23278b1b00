#pragma once
#include <ATen/core/TensorBody.h>
