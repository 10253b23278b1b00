// Stand-in for the few OpenCV types the GAN trainers use for previews.
#pragma once
#include <string>
#include <vector>

namespace cv {
struct Size {
  int width = 0, height = 0;
  Size() = default;
  Size(int w, int h) : width(w), height(h) {}
};
struct Mat {
  int rows = 0, cols = 0, channels = 3;
  std::vector<unsigned char> data;
};
inline bool imwrite(const std::string& /*path*/, const Mat& /*img*/) { return true; }
inline Mat imread(const std::string& /*path*/) { return Mat{}; }
}  // namespace cv
