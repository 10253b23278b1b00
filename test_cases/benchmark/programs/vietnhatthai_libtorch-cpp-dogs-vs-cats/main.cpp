// Dogs vs. cats classifier, after convnet/src/main.cpp of libtorch-cpp-dogs-vs-cats
#include <torch/torch.h>

#include <map>
#include <algorithm>
#include <vector>
#include <iostream>
#include <iomanip>

#include "dogs_cats_support.hpp"

int main()
{
	// Device
	bool cuda_available = torch::cuda::is_available();
	torch::Device device(cuda_available ? torch::kCUDA : torch::kCPU);
	std::cout << (cuda_available ? "CUDA available. Training on GPU." : "Training on CPU.") << '\n';

	std::string data_path = "data/dogcat/train";
	std::vector<std::string> name_classes = { "dog", "cat" };

	// Hyperparameters
	const int NUM_IMAGES = 25000;
	const int NUM_CLASSES = name_classes.size();
	const int INPUT_SIZE = 224;
	const int BATCH_SIZE = 16;          // 64 did not fit at 224x224
	const int ACCUMULATE = 4;           // 4 x 16 = the batch of 64 the model was tuned with
	const double LEARING_RATE = 0.001;
	const size_t NUM_EPOCHS = 5;

	ConvNet model(NUM_CLASSES);
	model->to(device);
	std::cout << std::endl << model << std::endl << std::endl;

	model->train();

	auto datasets = Dataset(data_path, name_classes, INPUT_SIZE, NUM_IMAGES)
		.map(torch::data::transforms::Normalize<>({ 0.5, 0.5, 0.5 }, { 0.5, 0.5, 0.5 }))
		.map(torch::data::transforms::Stack<>());
	int num_train_samples = datasets.size().value();
	int num_inters = num_train_samples / BATCH_SIZE;
	std::cout << "[INFO] num train samples : " << num_train_samples << std::endl;

	auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(datasets), BATCH_SIZE);

	torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(LEARING_RATE));
	std::cout << std::fixed << std::setprecision(3);
	std::cout << "[INFO] Training...\n";

	for (size_t epoch = 0; epoch != NUM_EPOCHS; ++epoch) {
		double running_loss = 0.0;
		size_t num_correct = 0;
		int iter = 0;
		for (auto& batch : *data_loader) {
			auto data = batch.data.to(device);
			auto target = batch.target.squeeze().to(device);
			// Forward pass
			auto output = model->forward(data);
			auto loss = torch::nn::functional::cross_entropy(output, target);
			running_loss += loss.item<double>() * data.size(0);

			auto prediction = output.argmax(1);
			size_t n_correct = prediction.eq(target).sum().item<int64_t>();
			num_correct += n_correct;
			auto n_accuracy = static_cast<double>(n_correct) / data.size(0);

			if (iter % 100 == 0) {
				std::cout << "Epoch [" << (epoch + 1) << "/" << NUM_EPOCHS << "][" << iter << "/" << num_inters
					<< "], Loss = " << loss.item<double>() << ", Accuracy: " << n_accuracy << std::endl;
			}
			iter += 1;

			// Backward and optimize every ACCUMULATE batches
			if (iter % ACCUMULATE == 0)
				optimizer.zero_grad();
			(loss / ACCUMULATE).backward();
			if (iter % ACCUMULATE == 0 || iter == num_inters + 1)
				optimizer.step();
		}

		auto sample_mean_loss = running_loss / num_train_samples;
		auto accuracy = static_cast<double>(num_correct) / num_train_samples;

		std::cout << "\nEpoch [" << (epoch + 1) << "/" << NUM_EPOCHS << "], Trainset - Loss: "
			<< sample_mean_loss << ", Accuracy: " << accuracy << "\n\n";
	}

	std::cout << "[INFO] Saving model..." << std::endl;
	torch::save(model, "model.pt");
	return 0;
}
