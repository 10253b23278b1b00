// Hand-made nasty input: deeply nested loops, a template whose step() and
// backward() depend on its parameter, macros that expand to the training
// calls, a recursive helper, an accumulation counter shadowed in an inner
// scope and a guard on a lambda's result.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#define STEP(opt) (opt).step()
#define CLEAR(opt) do { (opt).zero_grad(); } while (0)
#define EVERY(n, i) if (((i) + 1) % (n) == 0)
#define TWICE(x) x x

struct Net : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
};

template <typename Optimizer, typename Loss>
void microStep(Optimizer &optimizer, Loss loss, int i, int n) {
  loss.backward();
  EVERY(n, i) {
    STEP(optimizer);
    CLEAR(optimizer);
  }
}

template <int Depth>
struct Recurse {
  template <typename O>
  static void run(O &optimizer, torch::Tensor x, int n) {
    for (int i = 0; i < Depth; ++i) {
      Recurse<Depth - 1>::run(optimizer, x, n);
      x.sum().backward();
      if (i % n == 0)
        optimizer.step();
    }
  }
};
template <>
struct Recurse<0> {
  template <typename O>
  static void run(O &, torch::Tensor, int) {}
};

int helper(torch::optim::SGD &optimizer, int depth) {
  if (depth == 0)
    return 0;
  optimizer.step();
  return helper(optimizer, depth - 1) + 1;
}

void train(Net &net, torch::optim::SGD &optimizer, c10d::ProcessGroup &group) {
  const int accum_steps = 4;
  int micro = 0;
  auto boundary = [&](int i) { return (i + 1) % accum_steps == 0; };
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 2; ++c)
        for (int d = 0; d < 2; ++d)
          for (int e = 0; e < 2; ++e)
            for (int i = 0; i < 16; ++i) {
              int micro = i;  // shadows the outer counter
              auto loss = net.forward(torch::randn({4, 8})).sum() / accum_steps;
              TWICE(loss.backward();)
              if (boundary(i)) {
                std::vector<torch::Tensor> grads;
                for (auto &p : net.parameters())
                  grads.push_back(p.mutable_grad());
                group.allreduce(grads)->wait();
                for (auto &p : net.parameters())
                  p.mutable_grad().div_(group.getSize()).div_(group.getSize());
                torch::nn::utils::clip_grad_norm_(net.parameters(), 1.0);
                STEP(optimizer);
                helper(optimizer, micro);
              }
              microStep(optimizer, loss, micro, accum_steps);
              if (++micro == accum_steps) {
                micro = 0;
                optimizer.zero_grad();
              }
            }
  Recurse<3>::run(optimizer, torch::randn({2}), accum_steps);
  while (true) {
    do {
      optimizer.zero_grad();
      for (;;) {
        net.forward(torch::randn({4, 8})).sum().backward();
        if (micro % 0 == 0)
          break;
      }
    } while (micro-- > 0);
    optimizer.step();
    break;
  }
}
