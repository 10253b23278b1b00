#include "confirm/Confirmation.h"

namespace gradlint {

nlohmann::ordered_json confirmationToJson(const Confirmation &c, bool withTraces) {
  nlohmann::ordered_json json = {{"verdict", c.verdict},
                                 {"backend", c.backend},
                                 {"accumulation_steps", c.accumulationSteps},
                                 {"world_size", c.worldSize},
                                 {"rel_error_buggy", c.relErrorBuggy},
                                 {"rel_error_fixed", c.relErrorFixed},
                                 {"grad_norm_ratio", c.gradNormRatio},
                                 {"allreduce_calls_per_step", c.allreduceCallsPerStep},
                                 {"detail", c.detail}};
  if (withTraces) {
    json["parameter_error_buggy"] = c.parameterErrorBuggy;
    json["parameter_error_fixed"] = c.parameterErrorFixed;
  }
  return json;
}

Confirmation confirmationFromJson(const nlohmann::ordered_json &json) {
  Confirmation c;
  json.at("verdict").get_to(c.verdict);
  json.at("backend").get_to(c.backend);
  json.at("accumulation_steps").get_to(c.accumulationSteps);
  json.at("world_size").get_to(c.worldSize);
  json.at("rel_error_buggy").get_to(c.relErrorBuggy);
  json.at("rel_error_fixed").get_to(c.relErrorFixed);
  json.at("grad_norm_ratio").get_to(c.gradNormRatio);
  json.at("allreduce_calls_per_step").get_to(c.allreduceCallsPerStep);
  json.at("detail").get_to(c.detail);
  json.at("parameter_error_buggy").get_to(c.parameterErrorBuggy);
  json.at("parameter_error_fixed").get_to(c.parameterErrorFixed);
  return c;
}

} // namespace gradlint
