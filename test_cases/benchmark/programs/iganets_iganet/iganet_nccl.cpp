// IgANet::train(loader, pg) (include/iganet/net/iganet.hpp) on GPUs: the ranks
// share an NCCL process group that averages gradients in the collective itself.
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

  IgANet(const std::vector<int64_t>& layers, IgANetOptions defaults, int64_t accum_batches,
         double max_grad_norm)
      : net_(layers),
        opt_(std::make_unique<optimizer_type>(net_->parameters())),
        scheduler_(*opt_, /*step_size=*/250, /*gamma=*/0.5),
        options_(defaults),
        accum_batches_(accum_batches),
        max_grad_norm_(max_grad_norm) {}

  virtual ~IgANet() = default;
  virtual torch::Tensor loss(const torch::Tensor&, int64_t) = 0;

  bool should_step(int64_t batch_index, int64_t num_batches) const {
    return (batch_index + 1) % accum_batches_ == 0 || batch_index + 1 == num_batches;
  }

  template <typename DataLoader>
  void train(DataLoader& loader, c10::intrusive_ptr<c10d::ProcessGroup> pg) {
    torch::Tensor outputs, loss;
    real_t previous_loss(-1.0);
    const int64_t num_batches = static_cast<int64_t>(loader.size());

    c10d::AllreduceCoalescedOptions avg;
    avg.reduceOp = c10d::ReduceOp::AVG;

    for (int64_t epoch = 0; epoch != options_.max_epoch(); ++epoch) {
      real_t current_loss(0);
      int64_t batch_index = 0;

      for (auto& batch : loader) {
        outputs = net_->forward(batch.data.to(torch::kCUDA));
        loss = this->loss(outputs, epoch);
        const int64_t window_begin = batch_index - batch_index % accum_batches_;
        const int64_t window_len = std::min(accum_batches_, num_batches - window_begin);
        (loss / static_cast<double>(window_len)).backward();
        current_loss += loss.template item<real_t>();

        if (should_step(batch_index, num_batches)) {
          std::vector<torch::Tensor> grads;
          for (auto& param : net_->parameters()) grads.push_back(param.grad());
          pg->allreduce_coalesced(grads, avg)->wait();

          torch::nn::utils::clip_grad_norm_(net_->parameters(), max_grad_norm_);
          opt_->step();
          scheduler_.step();
          opt_->zero_grad();
        }
        ++batch_index;
      }

      Log(log::verbose) << "Epoch " << std::to_string(epoch) << ": " << current_loss << std::endl;
      if (current_loss < options_.min_loss() ||
          std::abs(current_loss - previous_loss) < options_.min_loss_change() ||
          loss.isnan().template item<bool>()) {
        Log(log::info) << "Total epochs: " << epoch << ", loss: " << current_loss << std::endl;
        return;
      }
      previous_loss = current_loss;
    }
    Log(log::info) << "Max epochs reached: " << options_.max_epoch()
                   << ", loss: " << previous_loss << std::endl;
  }

 protected:
  IgANetGenerator net_;
  std::unique_ptr<optimizer_type> opt_;
  torch::optim::StepLR scheduler_;
  IgANetOptions options_;
  int64_t accum_batches_;
  double max_grad_norm_;
};

class GeometryFit : public IgANet<torch::optim::Adam> {
 public:
  using IgANet<torch::optim::Adam>::IgANet;
  torch::Tensor loss(const torch::Tensor& outputs, int64_t) override {
    return torch::mse_loss(outputs, target_.to(outputs.device()).expand_as(outputs));
  }
  torch::Tensor target_ = torch::zeros({1});
};

}  // namespace iganet

void run_fit(c10::intrusive_ptr<c10d::ProcessGroup> nccl_pg,
             std::vector<torch::data::Example<>>& shard) {
  iganet::IgANetOptions opts;
  opts.max_epoch() = 200;
  iganet::GeometryFit fit({3, 120, 120, 27}, opts, /*accum_batches=*/8, /*max_grad_norm=*/1.0);
  fit.train(shard, nccl_pg);
}
