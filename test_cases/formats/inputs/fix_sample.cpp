// Input of write_fix_sample: the fix replaces the backward call below; the
// comment before it holds multi-byte characters, so byte and character
// columns differ.
void step(Tensor loss) {
  /* Größe */ loss.backward();
}
