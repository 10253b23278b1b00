// Detector::Train (YOLOv4-tiny) in bfloat16 with accumulated batches, after src/Detector.cpp of LibtorchDetection
#include <cstring>
#include <iostream>
#include <string>
#include <vector>
#include <torch/torch.h>
#include "detection_support.hpp"

struct TrainOptions {
    int num_epochs = 30;
    int batch_size = 2;
    int accumulate = 8;         // batches per optimizer step
    float learning_rate = 3e-4f;
    bool bf16 = true;           // halve activation and weight memory
    std::string save_path = "detector.pt";
};

class Detector {
public:
    void Initialize(int gpu_id, int width, int height, std::vector<std::string> name_list);
    void Train(std::string train_val_path, std::string image_type, const TrainOptions &opt);
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

void Detector::Train(std::string train_val_path, std::string image_type, const TrainOptions &opt) {
    std::string train_label_path = train_val_path + "/train/labels";
    std::vector<std::string> list_images_train = {}, list_labels_train = {};
    load_det_data_from_folder(train_label_path, image_type, list_images_train, list_labels_train);
    if (list_images_train.size() < (size_t)opt.batch_size) {
        std::cout << "Image numbers less than batch size or empty image folder" << std::endl;
        return;
    }

    auto custom_dataset_train = DetDataset(list_images_train, list_labels_train, name_list, true, width, height);
    auto data_loader_train = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(custom_dataset_train), opt.batch_size);

    const torch::Dtype dtype = opt.bf16 ? torch::kBFloat16 : torch::kFloat;
    if (opt.bf16) {
        detector->to(device, torch::kBFloat16);
    }

    float anchor[12] = {10, 14, 23, 27, 37, 58, 81, 82, 135, 169, 344, 319};
    auto anchors_ = torch::from_blob(anchor, {6, 2}, torch::TensorOptions(torch::kFloat32)).to(device);
    int image_size[2] = {width, height};
    auto critia1 = YOLOLossImpl(anchors_, name_list.size(), image_size, 0.01, device, false);
    auto options = torch::ones(1).to(device, dtype).options();

    torch::optim::Adam optimizer(detector->parameters(), torch::optim::AdamOptions(opt.learning_rate).eps(1e-4));
    int countdown = opt.accumulate;
    float learning_rate = opt.learning_rate;
    for (int epoc_count = 0; epoc_count < opt.num_epochs; epoc_count++) {
        float loss_sum = 0;
        int batch_count = 0;
        if (epoc_count == opt.num_epochs / 2) {
            learning_rate /= 10;
            static_cast<torch::optim::AdamOptions &>(optimizer.param_groups()[0].options()).lr(learning_rate);
        }
        detector->train();
        for (auto &batch : *data_loader_train) {
            if (batch.size() < (size_t)opt.batch_size) continue;
            std::vector<torch::Tensor> images_vec = {}, targets_vec = {};
            for (int i = 0; i < opt.batch_size; i++) {
                images_vec.push_back(batch[i].data.to(options));
                targets_vec.push_back(batch[i].target.to(torch::kFloat).to(device));
            }
            auto data = torch::stack(images_vec).div(255.0);

            auto outputs = detector->forward(data);
            std::vector<torch::Tensor> loss_numpos1 = critia1.forward(outputs[0].to(torch::kFloat), targets_vec);
            std::vector<torch::Tensor> loss_numpos2 = critia1.forward(outputs[1].to(torch::kFloat), targets_vec);
            auto loss = (loss_numpos1[0] + loss_numpos2[0]) / (loss_numpos1[1] + loss_numpos2[1]);
            (loss / opt.accumulate).backward();

            if (--countdown == 0) {
                optimizer.step();
                optimizer.zero_grad();
                countdown = opt.accumulate;
            }
            loss_sum += loss.item().toFloat();
            batch_count++;
            std::cout << "Epoch: " << epoc_count << "," << " Training Loss: " << loss_sum / batch_count << "\r";
        }
        std::cout << std::endl;
        torch::save(detector, opt.save_path);
    }
}
