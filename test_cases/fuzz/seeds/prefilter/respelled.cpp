#include "trainer.h"
%:include "x.h"
#define CAT(a, b) a##b
void f() {
  opt.st\
ep();
  CAT(back, ward)();
  auto s = R"x(step)x";
}
