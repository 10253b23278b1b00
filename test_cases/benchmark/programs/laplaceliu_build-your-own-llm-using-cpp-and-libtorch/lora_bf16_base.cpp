// Appendix E, memory-saving variant: the frozen GPT-2 backbone is stored in
// bfloat16, while the LoRA adapters (A, B) and the classification head are
// created afterwards in float32, so everything the optimizer updates, and
// its .grad, stays float32. Several batches are accumulated per AdamW step.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "llm_book.h"

namespace chE {

class LoRALayerImpl : public torch::nn::Module {
public:
    LoRALayerImpl(int64_t in_dim, int64_t out_dim, int64_t rank, double alpha) : scale_(alpha / rank) {
        A = register_parameter("A", torch::empty({in_dim, rank}, torch::kFloat32));
        torch::nn::init::kaiming_uniform_(A, std::sqrt(5.0));
        B = register_parameter("B", torch::zeros({rank, out_dim}, torch::kFloat32));
    }
    torch::Tensor forward(const torch::Tensor& x) { return x.to(torch::kFloat32).matmul(A).matmul(B) * scale_; }
    torch::Tensor A, B;

private:
    double scale_;
};
TORCH_MODULE(LoRALayer);

}  // namespace chE

// bf16 backbone (frozen) + float32 LoRA adapter on the pooled state + float32 head.
struct LoRASpamClassifierImpl : torch::nn::Module {
    LoRASpamClassifierImpl(ch4::GPTModel backbone, int64_t emb_dim, int64_t rank, double alpha) {
        gpt = register_module("gpt", backbone);
        adapter = register_module("adapter", chE::LoRALayer(emb_dim, emb_dim, rank, alpha));
        head = register_module("head", torch::nn::Linear(emb_dim, 2));
    }
    torch::Tensor forward(const torch::Tensor& x) {
        const int64_t seq_len = x.size(1);
        auto pos = torch::arange(seq_len, torch::TensorOptions().dtype(torch::kLong).device(x.device()));
        auto h = gpt->final_norm->forward(gpt->trf_blocks->forward(gpt->tok_emb->forward(x) + gpt->pos_emb->forward(pos)));
        auto last = h.select(1, seq_len - 1).to(torch::kFloat32);
        return head->forward(last + adapter->forward(last));
    }
    ch4::GPTModel gpt{nullptr};
    chE::LoRALayer adapter{nullptr};
    torch::nn::Linear head{nullptr};
};
TORCH_MODULE(LoRASpamClassifier);

struct SpamBatch {
    torch::Tensor inputs, labels;
};

double train_epoch(LoRASpamClassifier& model, const std::vector<SpamBatch>& batches, torch::optim::AdamW& opt,
                   int64_t accum_steps) {
    model->train();
    double total = 0.0;
    const size_t n = batches.size();
    for (size_t i = 0; i < n; ++i) {
        if (i % accum_steps == 0) opt.zero_grad();
        const size_t window = std::min<size_t>(accum_steps, n - (i / accum_steps) * accum_steps);
        auto logits = model->forward(batches[i].inputs);
        auto loss = torch::nn::functional::cross_entropy(logits, batches[i].labels);
        (loss / static_cast<double>(window)).backward();
        total += loss.item<double>();
        if ((i + 1) % accum_steps == 0 || i + 1 == n) opt.step();
    }
    return total / std::max<size_t>(n, 1);
}

int main(int argc, char** argv) {
    const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    const int64_t accum_steps = argc > 1 ? std::stoll(argv[1]) : 4;

    ch4::GPTConfig cfg;
    cfg.context_length = 1024;
    cfg.emb_dim = 1024;
    cfg.n_layers = 24;
    cfg.n_heads = 16;
    cfg.drop_rate = 0.0;
    cfg.qkv_bias = true;

    ch4::GPTModel backbone(cfg);
    for (auto& p : backbone->parameters()) p.set_requires_grad(false);
    backbone->to(device, torch::kBFloat16);

    LoRASpamClassifier model(backbone, cfg.emb_dim, /*rank=*/16, /*alpha=*/16.0);
    model->adapter->to(device);
    model->head->to(device);

    std::vector<torch::Tensor> trainable;
    for (auto& p : model->parameters()) {
        if (p.requires_grad()) trainable.push_back(p);
    }
    torch::optim::AdamW opt(trainable, torch::optim::AdamWOptions(5e-4).weight_decay(0.01));

    std::vector<SpamBatch> train_batches;
    for (int i = 0; i < 130; ++i) {
        train_batches.push_back({torch::randint(50257, {8, 120}, torch::kLong).to(device),
                                 torch::randint(2, {8}, torch::kLong).to(device)});
    }
    for (int ep = 1; ep <= 5; ++ep) {
        std::cout << "Ep " << ep << " | train_loss " << train_epoch(model, train_batches, opt, accum_steps) << "\n";
    }
    torch::save(model->adapter, "lora_adapter.pt");
    return 0;
}
