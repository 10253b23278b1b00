// KernelMath round-trips (fp16, bf16), activations and the reduced-precision
// gradient storage of GradBuffer.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>

using namespace gradlint::runtime;
using namespace gradlint::runtime::kernels;

namespace {

const float kInf = std::numeric_limits<float>::infinity();

TEST(KernelMath, HalfRoundTripNormals) {
  EXPECT_EQ(floatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(roundToHalf(0.1f), 0.0999755859375f);
  EXPECT_EQ(roundToHalf(1.0f + 1.0f / 2048), 1.0f);               // tie -> even
  EXPECT_EQ(roundToHalf(1.0f + 3.0f / 2048), 1.0f + 2.0f / 1024); // tie -> even (up)
  EXPECT_EQ(roundToHalf(1.0f + 1.5f / 2048), 1.0f + 1.0f / 1024); // above the tie
  EXPECT_EQ(roundToHalf(0.3333333f), 0.333251953125f);
  EXPECT_EQ(halfBitsToFloat(0x3555), 0.333251953125f);
}

TEST(KernelMath, HalfOverflowGoesToInfinity) {
  EXPECT_EQ(roundToHalf(65519.0f), 65504.0f);
  EXPECT_EQ(roundToHalf(65520.0f), kInf); // halfway to 65536 -> even -> inf
  EXPECT_EQ(roundToHalf(1e6f), kInf);
  EXPECT_EQ(roundToHalf(-70000.0f), -kInf);
  EXPECT_EQ(roundToHalf(kInf), kInf);
  EXPECT_TRUE(std::isnan(roundToHalf(std::nanf(""))));
}

TEST(KernelMath, HalfSubnormalsAndUnderflow) {
  const float minSub = std::ldexp(1.0f, -24); // 5.96e-8
  EXPECT_EQ(floatToHalfBits(minSub), 0x0001);
  EXPECT_EQ(roundToHalf(minSub), minSub);
  EXPECT_EQ(roundToHalf(std::ldexp(1.0f, -25)), 0.0f);       // tie -> even (0)
  EXPECT_EQ(roundToHalf(std::ldexp(1.5f, -25)), minSub);     // above the tie
  EXPECT_EQ(roundToHalf(std::ldexp(3.0f, -25)), 2 * minSub); // 1.5 units -> 2 (even)
  EXPECT_EQ(roundToHalf(1e-8f), 0.0f);
  EXPECT_EQ(roundToHalf(1e-5f), 168 * minSub);               // 167.77 units
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -14)), 0x0400); // smallest normal
  EXPECT_EQ(roundToHalf(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -25)),
            std::ldexp(1.0f, -14)); // 1023.5 units -> 1024
  EXPECT_EQ(halfBitsToFloat(0x03ff), 1023 * minSub);
  EXPECT_TRUE(std::signbit(roundToHalf(-1e-9f))); // -0 keeps its sign
  EXPECT_EQ(roundToHalf(1e-40f), 0.0f);           // fp32 subnormal
}

TEST(KernelMath, HalfRoundTripIsExactForEveryHalf) {
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    const uint16_t bits = static_cast<uint16_t>(h);
    if ((bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu))
      continue; // NaNs
    ASSERT_EQ(floatToHalfBits(halfBitsToFloat(bits)), bits) << std::hex << h;
  }
}

TEST(KernelMath, BFloat16KeepsRangeLosesPrecision) {
  EXPECT_EQ(floatToBf16Bits(1.0f), 0x3f80);
  EXPECT_EQ(roundToBf16(1.0f + 1.0f / 256), 1.0f);       // tie -> even
  EXPECT_EQ(roundToBf16(1.0f + 3.0f / 256), 1.015625f);  // tie -> even (up)
  EXPECT_EQ(roundToBf16(1.0f + 1.5f / 256), 1.0078125f); // above the tie
  EXPECT_EQ(roundToBf16(3.14159265f), 3.140625f);
  EXPECT_EQ(roundToBf16(1e-8f), 1.0011717677116394e-08f); // small values survive
  EXPECT_EQ(roundToBf16(3.0e38f), 3.00405527047391e+38f); // huge values survive
  EXPECT_EQ(roundToHalf(3.0e38f), kInf);                  // ... where fp16 overflows
  EXPECT_EQ(roundToBf16(FLT_MAX), kInf);                  // rounds past the max
  EXPECT_TRUE(std::isnan(roundToBf16(std::nanf(""))));
  EXPECT_EQ(roundTo(0.1f, DType::F32), 0.1f);
  EXPECT_EQ(roundTo(0.1f, DType::BF16), 0.10009765625f);
}

TEST(KernelMath, ActivationsAndClip) {
  EXPECT_NEAR(tanhForward(0.5f), 0.46211715726, 1e-7);
  const float y = tanhForward(0.5f);
  EXPECT_FLOAT_EQ(tanhBackward(y, 2.0f), 2.0f * (1.0f - y * y));
  EXPECT_EQ(reluForward(-1.5f), 0.0f);
  EXPECT_EQ(reluForward(2.5f), 2.5f);
  EXPECT_EQ(reluBackward(-1.0f, 3.0f), 0.0f);
  EXPECT_EQ(reluBackward(0.0f, 3.0f), 0.0f);
  EXPECT_EQ(reluBackward(1.0f, 3.0f), 3.0f);
  EXPECT_EQ(activationBackward(Activation::Relu, 2.0f, 2.0f, 4.0f), 4.0f);
  EXPECT_EQ(clipValue(3.0f, 1.0f), 1.0f);
  EXPECT_EQ(clipValue(-3.0f, 1.0f), -1.0f);
  EXPECT_EQ(clipValue(0.5f, 1.0f), 0.5f);
}

TEST(KernelMath, CrossEntropyRow) {
  const float z[3] = {1.0f, 2.0f, 3.0f};
  float g[3];
  const double loss = crossEntropyRow(z, 3, 0, 1.0f, g);
  const double lse = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  EXPECT_NEAR(loss, lse - 1.0, 1e-12);
  EXPECT_NEAR(g[0], std::exp(1.0 - lse) - 1.0, 1e-7);
  EXPECT_NEAR(g[2], std::exp(3.0 - lse), 1e-7);
  const float big[2] = {1000.0f, 0.0f}; // max-shifted: no overflow
  EXPECT_NEAR(crossEntropyRow(big, 2, 1, 1.0f, nullptr), 1000.0, 1e-9);
}

TEST(GradBufferPrecision, Fp16UnderflowsOverManyMicroBatches) {
  const std::vector<Shape> shapes = {{4}};
  GradBuffer f32(shapes, DType::F32), f16(shapes, DType::F16), bf16(shapes, DType::BF16);
  const std::vector<float> g(4, 1e-8f);
  for (int i = 0; i < 32; ++i) {
    f32.accumulate(0, g.data());
    f16.accumulate(0, g.data());
    bf16.accumulate(0, g.data());
  }
  for (float v : f16.flatten())
    EXPECT_EQ(v, 0.0f);
  for (float v : f32.flatten())
    EXPECT_NEAR(v, 3.2e-7f, 1e-12);
  for (float v : bf16.flatten()) {
    EXPECT_GT(v, 0.0f);
    EXPECT_NEAR(v, 3.2e-7, 0.03 * 3.2e-7);
  }
  EXPECT_EQ(f16.norm(), 0.0);
  EXPECT_GT(f32.norm(), 0.0);
}

TEST(GradBufferPrecision, Fp16SmallContributionsStallOnALargeSum) {
  // 1 + 2^-12 is below half an fp16 ulp of 1 (2^-11): the sum never moves.
  GradBuffer f16(std::vector<Shape>{{1}}, DType::F16);
  const float one = 1.0f, tiny = 1.0f / 4096;
  f16.accumulate(0, &one);
  for (int i = 0; i < 100; ++i)
    f16.accumulate(0, &tiny);
  EXPECT_EQ(f16.tensor(0)[0], 1.0f);
}

TEST(GradBufferPrecision, Fp16EachNewGradientIsRoundedBeforeTheSum) {
  // A half-precision backward produces a half gradient: 2^-11 (1 + 2^-11)
  // becomes 2^-11, and 1 + 2^-11 is a tie that rounds to even (1). Adding the
  // unrounded value would round up to 1 + 2^-10 instead.
  GradBuffer f16(std::vector<Shape>{{1}}, DType::F16);
  const float one = 1.0f, g = std::ldexp(1.0f, -11) + std::ldexp(1.0f, -22);
  f16.accumulate(0, &one);
  f16.accumulate(0, &g);
  EXPECT_EQ(f16.tensor(0)[0], 1.0f);
}

TEST(GradBufferPrecision, Fp16OverflowGoesToInf) {
  GradBuffer f16(std::vector<Shape>{{2}}, DType::F16), bf16(std::vector<Shape>{{2}}, DType::BF16);
  const float g[2] = {40000.0f, -40000.0f};
  f16.accumulate(0, g);
  EXPECT_EQ(f16.tensor(0)[0], 40000.0f);
  f16.accumulate(0, g);
  EXPECT_EQ(f16.tensor(0)[0], kInf);
  EXPECT_EQ(f16.tensor(0)[1], -kInf);
  EXPECT_TRUE(std::isinf(f16.norm()));
  bf16.accumulate(0, g);
  bf16.accumulate(0, g);
  EXPECT_EQ(bf16.tensor(0)[0], 79872.0f); // 80000 rounded to 8 significant bits
  // Scaling in fp16 storage rounds as well: 1/3 of 1 -> 0.333251953125.
  GradBuffer s(std::vector<Shape>{{1}}, DType::F16);
  const float v = 1.0f;
  s.accumulate(0, &v);
  s.scale(1.0f / 3.0f);
  EXPECT_EQ(s.tensor(0)[0], 0.333251953125f);
}

TEST(GradBufferPrecision, HalfGradientsThroughForwardBackward) {
  // A tiny loss scale pushes every gradient of an fp16 buffer to zero, not an fp32 one.
  const Model model = Model::linear(3, 2, 4);
  const Batch batch = makeBatch(1, 0, 4, 3, 2, TaskKind::Regression);
  GradBuffer f32(model, DType::F32), f16(model, DType::F16);
  for (int i = 0; i < 32; ++i) {
    forwardBackward(model, batch, LossKind::Mse, Reduction::Mean, 1e-9f, f32);
    forwardBackward(model, batch, LossKind::Mse, Reduction::Mean, 1e-9f, f16);
  }
  EXPECT_GT(f32.norm(), 0.0);
  EXPECT_EQ(f16.norm(), 0.0);
  EXPECT_EQ(f16.bytes(), model.numel() * 2);
  EXPECT_EQ(f32.bytes(), model.numel() * 4);
}

} // namespace
