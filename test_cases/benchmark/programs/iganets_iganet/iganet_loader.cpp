// IgANet::train(DataLoader&, pg) (include/iganet/net/iganet.hpp) rewritten
// without the optimizer closure so that several loader batches can contribute
// to one update; MPI averaging as in the IGANET_WITH_MPI branch of train().
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

  IgANet(const std::vector<int64_t>& layers, IgANetOptions defaults, int64_t batches_per_update)
      : net_(layers),
        opt_(std::make_unique<optimizer_type>(net_->parameters())),
        options_(defaults),
        batches_per_update_(batches_per_update) {}

  virtual ~IgANet() = default;
  virtual bool epoch(int64_t) = 0;
  virtual torch::Tensor loss(const torch::Tensor&, int64_t) = 0;

  template <typename DataLoader>
  void train(DataLoader& loader, c10::intrusive_ptr<c10d::ProcessGroup> pg) {
    torch::Tensor inputs, outputs, loss;
    real_t previous_loss(-1.0);

    for (int64_t epoch = 0; epoch != options_.max_epoch(); ++epoch) {
      real_t current_loss(0);

      for (auto& batch : loader) {
        inputs = batch.data;
        this->epoch(epoch);

        // Execute the model on the inputs
        outputs = net_->forward(inputs);
        // Compute the loss value
        loss = this->loss(outputs, epoch) / static_cast<real_t>(batches_per_update_);
        // Compute gradients of the loss w.r.t. the model parameters
        loss.backward({}, true, false);
        current_loss += loss.template item<real_t>();

        if (++batch_counter_ % batches_per_update_ == 0) {
          // Averaging the gradients of the parameters in all the processors
          std::vector<c10::intrusive_ptr<c10d::Work>> works;
          for (auto& param : net_->named_parameters()) {
            std::vector<torch::Tensor> tmp = {param.value().grad()};
            works.emplace_back(pg->allreduce(tmp));
          }
          waitWork(works);
          for (auto& param : net_->named_parameters()) {
            param.value().grad().data() = param.value().grad().data() / pg->getSize();
          }

          // Update the parameters based on the calculated gradients
          opt_->step();
        }
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

 private:
  static void waitWork(std::vector<c10::intrusive_ptr<c10d::Work>>& works) {
    for (auto& work : works) {
      try {
        work->wait();
      } catch (const std::exception& ex) {
        Log(log::error) << "Exception received during waitWork: " << ex.what() << std::endl;
        throw;
      }
    }
  }

 protected:
  IgANetGenerator net_;
  std::unique_ptr<optimizer_type> opt_;
  IgANetOptions options_;
  int64_t batches_per_update_;
  int64_t batch_counter_ = 0;
};

class ElasticityNet : public IgANet<torch::optim::Adam> {
 public:
  using IgANet<torch::optim::Adam>::IgANet;
  bool epoch(int64_t) override { return false; }
  torch::Tensor loss(const torch::Tensor& outputs, int64_t) override {
    return outputs.pow(2).mean();
  }
};

}  // namespace iganet

void run_elasticity(c10::intrusive_ptr<c10d::ProcessGroup> pg,
                    std::vector<torch::data::Example<>>& shard) {
  iganet::IgANetOptions opts;
  opts.max_epoch() = 300;
  iganet::ElasticityNet net({4, 80, 80, 32}, opts, /*batches_per_update=*/4);
  net.train(shard, pg);
}
