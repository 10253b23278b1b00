#pragma once
// gradlint LibTorch API model of <ATen/ATen.h> (LibTorch 1.13 names).
#include <c10/core/Device.h>
#include <c10/core/DeviceType.h>
#include <c10/core/GradMode.h>
#include <c10/core/Layout.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/Exception.h>
#include <c10/util/Optional.h>
#include <ATen/Context.h>
#include <ATen/Functions.h>
#include <ATen/Parallel.h>
#include <ATen/Tensor.h>
#include <ATen/TensorIndexing.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/Generator.h>
#include <ATen/core/Reduction.h>
// Free functions of at:: and c10:: generated from LibTorch 1.13.1.
#include <ATen/gradlint_generated_aten_c10.h>
