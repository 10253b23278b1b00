// Diffusion Transformer (class-conditional) trainer, after Generative_Modeling/DiT/src/train.cpp
#include <iostream>
#include <fstream>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>
#include <utility>
#include <torch/torch.h>
#include "koba_support.hpp"

namespace fs = std::filesystem;

// patchified transformer stand-in with the DDPM noising process
struct DiTImpl : torch::nn::Module {
    DiTImpl(size_t nc, size_t class_num, size_t timesteps) : T(timesteps) {
        embed = register_module("embed", torch::nn::Conv2d(torch::nn::Conv2dOptions(nc, 64, 2).stride(2)));
        label_embed = register_module("label_embed", torch::nn::Embedding(class_num + 1, 64));
        block = register_module("block", torch::nn::TransformerEncoderLayer(torch::nn::TransformerEncoderLayerOptions(64, 4)));
        out = register_module("out", torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(64, nc, 2).stride(2)));
        alpha_bars = torch::cumprod(1.0 - torch::linspace(1e-4, 0.02, timesteps + 1), 0);
    }
    std::tuple<torch::Tensor, torch::Tensor> add_noise(torch::Tensor x_0, torch::Tensor t) {
        auto noise = torch::randn_like(x_0);
        auto ab = alpha_bars.to(x_0.device()).index_select(0, t).view({-1, 1, 1, 1});
        return {torch::sqrt(ab) * x_0 + torch::sqrt(1.0 - ab) * noise, noise};
    }
    torch::Tensor forward(torch::Tensor x_t, torch::Tensor t, torch::Tensor y) {
        auto h = embed->forward(x_t);
        const auto H = h.size(2), W = h.size(3);
        auto tokens = h.flatten(2).permute({2, 0, 1}) + label_embed->forward(y).unsqueeze(0) + (t.to(torch::kFloat) / (float)T).view({1, -1, 1});
        tokens = block->forward(tokens);
        return out->forward(tokens.permute({1, 2, 0}).reshape({x_t.size(0), 64, H, W}));
    }
    size_t T;
    torch::nn::Conv2d embed{nullptr};
    torch::nn::Embedding label_embed{nullptr};
    torch::nn::TransformerEncoderLayer block{nullptr};
    torch::nn::ConvTranspose2d out{nullptr};
    torch::Tensor alpha_bars;
};
TORCH_MODULE(DiT);

class Loss {
public:
    torch::Tensor operator()(torch::Tensor &input, torch::Tensor &target) {
        return torch::nn::functional::mse_loss(input, target);
    }
};

void train(po::variables_map &vm, torch::Device &device, DiT &model, std::vector<transforms_Compose> &transform, const std::vector<std::string> class_names) {

    size_t epoch, total_iter, start_epoch, total_epoch, mini_batch_size;
    std::string date, checkpoint_dir, path, dataroot;
    std::ofstream ofs;
    std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor loss, image, label, output, x_t, target, t, drop;
    datasets::ImageFolderClassesWithPaths dataset;
    DataLoader::ImageFolderClassesWithPaths dataloader;
    visualizer::graph train_loss;
    progress::display *show_progress;

    dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_dir"].as<std::string>();
    dataset = datasets::ImageFolderClassesWithPaths(dataroot, transform, class_names);
    dataloader = DataLoader::ImageFolderClassesWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;

    auto optimizer = torch::optim::AdamW(model->parameters(), torch::optim::AdamWOptions(vm["lr"].as<float>()).weight_decay(0.0));
    auto criterion = Loss();
    const size_t accum = vm["accum"].as<size_t>();
    const double max_norm = vm["max_norm"].as<float>();
    const long int null_class = (long int)class_names.size();  // label used for classifier-free guidance

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"Noise Prediction"});

    if (vm["train_load_epoch"].as<std::string>() == "") {
        model->apply(weights_init);
        ofs.open(checkpoint_dir + "/log/train.txt", std::ios::out);
        start_epoch = 0;
    } else {
        path = checkpoint_dir + "/models/epoch_" + vm["train_load_epoch"].as<std::string>() + ".pth";  torch::load(model, path, device);
        path = checkpoint_dir + "/optims/epoch_" + vm["train_load_epoch"].as<std::string>() + ".pth";  torch::load(optimizer, path, device);
        ofs.open(checkpoint_dir + "/log/train.txt", std::ios::app);
        start_epoch = std::stoi(vm["train_load_epoch"].as<std::string>());
    }

    date = progress::separator_center("Train Loss (" + progress::current_date() + ")");
    std::cout << date << std::endl;
    ofs << date << std::endl;

    start_epoch++;
    total_iter = dataloader.get_count_max();
    total_epoch = vm["epochs"].as<size_t>();
    size_t micro_step = 0;

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"noise"});

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            label = std::get<1>(mini_batch).to(device);
            mini_batch_size = image.size(0);

            // drop 10% of the labels for classifier-free guidance
            drop = torch::rand({(long int)mini_batch_size}, device).lt(0.1);
            label = torch::where(drop, torch::full_like(label, null_class), label);

            t = torch::randint(1, vm["timesteps"].as<size_t>() + 1, {(long int)mini_batch_size}).to(device);
            std::tie(x_t, target) = model->add_noise(image, t);
            output = model->forward(x_t, t, label);
            loss = criterion(output, target);
            (loss / (double)accum).backward();

            if (micro_step % accum == 0) {
                optimizer.zero_grad();
            }
            micro_step++;
            if (micro_step % accum == 0) {
                torch::nn::utils::clip_grad_norm_(model->parameters(), max_norm);
                optimizer.step();
            }

            show_progress->increment({loss.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "noise:" << loss.item<float>() << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;
        }

        train_loss.plot(epoch, show_progress->get_ave());
        delete show_progress;

        if (epoch % vm["save_epoch"].as<size_t>() == 0) {
            path = checkpoint_dir + "/models/epoch_" + std::to_string(epoch) + ".pth";  torch::save(model, path);
            path = checkpoint_dir + "/optims/epoch_" + std::to_string(epoch) + ".pth";  torch::save(optimizer, path);
        }
        path = checkpoint_dir + "/models/epoch_latest.pth";  torch::save(model, path);
        path = checkpoint_dir + "/optims/epoch_latest.pth";  torch::save(optimizer, path);
    }

    ofs.close();
}
