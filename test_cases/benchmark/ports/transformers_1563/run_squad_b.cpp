// Extractive question answering fine-tuning, shaped like the train() function of
// the SQuAD example script: an args struct, a linear warm-up schedule, and a
// loop that accumulates gradient_accumulation_steps batches per update.
#include <torch/torch.h>

#include "ports_support.h"

#include <algorithm>
#include <memory>

struct Args {
  int num_train_epochs = 2;
  int gradient_accumulation_steps = 8;
  double learning_rate = 3e-5;
  double weight_decay = 0.0;
  double adam_epsilon = 1e-8;
  double max_grad_norm = 1.0;
  int warmup_steps = 0;
  int logging_steps = 50;
};

class WarmupLinearSchedule : public torch::optim::LRScheduler {
 public:
  WarmupLinearSchedule(torch::optim::Optimizer& opt, int warmup, int t_total, double lr)
      : LRScheduler(opt), warmup_(warmup), t_total_(t_total), lr_(lr) {}

 protected:
  std::vector<double> get_lrs() override {
    const double s = step_count_;
    if (s < warmup_) return {lr_ * s / std::max(1, warmup_)};
    return {lr_ * std::max(0.0, (t_total_ - s) / std::max(1.0, double(t_total_ - warmup_)))};
  }

 private:
  int warmup_, t_total_;
  double lr_;
};

struct QAModel : torch::nn::Module {
  QAModel(int64_t vocab, int64_t hidden) {
    embeddings = register_module("embeddings", torch::nn::Embedding(vocab, hidden));
    encoder = register_module("encoder", torch::nn::Linear(hidden, hidden));
    qa_outputs = register_module("qa_outputs", torch::nn::Linear(hidden, 2));
  }
  // Returns the mean of the start and end position losses.
  torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& start,
                        const torch::Tensor& end) {
    auto h = torch::gelu(encoder->forward(embeddings->forward(ids)));
    auto logits = qa_outputs->forward(h).split(1, -1);
    auto start_logits = logits[0].squeeze(-1);
    auto end_logits = logits[1].squeeze(-1);
    auto start_loss = torch::nn::functional::cross_entropy(start_logits, start);
    auto end_loss = torch::nn::functional::cross_entropy(end_logits, end);
    return (start_loss + end_loss) / 2;
  }
  torch::nn::Embedding embeddings{nullptr};
  torch::nn::Linear encoder{nullptr}, qa_outputs{nullptr};
};

struct Feature {
  torch::Tensor input_ids, start_positions, end_positions;
};

std::pair<int64_t, double> train(const Args& args, const std::vector<Feature>& train_dataloader,
                                 QAModel& model) {
  const int t_total = train_dataloader.size() / args.gradient_accumulation_steps *
                      args.num_train_epochs;
  torch::optim::AdamW optimizer(model.parameters(), torch::optim::AdamWOptions(args.learning_rate)
                                                        .eps(args.adam_epsilon)
                                                        .weight_decay(args.weight_decay));
  WarmupLinearSchedule scheduler(optimizer, args.warmup_steps, t_total, args.learning_rate);
  ports::MetricsLogger tb_writer("squad");

  int64_t global_step = 0;
  double tr_loss = 0.0, logging_loss = 0.0;
  model.zero_grad();
  for (int epoch = 0; epoch < args.num_train_epochs; ++epoch) {
    for (size_t step = 0; step < train_dataloader.size(); ++step) {
      model.train();
      const auto& batch = train_dataloader[step];
      auto loss = model.forward(batch.input_ids, batch.start_positions, batch.end_positions);
      if (args.gradient_accumulation_steps > 1) loss = loss / args.gradient_accumulation_steps;

      loss.backward();

      tr_loss += loss.item<double>();
      if ((step + 1) % args.gradient_accumulation_steps == 0) {
        torch::nn::utils::clip_grad_norm_(model.parameters(), args.max_grad_norm);
        optimizer.step();
        scheduler.step();
        model.zero_grad();
        global_step += 1;
        if (args.logging_steps > 0 && global_step % args.logging_steps == 0) {
          tb_writer.log({{"loss", (tr_loss - logging_loss) / args.logging_steps}}, global_step);
          logging_loss = tr_loss;
        }
      }
    }
  }
  return {global_step, tr_loss / std::max<int64_t>(1, global_step)};
}

int main(int argc, char** argv) {
  ports::ArgReader reader(argc, argv);
  Args args;
  args.gradient_accumulation_steps = reader.get_int("--gradient_accumulation_steps", 8);
  torch::manual_seed(42);
  std::vector<Feature> features;
  for (int i = 0; i < 96; ++i)
    features.push_back({torch::randint(3000, {12, 96}, torch::kLong),
                        torch::randint(96, {12}, torch::kLong), torch::randint(96, {12}, torch::kLong)});
  QAModel model(3000, 128);
  auto result = train(args, features, model);
  std::cout << "global_step = " << result.first << ", average loss = " << result.second << "\n";
  return 0;
}
