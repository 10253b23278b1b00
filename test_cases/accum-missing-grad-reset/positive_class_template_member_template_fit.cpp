// RUN: %check_gradlint %s
// A solver class template whose fit() is itself a template over the data source. The loss is a
// pure virtual hook that one derived class implements; fit() steps every N batches and never
// clears the gradients.
#include <torch/torch.h>

template <typename Opt>
class Solver {
public:
  Solver(torch::nn::Sequential net, int64_t window)
      : net_(std::move(net)), opt_(net_->parameters(), 1e-3), window_(window) {}
  virtual ~Solver() = default;
  virtual torch::Tensor objective(const torch::Tensor &out, const torch::Tensor &y) = 0;

  template <typename Source>
  void fit(Source &source, int rounds) {
    for (int r = 0; r < rounds; ++r) {
      for (auto &example : source) {
        auto out = net_->forward(example.data);
        auto loss = this->objective(out, example.target) / static_cast<double>(window_);
        loss.backward();
        if (++seen_ % window_ == 0)
          opt_.step();
        // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: gradients are never reset in this accumulation loop{{.*}} [accum-missing-grad-reset]
        // CHECK-FIXES: {{^}}        loss.backward();{{$}}
        // CHECK-FIXES-NEXT: {{^}}        if (++seen_ % window_ == 0) {{{$}}
        // CHECK-FIXES-NEXT: {{^}}          opt_.step();{{$}}
        // CHECK-FIXES-NEXT: {{^}}          opt_.zero_grad();{{$}}
        // CHECK-FIXES-NEXT: {{^}}        }{{$}}
      }
    }
  }

protected:
  torch::nn::Sequential net_;
  Opt opt_;
  int64_t window_;
  int64_t seen_ = 0;
};

class PoissonSolver : public Solver<torch::optim::Adam> {
public:
  using Solver<torch::optim::Adam>::Solver;
  torch::Tensor objective(const torch::Tensor &out, const torch::Tensor &y) override {
    return torch::mse_loss(out, y);
  }
};

void solve(std::vector<torch::data::Example<>> &samples) {
  PoissonSolver solver(torch::nn::Sequential(torch::nn::Linear(3, 16), torch::nn::Tanh(),
                                             torch::nn::Linear(16, 1)),
                       4);
  solver.fit(samples, 50);
}
