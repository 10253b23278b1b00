// Minimal stand-in for the parts of cxxopts the trainers read.
#pragma once
#include <map>
#include <sstream>
#include <string>

namespace cxxopts {

class OptionValue {
 public:
  OptionValue() = default;
  explicit OptionValue(std::string text) : text_(std::move(text)) {}

  template <typename T>
  T as() const {
    std::istringstream in(text_);
    T value{};
    in >> std::boolalpha >> value;
    return value;
  }

 private:
  std::string text_;
};

template <>
inline std::string OptionValue::as<std::string>() const { return text_; }

class ParseResult {
 public:
  ParseResult() = default;
  void set(const std::string& key, const std::string& value) { values_[key] = OptionValue(value); }
  const OptionValue& operator[](const std::string& key) const {
    static const OptionValue empty;
    auto it = values_.find(key);
    return it == values_.end() ? empty : it->second;
  }
  size_t count(const std::string& key) const { return values_.count(key); }

 private:
  std::map<std::string, OptionValue> values_;
};

}  // namespace cxxopts
