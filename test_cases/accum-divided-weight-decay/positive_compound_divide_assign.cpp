// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed
// The decay read from the run's settings is scaled down in place (`wd /= accum_steps`)
// before the optimizer is built; reported at the `/=`, which the fix-it deletes (only the
// options read `wd` afterwards). The file builds the settings and nothing writes settings.wd,
// so it keeps its default 0.2, and the `/=` runs before the options read wd: the runtime trains
// with 0.1 as written against 0.2 fixed (confirmed).
#include <torch/torch.h>

struct RunSettings {
  double lr = 0.05;
  double wd = 0.2;
};

void train(torch::nn::Linear model, const RunSettings &settings,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 2;
  double wd = settings.wd;
  wd /= accum_steps;
  // CHECK-MESSAGES: :[[@LINE-1]]:6: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}  double wd = settings.wd;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(settings.lr).weight_decay(wd));{{$}}
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(settings.lr).weight_decay(wd));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

void run(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  RunSettings settings;
  train(model, settings, xs, ys);
}
