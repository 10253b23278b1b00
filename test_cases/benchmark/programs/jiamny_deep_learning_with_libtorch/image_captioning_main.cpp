// 17_ImageCaptioning: CNN encoder + attention LSTM decoder on Flickr8k
// ("Show, Attend and Tell"). The decoder is trained with teacher forcing and
// doubly stochastic attention regularisation. Batches of 16 images are
// accumulated `accumulation_steps` times per Adam step.
#include <torch/torch.h>

#include <chrono>
#include <iomanip>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

using torch::indexing::None;
using torch::indexing::Slice;

namespace scheduler {
// Multiplies the learning rate of every group by `factor` every `step_size` calls.
template <typename TOptimizer>
class StepLR {
public:
    StepLR(TOptimizer& optimizer, size_t step_size, double factor)
        : optimizer_(optimizer), step_size_(step_size), factor_(factor) {}
    void step() {
        if (++counter_ % step_size_ != 0) return;
        for (auto& group : optimizer_.param_groups()) {
            auto& options = static_cast<torch::optim::AdamOptions&>(group.options());
            options.lr(options.lr() * factor_);
        }
    }

private:
    TOptimizer& optimizer_;
    size_t step_size_;
    double factor_;
    size_t counter_ = 0;
};
}  // namespace scheduler

struct CaptionBatch {
    torch::Tensor images;           // [b, 3, 224, 224]
    torch::Tensor captions;         // [b, max_len] sorted by length, <start> ... <end> <pad>
    torch::Tensor caption_lengths;  // [b]
};

class EncoderCNNImpl : public torch::nn::Module {
public:
    EncoderCNNImpl(int64_t encoder_out_wh, int64_t encoder_out_size)
        : backbone(torch::nn::Conv2dOptions(3, encoder_out_size, 7).stride(4).padding(3)),
          pool(torch::nn::AdaptiveAvgPool2dOptions({encoder_out_wh, encoder_out_wh})) {
        register_module("backbone", backbone);
        register_module("pool", pool);
    }
    // [b, wh * wh, encoder_out_size]
    torch::Tensor forward(const torch::Tensor& x) {
        auto f = pool->forward(torch::relu(backbone->forward(x)));
        return f.flatten(2).transpose(1, 2);
    }

private:
    torch::nn::Conv2d backbone;
    torch::nn::AdaptiveAvgPool2d pool;
};
TORCH_MODULE(EncoderCNN);

class DecoderAttentionRNNImpl : public torch::nn::Module {
public:
    DecoderAttentionRNNImpl(int64_t embedding_size, int64_t hidden_size, int64_t vocab_size, int64_t encoder_out_size,
                            int64_t attention_size, double dropout)
        : embedding(vocab_size, embedding_size),
          lstm_cell(embedding_size + encoder_out_size, hidden_size),
          att_enc(encoder_out_size, attention_size),
          att_dec(hidden_size, attention_size),
          att_out(attention_size, 1),
          fc(hidden_size, vocab_size),
          drop(dropout),
          hidden_size_(hidden_size) {
        register_module("embedding", embedding);
        register_module("lstm_cell", lstm_cell);
        register_module("att_enc", att_enc);
        register_module("att_dec", att_dec);
        register_module("att_out", att_out);
        register_module("fc", fc);
        register_module("drop", drop);
    }

    // outputs [b, T, vocab], alphas [b, T, pixels]
    std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor& features, const torch::Tensor& captions,
                                                     const torch::Tensor& /*lengths*/) {
        const int64_t b = features.size(0), steps = captions.size(1);
        auto h = torch::zeros({b, hidden_size_}, features.options());
        auto c = torch::zeros_like(h);
        auto emb = embedding->forward(captions);
        std::vector<torch::Tensor> outs, alphas;
        for (int64_t t = 0; t < steps; ++t) {
            auto e = att_out->forward(torch::tanh(att_enc->forward(features) + att_dec->forward(h).unsqueeze(1)));
            auto alpha = torch::softmax(e.squeeze(2), 1);
            auto context = (features * alpha.unsqueeze(2)).sum(1);
            std::tie(h, c) = lstm_cell->forward(torch::cat({emb.select(1, t), context}, 1), std::make_tuple(h, c));
            outs.push_back(fc->forward(drop->forward(h)));
            alphas.push_back(alpha);
        }
        return {torch::stack(outs, 1), torch::stack(alphas, 1)};
    }

private:
    torch::nn::Embedding embedding;
    torch::nn::LSTMCell lstm_cell;
    torch::nn::Linear att_enc, att_dec, att_out, fc;
    torch::nn::Dropout drop;
    int64_t hidden_size_;
};
TORCH_MODULE(DecoderAttentionRNN);

std::vector<CaptionBatch> load_flickr8k_batches(const std::string& /*captions_file*/, const std::string& /*image_dir*/,
                                                int64_t batch_size, int64_t num_batches, int64_t vocab_size) {
    std::vector<CaptionBatch> batches;
    for (int64_t i = 0; i < num_batches; ++i) {
        auto lengths = std::get<0>(torch::randint(5, 20, {batch_size}, torch::kLong).sort(0, true));
        batches.push_back({torch::randn({batch_size, 3, 224, 224}),
                           torch::randint(4, vocab_size, {batch_size, 20}, torch::kLong), lengths});
    }
    return batches;
}

int main(int argc, char** argv) {
    std::cout << "Image Captioning\n\n";
    auto cuda_available = torch::cuda::is_available();
    torch::Device device(cuda_available ? torch::kCUDA : torch::kCPU);

    const int64_t batch_size = 16;
    const size_t num_epochs = 20;
    const double learning_rate = 4e-4;
    const int64_t accumulation_steps = argc > 1 ? std::stoll(argv[1]) : 4;
    const int64_t encoder_out_wh = 8, encoder_out_size = 512;
    const int64_t vocab_size = 2994;
    const double ds_regularization_factor = 1.0;
    const size_t train_log_steps = 50;
    const size_t lr_scheduler_stepsize = 5;
    const double lr_scheduler_factor = 0.5;

    auto train_batches = load_flickr8k_batches("Flickr8k.token.txt", "Flickr8k_Dataset", batch_size, 375, vocab_size);
    const size_t num_batches = train_batches.size();

    EncoderCNN encoder(encoder_out_wh, encoder_out_size);
    encoder->to(device);
    DecoderAttentionRNN decoder(256, 512, vocab_size, encoder_out_size, 512, 0.5);
    decoder->to(device);

    std::vector<torch::Tensor> parameters = encoder->parameters();
    auto decoder_parameters = decoder->parameters();
    parameters.insert(parameters.end(), decoder_parameters.begin(), decoder_parameters.end());

    auto criterion = [ds_regularization_factor](const torch::Tensor& output, const torch::Tensor& target,
                                                const torch::Tensor& alphas) -> torch::Tensor {
        auto result = torch::nn::functional::cross_entropy(output, target);
        if (ds_regularization_factor > 0) {
            result += ds_regularization_factor * (1.0 - alphas.sum(1)).pow(2).mean();
        }
        return result;
    };

    torch::optim::Adam optimizer(parameters, torch::optim::AdamOptions(learning_rate));
    scheduler::StepLR<decltype(optimizer)> scheduler(optimizer, lr_scheduler_stepsize, lr_scheduler_factor);

    std::cout << std::fixed << std::setprecision(4) << "Training...\n";
    for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
        double running_loss = 0;
        size_t num_correct = 0;
        size_t output_packed_length_sum = 0;
        const auto start_time = std::chrono::high_resolution_clock::now();

        for (size_t batch_index = 0; batch_index < num_batches; ++batch_index) {
            auto& batch = train_batches[batch_index];
            auto images = batch.images.to(device);
            auto input_captions = batch.captions.index({Slice(), Slice(0, -1)}).to(device);
            auto caption_lengths = batch.caption_lengths.sub(1);
            auto target_captions = batch.captions.index({Slice(), Slice(1, None)});
            auto packed_targets =
                torch::nn::utils::rnn::pack_padded_sequence(target_captions, caption_lengths, true).data().to(device);

            auto features = encoder->forward(images);
            torch::Tensor outputs, alphas;
            std::tie(outputs, alphas) = decoder->forward(features, input_captions, caption_lengths);
            auto packed_outputs = torch::nn::utils::rnn::pack_padded_sequence(outputs, caption_lengths, true).data();

            auto loss = criterion(packed_outputs, packed_targets, alphas) / accumulation_steps;

            // Backward pass and optimize
            decoder->zero_grad();
            encoder->zero_grad();
            loss.backward();
            if ((batch_index + 1) % accumulation_steps == 0 || batch_index + 1 == num_batches) {
                optimizer.step();
            }

            running_loss += loss.item<double>() * accumulation_steps * packed_outputs.size(0);
            num_correct += packed_outputs.argmax(1).eq(packed_targets).sum().item<int64_t>();
            output_packed_length_sum += packed_outputs.size(0);

            if ((batch_index + 1) % train_log_steps == 0) {
                std::cout << "Epoch [" << epoch + 1 << "/" << num_epochs << "], Step [" << batch_index + 1 << "/"
                          << num_batches << "], Loss: " << loss.item<double>() * accumulation_steps << "\n";
            }
        }

        const auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(
                                 std::chrono::high_resolution_clock::now() - start_time)
                                 .count();
        std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs
                  << "], Trainset - Loss: " << running_loss / output_packed_length_sum
                  << ", Accuracy: " << static_cast<double>(num_correct) / output_packed_length_sum
                  << ", Duration: " << elapsed << "s\n";
        scheduler.step();
    }
    torch::save(encoder, "encoder.pt");
    torch::save(decoder, "decoder.pt");
    std::cout << "Training finished!\n";
}
