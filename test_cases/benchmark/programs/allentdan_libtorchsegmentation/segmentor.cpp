// Segmentor<Model>::Train with gradient accumulation, after src/Segmentor.h of LibtorchSegmentation
#include <cstring>
#include <iostream>
#include <string>
#include <vector>
#include <torch/torch.h>
#include "segmentation_support.hpp"

template <class Model>
class Segmentor {
public:
    Segmentor() {}
    void Initialize(int gpu_id, int width, int height, std::vector<std::string> &&name_list,
                    std::string encoder_name, std::string pretrained_path);
    void SetTrainTricks(trainTricks &tricks);
    void Train(float learning_rate, int epochs, int batch_size,
               std::string train_val_path, std::string image_type, std::string save_path);
private:
    int width = 512; int height = 512; std::vector<std::string> name_list;
    torch::Device device = torch::Device(torch::kCPU);
    trainTricks tricks;
    Model model{nullptr};
};

template <class Model>
void Segmentor<Model>::Initialize(int gpu_id, int _width, int _height, std::vector<std::string> &&_name_list,
                                  std::string encoder_name, std::string pretrained_path) {
    width = _width;
    height = _height;
    name_list = _name_list;
    if (name_list.size() < 2) std::cout << "Class num is less than 1";
    if (gpu_id >= 0) device = torch::Device(torch::kCUDA, gpu_id);
    model = Model(name_list.size(), encoder_name, pretrained_path);
    model->to(device);
}

template <class Model>
void Segmentor<Model>::SetTrainTricks(trainTricks &tricks) {
    this->tricks = tricks;
}

template <class Model>
void Segmentor<Model>::Train(float learning_rate, int epochs, int batch_size,
                             std::string train_val_path, std::string image_type, std::string save_path) {

    std::string train_dir = train_val_path.append({file_sepator()}).append("train");
    std::string val_dir = replace_all_distinct(train_dir, "train", "val");

    std::vector<std::string> list_images_train = {};
    std::vector<std::string> list_labels_train = {};
    std::vector<std::string> list_images_val = {};
    std::vector<std::string> list_labels_val = {};

    load_seg_data_from_folder(train_dir, image_type, list_images_train, list_labels_train);
    load_seg_data_from_folder(val_dir, image_type, list_images_val, list_labels_val);

    auto custom_dataset_train = SegDataset(width, height, list_images_train, list_labels_train,
                                           name_list, tricks, true).map(torch::data::transforms::Stack<>());
    auto custom_dataset_val = SegDataset(width, height, list_images_val, list_labels_val,
                                         name_list, tricks, false).map(torch::data::transforms::Stack<>());
    auto options = torch::data::DataLoaderOptions();
    options.drop_last(true);
    options.batch_size(batch_size);
    auto data_loader_train = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(custom_dataset_train), options);
    auto data_loader_val = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(custom_dataset_val), options);

    // small batches on a small card: several of them make one update
    const int accumulate_steps = std::max(1, tricks.accumulate_steps);

    float best_loss = 1e10;
    for (int epoch = 0; epoch < epochs; epoch++) {
        float loss_sum = 0;
        int batch_count = 0;
        float loss_train = 0;
        float dice_coef_sum = 0;

        for (auto decay_epoch : tricks.decay_epochs) {
            if (decay_epoch - 1 == epoch)
                learning_rate /= 10;
        }
        torch::optim::Adam optimizer(model->parameters(), learning_rate);
        if (epoch < tricks.freeze_epochs) {
            for (auto mm : model->named_parameters()) {
                mm.value().set_requires_grad(strstr(mm.key().data(), "encoder") == nullptr);
            }
        } else {
            for (auto mm : model->named_parameters()) {
                mm.value().set_requires_grad(true);
            }
        }
        model->train();
        for (auto &batch : *data_loader_train) {
            auto data = batch.data;
            auto target = batch.target;
            data = data.to(torch::kF32).to(device).div(255.0);
            target = target.to(torch::kLong).to(device).squeeze(1);

            // Execute the model
            torch::Tensor prediction = model->forward(data);
            // Compute loss value
            torch::Tensor ce_loss = CELoss(prediction, target);
            torch::Tensor dice_loss = DiceLoss(torch::softmax(prediction, 1), target.unsqueeze(1), name_list.size());
            auto loss = dice_loss * tricks.dice_ce_ratio + ce_loss * (1 - tricks.dice_ce_ratio);
            // Compute gradients of this part of the update
            (loss / accumulate_steps).backward();
            batch_count++;
            // Update the parameters
            if (batch_count % accumulate_steps == 0) {
                optimizer.step();
                optimizer.zero_grad();
            }
            loss_sum += loss.item().toFloat();
            dice_coef_sum += (1 - dice_loss).item().toFloat();
            loss_train = loss_sum / batch_count / batch_size;
            auto dice_coef = dice_coef_sum / batch_count;

            std::cout << "Epoch: " << epoch << "," << " Training Loss: " << loss_train <<
                "," << " Dice coefficient: " << dice_coef << "\r";
        }
        std::cout << std::endl;
        // validation part
        model->eval();
        torch::NoGradGuard no_grad;
        loss_sum = 0; batch_count = 0; dice_coef_sum = 0;
        float loss_val = 0;
        for (auto &batch : *data_loader_val) {
            auto data = batch.data;
            auto target = batch.target;
            data = data.to(torch::kF32).to(device).div(255.0);
            target = target.to(torch::kLong).to(device).squeeze(1);

            torch::Tensor prediction = model->forward(data);
            torch::Tensor ce_loss = CELoss(prediction, target);
            torch::Tensor dice_loss = DiceLoss(torch::softmax(prediction, 1), target.unsqueeze(1), name_list.size());
            auto loss = dice_loss * tricks.dice_ce_ratio + ce_loss * (1 - tricks.dice_ce_ratio);
            loss_sum += loss.template item<float>();
            dice_coef_sum += (1 - dice_loss).item().toFloat();
            batch_count++;
            loss_val = loss_sum / batch_count / batch_size;
            auto dice_coef = dice_coef_sum / batch_count;

            std::cout << "Epoch: " << epoch << "," << " Validation Loss: " << loss_val <<
                "," << " Dice coefficient: " << dice_coef << "\r";
        }
        std::cout << std::endl;
        if (loss_val < best_loss) {
            torch::save(model, save_path);
            best_loss = loss_val;
        }
    }
}

template class Segmentor<FPN>;
