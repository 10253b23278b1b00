// BasicTrainer for Faster R-CNN with a per-image train_step and an LR scheduler, after frcnn/trainer.cpp of libtorch-faster-rcnn
#include <algorithm>
#include <set>
#include <string>
#include <vector>
#include <torch/torch.h>
#include "frcnn_support.hpp"

namespace frcnn
{
  // linear warm-up, then x0.1 at each milestone; counted in scheduler steps
  class WarmupMultiStepLR : public torch::optim::LRScheduler
  {
  public:
    WarmupMultiStepLR(torch::optim::Optimizer &optimizer, float base_lr, float warmup_start,
                      unsigned warmup_steps, std::vector<unsigned> milestones)
      : torch::optim::LRScheduler(optimizer), _base_lr(base_lr), _warmup_start(warmup_start),
        _warmup_steps(warmup_steps), _milestones(std::move(milestones)) {}
  private:
    std::vector<double> get_lrs() override {
      double lr = _base_lr;
      if (step_count_ < _warmup_steps) {
        lr = _warmup_start * _base_lr + (1 - _warmup_start) * _base_lr * step_count_ / _warmup_steps;
      }
      for (auto m : _milestones) {
        if (step_count_ >= m) lr *= 0.1;
      }
      auto lrs = get_current_lrs();
      std::fill(lrs.begin(), lrs.end(), lr);
      return lrs;
    }
    float _base_lr, _warmup_start;
    unsigned _warmup_steps;
    std::vector<unsigned> _milestones;
  };

  class BasicTrainer
  {
  public:
    BasicTrainer(const json &opts);
    void train();
  private:
    void train_step(ImgData &img_data);
    float get_lr();
    torch::Tensor sum_loss(std::map<std::string, torch::Tensor> &loss_map);

    FasterRCNN _model{nullptr};
    std::shared_ptr<CocoDataset> _dataset{nullptr};
    std::shared_ptr<torch::optim::SGD> _optimizer{nullptr};
    std::shared_ptr<WarmupMultiStepLR> _scheduler{nullptr};
    int _total_epochs;
    int _save_ckpt_period;
    int _log_period;
    int _imgs_per_update;   // images whose gradients make one SGD update
    int _imgs_in_grad{0};   // images accumulated so far
    json _opts;

    torch::Device _device;
    std::string _work_dir;
    ProgressTracker _pg_tracker;
  };

  BasicTrainer::BasicTrainer(const json &opts)
    : _device(torch::kCPU),
      _pg_tracker(0, 0)
  {
    _opts = opts;
    _dataset = std::make_shared<CocoDataset>(opts["data"]["train_imgs"].get<std::string>(),
                                             opts["data"]["train_ann"].get<std::string>(),
                                             opts["data"]["train_transforms"]);
    auto model_opts = opts["model"];
    _model = FasterRCNN(model_opts["backbone"], model_opts["neck"], model_opts["rpn_head"], model_opts["rcnn_head"]);
    auto optimizer_opts = opts["optimizer"];
    ASSERT(optimizer_opts["type"].get<std::string>() == "SGD", "only support SGD optimizer");
    auto optim_opts = torch::optim::SGDOptions(optimizer_opts["lr"].get<float>())
      .momentum(optimizer_opts["momentum"].get<float>())
      .weight_decay(optimizer_opts["weight_decay"].get<float>());
    _optimizer = std::make_shared<torch::optim::SGD>(_model->parameters(), optim_opts);
    _imgs_per_update = opts["imgs_per_update"].get<int>();
    _total_epochs = opts["total_epochs"].get<int>();
    _save_ckpt_period = opts["save_ckpt_period"].get<int>();
    _log_period = opts["log_period"].get<int>();
    _work_dir = opts["work_dir"].get<std::string>();

    // milestones are given in epochs; convert them to updates
    const unsigned updates_per_epoch = _dataset->size().value() / _imgs_per_update;
    std::vector<unsigned> milestones;
    for (int e : opts["lr_opts"]["decay_epochs"].get<std::vector<int>>()) {
      milestones.push_back((e - 1) * updates_per_epoch);
    }
    _scheduler = std::make_shared<WarmupMultiStepLR>(*_optimizer, optimizer_opts["lr"].get<float>(),
                                                     opts["lr_opts"]["warmup_start"].get<float>(),
                                                     (unsigned)opts["lr_opts"]["warmup_steps"].get<float>(), milestones);
    if (opts.find("gpu") != opts.end()) {
      _device = torch::Device(torch::kCUDA, opts["gpu"].get<int>());
    }
  }

  // one image: forward, backward, and an update once enough images are in .grad
  void BasicTrainer::train_step(ImgData &img_data) {
    auto model_loss = _model->forward_train(img_data.img_tsr, img_data);
    auto tot_loss = sum_loss(model_loss);
    model_loss["loss"] = tot_loss;
    _pg_tracker.track_loss(model_loss);
    (tot_loss / _imgs_per_update).backward();
    if (++_imgs_in_grad == _imgs_per_update) {
      _optimizer->step();
      _optimizer->zero_grad();
      _imgs_in_grad = 0;
    }
    _scheduler->step();
  }

  void BasicTrainer::train() {
    _pg_tracker = ProgressTracker(_total_epochs, _dataset->size().value());
    _model->to(_device);
    _model->train();
    std::cout << _model << std::endl;
    auto loader_opts = torch::data::DataLoaderOptions().batch_size(1)
      .workers(_opts["data"]["train_workers"].get<int>());
    auto dataloader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>
      (std::move(*_dataset), loader_opts);
    _optimizer->zero_grad();
    for (int64_t epoch = 1; epoch <= _total_epochs; epoch++) {
      for (auto &img_datas : *dataloader) {
        auto img_data = img_datas[0];
        img_data.to(_device);
        train_step(img_data);
        _pg_tracker.next_iter();
        if (_pg_tracker.cur_iter() % _log_period == 0) {
          _pg_tracker.track_lr(get_lr());
          _pg_tracker.report_progress(std::cout);
        }
      }
      _pg_tracker.next_epoch();
      if (epoch % _save_ckpt_period == 0) {
        torch::save(_model, _work_dir + "/epoch_" + std::to_string(epoch) + ".pt");
      }
    }
  }

  float BasicTrainer::get_lr() {
    return static_cast<torch::optim::SGDOptions &>(_optimizer->param_groups()[0].options()).lr();
  }

  torch::Tensor BasicTrainer::sum_loss(std::map<std::string, torch::Tensor> &loss_map) {
    auto tot_loss = torch::tensor(0, torch::TensorOptions().dtype(torch::kFloat32).device(_device));
    for (auto &loss : loss_map) {
      tot_loss += loss.second;
    }
    return tot_loss;
  }
}
