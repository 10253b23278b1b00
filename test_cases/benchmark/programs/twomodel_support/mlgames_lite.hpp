// Stand-in for the mlgames library of Cpp_Raylib_Libtorch_SnakeAI: the LinearNN
// Q-network, the bounded replay deque and the MemoryData record.
#pragma once
#include <torch/torch.h>

#include <deque>
#include <string>
#include <vector>

#define MAX_MEMORY 100000

class LinearNNImpl : public torch::nn::Module {
 public:
  LinearNNImpl(size_t input_size_, size_t output_size_, const std::vector<size_t>& hidden_sizes_)
      : input_size(input_size_), output_size(output_size_) {
    size_t in = input_size_;
    for (size_t h : hidden_sizes_) {
      layers->push_back(torch::nn::Linear(in, h));
      layers->push_back(torch::nn::ReLU());
      in = h;
    }
    layers->push_back(torch::nn::Linear(in, output_size_));
    register_module("layers", layers);
  }
  torch::Tensor forward(const torch::Tensor& x) { return layers->forward(x); }

  size_t input_size;
  size_t output_size;
  torch::nn::Sequential layers;
};
TORCH_MODULE(LinearNN);

template <typename T>
class LimitedDeque {
 public:
  explicit LimitedDeque(std::size_t max_size_) : max_size(max_size_) {}
  using Iterator = typename std::deque<T>::iterator;
  void push_back(T value) {
    if (deque.size() >= max_size) deque.pop_front();
    deque.push_back(std::move(value));
  }
  size_t size() { return deque.size(); }
  Iterator begin() { return deque.begin(); }
  Iterator end() { return deque.end(); }

 private:
  std::deque<T> deque;
  std::size_t max_size;
};

class MemoryData {
 public:
  size_t num_state;
  size_t num_action;
  std::vector<double> state;
  std::vector<int> action;
  int reward;
  std::vector<double> next_state;
  bool game_over;
};

template <typename M>
void save_model(M& model, const std::string& path = "model.pt") {
  torch::save(model, path);
}
