// Text classifier trained through an event-driven Learner: callbacks are
// registered as named event handlers ("after_loss", "before_step", ...), and a
// gradient-accumulation callback skips the optimizer step until enough samples
// have been seen. The learning rate is chosen for the accumulated batch.
#include <torch/torch.h>

#include "ports_support.h"

#include <functional>
#include <map>
#include <memory>
#include <string>

struct SkipStep : std::exception {};

struct AWDLSTMLite : torch::nn::Module {
  AWDLSTMLite(int64_t vocab, int64_t emb, int64_t hid, int64_t n_out) {
    encoder = register_module("encoder", torch::nn::Embedding(vocab, emb));
    rnn = register_module("rnn", torch::nn::LSTM(torch::nn::LSTMOptions(emb, hid).batch_first(true)));
    decoder = register_module("decoder", torch::nn::Linear(hid, n_out));
  }
  torch::Tensor forward(const torch::Tensor& ids) {
    auto out = std::get<0>(rnn->forward(encoder->forward(ids)));
    return decoder->forward(out.select(1, -1));
  }
  torch::nn::Embedding encoder{nullptr};
  torch::nn::LSTM rnn{nullptr};
  torch::nn::Linear decoder{nullptr};
};

class Learner {
 public:
  using Handler = std::function<void(Learner&)>;
  Learner(std::shared_ptr<AWDLSTMLite> model, double lr)
      : model(std::move(model)), opt(this->model->parameters(), torch::optim::AdamOptions(lr).betas({0.9, 0.99})) {}

  void on(const std::string& event, Handler h) { handlers_[event].push_back(std::move(h)); }

  void fit(int n_epoch, const std::vector<std::pair<torch::Tensor, torch::Tensor>>& dl) {
    for (int epoch = 0; epoch < n_epoch; ++epoch) {
      for (const auto& [x, y] : dl) {
        xb = x;
        yb = y;
        try {
          one_batch();
        } catch (const SkipStep&) {
        }
      }
      fire("after_epoch");
    }
  }

  std::shared_ptr<AWDLSTMLite> model;
  torch::optim::Adam opt;
  torch::Tensor xb, yb, loss;

 private:
  void fire(const std::string& event) {
    for (auto& h : handlers_[event]) h(*this);
  }
  void one_batch() {
    loss = torch::nn::functional::cross_entropy(model->forward(xb), yb);
    fire("after_loss");
    loss.backward();
    fire("before_step");
    opt.step();
    opt.zero_grad();
  }
  std::map<std::string, std::vector<Handler>> handlers_;
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int64_t bs = 16;
  const int64_t n_acc = args.get_int("--n_acc", 64);  // samples per optimizer step
  const int64_t n_batches_acc = n_acc / bs;
  // The accumulation handler averages the batches of an update, so the rate
  // is the one tuned for the full batch.
  const double lr = 2e-3;

  torch::manual_seed(0);
  std::vector<std::pair<torch::Tensor, torch::Tensor>> dl;
  for (int i = 0; i < 120; ++i) dl.push_back({torch::randint(5000, {bs, 40}, torch::kLong), torch::randint(2, {bs}, torch::kLong)});

  Learner learn(std::make_shared<AWDLSTMLite>(5000, 64, 96, 2), lr);
  int64_t count = 0;
  learn.on("after_loss", [&](Learner& l) { l.loss = l.loss / (static_cast<double>(n_acc) / l.yb.size(0)); });
  learn.on("before_step", [&](Learner& l) {
    count += l.yb.size(0);
    if (count < n_acc) throw SkipStep();
    count = 0;
  });
  ports::MetricsLogger recorder("imdb");
  int epoch = 0;
  learn.on("after_epoch", [&](Learner& l) { recorder.log({{"train_loss", l.loss.item<double>()}}, epoch++); });
  learn.fit(args.get_int("--epochs", 4), dl);
  return 0;
}
