#pragma once
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <string>
#include <vector>

namespace c10d {
class TORCH_API FileStore : public Store {
 public:
  explicit FileStore(const std::string& path, int numWorkers);
  ~FileStore() override;
  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expectedValue,
                                  const std::vector<uint8_t>& desiredValue) override;
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t value) override;
  int64_t getNumKeys() override;
  bool deleteKey(const std::string& key) override;
  bool check(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) override;
  const std::string& getPath() const noexcept;
};
} // namespace c10d
