// IgANet::train(loader, pg) of include/iganet/net/iganet.hpp for data-parallel
// runs: the data loader is split over the ranks, several loader batches are
// accumulated per optimizer step and the gradients are combined with one
// coalesced allreduce.
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

#include <cmath>
#include <memory>
#include <vector>

#include "iganet_standin.hpp"

namespace iganet {

template <typename Optimizer, typename real_t = float>
class IgANet {
 public:
  using optimizer_type = Optimizer;

  IgANet(const std::vector<int64_t>& layers, IgANetOptions defaults, int64_t accum_batches)
      : net_(layers),
        opt_(std::make_unique<optimizer_type>(net_->parameters())),
        options_(defaults),
        accum_batches_(accum_batches) {}

  virtual ~IgANet() = default;

  virtual bool epoch(int64_t) = 0;
  virtual torch::Tensor loss(const torch::Tensor&, int64_t) = 0;

  // Sums the gradients over the ranks and rescales them so that the optimizer
  // sees the mean over `count` batches on every rank.
  void reduce_gradients(const c10::intrusive_ptr<c10d::ProcessGroup>& pg, int64_t count) {
    std::vector<torch::Tensor> grads;
    for (auto& param : net_->parameters()) {
      if (param.grad().defined()) grads.push_back(param.grad());
    }
    auto work = pg->allreduce_coalesced(grads);
    try {
      work->wait();
    } catch (const std::exception& ex) {
      Log(log::error) << "Exception received during allreduce: " << ex.what() << std::endl;
      throw;
    }
    const double scale = 1.0 / static_cast<double>(count * pg->getSize());
    for (auto& g : grads) g.mul_(scale);
  }

  template <typename DataLoader>
  void train(DataLoader& loader, c10::intrusive_ptr<c10d::ProcessGroup> pg) {
    torch::Tensor inputs, outputs, loss;
    real_t previous_loss(-1.0);

    for (int64_t epoch = 0; epoch != options_.max_epoch(); ++epoch) {
      real_t current_loss(0);
      int64_t pending = 0;
      opt_->zero_grad();

      for (auto& batch : loader) {
        inputs = batch.data;
        this->epoch(epoch);

        outputs = net_->forward(inputs);
        loss = this->loss(outputs, epoch);
        loss.backward();
        current_loss += loss.template item<real_t>();

        if (++pending == accum_batches_) {
          reduce_gradients(pg, pending);
          opt_->step();
          opt_->zero_grad();
          pending = 0;
        }
      }

      if (pending > 0) {
        reduce_gradients(pg, pending);
        opt_->step();
        opt_->zero_grad();
      }

      Log(log::verbose) << "Epoch " << std::to_string(epoch) << ": " << current_loss << std::endl;

      if (current_loss < options_.min_loss() ||
          std::abs(current_loss - previous_loss) < options_.min_loss_change() ||
          std::abs(current_loss - previous_loss) / current_loss < options_.min_loss_rel_change() ||
          loss.isnan().template item<bool>()) {
        Log(log::info) << "Total epochs: " << epoch << ", loss: " << current_loss << std::endl;
        return;
      }
      previous_loss = current_loss;
    }
    Log(log::info) << "Max epochs reached: " << options_.max_epoch()
                   << ", loss: " << previous_loss << std::endl;
  }

  void save(const std::string& filename) const { torch::save(net_, filename); }

 protected:
  IgANetGenerator net_;
  std::unique_ptr<optimizer_type> opt_;
  IgANetOptions options_;
  int64_t accum_batches_;
};

// Poisson-type fit: the network output should reproduce the reference data.
class PoissonNet : public IgANet<torch::optim::Adam> {
 public:
  using IgANet<torch::optim::Adam>::IgANet;

  bool epoch(int64_t e) override { return e == 0; }

  torch::Tensor loss(const torch::Tensor& outputs, int64_t) override {
    return torch::mse_loss(outputs, reference_.expand_as(outputs));
  }

  torch::Tensor reference_ = torch::zeros({1});
};

}  // namespace iganet

// Driver: each rank trains on its shard of the sampled geometries.
void run_poisson(c10::intrusive_ptr<c10d::ProcessGroup> pg,
                 std::vector<torch::data::Example<>>& shard) {
  iganet::IgANetOptions options;
  options.max_epoch() = 500;
  options.min_loss() = 1e-8;
  iganet::PoissonNet net({2, 50, 50, 16}, options, /*accum_batches=*/4);
  net.train(shard, pg);
  if (pg->getRank() == 0) net.save("poisson_iganet.pt");
}
