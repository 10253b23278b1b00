// IgANet::train(loader, pg) (include/iganet/net/iganet.hpp) with a float32
// network and float64 gradient accumulators, so that many small loader
// batches can be summed without round-off before the distributed update.
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

#include <cmath>
#include <memory>
#include <vector>

#include "iganet_standin.hpp"

namespace iganet {

template <typename Optimizer>
class IgANet {
 public:
  using optimizer_type = Optimizer;

  IgANet(const std::vector<int64_t>& layers, IgANetOptions defaults, int64_t accum)
      : net_(layers),
        opt_(std::make_unique<optimizer_type>(net_->parameters())),
        options_(defaults),
        accum_(accum) {
    for (auto& p : net_->parameters()) {
      accumulators_.push_back(torch::zeros_like(p, torch::kDouble));
    }
  }

  virtual ~IgANet() = default;
  virtual torch::Tensor loss(const torch::Tensor&, int64_t) = 0;

  template <typename DataLoader>
  void train(DataLoader& loader, c10::intrusive_ptr<c10d::ProcessGroup> pg) {
    auto params = net_->parameters();
    torch::Tensor loss;
    double previous_loss = -1.0;

    for (int64_t epoch = 0; epoch != options_.max_epoch(); ++epoch) {
      double current_loss = 0.0;
      int64_t in_window = 0;

      for (auto& batch : loader) {
        auto outputs = net_->forward(batch.data);
        loss = this->loss(outputs, epoch);
        loss.backward();
        current_loss += loss.item<double>();

        for (size_t k = 0; k < params.size(); ++k) {
          accumulators_[k] += params[k].grad().to(torch::kDouble);
          params[k].grad().zero_();
        }

        if (++in_window == accum_) {
          apply_update(params, pg, in_window);
          in_window = 0;
        }
      }
      if (in_window > 0) {
        apply_update(params, pg, in_window);
      }

      Log(log::verbose) << "Epoch " << std::to_string(epoch) << ": " << current_loss << std::endl;
      if (current_loss < options_.min_loss() ||
          std::abs(current_loss - previous_loss) < options_.min_loss_change()) {
        Log(log::info) << "Total epochs: " << epoch << ", loss: " << current_loss << std::endl;
        return;
      }
      previous_loss = current_loss;
    }
  }

 private:
  // Sum the accumulators over the ranks, write the mean into .grad and step.
  void apply_update(std::vector<torch::Tensor>& params,
                    const c10::intrusive_ptr<c10d::ProcessGroup>& pg, int64_t count) {
    pg->allreduce_coalesced(accumulators_)->wait();
    const double denom = static_cast<double>(count) * pg->getSize();
    for (size_t k = 0; k < params.size(); ++k) {
      params[k].mutable_grad().copy_((accumulators_[k] / denom).to(params[k].scalar_type()));
      accumulators_[k].zero_();
    }
    opt_->step();
    opt_->zero_grad();
  }

 protected:
  IgANetGenerator net_;
  std::unique_ptr<optimizer_type> opt_;
  IgANetOptions options_;
  int64_t accum_;
  std::vector<torch::Tensor> accumulators_;
};

class StokesNet : public IgANet<torch::optim::Adam> {
 public:
  using IgANet<torch::optim::Adam>::IgANet;
  torch::Tensor loss(const torch::Tensor& outputs, int64_t) override {
    return torch::mse_loss(outputs, torch::zeros_like(outputs));
  }
};

}  // namespace iganet

void run_stokes(c10::intrusive_ptr<c10d::ProcessGroup> pg,
                std::vector<torch::data::Example<>>& shard) {
  iganet::IgANetOptions opts;
  opts.max_epoch() = 400;
  iganet::StokesNet net({6, 100, 100, 48}, opts, /*accum=*/16);
  net.train(shard, pg);
}
