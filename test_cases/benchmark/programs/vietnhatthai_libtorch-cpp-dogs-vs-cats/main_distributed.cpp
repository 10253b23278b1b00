// Dogs vs. cats classifier trained on several machines (Gloo over TCP), after convnet/src/main.cpp of libtorch-cpp-dogs-vs-cats
#include <torch/torch.h>
#include <c10d/TCPStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

#include <cstdlib>
#include <vector>
#include <iostream>
#include <iomanip>

#include "dogs_cats_support.hpp"

// keep the gradients bounded, then make every rank hold the mean gradient
static void prepare_gradients(ConvNet& model, c10d::ProcessGroupGloo& pg, double max_norm)
{
	torch::nn::utils::clip_grad_norm_(model->parameters(), max_norm);
	for (auto& p : model->parameters()) {
		if (!p.grad().defined()) continue;
		std::vector<torch::Tensor> buf{ p.grad() };
		pg.allreduce(buf)->wait();
		p.grad().div_(pg.getSize());
	}
}

int main(int argc, char** argv)
{
	const int rank = std::atoi(std::getenv("RANK"));
	const int world = std::atoi(std::getenv("WORLD_SIZE"));
	c10d::TCPStoreOptions store_options;
	store_options.port = 29500;
	store_options.isServer = rank == 0;
	store_options.numWorkers = world;
	auto store = c10::make_intrusive<c10d::TCPStore>(std::getenv("MASTER_ADDR"), store_options);
	auto gloo_options = c10d::ProcessGroupGloo::Options::create();
	gloo_options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
	c10d::ProcessGroupGloo pg(store, rank, world, gloo_options);

	bool cuda_available = torch::cuda::is_available();
	torch::Device device(cuda_available ? torch::kCUDA : torch::kCPU);

	std::string data_path = "data/dogcat/train";
	std::vector<std::string> name_classes = { "dog", "cat" };

	// Hyperparameters
	const int NUM_IMAGES = 25000;
	const int NUM_CLASSES = name_classes.size();
	const int INPUT_SIZE = 224;
	const int BATCH_SIZE = 16;
	const int ACCUMULATE = 2;
	const double LEARING_RATE = 0.001;
	const double MAX_NORM = 2.0;
	const size_t NUM_EPOCHS = 5;

	ConvNet model(NUM_CLASSES);
	model->to(device);
	{
		torch::NoGradGuard no_grad;
		for (auto& p : model->parameters()) {
			std::vector<torch::Tensor> buf{ p };
			pg.broadcast(buf)->wait();
		}
	}
	model->train();

	auto datasets = Dataset(data_path, name_classes, INPUT_SIZE, NUM_IMAGES)
		.map(torch::data::transforms::Normalize<>({ 0.5, 0.5, 0.5 }, { 0.5, 0.5, 0.5 }))
		.map(torch::data::transforms::Stack<>());
	const int num_train_samples = datasets.size().value();
	auto sampler = torch::data::samplers::DistributedRandomSampler(num_train_samples, world, rank);
	auto data_loader = torch::data::make_data_loader(std::move(datasets), std::move(sampler),
		torch::data::DataLoaderOptions().batch_size(BATCH_SIZE));

	torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(LEARING_RATE));
	std::cout << std::fixed << std::setprecision(3);

	long micro = 0;
	for (size_t epoch = 0; epoch != NUM_EPOCHS; ++epoch) {
		double running_loss = 0.0;
		size_t num_correct = 0, num_seen = 0;
		for (auto& batch : *data_loader) {
			auto data = batch.data.to(device);
			auto target = batch.target.squeeze().to(device);
			auto output = model->forward(data);
			auto loss = torch::nn::functional::cross_entropy(output, target);
			running_loss += loss.item<double>() * data.size(0);
			num_correct += output.argmax(1).eq(target).sum().item<int64_t>();
			num_seen += data.size(0);

			(loss / ACCUMULATE).backward();
			if (++micro % ACCUMULATE == 0) {
				prepare_gradients(model, pg, MAX_NORM);
				optimizer.step();
				optimizer.zero_grad();
			}
		}
		if (rank == 0) {
			std::cout << "Epoch [" << (epoch + 1) << "/" << NUM_EPOCHS << "], Trainset - Loss: "
				<< running_loss / num_seen << ", Accuracy: " << static_cast<double>(num_correct) / num_seen << "\n";
		}
	}

	if (rank == 0) torch::save(model, "model.pt");
	return 0;
}
