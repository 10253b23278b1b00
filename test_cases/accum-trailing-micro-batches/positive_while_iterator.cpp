// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 1 of 14 \(7\.1%\) micro-batches never reached a step
// A while loop walking an iterator over the epoch's samples, with a per-epoch counter: the
// samples after the last multiple of N stay in .grad past the end of the epoch.
#include <torch/torch.h>

void train(torch::nn::Linear &lin, std::vector<std::pair<torch::Tensor, torch::Tensor>> &data,
           int epochs) {
  torch::optim::SGD opt(lin->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  const int n_accum = 3;
  for (int e = 0; e < epochs; ++e) {
    int seen = 0;
    auto it = data.begin();
    while (it != data.end()) {
      auto out = lin->forward(it->first);
      auto loss = torch::l1_loss(out, it->second) / n_accum;
      loss.backward();
      ++seen;
      if (seen % n_accum == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
        opt.step();
        opt.zero_grad();
      }
      ++it;
    }
    // CHECK-FIXES-UNSAFE: {{^}}    }{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (seen % n_accum != 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.zero_grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
  }
}
