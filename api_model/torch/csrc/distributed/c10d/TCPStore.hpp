#pragma once
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace c10d {
struct TCPStoreOptions {
  static constexpr std::uint16_t kDefaultPort = 29500;
  std::uint16_t port = kDefaultPort;
  bool isServer = false;
  c10::optional<std::size_t> numWorkers = c10::nullopt;
  bool waitWorkers = true;
  std::chrono::milliseconds timeout = Store::kDefaultTimeout;
  bool multiTenant = false;
};

class TORCH_API TCPStore : public Store {
 public:
  explicit TCPStore(std::string host, const TCPStoreOptions& opts = {});
  [[deprecated("Use TCPStore(host, opts) instead.")]] explicit TCPStore(
      const std::string& masterAddr, std::uint16_t masterPort, c10::optional<int> numWorkers = {},
      bool isServer = false, const std::chrono::milliseconds& timeout = kDefaultTimeout, bool waitWorkers = true);
  ~TCPStore() override;
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
  void watchKey(const std::string& key, WatchKeyCallback callback) override;
  void waitForWorkers();
  const std::string& getHost() const noexcept;
  std::uint16_t getPort() const noexcept;
};
} // namespace c10d
