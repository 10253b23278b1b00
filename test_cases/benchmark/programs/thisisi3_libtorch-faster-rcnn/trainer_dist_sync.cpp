// BasicTrainer for Faster R-CNN on several processes, gradients synchronised once per update,
// after frcnn/trainer.cpp of libtorch-faster-rcnn
#include <set>
#include <string>
#include <vector>
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include "frcnn_support.hpp"

namespace frcnn
{
  class BasicTrainer
  {
  public:
    BasicTrainer(const json &opts, int rank, int world_size);
    void train();
  private:
    void warmup_lr(int64_t updates);
    void set_lr(float lr);
    float get_lr();
    void sync_and_step();
    torch::Tensor sum_loss(std::map<std::string, torch::Tensor> &loss_map);

    FasterRCNN _model{nullptr};
    std::shared_ptr<CocoDataset> _dataset{nullptr};
    std::shared_ptr<torch::optim::SGD> _optimizer{nullptr};
    c10::intrusive_ptr<c10d::ProcessGroupGloo> _pg;
    std::set<int> _decay_epochs;
    float _warmup_start, _warmup_steps, _grad_clip;
    int _total_epochs, _save_ckpt_period, _log_period;
    int _imgs_per_gpu_update;  // images each rank accumulates per update
    int _rank, _world_size;
    int64_t _updates{0};
    json _opts;

    torch::Device _device;
    std::string _work_dir;
    float _epoch_lr{-1};
    ProgressTracker _pg_tracker;
  };

  BasicTrainer::BasicTrainer(const json &opts, int rank, int world_size)
    : _device(torch::kCPU), _pg_tracker(0, 0)
  {
    _opts = opts;
    _rank = rank;
    _world_size = world_size;
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
    _epoch_lr = optimizer_opts["lr"].get<float>();
    _optimizer = std::make_shared<torch::optim::SGD>(_model->parameters(), optim_opts);
    auto decay_epochs = opts["lr_opts"]["decay_epochs"].get<std::vector<int>>();
    _decay_epochs = std::set<int>(decay_epochs.begin(), decay_epochs.end());
    _warmup_start = opts["lr_opts"]["warmup_start"].get<float>();
    _warmup_steps = opts["lr_opts"]["warmup_steps"].get<float>();
    _grad_clip = optimizer_opts["grad_clip"].get<float>();
    _total_epochs = opts["total_epochs"].get<int>();
    _save_ckpt_period = opts["save_ckpt_period"].get<int>();
    _log_period = opts["log_period"].get<int>();
    _imgs_per_gpu_update = opts["imgs_per_gpu"].get<int>();
    _work_dir = opts["work_dir"].get<std::string>();

    auto store = c10::make_intrusive<c10d::FileStore>(opts["dist_file"].get<std::string>(), _world_size);
    auto pg_opts = c10d::ProcessGroupGloo::Options::create();
    pg_opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    _pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, _rank, _world_size, pg_opts);
  }

  // all-reduce the window's gradients, average, clip the global gradient, update
  void BasicTrainer::sync_and_step() {
    std::vector<torch::Tensor> grads;
    for (auto &p : _model->parameters()) {
      if (p.grad().defined()) grads.push_back(p.grad());
    }
    _pg->allreduce_coalesced(grads)->wait();
    for (auto &g : grads) g.div_(_world_size);
    torch::nn::utils::clip_grad_norm_(_model->parameters(), _grad_clip);
    warmup_lr(_updates);
    _optimizer->step();
    _optimizer->zero_grad();
    _updates++;
  }

  void BasicTrainer::train() {
    _pg_tracker = ProgressTracker(_total_epochs, _dataset->size().value() / _world_size);
    _model->to(_device);
    _model->train();
    auto loader_opts = torch::data::DataLoaderOptions().batch_size(1)
      .workers(_opts["data"]["train_workers"].get<int>());
    auto sampler = torch::data::samplers::DistributedRandomSampler(_dataset->size().value(), _world_size, _rank);
    auto dataloader = torch::data::make_data_loader(std::move(*_dataset), std::move(sampler), loader_opts);
    int accumulated = 0;
    _optimizer->zero_grad();
    for (int64_t epoch = 1; epoch <= _total_epochs; epoch++) {
      if (_decay_epochs.find(epoch) != _decay_epochs.end()) {
        _epoch_lr *= 0.1;
        set_lr(_epoch_lr);
      }
      for (auto &img_datas : *dataloader) {
        auto img_data = img_datas[0];
        img_data.to(_device);
        auto model_loss = _model->forward_train(img_data.img_tsr, img_data);
        auto tot_loss = sum_loss(model_loss);
        model_loss["loss"] = tot_loss;
        _pg_tracker.track_loss(model_loss);
        (tot_loss * (1.0 / _imgs_per_gpu_update)).backward();
        if (++accumulated == _imgs_per_gpu_update) {
          sync_and_step();
          accumulated = 0;
        }
        _pg_tracker.next_iter();
        if (_rank == 0 && _pg_tracker.cur_iter() % _log_period == 0) {
          _pg_tracker.track_lr(get_lr());
          _pg_tracker.report_progress(std::cout);
        }
      }
      _pg_tracker.next_epoch();
      if (_rank == 0 && epoch % _save_ckpt_period == 0) {
        torch::save(_model, _work_dir + "/epoch_" + std::to_string(epoch) + ".pt");
      }
    }
  }

  void BasicTrainer::warmup_lr(int64_t updates) {
    if (updates <= _warmup_steps) {
      float lr = _warmup_start * _epoch_lr + (1 - _warmup_start) * updates / _warmup_steps * _epoch_lr;
      set_lr(lr);
    }
  }

  void BasicTrainer::set_lr(float lr) {
    for (auto &group : _optimizer->param_groups()) {
      static_cast<torch::optim::SGDOptions &>(group.options()).lr(lr);
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
