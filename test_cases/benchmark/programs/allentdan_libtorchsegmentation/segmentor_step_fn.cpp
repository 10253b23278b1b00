// Segmentor<Model>::Train split into a per-batch train_step with an accumulation state, after src/Segmentor.h of LibtorchSegmentation
#include <cstring>
#include <iostream>
#include <string>
#include <vector>
#include <torch/torch.h>
#include "segmentation_support.hpp"

// what train_step needs to remember between batches
struct AccumState {
    int micro = 0;            // batches in .grad since the last update
    int steps = 0;            // optimizer updates so far
    int accumulate_steps = 1;
    float clip_norm = 0;
};

template <class Model>
class Segmentor {
public:
    void Initialize(int gpu_id, int width, int height, std::vector<std::string> &&name_list,
                    std::string encoder_name, std::string pretrained_path);
    void SetTrainTricks(trainTricks &tricks) { this->tricks = tricks; }
    void Train(float learning_rate, int epochs, int batch_size,
               std::string train_val_path, std::string image_type, std::string save_path);
private:
    float train_step(torch::optim::Optimizer &optimizer, const torch::Tensor &data, const torch::Tensor &target, AccumState &state);
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

// one batch: loss, backward, and an update when the window is full
template <class Model>
float Segmentor<Model>::train_step(torch::optim::Optimizer &optimizer, const torch::Tensor &data, const torch::Tensor &target, AccumState &state) {
    torch::Tensor prediction = model->forward(data);
    torch::Tensor ce_loss = CELoss(prediction, target);
    torch::Tensor dice_loss = DiceLoss(torch::softmax(prediction, 1), target.unsqueeze(1), name_list.size());
    auto loss = dice_loss * tricks.dice_ce_ratio + ce_loss * (1 - tricks.dice_ce_ratio);
    torch::autograd::backward({loss / state.accumulate_steps});
    if (++state.micro == state.accumulate_steps) {
        if (state.clip_norm > 0) torch::nn::utils::clip_grad_norm_(model->parameters(), state.clip_norm);
        optimizer.step();
        optimizer.zero_grad();
        state.micro = 0;
        state.steps++;
    }
    return loss.item<float>();
}

template <class Model>
void Segmentor<Model>::Train(float learning_rate, int epochs, int batch_size,
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

    AccumState state;
    state.accumulate_steps = std::max(1, tricks.accumulate_steps);
    state.clip_norm = tricks.clip_grad_norm;
    torch::optim::Adam optimizer(model->parameters(), learning_rate);
    optimizer.zero_grad();

    float best_loss = 1e10;
    for (int epoch = 0; epoch < epochs; epoch++) {
        for (auto decay_epoch : tricks.decay_epochs) {
            if (decay_epoch - 1 == epoch) {
                learning_rate /= 10;
                static_cast<torch::optim::AdamOptions &>(optimizer.param_groups()[0].options()).lr(learning_rate);
            }
        }
        model->train();
        float loss_sum = 0;
        int batch_count = 0;
        for (auto &batch : *data_loader_train) {
            auto data = batch.data.to(torch::kF32).to(device).div(255.0);
            auto target = batch.target.to(torch::kLong).to(device).squeeze(1);
            loss_sum += train_step(optimizer, data, target, state);
            batch_count++;
            std::cout << "Epoch: " << epoch << "," << " Training Loss: " << loss_sum / batch_count / batch_size
                      << "  updates: " << state.steps << "\r";
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
