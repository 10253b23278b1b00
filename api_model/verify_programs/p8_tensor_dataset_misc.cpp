// Custom Dataset, SequentialSampler loader, tensor manipulation, device moves.
#include <torch/torch.h>
#include <iostream>
#include <vector>

struct MyDataset : torch::data::datasets::Dataset<MyDataset> {
  torch::Tensor xs, ys;
  MyDataset() : xs(torch::randn({100, 5})), ys(torch::randn({100, 1})) {}
  torch::data::Example<> get(size_t i) override { return {xs[i], ys[i]}; }
  torch::optional<size_t> size() const override { return xs.size(0); }
};

void train_custom_dataset() {
  auto ds = MyDataset().map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(std::move(ds), 10);
  auto model = torch::nn::Linear(torch::nn::LinearOptions(5, 1));
  torch::optim::Adam opt(model->parameters());
  int i = 0;
  for (auto& batch : *loader) {
    auto out = model(batch.data);
    auto loss = torch::mse_loss(out, batch.target, at::Reduction::Mean);
    loss = loss.div(2);
    loss.backward();
    if (++i % 2 == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  auto t = torch::arange(0, 12, torch::dtype(torch::kFloat32)).reshape({3, 4});
  auto u = t.unsqueeze(0).squeeze(0).t().contiguous();
  auto v = torch::matmul(t, u) + 1.0 - t.mm(u) * 2 / 3;
  v += 1;
  v -= t.sum();
  v *= 0.5;
  v /= 2;
  auto m = std::get<0>(v.max(1));
  auto parts = v.chunk(2, 0);
  auto sp = v.split(1, 1);
  auto n = v.norm().item<double>() + v.pow(2).sqrt().abs().mean().item<float>();
  auto mask = (v > 0) & (v < 100);
  auto f = torch::tensor({1, 2, 3}, torch::kInt64);
  auto e = torch::eye(3).to(torch::kCPU).to(torch::kDouble).clone().fill_(1.0);
  auto z = torch::empty({2, 2}).copy_(torch::ones({2, 2})).index_select(0, torch::tensor({0}));
  auto l = torch::linspace(0, 1, 5).narrow(0, 1, 2).slice(0, 0, 1);
  auto sm = torch::softmax(v, 1).log_softmax(1).sigmoid().tanh().relu();
  std::vector<float> buf(6, 1.0f);
  auto fb = torch::from_blob(buf.data(), {2, 3}, torch::kFloat);
  float* p = fb.data_ptr<float>();
  std::cout << m << parts.size() << sp.size() << n << mask << f << e << z << l << sm << p[0] << v.dim()
            << v.numel() << v.is_cuda() << v.device() << v.dtype() << v.scalar_type() << v.requires_grad() << '\n';
  auto w = torch::zeros({3}, torch::TensorOptions().dtype(torch::kFloat).requires_grad(true));
  w.requires_grad_(false);
  auto d = w.detach();
  d.detach_();
  std::cout << torch::isnan(w).any().item<bool>() << -w << (2 - w) << (w == 0) << w[0] << '\n';
}

int main() { train_custom_dataset(); }
