// 18_RecurrentNeuralNetwork/RNN_LM: word-level LSTM language model on Penn
// Treebank with truncated backpropagation through time. To train with longer
// effective sequences on a small GPU, the gradients of `accumulate_chunks`
// consecutive BPTT chunks are summed before each Adam step.
#include <torch/torch.h>

#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

using torch::indexing::Slice;

namespace data_utils {

class Dictionary {
public:
    int64_t add_word(const std::string& word) {
        auto it = word_to_index_.find(word);
        if (it != word_to_index_.end()) return it->second;
        index_to_word_.push_back(word);
        word_to_index_[word] = static_cast<int64_t>(index_to_word_.size()) - 1;
        return word_to_index_[word];
    }
    const std::string& word_at_index(int64_t index) const { return index_to_word_.at(index); }
    int64_t size() const { return static_cast<int64_t>(index_to_word_.size()); }

private:
    std::unordered_map<std::string, int64_t> word_to_index_;
    std::vector<std::string> index_to_word_;
};

class Corpus {
public:
    explicit Corpus(const std::string& path) {
        std::ifstream file(path);
        std::string line, word;
        while (std::getline(file, line)) {
            std::istringstream ss(line);
            while (ss >> word) ids_.push_back(dictionary_.add_word(word));
            ids_.push_back(dictionary_.add_word("<eos>"));
        }
    }
    // [batch_size, tokens / batch_size]
    torch::Tensor get_data(int64_t batch_size) {
        const int64_t num_batches = static_cast<int64_t>(ids_.size()) / batch_size;
        return torch::tensor(ids_).narrow(0, 0, num_batches * batch_size).view({batch_size, -1});
    }
    const Dictionary& get_dictionary() const { return dictionary_; }

private:
    Dictionary dictionary_;
    std::vector<int64_t> ids_;
};

}  // namespace data_utils

class RNNLMImpl : public torch::nn::Module {
public:
    RNNLMImpl(int64_t vocab_size, int64_t embed_size, int64_t hidden_size, int64_t num_layers)
        : embed(vocab_size, embed_size),
          lstm(torch::nn::LSTMOptions(embed_size, hidden_size).num_layers(num_layers).batch_first(true)),
          linear(hidden_size, vocab_size) {
        register_module("embed", embed);
        register_module("lstm", lstm);
        register_module("linear", linear);
    }

    std::tuple<torch::Tensor, std::tuple<torch::Tensor, torch::Tensor>> forward(
        torch::Tensor x, std::tuple<torch::Tensor, torch::Tensor> hx) {
        auto [out, state] = lstm->forward(embed->forward(x), hx);
        auto logits = linear->forward(out.reshape({-1, out.size(2)}));
        return {torch::log_softmax(logits, 1), state};
    }

private:
    torch::nn::Embedding embed;
    torch::nn::LSTM lstm;
    torch::nn::Linear linear;
};
TORCH_MODULE(RNNLM);

using data_utils::Corpus;

int main(int argc, char** argv) {
    std::cout << "Language Model\n\n";
    auto cuda_available = torch::cuda::is_available();
    torch::Device device(cuda_available ? torch::kCUDA : torch::kCPU);
    std::cout << (cuda_available ? "CUDA available. Training on GPU." : "Training on CPU.") << '\n';

    // Hyper parameters
    const int64_t embed_size = 128;
    const int64_t hidden_size = 1024;
    const int64_t num_layers = 1;
    const int64_t num_samples = 1000;
    const int64_t batch_size = 20;
    const int64_t sequence_length = 30;
    const int64_t accumulate_chunks = argc > 2 ? std::stoll(argv[2]) : 4;
    const size_t num_epochs = 10;
    const double learning_rate = 0.002;

    const std::string penn_treebank_data_path = argc > 1 ? argv[1] : "./data/penntreebank/train.txt";
    Corpus corpus(penn_treebank_data_path);
    auto ids = corpus.get_data(batch_size);
    auto vocab_size = corpus.get_dictionary().size();
    const std::string sample_output_path = "./sample.txt";

    RNNLM model(vocab_size, embed_size, hidden_size, num_layers);
    model->to(device);
    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(learning_rate));

    std::cout << std::fixed << std::setprecision(4);
    std::cout << "Training...\n";

    for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
        double running_loss = 0.0;
        double running_perplexity = 0.0;
        size_t running_num_samples = 0;

        auto h = torch::zeros({num_layers, batch_size, hidden_size}).to(device).detach();
        auto c = torch::zeros({num_layers, batch_size, hidden_size}).to(device).detach();

        optimizer.zero_grad();
        int64_t chunk = 0;
        for (int64_t i = 0; i < ids.size(1) - sequence_length; i += sequence_length) {
            auto data = ids.index({Slice(), Slice(i, i + sequence_length)}).to(device);
            auto target = ids.index({Slice(), Slice(i + 1, i + 1 + sequence_length)}).reshape(-1).to(device);

            torch::Tensor output;
            std::forward_as_tuple(output, std::tie(h, c)) = model->forward(data, std::make_tuple(h, c));
            h.detach_();
            c.detach_();

            auto loss = torch::nn::functional::nll_loss(output, target);
            running_loss += loss.item<double>() * data.size(0);
            running_perplexity += torch::exp(loss).item<double>() * data.size(0);
            running_num_samples += data.size(0);

            // Backward pass; the chunk's share of the window
            (loss / accumulate_chunks).backward();
            torch::nn::utils::clip_grad_norm_(model->parameters(), 0.5);

            if (++chunk % accumulate_chunks == 0) {
                optimizer.step();
                optimizer.zero_grad();
            }
        }
        if (chunk % accumulate_chunks != 0) {
            optimizer.step();
            optimizer.zero_grad();
        }

        std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs
                  << "], Trainset - Loss: " << running_loss / running_num_samples
                  << ", Perplexity: " << running_perplexity / running_num_samples << '\n';
    }

    std::cout << "Training finished!\n\nGenerating samples...\n";
    model->eval();
    torch::NoGradGuard no_grad;
    std::ofstream sample_output_file(sample_output_path);
    auto h = torch::zeros({num_layers, 1, hidden_size}).to(device);
    auto c = torch::zeros({num_layers, 1, hidden_size}).to(device);
    auto prob = torch::ones(vocab_size);
    auto data = prob.multinomial(1).unsqueeze(1).to(device);
    for (int64_t i = 0; i != num_samples; ++i) {
        torch::Tensor output;
        std::forward_as_tuple(output, std::tie(h, c)) = model->forward(data, std::make_tuple(h, c));
        prob = output.exp();
        auto word_id = prob.multinomial(1).item();
        data.fill_(word_id);
        auto word = corpus.get_dictionary().word_at_index(word_id.toLong());
        sample_output_file << ((word == "<eos>") ? "\n" : word + " ");
    }
    std::cout << "Finished generating samples!\nSaved output to " << sample_output_path << "\n";
}
