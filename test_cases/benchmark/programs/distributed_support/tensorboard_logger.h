// Stand-in for deps/tensorboard_logger (fastrl): scalars are printed instead
// of being written to an event file.
#pragma once

#include <iostream>
#include <string>

class TensorBoardLogger {
 public:
  explicit TensorBoardLogger(const std::string& log_file) : log_file_(log_file) {}
  int add_scalar(const std::string& tag, int step, float value) {
    std::cout << "[tb] " << tag << " @" << step << " = " << value << "\n";
    return 0;
  }
  int add_scalar(const std::string& tag, int step, double value) {
    return add_scalar(tag, step, static_cast<float>(value));
  }

 private:
  std::string log_file_;
};
