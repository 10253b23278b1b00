// Random.h - the runtime's own deterministic PRNG (splitmix64).
//
// No std::random distributions (their output differs between standard
// libraries) and no libm: uniform floats come from the top 24 bits of a
// 64-bit draw, so every platform produces the same bits.
#pragma once

#include <cstdint>

namespace gradlint {
namespace runtime {

// splitmix64 (Steele, Lea, Flood 2014; the seeder of xoshiro).
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, 1): a multiple of 2^-24 (exact in float).
  float uniform01() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }

  // Uniform in [lo, hi): lo + (hi - lo) * uniform01(), in float.
  float uniform(float lo, float hi) { return lo + (hi - lo) * uniform01(); }

  // Uniform integer in [0, n) (n > 0; modulo bias is irrelevant here).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }

private:
  uint64_t state_;
};

// Derives an independent seed from (seed, stream): one splitmix64 step over a
// mix of both. Used to give every (seed, batch index, row) its own stream.
inline uint64_t deriveSeed(uint64_t seed, uint64_t stream) {
  SplitMix64 g(seed ^ (stream * 0xd1b54a32d192ed03ull + 0x2545f4914f6cdd1dull));
  return g.next();
}

} // namespace runtime
} // namespace gradlint
