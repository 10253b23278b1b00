// Detector::Train (YOLOv4-tiny) with an optional StepLR schedule and accumulated batches, after src/Detector.cpp of LibtorchDetection
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>
#include <torch/torch.h>
#include "detection_support.hpp"

class Detector {
public:
    void Initialize(int gpu_id, int width, int height, std::vector<std::string> name_list);
    // lr_step_updates > 0 enables a x0.1 decay every lr_step_updates optimizer updates
    void Train(std::string train_val_path, std::string image_type, int num_epochs, int batch_size,
               float learning_rate, int accumulate, int lr_step_updates, std::string save_path);
private:
    int width = 416; int height = 416; std::vector<std::string> name_list;
    torch::Device device = torch::Device(torch::kCPU);
    YoloBody_tiny detector{nullptr};
};

void Detector::Initialize(int gpu_id, int _width, int _height, std::vector<std::string> _name_list) {
    if (gpu_id >= 0) device = torch::Device(torch::kCUDA, gpu_id);
    name_list = _name_list;
    width = _width;
    height = _height;
    detector = YoloBody_tiny(3, name_list.size());
    detector->to(device);
}

void Detector::Train(std::string train_val_path, std::string image_type, int num_epochs, int batch_size,
                     float learning_rate, int accumulate, int lr_step_updates, std::string save_path) {
    std::vector<std::string> list_images_train = {}, list_labels_train = {};
    std::vector<std::string> list_images_val = {}, list_labels_val = {};
    load_det_data_from_folder(train_val_path + "/train/labels", image_type, list_images_train, list_labels_train);
    load_det_data_from_folder(train_val_path + "/val/labels", image_type, list_images_val, list_labels_val);
    if (list_images_train.size() < (size_t)batch_size || list_images_val.size() < (size_t)batch_size) {
        std::cout << "Image numbers less than batch size or empty image folder" << std::endl;
        return;
    }
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
    std::unique_ptr<torch::optim::StepLR> scheduler;
    if (lr_step_updates > 0) {
        scheduler = std::make_unique<torch::optim::StepLR>(optimizer, lr_step_updates, 0.1);
    }

    int micro = 0;
    float best_loss = 1e10;
    for (int epoc_count = 0; epoc_count < num_epochs; epoc_count++) {
        float loss_sum = 0;
        int batch_count = 0;
        detector->train();
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
            (loss / accumulate).backward();

            micro = (micro + 1) % accumulate;
            if (micro == 0) {
                optimizer.step();
                optimizer.zero_grad();
            }
            if (scheduler) scheduler->step();

            loss_sum += loss.item().toFloat();
            batch_count++;
            std::cout << "Epoch: " << epoc_count << "," << " Training Loss: " << loss_sum / batch_count << "\r";
        }
        std::cout << std::endl;

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
