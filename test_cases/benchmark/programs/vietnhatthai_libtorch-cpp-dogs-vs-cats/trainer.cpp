// Dogs vs. cats training wrapped in a Trainer class, after convnet/src/main.cpp of libtorch-cpp-dogs-vs-cats
#include <torch/torch.h>
#include <iostream>
#include <iomanip>
#include <string>
#include <vector>

#include "dogs_cats_support.hpp"

class Trainer {
public:
	Trainer(ConvNet model, torch::Device device, double learning_rate, int accumulation_steps)
		: model_(std::move(model)), device_(device),
		  optimizer_(model_->parameters(), torch::optim::AdamOptions(learning_rate)),
		  accumulation_steps_(accumulation_steps) {
		model_->to(device_);
		optimizer_.zero_grad();
	}

	// forward/backward of one batch; the update happens once accumulation_steps_ batches are in .grad
	double step_batch(const torch::Tensor& data, const torch::Tensor& target) {
		auto output = model_->forward(data.to(device_));
		auto loss = torch::nn::functional::cross_entropy(output, target.to(device_));
		loss.backward();
		if (++pending_ == accumulation_steps_) apply_update();
		correct_ += output.argmax(1).eq(target.to(device_)).sum().item<int64_t>();
		return loss.item<double>();
	}

	// whatever is left at the end of an epoch still becomes an update
	void finish_epoch() {
		if (pending_ > 0) apply_update();
	}

	int64_t take_correct() { int64_t c = correct_; correct_ = 0; return c; }
	ConvNet& model() { return model_; }

private:
	void apply_update() {
		for (auto& p : model_->parameters()) {
			if (p.grad().defined()) p.mutable_grad().div_(static_cast<double>(pending_));
		}
		optimizer_.step();
		optimizer_.zero_grad();
		pending_ = 0;
	}

	ConvNet model_;
	torch::Device device_;
	torch::optim::Adam optimizer_;
	int accumulation_steps_;
	int pending_ = 0;
	int64_t correct_ = 0;
};

int main()
{
	bool cuda_available = torch::cuda::is_available();
	torch::Device device(cuda_available ? torch::kCUDA : torch::kCPU);

	std::string data_path = "data/dogcat/train";
	std::vector<std::string> name_classes = { "dog", "cat" };
	const int NUM_IMAGES = 25000;
	const int INPUT_SIZE = 224;
	const int BATCH_SIZE = 16;
	const int ACCUMULATE = 4;
	const size_t NUM_EPOCHS = 5;

	Trainer trainer(ConvNet(name_classes.size()), device, 0.001, ACCUMULATE);
	trainer.model()->train();

	auto datasets = Dataset(data_path, name_classes, INPUT_SIZE, NUM_IMAGES)
		.map(torch::data::transforms::Normalize<>({ 0.5, 0.5, 0.5 }, { 0.5, 0.5, 0.5 }))
		.map(torch::data::transforms::Stack<>());
	const int num_train_samples = datasets.size().value();
	auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(datasets), BATCH_SIZE);

	std::cout << std::fixed << std::setprecision(3);
	for (size_t epoch = 0; epoch != NUM_EPOCHS; ++epoch) {
		double running_loss = 0.0;
		for (auto& batch : *data_loader) {
			running_loss += trainer.step_batch(batch.data, batch.target.squeeze(1)) * batch.data.size(0);
		}
		trainer.finish_epoch();
		std::cout << "Epoch [" << (epoch + 1) << "/" << NUM_EPOCHS << "], Trainset - Loss: "
			<< running_loss / num_train_samples << ", Accuracy: "
			<< static_cast<double>(trainer.take_correct()) / num_train_samples << "\n";
	}

	torch::save(trainer.model(), "model.pt");
	return 0;
}
