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
                                 {"detail", c.detail},
                                 {"update_ratio", c.updateRatio},
                                 {"parameter_error_as_written", c.parameterErrorAsWritten},
                                 {"parameter_error_with_fix", c.parameterErrorWithFix},
                                 {"windows", c.windows},
                                 {"learning_rate_as_written", c.learningRateAsWritten},
                                 {"learning_rate_reference", c.learningRateReference},
                                 {"last_step_gradient_ratio", c.lastStepGradientRatio},
                                 {"unstepped_fraction", c.unsteppedFraction},
                                 {"leaked_fraction", c.leakedFraction},
                                 {"triangular_fit_error", c.triangularFitError},
                                 {"fix", c.fix}};
  nlohmann::ordered_json assumptions = nlohmann::ordered_json::array();
  for (const ConfirmationAssumption &a : c.assumptions)
    assumptions.push_back({{"name", a.name}, {"value", a.value}, {"why", a.why}});
  json["assumptions"] = std::move(assumptions);
  json["setting"] = {{"model", c.setting.model},
                     {"loss", c.setting.loss},
                     {"optimizer", c.setting.optimizer},
                     {"dtype", c.setting.dtype},
                     {"backend", c.setting.backend}};
  json["skipped"] = c.skipped;
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
  json.at("update_ratio").get_to(c.updateRatio);
  json.at("parameter_error_as_written").get_to(c.parameterErrorAsWritten);
  json.at("parameter_error_with_fix").get_to(c.parameterErrorWithFix);
  json.at("windows").get_to(c.windows);
  json.at("learning_rate_as_written").get_to(c.learningRateAsWritten);
  json.at("learning_rate_reference").get_to(c.learningRateReference);
  json.at("last_step_gradient_ratio").get_to(c.lastStepGradientRatio);
  json.at("unstepped_fraction").get_to(c.unsteppedFraction);
  json.at("leaked_fraction").get_to(c.leakedFraction);
  json.at("triangular_fit_error").get_to(c.triangularFitError);
  json.at("fix").get_to(c.fix);
  for (const auto &a : json.at("assumptions"))
    c.assumptions.push_back({a.at("name").get<std::string>(), a.at("value").get<std::string>(),
                             a.at("why").get<std::string>()});
  const auto &setting = json.at("setting");
  setting.at("model").get_to(c.setting.model);
  setting.at("loss").get_to(c.setting.loss);
  setting.at("optimizer").get_to(c.setting.optimizer);
  setting.at("dtype").get_to(c.setting.dtype);
  setting.at("backend").get_to(c.setting.backend);
  json.at("skipped").get_to(c.skipped);
  json.at("parameter_error_buggy").get_to(c.parameterErrorBuggy);
  json.at("parameter_error_fixed").get_to(c.parameterErrorFixed);
  return c;
}

} // namespace gradlint
