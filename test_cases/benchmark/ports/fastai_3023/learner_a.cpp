// A callback-driven Learner in the fastai mould: the batch loop fires events
// (before_fit, after_loss, before_step, ...) on a list of callbacks, and a
// callback can cancel the rest of a batch by throwing. Gradient accumulation
// is a callback that counts samples and skips the optimizer step until n_acc
// samples have been seen.
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct CancelBatchException : std::exception {};

class Learner;

struct Callback {
  virtual ~Callback() = default;
  virtual void before_fit(Learner&) {}
  virtual void after_loss(Learner&) {}
  virtual void before_step(Learner&) {}
  virtual void after_batch(Learner&) {}
};

struct TabularModel : torch::nn::Module {
  TabularModel() {
    l1 = register_module("l1", torch::nn::Linear(20, 64));
    bn = register_module("bn", torch::nn::BatchNorm1d(64));
    l2 = register_module("l2", torch::nn::Linear(64, 2));
  }
  torch::Tensor forward(const torch::Tensor& x) { return l2->forward(torch::relu(bn->forward(l1->forward(x)))); }
  torch::nn::Linear l1{nullptr}, l2{nullptr};
  torch::nn::BatchNorm1d bn{nullptr};
};

class Learner {
 public:
  Learner(std::shared_ptr<TabularModel> model, double lr, std::vector<std::shared_ptr<Callback>> cbs)
      : model(std::move(model)), opt(this->model->parameters(), torch::optim::AdamOptions(lr)), cbs_(std::move(cbs)) {}

  void fit(int n_epoch, const std::vector<ports::ImageBatch>& dl) {
    for (auto& cb : cbs_) cb->before_fit(*this);
    for (int epoch = 0; epoch < n_epoch; ++epoch) {
      model->train();
      for (const auto& b : dl) {
        xb = b.images;
        yb = b.targets;
        try {
          _do_one_batch();
        } catch (const CancelBatchException&) {
        }
        for (auto& cb : cbs_) cb->after_batch(*this);
      }
    }
  }

  std::shared_ptr<TabularModel> model;
  torch::optim::Adam opt;
  torch::Tensor xb, yb, pred, loss, loss_grad;

 private:
  void _do_one_batch() {
    pred = model->forward(xb);
    loss_grad = torch::nn::functional::cross_entropy(pred, yb);
    loss = loss_grad.detach().clone();
    for (auto& cb : cbs_) cb->after_loss(*this);
    loss_grad.backward();
    for (auto& cb : cbs_) cb->before_step(*this);
    opt.step();
    opt.zero_grad();
  }

  std::vector<std::shared_ptr<Callback>> cbs_;
};

inline int64_t find_bs(const torch::Tensor& yb) { return yb.size(0); }

// Accumulates gradients until `n_acc` samples have been seen.
struct GradientAccumulation : Callback {
  explicit GradientAccumulation(int64_t n_acc = 32) : n_acc(n_acc) {}
  void before_fit(Learner&) override { count = 0; }
  // Scale the batch loss by its share of the n_acc samples of an update.
  void after_loss(Learner& learn) override {
    learn.loss_grad = learn.loss_grad / (static_cast<double>(n_acc) / find_bs(learn.yb));
  }
  void before_step(Learner& learn) override {
    count += find_bs(learn.yb);
    if (count < n_acc) throw CancelBatchException();
    count = 0;
  }
  int64_t n_acc;
  int64_t count = 0;
};

struct Recorder : Callback {
  void after_batch(Learner& learn) override {
    if (++iter % 25 == 0) log.log({{"train_loss", learn.loss.item<double>()}}, iter);
  }
  int64_t iter = 0;
  ports::MetricsLogger log{"fastai"};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  torch::manual_seed(0);
  std::vector<ports::ImageBatch> dl;
  for (int i = 0; i < 100; ++i) dl.push_back({torch::randn({8, 20}), torch::randint(2, {8}, torch::kLong)});
  auto acc = std::make_shared<GradientAccumulation>(args.get_int("--n_acc", 32));
  Learner learn(std::make_shared<TabularModel>(), 1e-3, {acc, std::make_shared<Recorder>()});
  learn.fit(args.get_int("--epochs", 3), dl);
  return 0;
}
