// Segmentor<Model>::Train split over several processes (Gloo), after src/Segmentor.h of LibtorchSegmentation
#include <cstring>
#include <iostream>
#include <string>
#include <vector>
#include <torch/torch.h>
#include <c10d/ProcessGroupGloo.hpp>
#include <c10d/TCPStore.hpp>
#include "segmentation_support.hpp"

template <class Model>
class Segmentor {
public:
    void Initialize(int gpu_id, int width, int height, std::vector<std::string> &&name_list,
                    std::string encoder_name, std::string pretrained_path);
    void InitDistributed(const std::string &master_addr, int port, int rank, int world_size);
    void SetTrainTricks(trainTricks &tricks) { this->tricks = tricks; }
    void Train(float learning_rate, int epochs, int batch_size,
               std::string train_val_path, std::string image_type, std::string save_path);
private:
    void sync_gradients();
    int width = 512; int height = 512; std::vector<std::string> name_list;
    torch::Device device = torch::Device(torch::kCPU);
    trainTricks tricks;
    Model model{nullptr};
    c10::intrusive_ptr<c10d::ProcessGroupGloo> process_group;
    int rank = 0, world_size = 1;
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
void Segmentor<Model>::InitDistributed(const std::string &master_addr, int port, int _rank, int _world_size) {
    rank = _rank;
    world_size = _world_size;
    c10d::TCPStoreOptions store_opts;
    store_opts.port = port;
    store_opts.isServer = (rank == 0);
    store_opts.numWorkers = world_size;
    auto store = c10::make_intrusive<c10d::TCPStore>(master_addr, store_opts);
    auto opts = c10d::ProcessGroupGloo::Options::create();
    opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    process_group = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, opts);
}

// one flat buffer for all gradients: a single all-reduce, then the mean over ranks
template <class Model>
void Segmentor<Model>::sync_gradients() {
    std::vector<torch::Tensor> grads;
    for (auto &p : model->parameters()) {
        if (p.grad().defined()) grads.push_back(p.grad().view(-1));
    }
    if (grads.empty()) return;
    std::vector<torch::Tensor> flat{torch::cat(grads)};
    process_group->allreduce(flat)->wait();
    flat[0].div_(world_size);
    int64_t offset = 0;
    for (auto &p : model->parameters()) {
        if (!p.grad().defined()) continue;
        const int64_t n = p.grad().numel();
        p.grad().copy_(flat[0].slice(0, offset, offset + n).view_as(p.grad()));
        offset += n;
    }
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

    // every rank keeps its own slice of the image list
    std::vector<std::string> shard_images, shard_labels;
    for (size_t i = rank; i < list_images_train.size() / world_size * world_size; i += world_size) {
        shard_images.push_back(list_images_train[i]);
        shard_labels.push_back(list_labels_train[i]);
    }

    auto custom_dataset_train = SegDataset(width, height, shard_images, shard_labels,
                                           name_list, tricks, true).map(torch::data::transforms::Stack<>());
    auto custom_dataset_val = SegDataset(width, height, list_images_val, list_labels_val,
                                         name_list, tricks, false).map(torch::data::transforms::Stack<>());
    auto options = torch::data::DataLoaderOptions();
    options.drop_last(true);
    options.batch_size(batch_size);
    auto data_loader_train = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(custom_dataset_train), options);
    auto data_loader_val = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(custom_dataset_val), options);

    const int accumulate_steps = std::max(1, tricks.accumulate_steps);
    const float clip_norm = tricks.clip_grad_norm > 0 ? tricks.clip_grad_norm : 1.0f;
    torch::optim::Adam optimizer(model->parameters(), learning_rate);
    int micro_step = 0;

    float best_loss = 1e10;
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
        for (auto mm : model->named_parameters()) {
            mm.value().set_requires_grad(epoch >= (int)tricks.freeze_epochs || strstr(mm.key().data(), "encoder") == nullptr);
        }
        model->train();
        for (auto &batch : *data_loader_train) {
            auto data = batch.data.to(torch::kF32).to(device).div(255.0);
            auto target = batch.target.to(torch::kLong).to(device).squeeze(1);

            torch::Tensor prediction = model->forward(data);
            torch::Tensor ce_loss = CELoss(prediction, target);
            torch::Tensor dice_loss = DiceLoss(torch::softmax(prediction, 1), target.unsqueeze(1), name_list.size());
            auto loss = dice_loss * tricks.dice_ce_ratio + ce_loss * (1 - tricks.dice_ce_ratio);
            (loss / accumulate_steps).backward();

            loss_sum += loss.item().toFloat();
            dice_coef_sum += (1 - dice_loss).item().toFloat();
            batch_count++;
            if (rank == 0) {
                std::cout << "Epoch: " << epoch << "," << " Training Loss: " << loss_sum / batch_count / batch_size <<
                    "," << " Dice coefficient: " << dice_coef_sum / batch_count << "\r";
            }

            if (++micro_step < accumulate_steps) continue;

            torch::nn::utils::clip_grad_norm_(model->parameters(), clip_norm);
            sync_gradients();
            optimizer.step();
            optimizer.zero_grad();
            micro_step = 0;
        }
        if (rank == 0) std::cout << std::endl;

        // validation on rank 0 only
        if (rank != 0) continue;
        model->eval();
        torch::NoGradGuard no_grad;
        loss_sum = 0; batch_count = 0;
        float loss_val = 0;
        for (auto &batch : *data_loader_val) {
            auto data = batch.data.to(torch::kF32).to(device).div(255.0);
            auto target = batch.target.to(torch::kLong).to(device).squeeze(1);
            torch::Tensor prediction = model->forward(data);
            torch::Tensor ce_loss = CELoss(prediction, target);
            torch::Tensor dice_loss = DiceLoss(torch::softmax(prediction, 1), target.unsqueeze(1), name_list.size());
            auto loss = dice_loss * tricks.dice_ce_ratio + ce_loss * (1 - tricks.dice_ce_ratio);
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
