// DCGAN on CelebA (checkpointing and sample dumps as in the original main.cpp):
// both networks update every `accum` loader batches; each epoch starts from
// clean gradients.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

struct GeneratorImpl : torch::nn::Module {
  explicit GeneratorImpl(int64_t nz) {
    using namespace torch::nn;
    main = register_module("main", Sequential(
        ConvTranspose2d(ConvTranspose2dOptions(nz, 256, 4).bias(false)), BatchNorm2d(256), ReLU(true),
        ConvTranspose2d(ConvTranspose2dOptions(256, 128, 4).stride(2).padding(1).bias(false)), BatchNorm2d(128), ReLU(true),
        ConvTranspose2d(ConvTranspose2dOptions(128, 64, 4).stride(2).padding(1).bias(false)), BatchNorm2d(64), ReLU(true),
        ConvTranspose2d(ConvTranspose2dOptions(64, 3, 4).stride(2).padding(1).bias(false)), Tanh()));
  }
  torch::Tensor forward(torch::Tensor z) { return main->forward(z); }
  torch::nn::Sequential main{nullptr};
};
TORCH_MODULE(Generator);

struct DiscriminatorImpl : torch::nn::Module {
  DiscriminatorImpl() {
    using namespace torch::nn;
    main = register_module("main", Sequential(
        Conv2d(Conv2dOptions(3, 64, 4).stride(2).padding(1).bias(false)), LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
        Conv2d(Conv2dOptions(64, 128, 4).stride(2).padding(1).bias(false)), BatchNorm2d(128),
        LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
        Conv2d(Conv2dOptions(128, 256, 4).stride(2).padding(1).bias(false)), BatchNorm2d(256),
        LeakyReLU(LeakyReLUOptions().negative_slope(0.2)), Conv2d(Conv2dOptions(256, 1, 4).bias(false)), Sigmoid()));
  }
  torch::Tensor forward(torch::Tensor x) { return main->forward(x).view(-1); }
  torch::nn::Sequential main{nullptr};
};
TORCH_MODULE(Discriminator);

class CustomDataset : public torch::data::datasets::Dataset<CustomDataset> {
  std::vector<std::string> list_images;

 public:
  explicit CustomDataset(const std::string& root) {
    for (int i = 1; i <= 3000; ++i) list_images.push_back(root + std::to_string(i) + ".jpg");
  }
  torch::data::Example<> get(size_t) override { return {torch::rand({3, 32, 32}) * 2 - 1, torch::ones({1})}; }
  torch::optional<size_t> size() const override { return list_images.size(); }
};

int main() {
  const int64_t nz = 100, batch_size = 64, accum = 4, epochs = 50, printEveryCheckpoint = 10;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  std::cout << "Using device: " << device << std::endl;

  auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      CustomDataset("/home/ubuntu/dcgan/celebA/img_align_celeba/")
          .map(torch::data::transforms::Normalize<>(0.5, 0.5))
          .map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(batch_size).workers(2));

  Generator netG(nz);
  Discriminator netD;
  netG->to(device);
  netD->to(device);
  torch::optim::Adam optimizerG(netG->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  torch::optim::Adam optimizerD(netD->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));

  int64_t checkpoint_counter = 1;
  for (int64_t epoch = 1; epoch <= epochs; ++epoch) {
    netD->zero_grad();
    netG->zero_grad();
    int64_t batch_index = 0;
    for (torch::data::Example<>& batch : *data_loader) {
      torch::Tensor real_images = batch.data.to(device);
      const int64_t n = real_images.size(0);
      torch::Tensor real_output = netD->forward(real_images);
      torch::Tensor d_loss_real = torch::binary_cross_entropy(real_output, torch::ones({n}, device));
      torch::Tensor fake_images = netG->forward(torch::randn({n, nz, 1, 1}, device));
      torch::Tensor fake_output = netD->forward(fake_images.detach());
      torch::Tensor d_loss_fake = torch::binary_cross_entropy(fake_output, torch::zeros({n}, device));
      torch::Tensor d_loss = d_loss_real + d_loss_fake;
      (d_loss / accum).backward();

      for (auto& p : netD->parameters()) p.set_requires_grad(false);
      torch::Tensor g_loss = torch::binary_cross_entropy(netD->forward(fake_images), torch::ones({n}, device));
      (g_loss / accum).backward();
      for (auto& p : netD->parameters()) p.set_requires_grad(true);

      batch_index++;
      if (batch_index % accum == 0) {
        optimizerD.step();
        optimizerG.step();
        netD->zero_grad();
        netG->zero_grad();
      }

      std::cout << "Epoch: " << epoch << ", D_loss: " << d_loss.item<float>() << ", G_loss: " << g_loss.item<float>()
                << std::endl;
      if (batch_index % printEveryCheckpoint == 0) {
        torch::save(netG, "output/generator-checkpoint.pt");
        torch::save(optimizerG, "output/generator-optimizer-checkpoint.pt");
        torch::save(netD, "output/discriminator-checkpoint.pt");
        torch::save(optimizerD, "output/discriminator-optimizer-checkpoint.pt");
        torch::NoGradGuard no_grad;
        torch::Tensor samples = netG->forward(torch::randn({64, nz, 1, 1}, device));
        torch::save(samples, torch::str("output/dcgan-sample-", ++checkpoint_counter, ".pt"));
      }
    }
  }
  return 0;
}
