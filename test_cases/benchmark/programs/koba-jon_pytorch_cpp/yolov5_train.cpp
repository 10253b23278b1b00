// YOLOv5 detector trainer made data-parallel over Gloo, after Object_Detection/YOLOv5/src/train.cpp
#include <cstdlib>
#include <iostream>
#include <fstream>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>
#include <utility>
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include "koba_support.hpp"

namespace fs = std::filesystem;
using YOLOv5 = DetectorNet;

// YOLOv5 criterion stand-in: (box, obj, class)
class Loss {
public:
    Loss(const std::vector<std::vector<std::tuple<float, float>>> anchors_, const long int class_num_) : class_num(class_num_) {}
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> operator()(std::vector<torch::Tensor> &inputs, std::vector<std::tuple<torch::Tensor, torch::Tensor>> &target) {
        auto p = inputs.at(0);
        return {p.abs().mean(), torch::sigmoid(p).mean(), p.pow(2).mean()};
    }
private:
    long int class_num;
};

// gradients of all ranks, averaged in place
class GradientAverager {
public:
    GradientAverager(c10::intrusive_ptr<c10d::ProcessGroupGloo> pg) : pg_(std::move(pg)), world_(pg_->getSize()) {}
    void operator()(YOLOv5 &model) {
        for (auto &p : model->parameters()) {
            if (!p.grad().defined()) continue;
            std::vector<torch::Tensor> t{p.grad()};
            pg_->allreduce(t)->wait();
            p.grad().div_(world_);
        }
    }
    int world_size() const { return world_; }
private:
    c10::intrusive_ptr<c10d::ProcessGroupGloo> pg_;
    int world_;
};

void train(po::variables_map &vm, torch::Device &device, YOLOv5 &model, std::vector<transforms_Compose> &transform, const std::vector<std::string> class_names, const std::vector<std::vector<std::tuple<float, float>>> anchors) {

    size_t epoch, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, path, input_dir, ids_dir;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::tuple<torch::Tensor, torch::Tensor>>, std::vector<std::string>, std::vector<std::string>> mini_batch;
    torch::Tensor image, loss, loss_box, loss_obj, loss_class;
    std::vector<torch::Tensor> output;
    std::vector<std::tuple<torch::Tensor, torch::Tensor>> label;
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> losses;
    datasets::ImageFolderBBWithPaths dataset;
    DataLoader::ImageFolderBBWithPaths dataloader;
    std::vector<visualizer::graph> train_loss;
    progress::display *show_progress;

    // process group
    const int rank = std::atoi(std::getenv("RANK"));
    const int nprocs = std::atoi(std::getenv("WORLD_SIZE"));
    auto store = c10::make_intrusive<c10d::FileStore>(vm["dist_file"].as<std::string>(), nprocs);
    auto gloo_opts = c10d::ProcessGroupGloo::Options::create();
    gloo_opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, nprocs, gloo_opts);
    GradientAverager average_gradients(pg);

    input_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_in_dir"].as<std::string>() + "/rank" + std::to_string(rank);
    ids_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_out_dir"].as<std::string>() + "/rank" + std::to_string(rank);
    dataset = datasets::ImageFolderBBWithPaths(input_dir, ids_dir, transform);
    dataloader = DataLoader::ImageFolderBBWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);

    auto optimizer = torch::optim::SGD(model->parameters(), torch::optim::SGDOptions(vm["lr"].as<float>()).momentum(vm["momentum"].as<float>()).nesterov(true));
    auto criterion = Loss(anchors, (long int)vm["class_num"].as<size_t>());
    // nominal batch of 64 images per update, as in YOLOv5
    const size_t nbs = 64;
    const size_t accumulate = std::max<size_t>(1, nbs / (vm["batch_size"].as<size_t>() * nprocs));

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = std::vector<visualizer::graph>(1, visualizer::graph(checkpoint_dir + "/graph", "train_loss_all", {"Total"}));

    if (vm["train_load_epoch"].as<std::string>() == "") {
        model->apply(weights_init);
        start_epoch = 0;
    } else {
        path = checkpoint_dir + "/models/epoch_" + vm["train_load_epoch"].as<std::string>() + ".pth";  torch::load(model, path, device);
        path = checkpoint_dir + "/optims/epoch_" + vm["train_load_epoch"].as<std::string>() + ".pth";  torch::load(optimizer, path, device);
        start_epoch = std::stoi(vm["train_load_epoch"].as<std::string>());
    }
    {
        torch::NoGradGuard no_grad;
        for (auto &p : model->parameters()) {
            std::vector<torch::Tensor> t{p};
            pg->broadcast(t)->wait();
        }
    }
    ofs.open(checkpoint_dir + "/log/train_rank" + std::to_string(rank) + ".txt", std::ios::app);

    date = progress::separator_center("Train Loss (" + progress::current_date() + ")");
    if (rank == 0) std::cout << date << std::endl;
    ofs << date << std::endl;

    start_epoch++;
    total_iter = dataloader.get_count_max();
    total_epoch = vm["epochs"].as<size_t>();
    size_t ni = 0;           // integrated mini-batches since the start of training
    size_t last_opt_step = 0;
    optimizer.zero_grad();

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"box", "obj", "class"});

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            label = std::get<1>(mini_batch);
            output = model->forward(image);
            losses = criterion(output, label);
            loss_box = std::get<0>(losses) * vm["Lambda_box"].as<float>();
            loss_obj = std::get<1>(losses) * vm["Lambda_obj"].as<float>();
            loss_class = std::get<2>(losses) * vm["Lambda_class"].as<float>();
            loss = loss_box + loss_obj + loss_class;
            (loss / (float)accumulate).backward();
            ni++;

            if (ni - last_opt_step >= accumulate) {
                average_gradients(model);
                for (auto &p : model->parameters()) {
                    if (p.grad().defined()) p.grad().div_(average_gradients.world_size());
                }
                torch::nn::utils::clip_grad_norm_(model->parameters(), 10.0);
                optimizer.step();
                optimizer.zero_grad();
                last_opt_step = ni;
            }

            show_progress->increment({loss_box.item<float>(), loss_obj.item<float>(), loss_class.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "box:" << loss_box.item<float>() << "(ave:" << show_progress->get_ave(0) << ")" << std::endl;
        }

        train_loss.at(0).plot(epoch, {show_progress->get_ave(0) + show_progress->get_ave(1) + show_progress->get_ave(2)});
        delete show_progress;

        if (rank == 0 && epoch % vm["save_epoch"].as<size_t>() == 0) {
            path = checkpoint_dir + "/models/epoch_" + std::to_string(epoch) + ".pth";  torch::save(model, path);
            path = checkpoint_dir + "/optims/epoch_" + std::to_string(epoch) + ".pth";  torch::save(optimizer, path);
        }
    }

    ofs.close();
}
