// Hand-made nasty input: the whole training loop comes from one macro, #line
// directives move it to line 0 and to the largest line number, the window's
// N is a negative constant, and the guard is a comparison of a
// default-constructed double with a huge integer.
#include <torch/torch.h>

#define TRAIN_LOOP(opt, net, n)                                   \
  for (int i = 0; i < 64; ++i) {                                  \
    (net)->forward(torch::randn({2, 2})).sum().backward();        \
    if ((i + 1) % (n) == 0) {                                     \
      (opt).step();                                               \
      (opt).zero_grad();                                          \
    }                                                             \
  }

void macroLoop(torch::nn::Linear net, torch::optim::SGD &optimizer) {
#line 1
  TRAIN_LOOP(optimizer, net, -3);
}

void hugeLine(torch::nn::Linear net, torch::optim::SGD &optimizer) {
  const int64_t accum_steps = 9223372036854775807LL;
  double world_size{};
#line 2147483647
  for (int64_t i = 0; i < 64; ++i) {
    auto loss = net->forward(torch::randn({2, 2})).sum() / accum_steps / world_size;
    loss.backward();
    if (i % accum_steps == accum_steps - 1) {
      for (auto &p : net->parameters())
        p.mutable_grad().div_(world_size);
      torch::nn::utils::clip_grad_value_(net->parameters(), -1e308 * 10);
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

void minSteps(torch::nn::Linear net, torch::optim::SGD &optimizer) {
  const int64_t accum_steps = -9223372036854775807LL - 1;
  int micro = 0;
  while (micro < 100) {
    (net->forward(torch::randn({2, 2})).sum() / accum_steps).backward();
    if (++micro % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
