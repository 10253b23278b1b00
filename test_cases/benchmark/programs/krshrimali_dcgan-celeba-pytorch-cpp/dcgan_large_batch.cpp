// DCGAN on CelebA with a large effective batch: every loader batch of 256 images is
// split into `micro` chunks that fit in memory. Both optimizers step once per loader
// batch; the Adam learning rates follow a square-root batch-size scaling rule from
// the reference batch of 128.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

class Arguments {
 public:
  std::string dataroot = "/home/ubuntu/dcgan/celebA";
  int batch_size = 256;
  int micro = 4;
  int nz = 100;
  int num_epochs = 30;
  float lr = 2e-4f;
  float beta1 = 0.5f;
  int reference_batch = 128;
};

struct DCGANGeneratorImpl : torch::nn::Module {
  DCGANGeneratorImpl(int nz) {
    using namespace torch::nn;
    main = register_module("main", Sequential(
        ConvTranspose2d(ConvTranspose2dOptions(nz, 512, 4).bias(false)), BatchNorm2d(512), ReLU(true),
        ConvTranspose2d(ConvTranspose2dOptions(512, 256, 4).stride(2).padding(1).bias(false)), BatchNorm2d(256), ReLU(true),
        ConvTranspose2d(ConvTranspose2dOptions(256, 128, 4).stride(2).padding(1).bias(false)), BatchNorm2d(128), ReLU(true),
        ConvTranspose2d(ConvTranspose2dOptions(128, 64, 4).stride(2).padding(1).bias(false)), BatchNorm2d(64), ReLU(true),
        ConvTranspose2d(ConvTranspose2dOptions(64, 3, 4).stride(2).padding(1).bias(false)), Tanh()));
  }
  torch::Tensor forward(torch::Tensor z) { return main->forward(z); }
  torch::nn::Sequential main{nullptr};
};
TORCH_MODULE(DCGANGenerator);

struct DCGANDiscriminatorImpl : torch::nn::Module {
  DCGANDiscriminatorImpl() {
    using namespace torch::nn;
    main = register_module("main", Sequential(
        Conv2d(Conv2dOptions(3, 64, 4).stride(2).padding(1).bias(false)), LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
        Conv2d(Conv2dOptions(64, 128, 4).stride(2).padding(1).bias(false)), BatchNorm2d(128),
        LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
        Conv2d(Conv2dOptions(128, 256, 4).stride(2).padding(1).bias(false)), BatchNorm2d(256),
        LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
        Conv2d(Conv2dOptions(256, 512, 4).stride(2).padding(1).bias(false)), BatchNorm2d(512),
        LeakyReLU(LeakyReLUOptions().negative_slope(0.2)), Conv2d(Conv2dOptions(512, 1, 4).bias(false))));
  }
  torch::Tensor forward(torch::Tensor x) { return main->forward(x).view(-1); }
  torch::nn::Sequential main{nullptr};
};
TORCH_MODULE(DCGANDiscriminator);

class CustomDataset : public torch::data::datasets::Dataset<CustomDataset> {
  size_t count;

 public:
  explicit CustomDataset(size_t n) : count(n) {}
  torch::data::Example<> get(size_t) override { return {torch::rand({3, 64, 64}) * 2 - 1, torch::ones({1})}; }
  torch::optional<size_t> size() const override { return count; }
};

int main() {
  Arguments args;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      CustomDataset(202599).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(args.batch_size).workers(4));

  DCGANGenerator netG(args.nz);
  DCGANDiscriminator netD;
  netG->to(device);
  netD->to(device);

  // larger batches take proportionally larger steps (sqrt rule)
  const double lr = args.lr * std::sqrt(static_cast<double>(args.batch_size) / args.reference_batch);
  torch::optim::Adam optimizerG(netG->parameters(), torch::optim::AdamOptions(lr).betas({args.beta1, 0.999}));
  torch::optim::Adam optimizerD(netD->parameters(), torch::optim::AdamOptions(lr).betas({args.beta1, 0.999}));
  std::cout << "lr " << lr << " for batch " << args.batch_size << " in " << args.micro << " chunks" << std::endl;

  int64_t checkpoint_counter = 0;
  for (int64_t epoch = 1; epoch <= args.num_epochs; ++epoch) {
    int64_t batch_index = 0;
    for (torch::data::Example<>& batch : *data_loader) {
      std::vector<torch::Tensor> chunks = batch.data.to(device).chunk(args.micro, 0);
      const double k = static_cast<double>(chunks.size());
      std::vector<torch::Tensor> fakes;

      // Discriminator window over the chunks
      optimizerD.zero_grad();
      double d_total = 0.0;
      for (auto& real : chunks) {
        const int64_t n = real.size(0);
        auto fake = netG->forward(torch::randn({n, args.nz, 1, 1}, device));
        fakes.push_back(fake);
        auto d_real = torch::binary_cross_entropy_with_logits(netD->forward(real), torch::ones({n}, device));
        auto d_fake = torch::binary_cross_entropy_with_logits(netD->forward(fake.detach()), torch::zeros({n}, device));
        auto d_loss = (d_real + d_fake) / k;
        d_loss.backward();
        d_total += d_loss.item<double>();
      }
      optimizerD.step();

      // Generator window over the same fakes, discriminator frozen
      for (auto& p : netD->parameters()) p.requires_grad_(false);
      optimizerG.zero_grad();
      double g_total = 0.0;
      for (auto& fake : fakes) {
        auto g_loss = torch::binary_cross_entropy_with_logits(netD->forward(fake), torch::ones({fake.size(0)}, device));
        (g_loss / k).backward();
        g_total += g_loss.item<double>() / k;
      }
      optimizerG.step();
      for (auto& p : netD->parameters()) p.requires_grad_(true);

      if (++batch_index % 20 == 0) {
        std::cout << "Epoch: " << epoch << " batch " << batch_index << ", D_loss: " << d_total << ", G_loss: " << g_total
                  << std::endl;
        torch::save(netG, "output/generator-checkpoint.pt");
        torch::save(optimizerG, "output/generator-optimizer-checkpoint.pt");
        torch::save(netD, "output/discriminator-checkpoint.pt");
        torch::save(optimizerD, "output/discriminator-optimizer-checkpoint.pt");
        torch::NoGradGuard no_grad;
        torch::save(netG->forward(torch::randn({64, args.nz, 1, 1}, device)),
                    torch::str("output/dcgan-sample-", ++checkpoint_counter, ".pt"));
      }
    }
  }
}
