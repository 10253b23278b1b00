#pragma once
#include <torch/types.h>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace torch {
namespace jit {
struct CompilationUnit;
} // namespace jit
namespace serialize {
class TORCH_API OutputArchive {
 public:
  OutputArchive();
  OutputArchive(OutputArchive&&) = default;
  OutputArchive& operator=(OutputArchive&&) = default;
  OutputArchive(OutputArchive&) = delete;
  OutputArchive& operator=(OutputArchive&) = delete;
  std::shared_ptr<jit::CompilationUnit> compilation_unit() const;
  template <typename... Ts>
  void operator()(Ts&&... ts);
  void write(const std::string& key, const Tensor& tensor, bool is_buffer = false);
  void write(const std::string& key, OutputArchive& nested_archive);
  void save_to(const std::string& filename);
  void save_to(std::ostream& stream);
  void save_to(const std::function<size_t(const void*, size_t)>& func);
};
class TORCH_API InputArchive {
 public:
  InputArchive();
  InputArchive(InputArchive&&) = default;
  InputArchive& operator=(InputArchive&&) = default;
  std::vector<std::string> keys();
  template <typename... Ts>
  void operator()(Ts&&... ts);
  bool try_read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  void read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  bool try_read(const std::string& key, InputArchive& archive);
  void read(const std::string& key, InputArchive& archive);
  void load_from(const std::string& filename, c10::optional<torch::Device> device = {});
  void load_from(std::istream& stream, c10::optional<torch::Device> device = {});
  void load_from(const char* data, size_t size, c10::optional<torch::Device> device = {});
};
} // namespace serialize
} // namespace torch
