// IgANet::train() (include/iganet/net/iganet.hpp, IGANET_WITH_MPI): full-batch
// training per epoch, here with the collocation inputs processed in chunks so
// that large geometries fit in memory; gradients are summed over the MPI ranks.
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

#include <cmath>
#include <memory>
#include <vector>

#include "iganet_standin.hpp"

namespace iganet {

template <typename Optimizer, typename real_t = double>
class IgANet {
 public:
  using optimizer_type = Optimizer;

  IgANet(const std::vector<int64_t>& layers, IgANetOptions defaults, int64_t num_chunks)
      : net_(layers),
        opt_(std::make_unique<optimizer_type>(net_->parameters())),
        options_(defaults),
        num_chunks_(num_chunks) {}

  virtual ~IgANet() = default;

  virtual bool epoch(int64_t) = 0;
  virtual torch::Tensor inputs(int64_t epoch) const = 0;
  virtual torch::Tensor loss(const torch::Tensor&, const torch::Tensor&, int64_t) = 0;

  virtual void train(c10::intrusive_ptr<c10d::ProcessGroup> pg) {
    torch::Tensor inputs, outputs, loss;
    real_t previous_loss(-1.0);

    for (int64_t epoch = 0; epoch != options_.max_epoch(); ++epoch) {
      if (this->epoch(epoch)) inputs = this->inputs(epoch);

      net_->zero_grad();
      real_t current_loss(0);
      auto chunks = inputs.chunk(num_chunks_);

      for (const auto& chunk : chunks) {
        outputs = net_->forward(chunk);
        loss = this->loss(outputs, chunk, epoch) / static_cast<double>(chunks.size());
        loss.backward({}, true, false);
        current_loss += loss.template item<real_t>();

        // Combine the gradients of the parameters over all processes
        std::vector<torch::Tensor> grads;
        for (auto& param : net_->named_parameters()) {
          grads.push_back(param.value().grad());
        }
        pg->allreduce_coalesced(grads)->wait();
      }

      for (auto& param : net_->named_parameters()) {
        param.value().grad().data() = param.value().grad().data() / pg->getSize();
      }
      opt_->step();

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

  void eval_and_save(const std::string& filename) {
    torch::NoGradGuard no_grad;
    auto out = net_->forward(this->inputs(0));
    Log(log::info) << "final output norm " << out.norm().template item<real_t>() << std::endl;
    torch::save(net_, filename);
  }

 protected:
  IgANetGenerator net_;
  std::unique_ptr<optimizer_type> opt_;
  IgANetOptions options_;
  int64_t num_chunks_;
};

// Learns the coefficients of u with -Laplace(u) = f on a sampled geometry.
class PoissonSolver : public IgANet<torch::optim::Adam> {
 public:
  PoissonSolver(torch::Tensor collocation, torch::Tensor rhs, IgANetOptions opts)
      : IgANet<torch::optim::Adam>({2, 64, 64, 1}, opts, /*num_chunks=*/4),
        collocation_(std::move(collocation)), rhs_(std::move(rhs)) {}

  bool epoch(int64_t e) override { return e == 0; }
  torch::Tensor inputs(int64_t) const override { return collocation_; }

  torch::Tensor loss(const torch::Tensor& outputs, const torch::Tensor& chunk, int64_t) override {
    auto target = torch::sin(M_PI * chunk.select(1, 0)) * torch::sin(M_PI * chunk.select(1, 1));
    return torch::mse_loss(outputs.squeeze(1), target);
  }

 private:
  torch::Tensor collocation_, rhs_;
};

}  // namespace iganet

void run_solver(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::Tensor local_points) {
  iganet::IgANetOptions opts;
  opts.max_epoch() = 1000;
  iganet::PoissonSolver solver(local_points, torch::zeros({local_points.size(0)}), opts);
  solver.train(pg);
  if (pg->getRank() == 0) solver.eval_and_save("poisson_solver.pt");
}
