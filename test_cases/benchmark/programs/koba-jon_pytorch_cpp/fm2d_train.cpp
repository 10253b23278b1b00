// Flow-matching generative model trainer with an EMA network, after Generative_Modeling/FM2d/src/train.cpp
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

// velocity network with the straight-path interpolation of flow matching
struct FlowMatchingImpl : torch::nn::Module {
    explicit FlowMatchingImpl(size_t nc) {
        net = register_module("net", torch::nn::Conv2d(torch::nn::Conv2dOptions(nc + 1, nc, 3).padding(1)));
    }
    std::tuple<torch::Tensor, torch::Tensor> add_noise(torch::Tensor x_1, torch::Tensor t) {
        auto x_0 = torch::randn_like(x_1);
        auto tt = t.view({-1, 1, 1, 1});
        return {(1.0 - tt) * x_0 + tt * x_1, x_1 - x_0};
    }
    torch::Tensor forward(torch::Tensor x_t, torch::Tensor t) {
        auto temb = t.view({-1, 1, 1, 1}).expand({x_t.size(0), 1, x_t.size(2), x_t.size(3)});
        return net->forward(torch::cat({x_t, temb}, 1));
    }
    torch::nn::Conv2d net{nullptr};
};
TORCH_MODULE(FlowMatching);

class Loss {
public:
    torch::Tensor operator()(torch::Tensor &input, torch::Tensor &target) {
        return torch::nn::functional::mse_loss(input, target);
    }
};

static void ema(FlowMatching &model_aux, FlowMatching &model, const float decay) {
    torch::NoGradGuard no_grad;
    auto src = model_aux->parameters();
    auto dst = model->parameters();
    for (size_t i = 0; i < src.size(); i++) {
        dst[i].mul_(decay).add_(src[i].detach(), 1.0 - decay);
    }
}

void train(po::variables_map &vm, torch::Device &device, FlowMatching &model, FlowMatching &model_aux, std::vector<transforms_Compose> &transform) {

    size_t epoch, total_iter, start_epoch, total_epoch, mini_batch_size;
    std::string date, checkpoint_dir, path, dataroot;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::string>> mini_batch;
    std::tuple<torch::Tensor, torch::Tensor> x_t_with_v;
    torch::Tensor loss, image, output, x_t, v, t;
    datasets::ImageFolderWithPaths dataset;
    DataLoader::ImageFolderWithPaths dataloader;
    visualizer::graph train_loss;
    progress::display *show_progress;

    dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_dir"].as<std::string>();
    dataset = datasets::ImageFolderWithPaths(dataroot, transform);
    dataloader = DataLoader::ImageFolderWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;

    auto optimizer = torch::optim::Adam(model_aux->parameters(), torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    auto criterion = Loss();
    const size_t accum = vm["accum"].as<size_t>();

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"Velocity"});

    if (vm["train_load_epoch"].as<std::string>() == "") {
        model_aux->apply(weights_init);
        ema(model_aux, model, 0.0);
        ofs.open(checkpoint_dir + "/log/train.txt", std::ios::out);
        start_epoch = 0;
    } else {
        path = checkpoint_dir + "/models/epoch_" + vm["train_load_epoch"].as<std::string>() + ".pth";  torch::load(model, path, device);
        path = checkpoint_dir + "/models/epoch_" + vm["train_load_epoch"].as<std::string>() + "_aux.pth";  torch::load(model_aux, path, device);
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
    size_t micro = 0;
    optimizer.zero_grad();

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model_aux->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"velocity"});

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            mini_batch_size = image.size(0);

            t = torch::rand({(long int)mini_batch_size}).to(device);
            x_t_with_v = model_aux->add_noise(image, t);
            x_t = std::get<0>(x_t_with_v);
            v = std::get<1>(x_t_with_v);
            output = model_aux->forward(x_t, t);
            loss = criterion(output, v);
            (loss / (float)accum).backward();

            if (++micro == accum) {
                optimizer.step();
                optimizer.zero_grad();
                micro = 0;
            }
            ema(model_aux, model, vm["ema_decay"].as<float>());

            show_progress->increment({loss.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "velocity:" << loss.item<float>() << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;
        }

        train_loss.plot(epoch, show_progress->get_ave());
        delete show_progress;

        if (epoch % vm["save_epoch"].as<size_t>() == 0) {
            path = checkpoint_dir + "/models/epoch_" + std::to_string(epoch) + ".pth";  torch::save(model, path);
            path = checkpoint_dir + "/models/epoch_" + std::to_string(epoch) + "_aux.pth";  torch::save(model_aux, path);
            path = checkpoint_dir + "/optims/epoch_" + std::to_string(epoch) + ".pth";  torch::save(optimizer, path);
        }
        path = checkpoint_dir + "/models/epoch_latest.pth";  torch::save(model, path);
        path = checkpoint_dir + "/models/epoch_latest_aux.pth";  torch::save(model_aux, path);
    }

    ofs.close();
}
