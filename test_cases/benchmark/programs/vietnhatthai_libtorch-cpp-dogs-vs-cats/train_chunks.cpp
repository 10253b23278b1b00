// train() of the dogs vs. cats ConvNet with each batch run in slices, after convnet/src/main.cpp of libtorch-cpp-dogs-vs-cats
#include <torch/torch.h>
#include <iostream>
#include <iomanip>
#include <string>
#include <vector>

#include "dogs_cats_support.hpp"

ConvNet train(ConvNet model, torch::Device device,
	size_t num_epochs, int batch_size, double learning_rate)
{
	const std::string data_path = "data/dogcat/train";
	const std::vector<std::string> name_classes = { "dog", "cat" };
	const int INPUT_SIZE = 224;
	const int NUM_IMAGES = 25000;
	const int64_t SLICE = 8;   // images per forward pass that fit on the card

	model->to(device);
	model->train();

	auto datasets = Dataset(data_path, name_classes, INPUT_SIZE, NUM_IMAGES)
		.map(torch::data::transforms::Normalize<>({ 0.5, 0.5, 0.5 }, { 0.5, 0.5, 0.5 }))
		.map(torch::data::transforms::Stack<>());
	const int num_train_samples = datasets.size().value();
	const int num_inters = num_train_samples / batch_size;
	auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(datasets), batch_size);

	torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(learning_rate));
	std::cout << std::fixed << std::setprecision(3);
	std::cout << "[INFO] Training...\n";

	for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
		double running_loss = 0.0;
		size_t num_correct = 0;
		int iter = 0;
		for (auto& batch : *data_loader) {
			auto data = batch.data.to(device);
			auto target = batch.target.squeeze(1).to(device);

			// the batch is one update; it goes through the network SLICE images at a time
			optimizer.zero_grad();
			auto data_slices = data.split(SLICE);
			auto target_slices = target.split(SLICE);
			for (size_t s = 0; s < data_slices.size(); ++s) {
				auto output = model->forward(data_slices[s]);
				auto loss = torch::nn::functional::cross_entropy(output, target_slices[s]);
				(loss * (data_slices[s].size(0) / static_cast<double>(SLICE))).backward();

				running_loss += loss.item<double>() * data_slices[s].size(0);
				num_correct += output.argmax(1).eq(target_slices[s]).sum().item<int64_t>();
			}
			optimizer.step();

			if (iter % 100 == 0) {
				std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs << "][" << iter << "/" << num_inters << "]" << std::endl;
			}
			iter += 1;
		}

		std::cout << "\nEpoch [" << (epoch + 1) << "/" << num_epochs << "], Trainset - Loss: "
			<< running_loss / num_train_samples << ", Accuracy: "
			<< static_cast<double>(num_correct) / num_train_samples << "\n\n";
	}
	return model;
}
