// DCGAN on CelebA: generator and discriminator with their own Adam optimizers.
// The discriminator sees d_accum_steps loader batches per update; the generator
// updates on every batch.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <utility>
#include <vector>

class Arguments {
 public:
  std::string dataroot;
  int workers;
  int batch_size;
  int image_size;
  int nc;
  int nz;
  int ngf;
  int ndf;
  int num_epochs;
  float lr;
  float beta1;
  int ngpu;
  int d_accum_steps;
  Arguments(std::string data_root, int num_workers, int bs, int img_size, int num_channels,
            int length_latent_vector, int depth_feature_maps_g, int depth_feature_maps_d,
            int number_epochs, float learning_rate, float beta_1, int num_gpu, int d_steps) {
    dataroot = data_root;
    workers = num_workers;
    batch_size = bs;
    image_size = img_size;
    nc = num_channels;
    nz = length_latent_vector;
    ngf = depth_feature_maps_g;
    ndf = depth_feature_maps_d;
    num_epochs = number_epochs;
    lr = learning_rate;
    beta1 = beta_1;
    ngpu = num_gpu;
    d_accum_steps = d_steps;
  }
};

// Generator: transposed convolutions from the latent vector up to a 3x64x64 image.
class Generator : public torch::nn::Module {
  torch::nn::Sequential main;

 public:
  Generator(int nc_ = 3, int nz_ = 100, int ngf_ = 64) {
    using namespace torch::nn;
    main = Sequential(
        ConvTranspose2d(ConvTranspose2dOptions(nz_, ngf_ * 8, 4).stride(1).padding(0).bias(false)),
        BatchNorm2d(ngf_ * 8), Functional(torch::relu),
        ConvTranspose2d(ConvTranspose2dOptions(ngf_ * 8, ngf_ * 4, 4).stride(2).padding(1).bias(false)),
        BatchNorm2d(ngf_ * 4), Functional(torch::relu),
        ConvTranspose2d(ConvTranspose2dOptions(ngf_ * 4, ngf_ * 2, 4).stride(2).padding(1).bias(false)),
        BatchNorm2d(ngf_ * 2), Functional(torch::relu),
        ConvTranspose2d(ConvTranspose2dOptions(ngf_ * 2, ngf_, 4).stride(2).padding(1).bias(false)),
        BatchNorm2d(ngf_), Functional(torch::relu),
        ConvTranspose2d(ConvTranspose2dOptions(ngf_, nc_, 4).stride(2).padding(1).bias(false)),
        Functional(torch::tanh));
  }
  torch::nn::Sequential get_module() { return main; }
};

// Discriminator: strided convolutions down to one probability per image.
class Discriminator : public torch::nn::Module {
  torch::nn::Sequential main;

 public:
  Discriminator(int nc_ = 3, int ndf_ = 64) {
    using namespace torch::nn;
    main = Sequential(
        Conv2d(Conv2dOptions(nc_, ndf_, 4).stride(2).padding(1).bias(false)),
        LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
        Conv2d(Conv2dOptions(ndf_, ndf_ * 2, 4).stride(2).padding(1).bias(false)),
        BatchNorm2d(ndf_ * 2), LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
        Conv2d(Conv2dOptions(ndf_ * 2, ndf_ * 4, 4).stride(2).padding(1).bias(false)),
        BatchNorm2d(ndf_ * 4), LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
        Conv2d(Conv2dOptions(ndf_ * 4, ndf_ * 8, 4).stride(2).padding(1).bias(false)),
        BatchNorm2d(ndf_ * 8), LeakyReLU(LeakyReLUOptions().negative_slope(0.2)),
        Conv2d(Conv2dOptions(ndf_ * 8, 1, 4).stride(1).padding(0).bias(false)),
        Functional(torch::sigmoid));
  }
  torch::nn::Sequential get_module() { return main; }
};

// Image folder stand-in: the original decodes JPEGs with OpenCV.
class CustomDataset : public torch::data::datasets::Dataset<CustomDataset> {
  std::vector<std::string> list_images;
  int image_size;

 public:
  CustomDataset(std::vector<std::string> images, int size) : list_images(std::move(images)), image_size(size) {}
  torch::data::Example<> get(size_t index) override {
    auto img = torch::rand({3, image_size, image_size});
    return {img, torch::zeros({1}, torch::kLong)};
  }
  torch::optional<size_t> size() const override { return list_images.size(); }
};

static void set_requires_grad(torch::nn::Sequential& net, bool flag) {
  for (auto& p : net->parameters()) p.requires_grad_(flag);
}

int main(int argc, const char* argv[]) {
  Arguments args("/home/ubuntu/dcgan/celebA/test", 2, 64, 64, 3, 300, 64, 64, 5, 0.001, 0.5, 1, 4);
  std::vector<std::string> list_images(2000, args.dataroot + "/img_align_celeba/000001.jpg");

  auto custom_dataset = CustomDataset(list_images, args.image_size)
                            .map(torch::data::transforms::Normalize<>(0.5, 0.5))
                            .map(torch::data::transforms::Stack<>());
  auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(custom_dataset), torch::data::DataLoaderOptions().batch_size(args.batch_size).workers(2));

  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  std::cout << "Using device: " << device << std::endl;

  Generator G(/*nc_=*/3, /*nz_=*/args.nz, /*ngf_=*/64);
  Discriminator D(/*nc_=*/3, /*ndf_=*/64);
  torch::nn::Sequential netG = G.get_module();
  torch::nn::Sequential netD = D.get_module();
  netG->to(device);
  netD->to(device);

  torch::optim::Adam optimizerG(netG->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  torch::optim::Adam optimizerD(netD->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));

  const int printEveryCheckpoint = 10;
  const int d_accum = args.d_accum_steps;
  int64_t checkpoint_counter = 1;
  auto options = torch::TensorOptions().device(device).requires_grad(false);

  for (int64_t epoch = 1; epoch <= args.num_epochs; ++epoch) {
    int64_t batch_index = 0;
    for (torch::data::Example<>& batch : *data_loader) {
      if (batch_index % d_accum == 0) {
        netD->zero_grad();
      }
      torch::Tensor real_images = batch.data.to(device);
      torch::Tensor real_labels = torch::empty(batch.data.size(0), device).uniform_(0.9, 1.0);

      torch::Tensor real_output = netD->forward(real_images).view(-1);
      torch::Tensor d_loss_real = torch::binary_cross_entropy(real_output, real_labels);
      (d_loss_real / d_accum).backward();

      torch::Tensor noise = torch::randn({batch.data.size(0), args.nz, 1, 1}, device);
      torch::Tensor fake_images = netG->forward(noise);
      torch::Tensor fake_labels = torch::zeros(batch.data.size(0), device);
      torch::Tensor fake_output = netD->forward(fake_images.detach()).view(-1);
      torch::Tensor d_loss_fake = torch::binary_cross_entropy(fake_output, fake_labels);
      (d_loss_fake / d_accum).backward();

      torch::Tensor d_loss = d_loss_real + d_loss_fake;
      if ((batch_index + 1) % d_accum == 0) {
        optimizerD.step();
      }

      // Generator update on every batch; the discriminator is frozen so that
      // g_loss does not write into its open window.
      set_requires_grad(netD, false);
      netG->zero_grad();
      fake_labels.fill_(1);
      fake_output = netD->forward(fake_images).view(-1);
      torch::Tensor g_loss = torch::binary_cross_entropy(fake_output, fake_labels);
      g_loss.backward();
      optimizerG.step();
      set_requires_grad(netD, true);

      std::cout << "Epoch: " << epoch << ", D_loss: " << d_loss.item<float>()
                << ", G_loss: " << g_loss.item<float>() << std::endl;
      batch_index++;
      if (batch_index % printEveryCheckpoint == 0) {
        torch::save(netG, "output/generator-checkpoint.pt");
        torch::save(optimizerG, "output/generator-optimizer-checkpoint.pt");
        torch::save(netD, "output/discriminator-checkpoint.pt");
        torch::save(optimizerD, "output/discriminator-optimizer-checkpoint.pt");
        torch::Tensor samples = netG->forward(torch::randn({64, args.nz, 1, 1}, options));
        torch::save(samples, torch::str("output/dcgan-sample-", ++checkpoint_counter, ".pt"));
        std::cout << "\n-> checkpoint " << checkpoint_counter << "\n";
      }
    }
    // Batches left over after the last full discriminator window.
    if (batch_index % d_accum != 0) {
      optimizerD.step();
      netD->zero_grad();
    }
  }
  return 0;
}
