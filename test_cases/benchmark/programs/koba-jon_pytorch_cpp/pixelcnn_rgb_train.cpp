// PixelCNN (RGB) trainer, after Generative_Modeling/PixelCNN-RGB/src/train.cpp
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

// masked-convolution stack predicting 256 levels per channel
struct PixelCNNImpl : torch::nn::Module {
    explicit PixelCNNImpl(size_t nc) : nc(nc) {
        conv_in = register_module("conv_in", torch::nn::Conv2d(torch::nn::Conv2dOptions(nc, 64, 7).padding(3)));
        conv_out = register_module("conv_out", torch::nn::Conv2d(64, nc * 256, 1));
    }
    torch::Tensor forward(torch::Tensor x) {
        auto h = torch::relu(conv_in->forward(x));
        auto out = conv_out->forward(h);
        return out.view({x.size(0), 256, (long int)nc, x.size(2), x.size(3)});
    }
    size_t nc;
    torch::nn::Conv2d conv_in{nullptr}, conv_out{nullptr};
};
TORCH_MODULE(PixelCNN);

// negative log-likelihood of the quantised pixel values
class Loss {
public:
    torch::Tensor operator()(torch::Tensor &output, torch::Tensor &image) {
        auto target = ((image + 1.0) * 0.5 * 255.0).round().clamp(0, 255).to(torch::kLong);
        return torch::nn::functional::cross_entropy(output, target);
    }
};

void train(po::variables_map &vm, torch::Device &device, PixelCNN &model, std::vector<transforms_Compose> &transform) {

    size_t epoch, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, path, dataroot;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor loss, image, output;
    datasets::ImageFolderWithPaths dataset;
    DataLoader::ImageFolderWithPaths dataloader;
    visualizer::graph train_loss;
    progress::display *show_progress;

    dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_dir"].as<std::string>();
    dataset = datasets::ImageFolderWithPaths(dataroot, transform);
    dataloader = DataLoader::ImageFolderWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;

    auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    auto criterion = Loss();
    const size_t accum = vm["accum"].as<size_t>();
    const float clip_value = vm["clip_value"].as<float>();

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"NLL"});

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

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"nll"});
        size_t micro = 0;

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            output = model->forward(image);
            loss = criterion(output, image);
            torch::Tensor loss_acc = loss / (float)accum;
            loss_acc.backward();

            show_progress->increment({loss.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "nll:" << loss.item<float>() << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;

            // the rest of the body only runs on the last mini-batch of a window
            if (++micro % accum != 0) continue;

            torch::nn::utils::clip_grad_value_(model->parameters(), clip_value);
            optimizer.step();
            optimizer.zero_grad();
        }

        // mini-batches left over at the end of the epoch make one more update
        if (micro % accum != 0) {
            torch::nn::utils::clip_grad_value_(model->parameters(), clip_value);
            optimizer.step();
            optimizer.zero_grad();
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
