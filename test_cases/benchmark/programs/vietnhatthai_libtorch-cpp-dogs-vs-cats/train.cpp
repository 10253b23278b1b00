// train() of the dogs vs. cats ConvNet, declared in convnet/include/train.h of libtorch-cpp-dogs-vs-cats
#include <torch/torch.h>
#include <iostream>
#include <iomanip>
#include <string>
#include <vector>

#include "dogs_cats_support.hpp"

namespace {
const std::string kDataPath = "data/dogcat/train";
const std::vector<std::string> kNameClasses = { "dog", "cat" };
const int kInputSize = 224;
const int kNumImages = 25000;
const int kAccumulate = 8;   // batches summed into one SGD step
}

ConvNet train(ConvNet model, torch::Device device,
	size_t num_epochs, int batch_size, double learning_rate)
{
	model->to(device);
	model->train();

	auto datasets = Dataset(kDataPath, kNameClasses, kInputSize, kNumImages)
		.map(torch::data::transforms::Normalize<>({ 0.5, 0.5, 0.5 }, { 0.5, 0.5, 0.5 }))
		.map(torch::data::transforms::Stack<>());
	const int num_train_samples = datasets.size().value();
	const int num_inters = num_train_samples / batch_size;
	auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(datasets), batch_size);

	// plain SGD: lr * (sum of 8 gradients) / 8 is the same update as dividing every loss by 8
	torch::optim::SGD optimizer(model->parameters(),
		torch::optim::SGDOptions(learning_rate / kAccumulate).momentum(0.9));

	std::cout << std::fixed << std::setprecision(3);
	std::cout << "[INFO] Training...\n";

	long global_step = 0;
	optimizer.zero_grad();
	for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
		double running_loss = 0.0;
		size_t num_correct = 0;
		int iter = 0;
		for (auto& batch : *data_loader) {
			auto data = batch.data.to(device);
			auto target = batch.target.squeeze().to(device);

			auto output = model->forward(data);
			auto loss = torch::nn::functional::cross_entropy(output, target);
			loss.backward();
			++global_step;

			if (global_step % kAccumulate == 0) {
				optimizer.step();
				optimizer.zero_grad();
			}

			running_loss += loss.item<double>() * data.size(0);
			size_t n_correct = output.argmax(1).eq(target).sum().item<int64_t>();
			num_correct += n_correct;
			if (iter % 100 == 0) {
				std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs << "][" << iter << "/" << num_inters
					<< "], Loss = " << loss.item<double>() << ", Accuracy: " << static_cast<double>(n_correct) / data.size(0) << std::endl;
			}
			iter += 1;
		}

		std::cout << "\nEpoch [" << (epoch + 1) << "/" << num_epochs << "], Trainset - Loss: "
			<< running_loss / num_train_samples << ", Accuracy: "
			<< static_cast<double>(num_correct) / num_train_samples << "\n\n";
		torch::save(model, "model_epoch" + std::to_string(epoch + 1) + ".pt");
	}
	return model;
}
