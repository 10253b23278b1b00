// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: micro-batches never reached a step\(\).*r/N = 4/8
// Range-for over a data loader, with a micro-batch counter declared inside the epoch loop that
// reaches N and is reset: the window left open at the end of the epoch is never stepped.
#include <torch/torch.h>

template <typename Loader>
void train_epochs(torch::nn::Sequential &net, Loader &loader, torch::optim::SGD &sgd,
                  int64_t epochs) {
  constexpr int kAccum = 8;
  for (int64_t ep = 1; ep <= epochs; ++ep) {
    int micro = 0;
    for (auto &batch : *loader) {
      auto logits = net->forward(batch.data);
      auto loss = torch::nll_loss(torch::log_softmax(logits, 1), batch.target) / kAccum;
      loss.backward();
      if (++micro == kAccum) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
        sgd.step();
        sgd.zero_grad();
        micro = 0;
      }
    }
    // CHECK-FIXES-UNSAFE: {{^}}    }{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (micro != 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      sgd.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      sgd.zero_grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      micro = 0;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
  }
}
