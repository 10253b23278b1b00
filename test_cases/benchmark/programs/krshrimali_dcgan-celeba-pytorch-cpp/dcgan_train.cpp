// DCGAN on CelebA at 128 images per update on an 8 GB card: the loader hands out
// batches of 32 and both networks accumulate four of them per optimizer step.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

struct Options {
  std::string dataroot = "/home/ubuntu/dcgan/celebA/test";
  int64_t batch_size = 32;
  int64_t accum_steps = 4;
  int64_t image_size = 64;
  int64_t nz = 100;
  int64_t ngf = 64;
  int64_t ndf = 64;
  int64_t num_epochs = 25;
  double lr = 2e-4;
  double beta1 = 0.5;
  int64_t checkpoint_every = 50;
};

struct GeneratorImpl : torch::nn::Module {
  torch::nn::Sequential main{nullptr};
  GeneratorImpl(int64_t nz, int64_t ngf) {
    using namespace torch::nn;
    main = register_module(
        "main", Sequential(ConvTranspose2d(ConvTranspose2dOptions(nz, ngf * 8, 4).bias(false)), BatchNorm2d(ngf * 8),
                           ReLU(true),
                           ConvTranspose2d(ConvTranspose2dOptions(ngf * 8, ngf * 4, 4).stride(2).padding(1).bias(false)),
                           BatchNorm2d(ngf * 4), ReLU(true),
                           ConvTranspose2d(ConvTranspose2dOptions(ngf * 4, ngf * 2, 4).stride(2).padding(1).bias(false)),
                           BatchNorm2d(ngf * 2), ReLU(true),
                           ConvTranspose2d(ConvTranspose2dOptions(ngf * 2, ngf, 4).stride(2).padding(1).bias(false)),
                           BatchNorm2d(ngf), ReLU(true),
                           ConvTranspose2d(ConvTranspose2dOptions(ngf, 3, 4).stride(2).padding(1).bias(false)), Tanh()));
  }
  torch::Tensor forward(torch::Tensor z) { return main->forward(z); }
};
TORCH_MODULE(Generator);

struct DiscriminatorImpl : torch::nn::Module {
  torch::nn::Sequential main{nullptr};
  explicit DiscriminatorImpl(int64_t ndf) {
    using namespace torch::nn;
    main = register_module(
        "main", Sequential(Conv2d(Conv2dOptions(3, ndf, 4).stride(2).padding(1).bias(false)),
                           LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
                           Conv2d(Conv2dOptions(ndf, ndf * 2, 4).stride(2).padding(1).bias(false)), BatchNorm2d(ndf * 2),
                           LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
                           Conv2d(Conv2dOptions(ndf * 2, ndf * 4, 4).stride(2).padding(1).bias(false)),
                           BatchNorm2d(ndf * 4), LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
                           Conv2d(Conv2dOptions(ndf * 4, ndf * 8, 4).stride(2).padding(1).bias(false)),
                           BatchNorm2d(ndf * 8), LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
                           Conv2d(Conv2dOptions(ndf * 8, 1, 4).bias(false)), Sigmoid()));
  }
  torch::Tensor forward(torch::Tensor x) { return main->forward(x).view(-1); }
};
TORCH_MODULE(Discriminator);

class CelebADataset : public torch::data::datasets::Dataset<CelebADataset> {
  std::vector<std::string> list_images;
  int64_t image_size;

 public:
  CelebADataset(const std::string& root, int64_t size) : image_size(size) {
    for (int i = 1; i <= 5000; ++i) list_images.push_back(root + "/img_align_celeba/" + std::to_string(i) + ".jpg");
  }
  torch::data::Example<> get(size_t index) override {
    return {torch::rand({3, image_size, image_size}) * 2 - 1, torch::ones({1})};
  }
  torch::optional<size_t> size() const override { return list_images.size(); }
};

int main() {
  Options args;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  auto dataset = CelebADataset(args.dataroot, args.image_size).map(torch::data::transforms::Stack<>());
  const int64_t dataset_size = dataset.size().value();
  const int64_t batches_per_epoch = (dataset_size + args.batch_size - 1) / args.batch_size;
  auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(args.batch_size).workers(2));

  Generator netG(args.nz, args.ngf);
  Discriminator netD(args.ndf);
  netG->to(device);
  netD->to(device);

  torch::optim::Adam optimizerG(netG->parameters(), torch::optim::AdamOptions(args.lr).betas({args.beta1, 0.999}));
  torch::optim::Adam optimizerD(netD->parameters(), torch::optim::AdamOptions(args.lr).betas({args.beta1, 0.999}));

  torch::Tensor fixed_noise = torch::randn({64, args.nz, 1, 1}, device);
  int64_t checkpoint_counter = 0;
  int64_t updates = 0;

  for (int64_t epoch = 1; epoch <= args.num_epochs; ++epoch) {
    int64_t batch_index = 0;
    for (torch::data::Example<>& batch : *data_loader) {
      const bool update_now = (batch_index + 1) % args.accum_steps == 0 || batch_index + 1 == batches_per_epoch;
      torch::Tensor real_images = batch.data.to(device);
      const int64_t n = real_images.size(0);

      // Discriminator: real and fake halves
      torch::Tensor real_output = netD->forward(real_images);
      torch::Tensor d_loss_real = torch::binary_cross_entropy(real_output, torch::full({n}, 0.9, device));
      torch::Tensor fake_images = netG->forward(torch::randn({n, args.nz, 1, 1}, device));
      torch::Tensor fake_output = netD->forward(fake_images.detach());
      torch::Tensor d_loss_fake = torch::binary_cross_entropy(fake_output, torch::zeros({n}, device));
      torch::Tensor d_loss = (d_loss_real + d_loss_fake) / args.accum_steps;
      d_loss.backward();

      // Generator: discriminator frozen while the generator's loss flows through it
      for (auto& p : netD->parameters()) p.requires_grad_(false);
      torch::Tensor g_output = netD->forward(fake_images);
      torch::Tensor g_loss = torch::binary_cross_entropy(g_output, torch::ones({n}, device));
      g_loss.backward();
      for (auto& p : netD->parameters()) p.requires_grad_(true);

      if (update_now) {
        optimizerD.step();
        optimizerG.step();
        optimizerD.zero_grad();
        optimizerG.zero_grad();
        ++updates;
      }

      std::cout << "[" << epoch << "/" << args.num_epochs << "][" << batch_index << "/" << batches_per_epoch
                << "] D_loss: " << d_loss.item<float>() * args.accum_steps << " G_loss: " << g_loss.item<float>()
                << std::endl;
      ++batch_index;

      if (update_now && updates % args.checkpoint_every == 0) {
        torch::save(netG, "output/generator-checkpoint.pt");
        torch::save(optimizerG, "output/generator-optimizer-checkpoint.pt");
        torch::save(netD, "output/discriminator-checkpoint.pt");
        torch::save(optimizerD, "output/discriminator-optimizer-checkpoint.pt");
        torch::NoGradGuard no_grad;
        torch::save(netG->forward(fixed_noise), torch::str("output/dcgan-sample-", ++checkpoint_counter, ".pt"));
      }
    }
  }
  return 0;
}
