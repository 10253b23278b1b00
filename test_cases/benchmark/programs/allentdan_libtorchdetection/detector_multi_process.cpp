// Detector::Train (YOLOv4-tiny) on several processes with accumulated batches, after src/Detector.cpp of LibtorchDetection
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
    void Initialize(int gpu_id, int width, int height, std::vector<std::string> name_list, const std::string &init_file);
    void Train(std::string train_val_path, std::string image_type, int num_epochs, int batch_size,
               float learning_rate, int accumulate, float grad_clip_value, std::string save_path);
private:
    int width = 416; int height = 416; std::vector<std::string> name_list;
    torch::Device device = torch::Device(torch::kCPU);
    YoloBody_tiny detector{nullptr};
    c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
    int rank = 0, nranks = 1;
};

void Detector::Initialize(int gpu_id, int _width, int _height, std::vector<std::string> _name_list, const std::string &init_file) {
    if (gpu_id >= 0) device = torch::Device(torch::kCUDA, gpu_id);
    name_list = _name_list;
    width = _width;
    height = _height;
    detector = YoloBody_tiny(3, name_list.size());
    detector->to(device);

    rank = std::atoi(std::getenv("RANK"));
    nranks = std::atoi(std::getenv("WORLD_SIZE"));
    auto store = c10::make_intrusive<c10d::FileStore>(init_file, nranks);
    auto opts = c10d::ProcessGroupGloo::Options::create();
    opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    group = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, nranks, opts);
    torch::NoGradGuard no_grad;
    for (auto &p : detector->parameters()) {
        std::vector<torch::Tensor> t{p};
        group->broadcast(t)->wait();
    }
}

void Detector::Train(std::string train_val_path, std::string image_type, int num_epochs, int batch_size,
                     float learning_rate, int accumulate, float grad_clip_value, std::string save_path) {
    std::vector<std::string> all_images = {}, all_labels = {};
    load_det_data_from_folder(train_val_path + "/train/labels", image_type, all_images, all_labels);
    const size_t per_rank = all_images.size() / nranks;
    std::vector<std::string> list_images_train(all_images.begin() + rank * per_rank, all_images.begin() + (rank + 1) * per_rank);
    std::vector<std::string> list_labels_train(all_labels.begin() + rank * per_rank, all_labels.begin() + (rank + 1) * per_rank);

    auto custom_dataset_train = DetDataset(list_images_train, list_labels_train, name_list, true, width, height);
    auto data_loader_train = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(custom_dataset_train), batch_size);

    float anchor[12] = {10, 14, 23, 27, 37, 58, 81, 82, 135, 169, 344, 319};
    auto anchors_ = torch::from_blob(anchor, {6, 2}, torch::TensorOptions(torch::kFloat32)).to(device);
    int image_size[2] = {width, height};
    auto critia1 = YOLOLossImpl(anchors_, name_list.size(), image_size, 0.01, device, false);
    auto FloatType = torch::ones(1).to(torch::kFloat).to(device).options();

    torch::optim::Adam optimizer(detector->parameters(), learning_rate);
    int micro = 0;
    optimizer.zero_grad();
    for (int epoc_count = 0; epoc_count < num_epochs; epoc_count++) {
        float loss_sum = 0;
        int batch_count = 0;
        if (epoc_count == int(num_epochs / 2)) {
            learning_rate /= 10;
            static_cast<torch::optim::AdamOptions &>(optimizer.param_groups()[0].options()).lr(learning_rate);
        }
        detector->train();
        for (auto &batch : *data_loader_train) {
            if (batch.size() < (size_t)batch_size) continue;
            std::vector<torch::Tensor> images_vec = {}, targets_vec = {};
            for (int i = 0; i < batch_size; i++) {
                images_vec.push_back(batch[i].data.to(FloatType));
                targets_vec.push_back(batch[i].target.to(FloatType));
            }
            auto outputs = detector->forward(torch::stack(images_vec).div(255.0));
            std::vector<torch::Tensor> l1 = critia1.forward(outputs[0], targets_vec);
            std::vector<torch::Tensor> l2 = critia1.forward(outputs[1], targets_vec);
            auto loss = (l1[0] + l2[0]) / (l1[1] + l2[1]);
            (loss / accumulate).backward();

            if (++micro == accumulate) {
                std::vector<torch::Tensor> grads;
                for (auto &p : detector->parameters()) {
                    if (p.grad().defined()) grads.push_back(p.grad());
                }
                torch::nn::utils::clip_grad_value_(detector->parameters(), grad_clip_value);
                group->allreduce_coalesced(grads)->wait();
                for (auto &g : grads) g.div_(nranks);
                optimizer.step();
                optimizer.zero_grad();
                micro = 0;
            }
            loss_sum += loss.item().toFloat();
            batch_count++;
            if (rank == 0) std::cout << "Epoch: " << epoc_count << "," << " Training Loss: " << loss_sum / batch_count << "\r";
        }
        if (rank == 0) {
            std::cout << std::endl;
            torch::save(detector, save_path);
        }
    }
}
