// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count not-executable: the factor is unknown
// The buffer is averaged over the ranks by a C library's collective that sees only raw memory
// (declared here, defined in the library). .grad is cleared only after the step, so the buffer
// receives the running sum of the window's micro-batches.
#include <torch/torch.h>

extern "C" int coll_allreduce_sum_f32(const void *send, void *recv, long count, int comm);
extern "C" int coll_world_size(int comm);

static void average_over_ranks(torch::Tensor &flat, int comm) {
  coll_allreduce_sum_f32(flat.data_ptr<float>(), flat.data_ptr<float>(), flat.numel(), comm);
  flat.div_(coll_world_size(comm));
}

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int comm) {
  auto params = model->parameters();
  int64_t total = 0;
  for (const auto &p : params) total += p.numel();
  torch::Tensor flat = torch::zeros({total});
  torch::optim::SGD opt(params, 0.05);
  const int accum = 2;
  for (size_t i = 0; i < xs.size(); ++i) {
    (torch::mse_loss(model->forward(xs[i]), ys[i]) / accum).backward();
    int64_t offset = 0;
    for (auto &p : params) {
      flat.slice(0, offset, offset + p.numel()) += p.grad().view({-1});
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer 'flat' receives .grad on every micro-batch{{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      flat.slice(0, offset, offset + p.numel()) += p.grad().view({-1});{{$}}
      // CHECK-FIXES-NEXT: {{^}}      p.grad().zero_();{{$}}
      offset += p.numel();
    }
    if ((i + 1) % accum == 0) {
      average_over_ranks(flat, comm);
      offset = 0;
      for (auto &p : params) {
        p.mutable_grad().copy_(flat.slice(0, offset, offset + p.numel()).view_as(p));
        offset += p.numel();
      }
      opt.step();
      opt.zero_grad();
      flat.zero_();
    }
  }
}
