// Segmentor<Model>::Train keeping its own gradient sums per named parameter, after src/Segmentor.h of LibtorchSegmentation
#include <cstring>
#include <iostream>
#include <map>
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
    void Train(float learning_rate, int epochs, int batch_size,
               std::string train_val_path, std::string image_type, std::string save_path);
private:
    int width = 512; int height = 512; std::vector<std::string> name_list;
    torch::Device device = torch::Device(torch::kCPU);
    trainTricks tricks;
    Model model{nullptr};
    std::map<std::string, torch::Tensor> grad_sum;   // float64 sums of the window's gradients, by parameter name
    int micro_ = 0;
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
void Segmentor<Model>::Train(float learning_rate, int epochs, int batch_size,
                             std::string train_val_path, std::string image_type, std::string save_path) {

    std::string train_dir = train_val_path.append({file_sepator()}).append("train");
    std::vector<std::string> list_images_train = {}, list_labels_train = {};
    load_seg_data_from_folder(train_dir, image_type, list_images_train, list_labels_train);

    auto custom_dataset_train = SegDataset(width, height, list_images_train, list_labels_train,
                                           name_list, tricks, true).map(torch::data::transforms::Stack<>());
    auto options = torch::data::DataLoaderOptions();
    options.drop_last(true);
    options.batch_size(batch_size);
    auto data_loader_train = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(custom_dataset_train), options);

    const int accumulate_steps = std::max(1, tricks.accumulate_steps);
    torch::optim::Adam optimizer(model->parameters(), learning_rate);
    optimizer.zero_grad();

    for (int epoch = 0; epoch < epochs; epoch++) {
        float loss_sum = 0;
        int batch_count = 0;
        float dice_coef_sum = 0;

        for (auto decay_epoch : tricks.decay_epochs) {
            if (decay_epoch - 1 == epoch) {
                learning_rate /= 10;
                static_cast<torch::optim::AdamOptions &>(optimizer.param_groups()[0].options()).lr(learning_rate);
            }
        }
        model->train();
        for (auto &batch : *data_loader_train) {
            auto data = batch.data.to(torch::kF32).to(device).div(255.0);
            auto target = batch.target.to(torch::kLong).to(device).squeeze(1);

            torch::Tensor prediction = model->forward(data);
            torch::Tensor ce_loss = CELoss(prediction, target);
            torch::Tensor dice_loss = DiceLoss(torch::softmax(prediction, 1), target.unsqueeze(1), name_list.size());
            auto loss = dice_loss * tricks.dice_ce_ratio + ce_loss * (1 - tricks.dice_ce_ratio);
            loss.backward();

            // add this batch into the double-precision sums
            for (auto &named : model->named_parameters()) {
                const auto &g = named.value().grad();
                if (!g.defined()) continue;
                auto it = grad_sum.find(named.key());
                if (it == grad_sum.end()) {
                    grad_sum[named.key()] = g.to(torch::kFloat64).clone();
                } else {
                    it->second.add_(g.to(torch::kFloat64));
                }
            }

            if (++micro_ == accumulate_steps) {
                for (auto &named : model->named_parameters()) {
                    auto it = grad_sum.find(named.key());
                    if (it == grad_sum.end()) continue;
                    named.value().mutable_grad() = (it->second / accumulate_steps).to(torch::kFloat32);
                }
                optimizer.step();
                optimizer.zero_grad();
                grad_sum.clear();
                micro_ = 0;
            }

            loss_sum += loss.item().toFloat();
            dice_coef_sum += (1 - dice_loss).item().toFloat();
            batch_count++;
            std::cout << "Epoch: " << epoch << "," << " Training Loss: " << loss_sum / batch_count / batch_size <<
                "," << " Dice coefficient: " << dice_coef_sum / batch_count << "\r";
        }
        std::cout << std::endl;
        torch::save(model, save_path);
    }
}

template class Segmentor<FPN>;
