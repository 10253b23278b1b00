// train() of the dogs vs. cats ConvNet with Adagrad and accumulated batches, declared in convnet/include/train.h
#include <torch/torch.h>
#include <iostream>
#include <iomanip>
#include <string>
#include <vector>

#include "dogs_cats_support.hpp"

ConvNet train(ConvNet model, torch::Device device,
	size_t num_epochs, int batch_size, double learning_rate)
{
	const std::vector<std::string> name_classes = { "dog", "cat" };
	const int accumulation = 8;

	model->to(device);
	model->train();

	auto datasets = Dataset("data/dogcat/train", name_classes, 224, 25000)
		.map(torch::data::transforms::Normalize<>({ 0.5, 0.5, 0.5 }, { 0.5, 0.5, 0.5 }))
		.map(torch::data::transforms::Stack<>());
	const int num_train_samples = datasets.size().value();
	const int num_batches = (num_train_samples + batch_size - 1) / batch_size;
	auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(datasets), batch_size);

	// summing `accumulation` batch gradients makes them larger, so the rate is scaled down to match
	torch::optim::Adagrad optimizer(model->parameters(),
		torch::optim::AdagradOptions(learning_rate / accumulation).weight_decay(1e-4));

	std::cout << std::fixed << std::setprecision(3);
	for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
		double running_loss = 0.0;
		size_t num_correct = 0;
		int iter = 0;
		optimizer.zero_grad();
		for (auto& batch : *data_loader) {
			auto data = batch.data.to(device);
			auto target = batch.target.squeeze(1).to(device);
			auto output = model->forward(data);
			auto loss = torch::nn::functional::cross_entropy(output, target);
			loss.backward();
			++iter;

			const bool last = iter == num_batches;
			if (iter % accumulation == 0 || last) {
				optimizer.step();
				optimizer.zero_grad();
			}

			running_loss += loss.item<double>() * data.size(0);
			num_correct += output.argmax(1).eq(target).sum().item<int64_t>();
			if (iter % 100 == 0) {
				std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs << "][" << iter << "/" << num_batches
					<< "], Loss = " << loss.item<double>() << std::endl;
			}
		}
		std::cout << "\nEpoch [" << (epoch + 1) << "/" << num_epochs << "], Trainset - Loss: "
			<< running_loss / num_train_samples << ", Accuracy: "
			<< static_cast<double>(num_correct) / num_train_samples << "\n\n";
	}
	return model;
}
