// Detector::Train run on several processes over Gloo, after src/Detector.cpp of LibtorchDetection
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include "detection_support.hpp"

class Detector {
public:
    void Initialize(int gpu_id, int width, int height, std::vector<std::string> name_list);
    void Train(std::string train_val_path, std::string image_type, int num_epochs, int batch_size,
               float learning_rate, int accumulate_steps, std::string save_path);
private:
    void average_gradients();
    bool should_step(int processed, int accumulate_steps, int batches_per_epoch) const;
    int width = 416; int height = 416; std::vector<std::string> name_list;
    torch::Device device = torch::Device(torch::kCPU);
    YoloBody_tiny detector{nullptr};
    c10::intrusive_ptr<c10d::ProcessGroupGloo> pg_;
    int rank_ = 0, world_size_ = 1;
};

void Detector::Initialize(int gpu_id, int _width, int _height, std::vector<std::string> _name_list) {
    if (gpu_id >= 0) device = torch::Device(torch::kCUDA, gpu_id);
    name_list = _name_list;
    width = _width;
    height = _height;
    detector = YoloBody_tiny(3, name_list.size());
    detector->to(device);

    rank_ = std::atoi(std::getenv("RANK"));
    world_size_ = std::atoi(std::getenv("WORLD_SIZE"));
    auto store = c10::make_intrusive<c10d::FileStore>(std::string(std::getenv("DIST_INIT_FILE")), world_size_);
    auto opts = c10d::ProcessGroupGloo::Options::create();
    opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    pg_ = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank_, world_size_, opts);

    // same starting weights everywhere
    torch::NoGradGuard no_grad;
    for (auto &p : detector->parameters()) {
        std::vector<torch::Tensor> t{p.data()};
        pg_->broadcast(t)->wait();
    }
}

// start every gradient's all-reduce, then wait for all of them and take the mean over ranks
void Detector::average_gradients() {
    std::vector<c10::intrusive_ptr<c10d::Work>> works;
    std::vector<torch::Tensor> grads;
    for (auto &p : detector->parameters()) {
        if (!p.grad().defined()) continue;
        grads.push_back(p.grad());
        std::vector<torch::Tensor> bucket{grads.back()};
        works.push_back(pg_->allreduce(bucket));
    }
    for (size_t i = 0; i < works.size(); i++) {
        works[i]->wait();
        grads[i].div_(world_size_);
    }
}

bool Detector::should_step(int processed, int accumulate_steps, int batches_per_epoch) const {
    return processed % accumulate_steps == 0 || processed == batches_per_epoch;
}

void Detector::Train(std::string train_val_path, std::string image_type, int num_epochs, int batch_size,
                     float learning_rate, int accumulate_steps, std::string save_path) {
    std::string train_label_path = train_val_path + "/train/labels";
    std::string val_label_path = train_val_path + "/val/labels";
    std::vector<std::string> all_images = {}, all_labels = {};
    std::vector<std::string> list_images_val = {}, list_labels_val = {};
    load_det_data_from_folder(train_label_path, image_type, all_images, all_labels);
    load_det_data_from_folder(val_label_path, image_type, list_images_val, list_labels_val);

    // equal shards, so every rank runs the same number of updates
    const size_t per_rank = all_images.size() / world_size_;
    std::vector<std::string> list_images_train(all_images.begin() + rank_ * per_rank, all_images.begin() + (rank_ + 1) * per_rank);
    std::vector<std::string> list_labels_train(all_labels.begin() + rank_ * per_rank, all_labels.begin() + (rank_ + 1) * per_rank);
    const int batches_per_epoch = static_cast<int>(per_rank) / batch_size;

    auto custom_dataset_train = DetDataset(list_images_train, list_labels_train, name_list, true, width, height);
    auto custom_dataset_val = DetDataset(list_images_val, list_labels_val, name_list, false, width, height);
    auto data_loader_train = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(custom_dataset_train), batch_size);
    auto data_loader_val = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(custom_dataset_val), batch_size);

    float anchor[12] = {10, 14, 23, 27, 37, 58, 81, 82, 135, 169, 344, 319};
    auto anchors_ = torch::from_blob(anchor, {6, 2}, torch::TensorOptions(torch::kFloat32)).to(device);
    int image_size[2] = {width, height};
    auto critia1 = YOLOLossImpl(anchors_, name_list.size(), image_size, 0.01, device, false);
    auto FloatType = torch::ones(1).to(torch::kFloat).to(device).options();

    torch::optim::Adam optimizer(detector->parameters(), learning_rate);
    float best_loss = 1e10;
    for (int epoc_count = 0; epoc_count < num_epochs; epoc_count++) {
        float loss_sum = 0;
        int batch_count = 0;
        if (epoc_count == int(num_epochs / 2)) {
            learning_rate /= 10;
            static_cast<torch::optim::AdamOptions &>(optimizer.param_groups()[0].options()).lr(learning_rate);
        }
        detector->train();
        optimizer.zero_grad();
        for (auto &batch : *data_loader_train) {
            if (batch.size() < (size_t)batch_size) continue;
            std::vector<torch::Tensor> images_vec = {}, targets_vec = {};
            for (int i = 0; i < batch_size; i++) {
                images_vec.push_back(batch[i].data.to(FloatType));
                targets_vec.push_back(batch[i].target.to(FloatType));
            }
            auto data = torch::stack(images_vec).div(255.0);

            auto outputs = detector->forward(data);
            std::vector<torch::Tensor> loss_numpos1 = critia1.forward(outputs[0], targets_vec);
            std::vector<torch::Tensor> loss_numpos2 = critia1.forward(outputs[1], targets_vec);
            auto loss = (loss_numpos1[0] + loss_numpos2[0]) / (loss_numpos1[1] + loss_numpos2[1]);
            (loss / accumulate_steps).backward();
            batch_count++;

            if (should_step(batch_count, accumulate_steps, batches_per_epoch)) {
                average_gradients();
                torch::nn::utils::clip_grad_norm_(detector->parameters(), 10.0);
                optimizer.step();
                optimizer.zero_grad();
            }
            loss_sum += loss.item().toFloat();
            if (rank_ == 0) std::cout << "Epoch: " << epoc_count << "," << " Training Loss: " << loss_sum / batch_count << "\r";
        }
        if (rank_ == 0) std::cout << std::endl;

        if (rank_ != 0) continue;
        detector->eval();
        torch::NoGradGuard no_grad;
        float loss_val = 0;
        loss_sum = 0; batch_count = 0;
        for (auto &batch : *data_loader_val) {
            if (batch.size() < (size_t)batch_size) continue;
            std::vector<torch::Tensor> images_vec = {}, targets_vec = {};
            for (int i = 0; i < batch_size; i++) {
                images_vec.push_back(batch[i].data.to(FloatType));
                targets_vec.push_back(batch[i].target.to(FloatType));
            }
            auto outputs = detector->forward(torch::stack(images_vec).div(255.0));
            std::vector<torch::Tensor> l1 = critia1.forward(outputs[1], targets_vec);
            std::vector<torch::Tensor> l2 = critia1.forward(outputs[0], targets_vec);
            loss_sum += ((l1[0] + l2[0]) / (l1[1] + l2[1])).item<float>();
            batch_count++;
            loss_val = loss_sum / batch_count;
        }
        std::cout << "Epoch: " << epoc_count << "," << " Valid Loss: " << loss_val << std::endl;
        if (best_loss >= loss_val) {
            best_loss = loss_val;
            torch::save(detector, save_path);
        }
    }
}
