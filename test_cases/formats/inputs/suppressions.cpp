// Every suppression comment form next to the same buggy loop; the test finds each case by
// its "case:" marker. Each loop has two findings: the reset on every
// micro-batch (accum-misplaced-zero-grad) and the undivided loss
// (accum-missing-loss-division).
#include <torch/torch.h>

using Batches = std::vector<torch::Tensor>;

// case: bare-nolint
void bare_nolint(torch::nn::Linear model, torch::optim::SGD &opt, Batches &xs) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();  // NOLINT
    auto loss = model->forward(xs[i]).sum();
    loss.backward();
    if ((i + 1) % accum_steps == 0)
      opt.step();
  }
}

// case: nolint-list
void nolint_list(torch::nn::Linear model, torch::optim::SGD &opt, Batches &xs) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();  // NOLINT(bugprone-unused-return-value, accum-misplaced-zero-grad)
    auto loss = model->forward(xs[i]).sum();
    loss.backward();
    if ((i + 1) % accum_steps == 0)
      opt.step();
  }
}

// case: nolint-glob
void nolint_glob(torch::nn::Linear model, torch::optim::SGD &opt, Batches &xs) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    auto loss = model->forward(xs[i]).sum();
    loss.backward();  // NOLINT(accum-missing-*)
    if ((i + 1) % accum_steps == 0)
      opt.step();
  }
}

// case: nolintnextline
void nolint_next_line(torch::nn::Linear model, torch::optim::SGD &opt, Batches &xs) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    // NOLINTNEXTLINE(accum-misplaced-zero-grad)
    opt.zero_grad();
    auto loss = model->forward(xs[i]).sum();
    loss.backward();
    if ((i + 1) % accum_steps == 0)
      opt.step();
  }
}

// case: nolint-block
// NOLINTBEGIN(accum-*)
void nolint_block(torch::nn::Linear model, torch::optim::SGD &opt, Batches &xs) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    auto loss = model->forward(xs[i]).sum();
    loss.backward();
    if ((i + 1) % accum_steps == 0)
      opt.step();
  }
}
// NOLINTEND(accum-*)

// case: other-check
void other_check(torch::nn::Linear model, torch::optim::SGD &opt, Batches &xs) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    auto loss = model->forward(xs[i]).sum();
    loss.backward();  // NOLINT(accum-misplaced-zero-grad)
    if ((i + 1) % accum_steps == 0)
      opt.step();
  }
}

// case: excluded-by-glob
void excluded_by_glob(torch::nn::Linear model, torch::optim::SGD &opt, Batches &xs) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    auto loss = model->forward(xs[i]).sum();
    loss.backward();  // NOLINT(accum-*, -accum-missing-loss-division)
    if ((i + 1) % accum_steps == 0)
      opt.step();
  }
}

// case: clang-tidy-only
void clang_tidy_only(torch::nn::Linear model, torch::optim::SGD &opt, Batches &xs) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();  // NOLINT(bugprone-unused-return-value)
    auto loss = model->forward(xs[i]).sum();
    loss.backward();
    if ((i + 1) % accum_steps == 0)
      opt.step();
  }
}

// case: misspelt
void misspelt(torch::nn::Linear model, torch::optim::SGD &opt, Batches &xs) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();  // NOLINT(accum-misplaced-zero-grads)
    auto loss = model->forward(xs[i]).sum();
    loss.backward();
    if ((i + 1) % accum_steps == 0)
      opt.step();
  }
}
