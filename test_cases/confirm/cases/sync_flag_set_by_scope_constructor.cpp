// An RAII scope object decides, in its constructor, whether this batch
// closes the window; wrappers of the optimizer only reset and step when it
// does. The reset at the top of the loop body therefore runs at the start of
// the closing batch and discards the window's first N - 1 gradients. N is a
// constructor argument the code does not give: the run takes the model's
// stand-in, not the field's initialiser of 1.
// CONFIRM-VERDICT: accum-misplaced-zero-grad confirmed: last micro-batch's gradient / N
// CONFIRM-ASSUMED: accum-misplaced-zero-grad every = 4
#include <torch/torch.h>

struct WindowState {
  int every = 1;
  bool closing = true;
};

class WindowScope {
 public:
  WindowScope(WindowState &state, long index) : state_(state) {
    state_.closing = (index + 1) % state_.every == 0;
  }

 private:
  WindowState &state_;
};

class GatedSgd {
 public:
  GatedSgd(torch::optim::SGD &inner, WindowState &state) : inner_(inner), state_(state) {}
  void zero_grad() {
    if (state_.closing)
      inner_.zero_grad();
  }
  void step() {
    if (state_.closing)
      inner_.step();
  }

 private:
  torch::optim::SGD &inner_;
  WindowState &state_;
};

struct Accumulator {
  explicit Accumulator(int steps) { state.every = steps; }
  WindowScope scope(long index) { return WindowScope(state, index); }
  WindowState state;
};

void fit(torch::nn::Linear &net, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys, int steps_from_config) {
  Accumulator accumulator(steps_from_config);
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1));
  GatedSgd optimizer(sgd, accumulator.state);
  for (long i = 0; i < static_cast<long>(xs.size()); ++i) {
    auto scope = accumulator.scope(i);
    optimizer.zero_grad();
    auto loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / accumulator.state.every;
    loss.backward();
    optimizer.step();
  }
}
