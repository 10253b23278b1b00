// Detector::Train (YOLOv4-tiny) averaging the summed gradients before each update, after src/Detector.cpp of LibtorchDetection
#include <cstring>
#include <iostream>
#include <string>
#include <vector>
#include <torch/torch.h>
#include "detection_support.hpp"

class Detector {
public:
    void Initialize(int gpu_id, int width, int height, std::vector<std::string> name_list);
    void Train(std::string train_val_path, std::string image_type, int num_epochs, int batch_size,
               float learning_rate, int accumulate, std::string save_path);
private:
    float run_epoch(torch::optim::Optimizer &optimizer, YOLOLossImpl &critia, int batch_size, int accumulate, bool train);
    int width = 416; int height = 416; std::vector<std::string> name_list;
    torch::Device device = torch::Device(torch::kCPU);
    YoloBody_tiny detector{nullptr};
    std::vector<std::string> list_images_train, list_labels_train, list_images_val, list_labels_val;
};

void Detector::Initialize(int gpu_id, int _width, int _height, std::vector<std::string> _name_list) {
    if (gpu_id >= 0) device = torch::Device(torch::kCUDA, gpu_id);
    name_list = _name_list;
    width = _width;
    height = _height;
    detector = YoloBody_tiny(3, name_list.size());
    detector->to(device);
}

// one pass over the train or val split; returns the mean loss
float Detector::run_epoch(torch::optim::Optimizer &optimizer, YOLOLossImpl &critia, int batch_size, int accumulate, bool train) {
    auto &images = train ? list_images_train : list_images_val;
    auto &labels = train ? list_labels_train : list_labels_val;
    auto dataset = DetDataset(images, labels, name_list, train, width, height);
    auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(dataset), batch_size);
    auto FloatType = torch::ones(1).to(torch::kFloat).to(device).options();

    train ? detector->train() : detector->eval();
    torch::AutoGradMode grad_mode(train);
    float loss_sum = 0;
    int batch_count = 0;
    int in_grad = 0;
    for (auto &batch : *loader) {
        if (batch.size() < (size_t)batch_size) continue;
        std::vector<torch::Tensor> images_vec = {}, targets_vec = {};
        for (int i = 0; i < batch_size; i++) {
            images_vec.push_back(batch[i].data.to(FloatType));
            targets_vec.push_back(batch[i].target.to(FloatType));
        }
        auto data = torch::stack(images_vec).div(255.0);
        auto outputs = detector->forward(data);
        std::vector<torch::Tensor> l1 = critia.forward(outputs[0], targets_vec);
        std::vector<torch::Tensor> l2 = critia.forward(outputs[1], targets_vec);
        auto loss = (l1[0] + l2[0]) / (l1[1] + l2[1]);
        if (train) {
            loss.backward();
            if (++in_grad == accumulate) {
                for (auto &p : detector->parameters()) {
                    if (p.grad().defined()) p.mutable_grad() /= accumulate;
                }
                optimizer.step();
                optimizer.zero_grad();
                in_grad = 0;
            }
        }
        loss_sum += loss.item<float>();
        batch_count++;
        std::cout << (train ? " Training Loss: " : " Valid Loss: ") << loss_sum / batch_count << "\r";
    }
    // batches that did not fill a whole window still update, averaged over their own count
    if (train && in_grad > 0) {
        for (auto &p : detector->parameters()) {
            if (p.grad().defined()) p.mutable_grad() /= in_grad;
        }
        optimizer.step();
        optimizer.zero_grad();
    }
    std::cout << std::endl;
    return batch_count ? loss_sum / batch_count : 0.0f;
}

void Detector::Train(std::string train_val_path, std::string image_type, int num_epochs, int batch_size,
                     float learning_rate, int accumulate, std::string save_path) {
    load_det_data_from_folder(train_val_path + "/train/labels", image_type, list_images_train, list_labels_train);
    load_det_data_from_folder(train_val_path + "/val/labels", image_type, list_images_val, list_labels_val);
    if (list_images_train.size() < (size_t)batch_size || list_images_val.size() < (size_t)batch_size) {
        std::cout << "Image numbers less than batch size or empty image folder" << std::endl;
        return;
    }

    float anchor[12] = {10, 14, 23, 27, 37, 58, 81, 82, 135, 169, 344, 319};
    auto anchors_ = torch::from_blob(anchor, {6, 2}, torch::TensorOptions(torch::kFloat32)).to(device);
    int image_size[2] = {width, height};
    auto critia1 = YOLOLossImpl(anchors_, name_list.size(), image_size, 0.01, device, false);

    float best_loss = 1e10;
    for (int epoc_count = 0; epoc_count < num_epochs; epoc_count++) {
        if (epoc_count == int(num_epochs / 2)) { learning_rate /= 10; }
        torch::optim::Adam optimizer(detector->parameters(), learning_rate);
        optimizer.zero_grad();
        std::cout << "Epoch: " << epoc_count << std::endl;
        run_epoch(optimizer, critia1, batch_size, accumulate, true);
        float loss_val = run_epoch(optimizer, critia1, batch_size, accumulate, false);
        if (best_loss >= loss_val) {
            best_loss = loss_val;
            torch::save(detector, save_path);
        }
    }
}
