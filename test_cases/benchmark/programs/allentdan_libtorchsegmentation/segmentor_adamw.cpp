// Segmentor<Model>::Train switched to AdamW with accumulated batches, after src/Segmentor.h of LibtorchSegmentation
#include <cstring>
#include <iostream>
#include <string>
#include <vector>
#include <torch/torch.h>
#include "segmentation_support.hpp"

template <class Model>
class Segmentor {
public:
    void Initialize(int gpu_id, int width, int height, std::vector<std::string> &&name_list,
                    std::string encoder_name, std::string pretrained_path);
    void SetTrainTricks(trainTricks &tricks) { this->tricks = tricks; }
    void Train(float learning_rate, float weight_decay, int epochs, int batch_size,
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
    if (gpu_id >= 0) device = torch::Device(torch::kCUDA, gpu_id);
    model = Model(name_list.size(), encoder_name, pretrained_path);
    model->to(device);
}

template <class Model>
void Segmentor<Model>::Train(float learning_rate, float weight_decay, int epochs, int batch_size,
                             std::string train_val_path, std::string image_type, std::string save_path) {

    std::string train_dir = train_val_path.append({file_sepator()}).append("train");
    std::string val_dir = replace_all_distinct(train_dir, "train", "val");
    std::vector<std::string> list_images_train = {}, list_labels_train = {};
    std::vector<std::string> list_images_val = {}, list_labels_val = {};
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

    const int accumulate_steps = std::max(1, tricks.accumulate_steps);
    const int batches_per_epoch = static_cast<int>(list_images_train.size()) / batch_size;

    float best_loss = 1e10;
    for (int epoch = 0; epoch < epochs; epoch++) {
        for (auto decay_epoch : tricks.decay_epochs) {
            if (decay_epoch - 1 == epoch)
                learning_rate /= 10;
        }
        torch::optim::AdamW optimizer(model->parameters(), learning_rate);
        auto &group_options = static_cast<torch::optim::AdamWOptions &>(optimizer.param_groups()[0].options());
        group_options.weight_decay(weight_decay / accumulate_steps);
        optimizer.zero_grad();
        for (auto mm : model->named_parameters()) {
            const bool encoder = strstr(mm.key().data(), "encoder") != nullptr;
            mm.value().set_requires_grad(!(encoder && epoch < (int)tricks.freeze_epochs));
        }

        model->train();
        float loss_sum = 0, dice_coef_sum = 0;
        int batch_count = 0;
        for (auto &batch : *data_loader_train) {
            auto data = batch.data.to(torch::kF32).to(device).div(255.0);
            auto target = batch.target.to(torch::kLong).to(device).squeeze(1);

            torch::Tensor prediction = model->forward(data);
            torch::Tensor ce_loss = CELoss(prediction, target);
            torch::Tensor dice_loss = DiceLoss(torch::softmax(prediction, 1), target.unsqueeze(1), name_list.size());
            auto loss = dice_loss * tricks.dice_ce_ratio + ce_loss * (1 - tricks.dice_ce_ratio);
            (loss / accumulate_steps).backward();
            batch_count++;

            if (batch_count % accumulate_steps == 0 || batch_count == batches_per_epoch) {
                optimizer.step();
                optimizer.zero_grad();
            }
            loss_sum += loss.item().toFloat();
            dice_coef_sum += (1 - dice_loss).item().toFloat();
            std::cout << "Epoch: " << epoch << "," << " Training Loss: " << loss_sum / batch_count / batch_size <<
                "," << " Dice coefficient: " << dice_coef_sum / batch_count << "\r";
        }
        std::cout << std::endl;

        model->eval();
        torch::NoGradGuard no_grad;
        loss_sum = 0; batch_count = 0;
        float loss_val = 0;
        for (auto &batch : *data_loader_val) {
            auto data = batch.data.to(torch::kF32).to(device).div(255.0);
            auto target = batch.target.to(torch::kLong).to(device).squeeze(1);
            torch::Tensor prediction = model->forward(data);
            torch::Tensor dice_loss = DiceLoss(torch::softmax(prediction, 1), target.unsqueeze(1), name_list.size());
            auto loss = dice_loss * tricks.dice_ce_ratio + CELoss(prediction, target) * (1 - tricks.dice_ce_ratio);
            loss_sum += loss.template item<float>();
            batch_count++;
            loss_val = loss_sum / batch_count / batch_size;
        }
        std::cout << "Epoch: " << epoch << "," << " Validation Loss: " << loss_val << std::endl;
        if (loss_val < best_loss) {
            torch::save(model, save_path);
            best_loss = loss_val;
        }
    }
}

template class Segmentor<FPN>;
