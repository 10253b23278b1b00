// IgANet::train(loader, pg) (include/iganet/net/iganet.hpp) with an exponential
// learning-rate decay and several loader batches per distributed update.
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

#include <cmath>
#include <memory>
#include <vector>

#include "iganet_standin.hpp"

namespace iganet {

class IgANetTrainer {
 public:
  IgANetTrainer(const std::vector<int64_t>& layers, IgANetOptions defaults, int64_t accum)
      : net_(layers),
        opt_(std::make_unique<torch::optim::Adam>(net_->parameters(),
                                                  torch::optim::AdamOptions(1e-3))),
        scheduler_(*opt_, /*step_size=*/100, /*gamma=*/0.9),
        options_(defaults),
        accum_(accum) {}

  torch::Tensor loss(const torch::Tensor& outputs, const torch::Tensor& targets) {
    return torch::mse_loss(outputs, targets);
  }

  void average_gradients(const c10::intrusive_ptr<c10d::ProcessGroup>& pg) {
    std::vector<c10::intrusive_ptr<c10d::Work>> works;
    for (auto& param : net_->named_parameters()) {
      std::vector<torch::Tensor> tmp = {param.value().grad()};
      works.emplace_back(pg->allreduce(tmp));
    }
    for (auto& work : works) work->wait();
    for (auto& param : net_->named_parameters()) {
      param.value().grad().data() = param.value().grad().data() / pg->getSize();
    }
  }

  template <typename DataLoader>
  void train(DataLoader& loader, c10::intrusive_ptr<c10d::ProcessGroup> pg) {
    double previous_loss = -1.0;
    int64_t iteration = 0;

    for (int64_t epoch = 0; epoch != options_.max_epoch(); ++epoch) {
      double current_loss = 0.0;
      for (auto& batch : loader) {
        auto outputs = net_->forward(batch.data);
        auto l = this->loss(outputs, batch.target);
        (l / static_cast<double>(accum_)).backward();
        current_loss += l.template item<double>();

        scheduler_.step();
        ++iteration;
        if (iteration % accum_ == 0) {
          average_gradients(pg);
          opt_->step();
          opt_->zero_grad();
        }
      }

      Log(log::verbose) << "Epoch " << std::to_string(epoch) << ": " << current_loss
                        << " (lr " << opt_->param_groups()[0].options().get_lr() << ")" << std::endl;
      if (current_loss < options_.min_loss() ||
          std::abs(current_loss - previous_loss) < options_.min_loss_change()) {
        Log(log::info) << "Total epochs: " << epoch << ", loss: " << current_loss << std::endl;
        return;
      }
      previous_loss = current_loss;
    }
    Log(log::info) << "Max epochs reached: " << options_.max_epoch()
                   << ", loss: " << previous_loss << std::endl;
  }

 private:
  IgANetGenerator net_;
  std::unique_ptr<torch::optim::Adam> opt_;
  torch::optim::StepLR scheduler_;
  IgANetOptions options_;
  int64_t accum_;
};

}  // namespace iganet

void run_training(c10::intrusive_ptr<c10d::ProcessGroup> pg,
                  std::vector<torch::data::Example<>>& shard) {
  iganet::IgANetOptions opts;
  opts.max_epoch() = 1000;
  iganet::IgANetTrainer trainer({2, 40, 40, 9}, opts, /*accum=*/4);
  trainer.train(shard, pg);
}
