// Detector::Train (YOLOv4-tiny) with accumulated updates and AdamW, after src/Detector.cpp of LibtorchDetection
#include <cstring>
#include <iostream>
#include <string>
#include <vector>
#include <torch/torch.h>
#include "detection_support.hpp"

class Detector {
public:
    void Initialize(int gpu_id, int width, int height, std::vector<std::string> name_list, int accumulate_steps);
    void Train(std::string train_val_path, std::string image_type, int num_epochs = 30, int batch_size = 4,
               float learning_rate = 0.0003, std::string save_path = "detector.pt", std::string pretrained_path = "detector.pt");
    void loadPretrained(std::string pretrained_pth);
private:
    int width = 416; int height = 416; std::vector<std::string> name_list;
    torch::Device device = torch::Device(torch::kCPU);
    YoloBody_tiny detector{nullptr};
    int accumulate_steps_ = 1;
    int accumulated_ = 0;      // batches in .grad since the last update (kept across epochs)
    float weight_decay_ = 5e-4f;
};

void Detector::Initialize(int gpu_id, int _width, int _height, std::vector<std::string> _name_list, int accumulate_steps) {
    if (gpu_id >= 0) device = torch::Device(torch::kCUDA, gpu_id);
    name_list = _name_list;
    width = _width;
    height = _height;
    accumulate_steps_ = std::max(1, accumulate_steps);
    detector = YoloBody_tiny(3, name_list.size());
    detector->to(device);
}

void Detector::loadPretrained(std::string pretrained_pth) {
    auto net_pretrained = YoloBody_tiny(3, 80);
    torch::load(net_pretrained, pretrained_pth);
    auto pretrained_dict = net_pretrained->named_parameters();
    auto model_dict = detector->named_parameters();
    torch::NoGradGuard no_grad;
    for (auto n = pretrained_dict.begin(); n != pretrained_dict.end(); n++) {
        if (strstr((*n).key().data(), "yolo_head")) continue;
        model_dict[(*n).key()].copy_((*n).value());
    }
}

void Detector::Train(std::string train_val_path, std::string image_type, int num_epochs, int batch_size,
                     float learning_rate, std::string save_path, std::string pretrained_path) {
    if (!does_exist(pretrained_path)) {
        std::cout << "Pretrained path is invalid: " << pretrained_path << "\t random initialzed the model" << std::endl;
    } else {
        loadPretrained(pretrained_path);
    }
    std::string train_label_path = train_val_path + "/train/labels";
    std::string val_label_path = train_val_path + "/val/labels";

    std::vector<std::string> list_images_train = {}, list_labels_train = {};
    std::vector<std::string> list_images_val = {}, list_labels_val = {};
    load_det_data_from_folder(train_label_path, image_type, list_images_train, list_labels_train);
    load_det_data_from_folder(val_label_path, image_type, list_images_val, list_labels_val);
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

    auto pretrained_dict = detector->named_parameters();
    auto FloatType = torch::ones(1).to(torch::kFloat).to(device).options();
    float best_loss = 1e10;
    for (int epoc_count = 0; epoc_count < num_epochs; epoc_count++) {
        float loss_sum = 0;
        int batch_count = 0;
        float loss_train = 0;
        float loss_val = 0;

        if (epoc_count == int(num_epochs / 2)) { learning_rate /= 10; }
        // decoupled decay; spread over the batches that make one update
        torch::optim::AdamW optimizer(detector->parameters(),
            torch::optim::AdamWOptions(learning_rate).weight_decay(weight_decay_ / accumulate_steps_));
        for (auto mm : pretrained_dict) {
            const bool head = strstr(mm.key().c_str(), "yolo_head") != nullptr;
            mm.value().set_requires_grad(epoc_count >= int(num_epochs / 10) || head);
        }
        detector->train();
        for (auto &batch : *data_loader_train) {
            std::vector<torch::Tensor> images_vec = {};
            std::vector<torch::Tensor> targets_vec = {};
            if (batch.size() < (size_t)batch_size) continue;
            for (int i = 0; i < batch_size; i++) {
                images_vec.push_back(batch[i].data.to(FloatType));
                targets_vec.push_back(batch[i].target.to(FloatType));
            }
            auto data = torch::stack(images_vec).div(255.0);

            auto outputs = detector->forward(data);
            std::vector<torch::Tensor> loss_numpos1 = critia1.forward(outputs[0], targets_vec);
            std::vector<torch::Tensor> loss_numpos2 = critia1.forward(outputs[1], targets_vec);
            auto loss = loss_numpos1[0] + loss_numpos2[0];
            auto num_pos = loss_numpos1[1] + loss_numpos2[1];
            loss = loss / num_pos;
            (loss / accumulate_steps_).backward();

            if (++accumulated_ == accumulate_steps_) {
                optimizer.step();
                optimizer.zero_grad();
                accumulated_ = 0;
            }
            loss_sum += loss.item().toFloat();
            batch_count++;
            loss_train = loss_sum / batch_count;
            std::cout << "Epoch: " << epoc_count << "," << " Training Loss: " << loss_train << "\r";
        }
        std::cout << std::endl;

        detector->eval();
        torch::NoGradGuard no_grad;
        loss_sum = 0; batch_count = 0;
        for (auto &batch : *data_loader_val) {
            std::vector<torch::Tensor> images_vec = {};
            std::vector<torch::Tensor> targets_vec = {};
            if (batch.size() < (size_t)batch_size) continue;
            for (int i = 0; i < batch_size; i++) {
                images_vec.push_back(batch[i].data.to(FloatType));
                targets_vec.push_back(batch[i].target.to(FloatType));
            }
            auto data = torch::stack(images_vec).div(255.0);
            auto outputs = detector->forward(data);
            std::vector<torch::Tensor> loss_numpos1 = critia1.forward(outputs[1], targets_vec);
            std::vector<torch::Tensor> loss_numpos2 = critia1.forward(outputs[0], targets_vec);
            auto loss = (loss_numpos1[0] + loss_numpos2[0]) / (loss_numpos1[1] + loss_numpos2[1]);
            loss_sum += loss.item<float>();
            batch_count++;
            loss_val = loss_sum / batch_count;
            std::cout << "Epoch: " << epoc_count << "," << " Valid Loss: " << loss_val << "\r";
        }
        printf("\n");
        if (best_loss >= loss_val) {
            best_loss = loss_val;
            torch::save(detector, save_path);
        }
    }
}
