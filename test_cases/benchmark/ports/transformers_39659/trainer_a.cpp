// Image-classification fine-tuning with a Trainer whose inner loop walks the
// epoch in optimizer updates: each update takes up to gradient_accumulation_steps
// batches, and the last update of an epoch takes whatever is left.
#include <torch/torch.h>

#include "ports_support.h"

#include <algorithm>
#include <memory>

struct TrainingArguments {
  int per_device_train_batch_size = 16;
  int gradient_accumulation_steps = 4;
  int num_train_epochs = 3;
  double learning_rate = 5e-5;
  double max_grad_norm = 1.0;
};

struct ViTForImageClassification : torch::nn::Module {
  explicit ViTForImageClassification(int64_t num_labels) {
    patch_embed = register_module("patch_embed", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 8).stride(8)));
    encoder = register_module("encoder", torch::nn::Linear(64, 64));
    classifier = register_module("classifier", torch::nn::Linear(64, num_labels));
  }
  torch::Tensor forward(const torch::Tensor& pixel_values, const torch::Tensor& labels) {
    auto tokens = patch_embed->forward(pixel_values).flatten(2).transpose(1, 2);
    auto pooled = torch::gelu(encoder->forward(tokens)).mean(1);
    return torch::nn::functional::cross_entropy(classifier->forward(pooled), labels);
  }
  torch::nn::Conv2d patch_embed{nullptr};
  torch::nn::Linear encoder{nullptr}, classifier{nullptr};
};

class Trainer {
 public:
  Trainer(std::shared_ptr<ViTForImageClassification> model, TrainingArguments args)
      : model_(std::move(model)), args_(args),
        optimizer_(model_->parameters(), torch::optim::AdamWOptions(args.learning_rate)),
        lr_scheduler_(optimizer_, 50, 0.5) {}

  void train(const std::vector<ports::ImageBatch>& train_dataloader) {
    const int64_t len_dataloader = train_dataloader.size();
    const int64_t remainder = len_dataloader % args_.gradient_accumulation_steps;
    const int64_t total_updates =
        len_dataloader / args_.gradient_accumulation_steps + (remainder != 0 ? 1 : 0);
    for (int epoch = 0; epoch < args_.num_train_epochs; ++epoch) {
      size_t cursor = 0;
      for (int64_t update_step = 0; update_step < total_updates; ++update_step) {
        const int64_t num_batches = (update_step != total_updates - 1 || remainder == 0)
                                        ? args_.gradient_accumulation_steps
                                        : remainder;
        std::vector<ports::ImageBatch> batch_samples(train_dataloader.begin() + cursor,
                                                     train_dataloader.begin() + cursor + num_batches);
        cursor += num_batches;
        current_gradient_accumulation_steps_ = batch_samples.size();
        double tr_loss = 0.0;
        for (const auto& inputs : batch_samples) tr_loss += training_step(inputs);
        torch::nn::utils::clip_grad_norm_(model_->parameters(), args_.max_grad_norm);
        optimizer_.step();
        lr_scheduler_.step();
        model_->zero_grad();
        ++global_step_;
        if (global_step_ % 10 == 0) logger_.log({{"loss", tr_loss}}, global_step_);
      }
    }
  }

 private:
  double training_step(const ports::ImageBatch& inputs) {
    model_->train();
    auto loss = model_->forward(inputs.images, inputs.targets);
    loss = loss / current_gradient_accumulation_steps_;
    loss.backward();
    return loss.item<double>();
  }

  std::shared_ptr<ViTForImageClassification> model_;
  TrainingArguments args_;
  torch::optim::AdamW optimizer_;
  torch::optim::StepLR lr_scheduler_;
  int64_t current_gradient_accumulation_steps_ = 1;
  int64_t global_step_ = 0;
  ports::MetricsLogger logger_{"vit"};
};

int main(int argc, char** argv) {
  ports::ArgReader reader(argc, argv);
  TrainingArguments args;
  args.gradient_accumulation_steps = reader.get_int("--gradient_accumulation_steps", 4);
  auto loader = ports::make_image_batches(23, args.per_device_train_batch_size, 3, 32, 10);
  auto model = std::make_shared<ViTForImageClassification>(10);
  Trainer trainer(model, args);
  trainer.train(loader);
  return 0;
}
