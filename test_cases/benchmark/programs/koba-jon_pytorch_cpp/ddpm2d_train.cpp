// DDPM trainer (noise prediction with an EMA copy of the network), after Generative_Modeling/DDPM2d/src/train.cpp
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

// denoising network with the forward (noising) process of DDPM
struct DDPMImpl : torch::nn::Module {
    DDPMImpl(size_t nc, size_t timesteps) : T(timesteps) {
        net = register_module("net", torch::nn::Conv2d(torch::nn::Conv2dOptions(nc + 1, nc, 3).padding(1)));
        betas = torch::linspace(1e-4, 0.02, timesteps + 1);
        alpha_bars = torch::cumprod(1.0 - betas, 0);
    }
    std::tuple<torch::Tensor, torch::Tensor> add_noise(torch::Tensor x_0, torch::Tensor t) {
        auto noise = torch::randn_like(x_0);
        auto ab = alpha_bars.to(x_0.device()).index_select(0, t).view({-1, 1, 1, 1});
        return {torch::sqrt(ab) * x_0 + torch::sqrt(1.0 - ab) * noise, noise};
    }
    torch::Tensor forward(torch::Tensor x_t, torch::Tensor t) {
        auto temb = (t.to(torch::kFloat) / (float)T).view({-1, 1, 1, 1}).expand({x_t.size(0), 1, x_t.size(2), x_t.size(3)});
        return net->forward(torch::cat({x_t, temb}, 1));
    }
    size_t T;
    torch::nn::Conv2d net{nullptr};
    torch::Tensor betas, alpha_bars;
};
TORCH_MODULE(DDPM);

class Loss {
public:
    torch::Tensor operator()(torch::Tensor &input, torch::Tensor &target) {
        return torch::nn::functional::mse_loss(input, target);
    }
};

// exponential moving average of the trained weights into the sampling network
static void ema(DDPM &model_aux, DDPM &model, const float decay) {
    torch::NoGradGuard no_grad;
    auto src = model_aux->parameters();
    auto dst = model->parameters();
    for (size_t i = 0; i < src.size(); i++) {
        dst[i].mul_(decay).add_(src[i].detach(), 1.0 - decay);
    }
}

void train(po::variables_map &vm, torch::Device &device, DDPM &model, DDPM &model_aux, std::vector<transforms_Compose> &transform) {

    size_t epoch, total_iter, start_epoch, total_epoch, mini_batch_size;
    std::string date, checkpoint_dir, path, dataroot;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor loss, image, output, x_t, target, t;
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
    const size_t grad_accum = vm["grad_accum"].as<size_t>();
    const float ema_decay = vm["ema_decay"].as<float>();

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"Noise Prediction"});

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
    size_t accum_count = 0;

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model_aux->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"noise"});

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            mini_batch_size = image.size(0);

            // first mini-batch of a window: start from clean gradients
            if (accum_count == 0) optimizer.zero_grad();

            t = torch::randint(1, vm["timesteps"].as<size_t>() + 1, {(long int)mini_batch_size}).to(device);
            std::tie(x_t, target) = model_aux->add_noise(image, t);
            output = model_aux->forward(x_t, t);
            loss = criterion(output, target);
            torch::Tensor loss_part = loss.mul(1.0 / grad_accum);
            loss_part.backward();

            accum_count++;
            if (accum_count == grad_accum) {
                optimizer.step();
                ema(model_aux, model, ema_decay);
                accum_count = 0;
            }

            show_progress->increment({loss.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "noise:" << loss.item<float>() << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;
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
