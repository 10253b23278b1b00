// The world size comes from the project's launcher config (`num_replicas`),
// which gradlint cannot trace to the process group; WorldSizeNames names it.
// The SUM all-reduce is followed by div_(num_replicas), so dividing the loss by
// it as well scales the update by 1/W twice.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

struct Launch {
  int num_replicas = 1;
};

void train(torch::nn::Linear &model, torch::optim::SGD &opt, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           const Launch &launch) {
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor l = torch::l1_loss(model->forward(xs[i]), ys[i]) /
                      static_cast<double>(accum * launch.num_replicas);
    l.backward();
    if ((i + 1) % accum == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> buf{p.grad()};
        pg->allreduce(buf)->wait();
        p.mutable_grad().div_(launch.num_replicas);
      }
      opt.step();
      opt.zero_grad();
    }
  }
}
