// DCGAN on CelebA trained by several processes over Gloo (one shard of the image
// list each). Both networks accumulate `accum_steps` loader batches per step and
// the processes sum their gradients before stepping.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace {

torch::nn::Sequential make_generator(int64_t nz, int64_t ngf) {
  using namespace torch::nn;
  return Sequential(ConvTranspose2d(ConvTranspose2dOptions(nz, ngf * 4, 4).bias(false)), BatchNorm2d(ngf * 4), ReLU(true),
                    ConvTranspose2d(ConvTranspose2dOptions(ngf * 4, ngf * 2, 4).stride(2).padding(1).bias(false)),
                    BatchNorm2d(ngf * 2), ReLU(true),
                    ConvTranspose2d(ConvTranspose2dOptions(ngf * 2, ngf, 4).stride(2).padding(1).bias(false)),
                    BatchNorm2d(ngf), ReLU(true),
                    ConvTranspose2d(ConvTranspose2dOptions(ngf, 3, 4).stride(2).padding(1).bias(false)), Tanh());
}

torch::nn::Sequential make_discriminator(int64_t ndf) {
  using namespace torch::nn;
  return Sequential(Conv2d(Conv2dOptions(3, ndf, 4).stride(2).padding(1).bias(false)),
                    LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
                    Conv2d(Conv2dOptions(ndf, ndf * 2, 4).stride(2).padding(1).bias(false)), BatchNorm2d(ndf * 2),
                    LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
                    Conv2d(Conv2dOptions(ndf * 2, ndf * 4, 4).stride(2).padding(1).bias(false)), BatchNorm2d(ndf * 4),
                    LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
                    Conv2d(Conv2dOptions(ndf * 4, 1, 4).bias(false)), Sigmoid());
}

class ShardedCelebA : public torch::data::datasets::Dataset<ShardedCelebA> {
  std::vector<std::string> images;

 public:
  ShardedCelebA(const std::string& root, int rank, int world) {
    for (int i = rank; i < 20000; i += world) images.push_back(root + "/" + std::to_string(i) + ".jpg");
  }
  torch::data::Example<> get(size_t) override { return {torch::rand({3, 32, 32}) * 2 - 1, torch::ones({1})}; }
  torch::optional<size_t> size() const override { return images.size(); }
};

// Sums every parameter gradient of `net` over the processes.
void allreduce_grads(torch::nn::Sequential& net, c10d::ProcessGroup& pg) {
  for (auto& p : net->parameters()) {
    if (!p.grad().defined()) continue;
    std::vector<torch::Tensor> t{p.grad()};
    pg.allreduce(t)->wait();
  }
}

void scale_grads(torch::nn::Sequential& net, double factor) {
  for (auto& p : net->parameters()) {
    if (p.grad().defined()) p.mutable_grad().mul_(factor);
  }
}

}  // namespace

int main() {
  const int rank = std::atoi(std::getenv("RANK") ? std::getenv("RANK") : "0");
  const int world = std::atoi(std::getenv("WORLD_SIZE") ? std::getenv("WORLD_SIZE") : "1");
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/dcgan_store", world);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  c10d::ProcessGroupGloo pg(store, rank, world, options);

  const int64_t nz = 100, batch_size = 64, accum_steps = 4, epochs = 20;
  torch::manual_seed(0);
  auto netG = make_generator(nz, 64);
  auto netD = make_discriminator(64);
  torch::optim::Adam optimizerG(netG->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  torch::optim::Adam optimizerD(netD->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));

  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      ShardedCelebA("/data/celebA/img_align_celeba", rank, world).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(batch_size).drop_last(true));

  int64_t iteration = 0;
  optimizerD.zero_grad();
  optimizerG.zero_grad();
  for (int64_t epoch = 1; epoch <= epochs; ++epoch) {
    for (auto& batch : *loader) {
      ++iteration;
      auto real = batch.data;
      const int64_t n = real.size(0);

      auto d_real = netD->forward(real).view(-1);
      auto d_loss_real = torch::binary_cross_entropy(d_real, torch::full({n}, 0.9));
      auto fake = netG->forward(torch::randn({n, nz, 1, 1}));
      auto d_fake = netD->forward(fake.detach()).view(-1);
      auto d_loss_fake = torch::binary_cross_entropy(d_fake, torch::zeros({n}));
      ((d_loss_real + d_loss_fake) / accum_steps).backward();

      for (auto& p : netD->parameters()) p.requires_grad_(false);
      auto g_out = netD->forward(fake).view(-1);
      auto g_loss = torch::binary_cross_entropy(g_out, torch::ones({n}));
      (g_loss / accum_steps).backward();
      for (auto& p : netD->parameters()) p.requires_grad_(true);
      allreduce_grads(netG, pg);

      if (iteration % accum_steps == 0) {
        allreduce_grads(netD, pg);
        scale_grads(netD, 1.0 / world);
        optimizerD.step();
        optimizerD.zero_grad();

        scale_grads(netG, 1.0 / world);
        optimizerG.step();
        optimizerG.zero_grad();

        if (rank == 0 && iteration % (accum_steps * 50) == 0) {
          std::cout << "epoch " << epoch << " iter " << iteration << " D " << (d_loss_real + d_loss_fake).item<float>()
                    << " G " << g_loss.item<float>() << std::endl;
          torch::save(netG, "output/generator-checkpoint.pt");
          torch::save(netD, "output/discriminator-checkpoint.pt");
        }
      }
    }
  }
  return 0;
}
