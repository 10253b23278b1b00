// Documentation links of findings: under a configured GRADLINT_DOCS_URL, and
// file:// URIs of paths with characters a URI must encode.
#include "driver/output/Output.h"

#include <gtest/gtest.h>

namespace gradlint {
namespace {

TEST(DocLinks, ARuleLinksToItsDocumentUnderThePublishedBase) {
  EXPECT_EQ(
      ruleDocUrlUnder("https://example.org/gradlint/blob/v1.2", "accum-missing-loss-division"),
      "https://example.org/gradlint/blob/v1.2/rules/accum-missing-loss-division.md");
}

TEST(DocLinks, TrailingSlashesOfTheBaseAreNotDoubled) {
  EXPECT_EQ(ruleDocUrlUnder("https://example.org/docs//", "accum-per-micro-batch-clip"),
            "https://example.org/docs/rules/accum-per-micro-batch-clip.md");
}

TEST(DocLinks, TheUnusedSuppressionFindingLinksToTheSuppressionsPage) {
  EXPECT_EQ(ruleDocUrlUnder("https://example.org/docs", "gradlint-unused-suppression"),
            "https://example.org/docs/docs/suppressions.md");
}

TEST(DocLinks, FileUrisEncodeSpacesAndNonAsciiBytes) {
  EXPECT_EQ(fileUri("/opt/my tools/ré#1.md"), "file:///opt/my%20tools/r%C3%A9%231.md");
}

} // namespace
} // namespace gradlint
