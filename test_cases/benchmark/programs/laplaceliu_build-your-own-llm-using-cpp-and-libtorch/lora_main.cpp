// Appendix E: parameter-efficient fine-tuning with LoRA.
// LoRALayer (A: kaiming, B: zeros, scale alpha/rank), LinearWithLoRA, freezing
// of every non-LoRA weight, then spam classification on the last token.
// The base model is kept in bfloat16 to fit the 355M checkpoint; batches are
// small, so several of them are accumulated per AdamW update.
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "llm_book.h"

namespace chE {

class LoRALayerImpl : public torch::nn::Module {
public:
    LoRALayerImpl(int64_t in_dim, int64_t out_dim, int64_t rank, double alpha)
        : rank_(rank), alpha_(alpha) {
        TORCH_CHECK(rank > 0, "LoRALayer needs rank >= 1");
        A_ = register_parameter("A", torch::empty({in_dim, rank}));
        torch::nn::init::kaiming_uniform_(A_, std::sqrt(5.0));
        B_ = register_parameter("B", torch::zeros({rank, out_dim}));
    }
    torch::Tensor forward(const torch::Tensor& x) {
        return x.matmul(A_).matmul(B_) * (alpha_ / static_cast<double>(rank_));
    }
    torch::Tensor A_, B_;

private:
    int64_t rank_;
    double alpha_;
};
TORCH_MODULE(LoRALayer);

class LinearWithLoRAImpl : public torch::nn::Module {
public:
    LinearWithLoRAImpl(torch::nn::Linear linear, int64_t rank, double alpha) {
        linear_ = register_module("linear", linear);
        lora_ = register_module("lora", LoRALayer(linear->weight.size(1), linear->weight.size(0), rank, alpha));
        for (auto& p : linear_->parameters()) p.set_requires_grad(false);
    }
    torch::Tensor forward(const torch::Tensor& x) { return linear_->forward(x) + lora_->forward(x); }

    torch::nn::Linear linear_{nullptr};
    LoRALayer lora_{nullptr};
};
TORCH_MODULE(LinearWithLoRA);

// GPT backbone plus a LoRA-adapted 2-class head on the last hidden state.
struct GPTModelWithLoRAImpl : torch::nn::Module {
    GPTModelWithLoRAImpl(const ch4::GPTConfig& cfg, int64_t rank, double alpha) {
        gpt = register_module("gpt", ch4::GPTModel(cfg));
        out_head = register_module("out_head", LinearWithLoRA(torch::nn::Linear(cfg.emb_dim, 2), rank, alpha));
    }
    torch::Tensor forward_hidden(const torch::Tensor& x) {
        const int64_t seq_len = x.size(1);
        auto pos = torch::arange(seq_len, torch::TensorOptions().dtype(torch::kLong).device(x.device()));
        auto h = gpt->drop_emb->forward(gpt->tok_emb->forward(x) + gpt->pos_emb->forward(pos));
        return gpt->final_norm->forward(gpt->trf_blocks->forward(h));
    }
    ch4::GPTModel gpt{nullptr};
    LinearWithLoRA out_head{nullptr};
};
TORCH_MODULE(GPTModelWithLoRA);

inline int64_t freeze_non_lora_parameters(torch::nn::Module& model) {
    int64_t trainable = 0;
    for (auto& pair : model.named_parameters(/*recurse=*/true)) {
        const bool is_lora = pair.key().find(".lora.A") != std::string::npos ||
                             pair.key().find(".lora.B") != std::string::npos;
        pair.value().set_requires_grad(is_lora);
        if (is_lora) trainable += pair.value().numel();
    }
    return trainable;
}

inline std::pair<int64_t, int64_t> count_trainable_parameters(torch::nn::Module& model) {
    int64_t total = 0, trainable = 0;
    for (auto& pair : model.named_parameters(true)) {
        total += pair.value().numel();
        if (pair.value().requires_grad()) trainable += pair.value().numel();
    }
    return {trainable, total};
}

}  // namespace chE

using chE::GPTModelWithLoRA;

struct Batch {
    std::vector<std::vector<int64_t>> ids_list;
    std::vector<int64_t> labels;
};

static torch::Tensor classify_forward(GPTModelWithLoRA& model, const std::vector<int64_t>& ids,
                                      const torch::Device& device) {
    auto x = torch::tensor(ids, torch::TensorOptions().dtype(torch::kLong)).unsqueeze(0).to(device);
    auto h = model->forward_hidden(x);
    auto last = h.select(1, h.size(1) - 1);
    return model->out_head->forward(last);
}

// One pass over the batches; `opt` steps once every `accum_steps` batches and
// once more for a shorter window left at the end.
static double train_one_epoch(GPTModelWithLoRA& model, const std::vector<Batch>& batches,
                              torch::optim::Optimizer& opt, const torch::Device& device, int64_t accum_steps) {
    model->train();
    double total_loss = 0.0;
    int64_t n = 0;
    int64_t remaining = accum_steps;
    opt.zero_grad();
    for (const auto& b : batches) {
        std::vector<torch::Tensor> logits_list;
        for (size_t i = 0; i < b.ids_list.size(); ++i) logits_list.push_back(classify_forward(model, b.ids_list[i], device));
        auto logits = torch::cat(logits_list, 0).to(torch::kFloat32);
        auto labels = torch::tensor(b.labels, torch::TensorOptions().dtype(torch::kLong)).to(device);
        auto loss = torch::cross_entropy_loss(logits, labels) / static_cast<double>(accum_steps);
        loss.backward();
        total_loss += loss.item<double>() * accum_steps;
        ++n;

        if (--remaining == 0) {
            opt.step();
            opt.zero_grad();
            remaining = accum_steps;
        }
    }
    if (remaining != accum_steps) {
        opt.step();
        opt.zero_grad();
    }
    return total_loss / std::max<int64_t>(n, 1);
}

static double eval_accuracy(GPTModelWithLoRA& model, const std::vector<Batch>& batches, const torch::Device& device) {
    model->eval();
    int64_t correct = 0, total = 0;
    {
        torch::NoGradGuard no_grad;
        for (const auto& b : batches) {
            for (size_t i = 0; i < b.ids_list.size(); ++i) {
                const int64_t pred = classify_forward(model, b.ids_list[i], device).argmax(-1).item<int64_t>();
                correct += pred == b.labels[i];
                ++total;
            }
        }
    }
    model->train();
    return total ? static_cast<double>(correct) / total : 0.0;
}

int main(int argc, char** argv) {
    const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    const int64_t rank = 16;
    const double alpha = 16.0;
    const int64_t accum_steps = argc > 1 ? std::stoll(argv[1]) : 8;
    const double lr = 5e-4;

    ch4::GPTConfig cfg;
    cfg.context_length = 1024;
    cfg.emb_dim = 1024;
    cfg.n_layers = 24;
    cfg.n_heads = 16;
    cfg.drop_rate = 0.0;
    cfg.qkv_bias = true;

    GPTModelWithLoRA model(cfg, rank, alpha);
    chE::freeze_non_lora_parameters(*model);
    auto [trainable, total] = chE::count_trainable_parameters(*model);
    std::cout << "[appendix-E] LoRA only: trainable=" << trainable << " / " << total << "\n";
    model->to(device, torch::kBFloat16);

    std::vector<Batch> train_batches(120), test_batches(20);
    for (auto* set : {&train_batches, &test_batches}) {
        for (auto& b : *set) {
            for (int k = 0; k < 2; ++k) {
                b.ids_list.push_back(std::vector<int64_t>(64, 50256));
                b.labels.push_back(k);
            }
        }
    }

    std::vector<torch::Tensor> lora_params;
    for (auto& p : model->parameters()) if (p.requires_grad()) lora_params.push_back(p);
    auto optim_lora = torch::optim::AdamW(lora_params, torch::optim::AdamWOptions(lr).weight_decay(0.0));

    for (int ep = 1; ep <= 3; ++ep) {
        const double loss = train_one_epoch(model, train_batches, optim_lora, device, accum_steps);
        std::cout << "Ep " << ep << " | train_loss " << loss << "\n";
    }
    std::cout << "[appendix-E] LoRA test_acc = " << eval_accuracy(model, test_batches, device) * 100.0 << "%\n";
    return 0;
}
