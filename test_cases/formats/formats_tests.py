#!/usr/bin/env python3
"""Output formats and suppressions of gradlint: SARIF 2.1.0 (checked against the
schema's required subset below), GitHub workflow commands, Markdown, fix-its in
SARIF and JSON, every NOLINT form and --report-unused-suppressions.

usage: formats_tests.py <gradlint> <write_fix_sample>
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
WRITE_FIX_SAMPLE = os.path.abspath(sys.argv[2])
HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "inputs")
RULES = os.path.join(HERE, "..", "..", "rules")


def run(*args, cwd=None):
    return subprocess.run([GRADLINT, *args], capture_output=True, text=True, cwd=cwd)


def lines_of(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def line_number(path, text, after=1):
    """1-based number of the first line at or after `after` that contains `text`."""
    for number, line in enumerate(lines_of(path), 1):
        if number >= after and text in line:
            return number
    raise AssertionError(f"{path}: no line with {text!r} after line {after}")


def make_repo(root):
    """A directory gradlint takes for a git work tree (what it looks for is `.git`)."""
    os.makedirs(os.path.join(root, ".git"), exist_ok=True)
    return os.path.realpath(root)


# ---------------------------------------------------------------------------
# The SARIF 2.1.0 schema's required subset: for each object gradlint writes,
# the properties the schema allows (it forbids any other: additionalProperties
# is false), the required ones, their JSON types, and the enums.

OBJECTS = {
    "sarifLog": {"allowed": {"$schema", "version", "runs", "inlineExternalProperties", "properties"},
                 "required": {"version", "runs"}},
    "run": {"allowed": {"tool", "invocations", "conversion", "language", "versionControlProvenance",
                        "originalUriBaseIds", "artifacts", "logicalLocations", "graphs", "results",
                        "automationDetails", "runAggregates", "baselineGuid", "redactionTokens",
                        "defaultEncoding", "defaultSourceLanguage", "newlineSequences", "columnKind",
                        "externalPropertyFileReferences", "threadFlowLocations", "taxonomies",
                        "addresses", "translations", "policies", "webRequests", "webResponses",
                        "specialLocations", "properties"},
            "required": {"tool"}},
    "tool": {"allowed": {"driver", "extensions", "properties"}, "required": {"driver"}},
    "toolComponent": {"allowed": {"guid", "name", "organization", "product", "productSuite",
                                  "shortDescription", "fullDescription", "fullName", "version",
                                  "semanticVersion", "dottedQuadFileVersion", "releaseDateUtc",
                                  "downloadUri", "informationUri", "globalMessageStrings",
                                  "notifications", "rules", "taxa", "locations", "language",
                                  "contents", "isComprehensive", "localizedDataSemanticVersion",
                                  "minimumRequiredLocalizedDataSemanticVersion",
                                  "associatedComponent", "translationMetadata",
                                  "supportedTaxonomies", "properties"},
                      "required": {"name"}},
    "reportingDescriptor": {"allowed": {"id", "deprecatedIds", "guid", "deprecatedGuids", "name",
                                        "deprecatedNames", "shortDescription", "fullDescription",
                                        "messageStrings", "defaultConfiguration", "helpUri", "help",
                                        "relationships", "properties"},
                            "required": {"id"}},
    "reportingConfiguration": {"allowed": {"enabled", "level", "rank", "parameters", "properties"},
                               "required": set()},
    "multiformatMessageString": {"allowed": {"text", "markdown", "properties"}, "required": {"text"}},
    "message": {"allowed": {"text", "markdown", "id", "arguments", "properties"}, "required": set()},
    "result": {"allowed": {"ruleId", "ruleIndex", "rule", "kind", "level", "message",
                           "analysisTarget", "locations", "guid", "correlationGuid",
                           "occurrenceCount", "partialFingerprints", "fingerprints", "stacks",
                           "codeFlows", "graphs", "graphTraversals", "relatedLocations",
                           "suppressions", "baselineState", "rank", "attachments",
                           "hostedViewerUri", "workItemUris", "provenance", "fixes", "taxa",
                           "webRequest", "webResponse", "properties"},
               "required": {"message"}},
    "location": {"allowed": {"id", "physicalLocation", "logicalLocations", "message", "annotations",
                             "relationships", "properties"},
                 "required": set()},
    "physicalLocation": {"allowed": {"address", "artifactLocation", "region", "contextRegion",
                                     "properties"},
                         "required": set()},
    "artifactLocation": {"allowed": {"uri", "uriBaseId", "index", "description", "properties"},
                         "required": set()},
    "region": {"allowed": {"startLine", "startColumn", "endLine", "endColumn", "charOffset",
                           "charLength", "byteOffset", "byteLength", "snippet", "message",
                           "sourceLanguage", "properties"},
               "required": set()},
    "artifactContent": {"allowed": {"text", "binary", "rendered", "properties"}, "required": set()},
    "suppression": {"allowed": {"guid", "kind", "status", "justification", "location", "properties"},
                    "required": {"kind"}},
    "fix": {"allowed": {"description", "artifactChanges", "properties"},
            "required": {"artifactChanges"}},
    "artifactChange": {"allowed": {"artifactLocation", "replacements", "properties"},
                       "required": {"artifactLocation", "replacements"}},
    "replacement": {"allowed": {"deletedRegion", "insertedContent", "properties"},
                    "required": {"deletedRegion"}},
    "invocation": {"allowed": {"commandLine", "arguments", "responseFiles", "startTimeUtc",
                               "endTimeUtc", "exitCode", "ruleConfigurationOverrides",
                               "notificationConfigurationOverrides", "toolExecutionNotifications",
                               "toolConfigurationNotifications", "exitCodeDescription",
                               "exitSignalName", "exitSignalNumber", "processStartFailureMessage",
                               "executionSuccessful", "machine", "account", "processId",
                               "executableLocation", "workingDirectory", "environmentVariables",
                               "stdin", "stdout", "stderr", "stdoutStderr", "properties"},
                   "required": {"executionSuccessful"}},
    "notification": {"allowed": {"locations", "message", "level", "threadId", "timeUtc", "exception",
                                 "descriptor", "associatedRule", "properties"},
                     "required": {"message"}},
    "reportingDescriptorReference": {"allowed": {"id", "index", "guid", "toolComponent",
                                                 "properties"},
                                     "required": set()},
}
LEVELS = {"none", "note", "warning", "error"}


class SarifChecker:
    def __init__(self):
        self.problems = []

    def fail(self, path, what):
        self.problems.append(f"{path}: {what}")

    def obj(self, value, kind, path):
        if not isinstance(value, dict):
            self.fail(path, f"{kind} must be an object")
            return False
        spec = OBJECTS[kind]
        for key in value:
            if key not in spec["allowed"]:
                self.fail(path, f"{kind} does not allow property '{key}'")
        for key in spec["required"]:
            if key not in value:
                self.fail(path, f"{kind} requires '{key}'")
        if "properties" in value:
            self.property_bag(value["properties"], f"{path}.properties")
        return True

    def typed(self, value, types, path):
        # bool is an int in Python; the schema's integers are not booleans.
        ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in
                                               (types if isinstance(types, tuple) else (types,)))
        if not ok:
            self.fail(path, f"must be {types}, is {type(value).__name__}")
        return ok

    def integer(self, value, minimum, path):
        if self.typed(value, int, path) and value < minimum:
            self.fail(path, f"must be >= {minimum}")

    def uri(self, value, path):
        if self.typed(value, str, path) and (not value or " " in value):
            self.fail(path, "must be a URI reference (non-empty, no spaces)")

    def enum(self, value, allowed, path):
        if value not in allowed:
            self.fail(path, f"{value!r} is not one of {sorted(allowed)}")

    def property_bag(self, value, path):
        if not isinstance(value, dict):
            self.fail(path, "propertyBag must be an object")
            return
        if "tags" in value:
            tags = value["tags"]
            if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags) or \
                    len(set(tags)) != len(tags):
                self.fail(f"{path}.tags", "must be an array of unique strings")

    def message(self, value, path):
        if self.obj(value, "message", path):
            if "text" not in value and "id" not in value:
                self.fail(path, "message requires 'text' or 'id'")
            if "text" in value:
                self.typed(value["text"], str, f"{path}.text")

    def multiformat(self, value, path):
        if self.obj(value, "multiformatMessageString", path):
            self.typed(value.get("text"), str, f"{path}.text")
            if "markdown" in value:
                self.typed(value["markdown"], str, f"{path}.markdown")

    def artifact_location(self, value, path):
        if self.obj(value, "artifactLocation", path):
            if "uri" in value:
                self.uri(value["uri"], f"{path}.uri")
            if "uriBaseId" in value:
                self.typed(value["uriBaseId"], str, f"{path}.uriBaseId")
            if "index" in value:
                self.integer(value["index"], -1, f"{path}.index")

    def region(self, value, path):
        if not self.obj(value, "region", path):
            return
        if not ({"startLine", "charOffset", "byteOffset"} & set(value)):
            self.fail(path, "region requires startLine, charOffset or byteOffset")
        for key, minimum in (("startLine", 1), ("startColumn", 1), ("endLine", 1),
                             ("endColumn", 1), ("charOffset", -1), ("charLength", 0),
                             ("byteOffset", -1), ("byteLength", 0)):
            if key in value:
                self.integer(value[key], minimum, f"{path}.{key}")
        if "snippet" in value and self.obj(value["snippet"], "artifactContent", f"{path}.snippet"):
            self.typed(value["snippet"].get("text"), str, f"{path}.snippet.text")

    def physical_location(self, value, path):
        if not self.obj(value, "physicalLocation", path):
            return
        if "artifactLocation" not in value and "address" not in value:
            self.fail(path, "physicalLocation requires artifactLocation or address")
        if "artifactLocation" in value:
            self.artifact_location(value["artifactLocation"], f"{path}.artifactLocation")
        if "region" in value:
            self.region(value["region"], f"{path}.region")

    def location(self, value, path):
        if not self.obj(value, "location", path):
            return
        if "id" in value:
            self.integer(value["id"], -1, f"{path}.id")
        if "physicalLocation" in value:
            self.physical_location(value["physicalLocation"], f"{path}.physicalLocation")
        if "message" in value:
            self.message(value["message"], f"{path}.message")

    def array(self, value, path, each, min_items=0, unique=False):
        if not isinstance(value, list):
            self.fail(path, "must be an array")
            return
        if len(value) < min_items:
            self.fail(path, f"needs at least {min_items} item(s)")
        if unique and len({json.dumps(v, sort_keys=True) for v in value}) != len(value):
            self.fail(path, "items must be unique")
        for i, item in enumerate(value):
            each(item, f"{path}[{i}]")

    def rule(self, value, path):
        if not self.obj(value, "reportingDescriptor", path):
            return
        self.typed(value.get("id"), str, f"{path}.id")
        for key in ("shortDescription", "fullDescription", "help"):
            if key in value:
                self.multiformat(value[key], f"{path}.{key}")
        if "helpUri" in value:
            self.uri(value["helpUri"], f"{path}.helpUri")
        if "defaultConfiguration" in value and self.obj(
                value["defaultConfiguration"], "reportingConfiguration", f"{path}.defaultConfiguration"):
            if "level" in value["defaultConfiguration"]:
                self.enum(value["defaultConfiguration"]["level"], LEVELS,
                          f"{path}.defaultConfiguration.level")

    def fix(self, value, path):
        if not self.obj(value, "fix", path):
            return
        if "description" in value:
            self.message(value["description"], f"{path}.description")

        def replacement(item, where):
            if self.obj(item, "replacement", where):
                self.region(item.get("deletedRegion"), f"{where}.deletedRegion")
                if "insertedContent" in item:
                    self.obj(item["insertedContent"], "artifactContent", f"{where}.insertedContent")

        def change(item, where):
            if self.obj(item, "artifactChange", where):
                self.artifact_location(item.get("artifactLocation"), f"{where}.artifactLocation")
                self.array(item.get("replacements"), f"{where}.replacements", replacement, 1)

        self.array(value.get("artifactChanges"), f"{path}.artifactChanges", change, 1)

    def result(self, value, path):
        if not self.obj(value, "result", path):
            return
        self.message(value.get("message"), f"{path}.message")
        if "ruleId" in value:
            self.typed(value["ruleId"], str, f"{path}.ruleId")
        if "ruleIndex" in value:
            self.integer(value["ruleIndex"], -1, f"{path}.ruleIndex")
        if "level" in value:
            self.enum(value["level"], LEVELS, f"{path}.level")
        if "kind" in value:
            self.enum(value["kind"], {"notApplicable", "pass", "fail", "review", "open",
                                      "informational"}, f"{path}.kind")
        for key in ("locations", "relatedLocations"):
            if key in value:
                self.array(value[key], f"{path}.{key}", self.location)
        if "partialFingerprints" in value:
            prints = value["partialFingerprints"]
            if not isinstance(prints, dict) or not all(isinstance(v, str) for v in prints.values()):
                self.fail(f"{path}.partialFingerprints", "must map names to strings")

        def suppression(item, where):
            if self.obj(item, "suppression", where):
                self.enum(item.get("kind"), {"inSource", "external"}, f"{where}.kind")
                if "status" in item:
                    self.enum(item["status"], {"accepted", "underReview", "rejected"},
                              f"{where}.status")

        if "suppressions" in value:
            self.array(value["suppressions"], f"{path}.suppressions", suppression, unique=True)
        if "fixes" in value:
            self.array(value["fixes"], f"{path}.fixes", self.fix)

    def invocation(self, value, path):
        if not self.obj(value, "invocation", path):
            return
        self.typed(value.get("executionSuccessful"), bool, f"{path}.executionSuccessful")

        def notification(item, where):
            if self.obj(item, "notification", where):
                self.message(item.get("message"), f"{where}.message")
                if "level" in item:
                    self.enum(item["level"], LEVELS, f"{where}.level")
                if "locations" in item:
                    self.array(item["locations"], f"{where}.locations", self.location)
                if "descriptor" in item:
                    self.obj(item["descriptor"], "reportingDescriptorReference",
                             f"{where}.descriptor")

        if "toolExecutionNotifications" in value:
            self.array(value["toolExecutionNotifications"], f"{path}.toolExecutionNotifications",
                       notification)
        if "workingDirectory" in value:
            self.artifact_location(value["workingDirectory"], f"{path}.workingDirectory")

    def run(self, value, path):
        if not self.obj(value, "run", path):
            return
        tool = value.get("tool")
        if self.obj(tool, "tool", f"{path}.tool"):
            driver = tool.get("driver")
            if self.obj(driver, "toolComponent", f"{path}.tool.driver"):
                self.typed(driver.get("name"), str, f"{path}.tool.driver.name")
                if "informationUri" in driver:
                    self.uri(driver["informationUri"], f"{path}.tool.driver.informationUri")
                if "rules" in driver:
                    self.array(driver["rules"], f"{path}.tool.driver.rules", self.rule, unique=True)
        if "columnKind" in value:
            self.enum(value["columnKind"], {"utf16CodeUnits", "unicodeCodePoints"},
                      f"{path}.columnKind")
        if "originalUriBaseIds" in value:
            for name, base in value["originalUriBaseIds"].items():
                where = f"{path}.originalUriBaseIds.{name}"
                self.artifact_location(base, where)
                # The spec: a base URI is absolute and ends with a slash.
                if not re.match(r"^[a-z][a-z0-9+.-]*:.*/$", base.get("uri", "")):
                    self.fail(where, "uri must be absolute and end with '/'")
        if "invocations" in value:
            self.array(value["invocations"], f"{path}.invocations", self.invocation)
        if "results" in value:
            self.array(value["results"], f"{path}.results", self.result)
            rules = value["tool"]["driver"].get("rules", [])
            for i, result in enumerate(value["results"]):
                index = result.get("ruleIndex")
                if index is not None and not (0 <= index < len(rules) and
                                              rules[index]["id"] == result.get("ruleId")):
                    self.fail(f"{path}.results[{i}].ruleIndex", "does not point at its ruleId")

    def log(self, value):
        if self.obj(value, "sarifLog", "$"):
            self.enum(value.get("version"), {"2.1.0"}, "$.version")
            if "$schema" in value:
                self.uri(value["$schema"], "$.$schema")
            self.array(value.get("runs"), "$.runs", self.run)
        return self.problems


def sarif_problems(document):
    return SarifChecker().log(document)


def sarif(*args, cwd=None):
    result = run("--format=sarif", *args, cwd=cwd)
    return result, json.loads(result.stdout)


def local_document(uri):
    """The text of a file:// link's target (without its #anchor), or None."""
    if not uri.startswith("file:///"):
        return None
    path = urllib.parse.unquote(urllib.parse.urlsplit(uri).path)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


def same_document(copy, source):
    """A copy made at build time: its first lines (an edit since the build may change the rest)."""
    return copy is not None and copy.splitlines()[:3] == source.splitlines()[:3]


def source_text(*parts):
    with open(os.path.join(HERE, "..", "..", *parts), encoding="utf-8") as f:
        return f.read()


def front_matter(check_id):
    with open(os.path.join(RULES, check_id + ".md"), encoding="utf-8") as f:
        text = f.read()
    head, body = text[4:].split("\n---\n", 1)
    fields = dict(line.split(": ", 1) for line in head.splitlines())
    return fields, body


def registered_checks():
    listed = run("--list-checks").stdout.split()
    return [word for word in listed if word.startswith("accum-")]


# ---------------------------------------------------------------------------

def test_schema_checker_rejects_invalid_sarif():
    # The checker itself must be able to fail, or passing it proves nothing.
    broken = {"version": "2.0.0", "runs": [{"tool": {"driver": {"name": "x", "rules": [
        {"id": "r", "defaultConfiguration": {"level": "warn"}}]}},
        "results": [{"ruleId": "r", "ruleIndex": 3, "level": "fatal", "locations": [
            {"physicalLocation": {"region": {"startLine": 0}}}], "confidence": 1,
            "suppressions": [{"kind": "inline"}]}],
        "invocations": [{}]}]}
    problems = "\n".join(sarif_problems(broken))
    for expected in ("'2.0.0' is not one of", "'warn' is not one of", "'fatal' is not one of",
                     "requires 'message'", "does not allow property 'confidence'",
                     "startLine: must be >= 1", "requires artifactLocation or address",
                     "'inline' is not one of", "requires 'executionSuccessful'",
                     "does not point at its ruleId"):
        check(f"schema checker reports {expected!r}", expected in problems, problems)


def test_sarif_structure():
    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(os.path.join(tmp, "repo"))
        source = os.path.join(repo, "train.cpp")
        shutil.copy(os.path.join(INPUTS, "findings.cpp"), source)
        result, document = sarif(source)
        check("sarif: findings exit 1", result.returncode == 1, result.stderr)
        problems = sarif_problems(document)
        check("sarif: valid against the schema subset", not problems, problems)
        run_ = document["runs"][0]
        driver = run_["tool"]["driver"]
        check("sarif: tool name and version", driver["name"] == "gradlint" and
              run("--version").stdout.strip() == "gradlint " + driver["version"], driver.get("version"))
        # Built without GRADLINT_DOCS_URL: links go to the copies beside the binary.
        check("sarif: informationUri is the README beside the binary",
              same_document(local_document(driver.get("informationUri", "")),
                            source_text("README.md")),
              driver.get("informationUri"))
        ids = [rule["id"] for rule in driver["rules"]]
        check("sarif: one rule per registered check", ids and sorted(ids) == sorted(registered_checks()),
              ids)
        for rule in driver["rules"]:
            fields, body = front_matter(rule["id"])
            check(f"sarif rule {rule['id']}: shortDescription is the summary",
                  rule["shortDescription"]["text"] == fields["summary"], rule["shortDescription"])
            check(f"sarif rule {rule['id']}: level is the severity",
                  rule["defaultConfiguration"]["level"] == fields["severity"])
            check(f"sarif rule {rule['id']}: help is the rule document",
                  rule["help"]["markdown"] == body and rule["help"]["text"], rule["help"]["markdown"][:80])
            check(f"sarif rule {rule['id']}: fullDescription from 'What it does'",
                  rule["fullDescription"]["text"].split()[:6] ==
                  body.split("## What it does", 1)[1].split()[:6], rule["fullDescription"])
            check(f"sarif rule {rule['id']}: helpUri is its document beside the binary",
                  rule.get("helpUri", "").endswith(f"/rules/{rule['id']}.md") and
                  same_document(local_document(rule["helpUri"]),
                                source_text("rules", rule["id"] + ".md")),
                  rule.get("helpUri"))
            check(f"sarif rule {rule['id']}: tags", "correctness" in rule["properties"]["tags"])

        diagnostics = json.loads(run("--format=json", source).stdout)["diagnostics"]
        check("sarif: one result per finding", len(run_["results"]) == len(diagnostics) == 2,
              run_["results"])
        for res, diag in zip(run_["results"], diagnostics):
            name = f"sarif result {diag['check']}"
            check(f"{name}: ruleId", res["ruleId"] == diag["check"])
            check(f"{name}: level", res["level"] == diag["severity"])
            check(f"{name}: message", res["message"]["text"] == diag["message"])
            region = res["locations"][0]["physicalLocation"]["region"]
            check(f"{name}: region", (region["startLine"], region["startColumn"]) ==
                  (diag["line"], diag["column"]), region)
            check(f"{name}: snippet is the source line",
                  region["snippet"]["text"] == lines_of(source)[diag["line"] - 1], region)
            related = res.get("relatedLocations", [])
            check(f"{name}: a related location per note", len(related) == len(diag["notes"]) > 0,
                  related)
            for loc, note in zip(related, diag["notes"]):
                check(f"{name}: related location message and line",
                      loc["message"]["text"] == note["message"] and
                      loc["physicalLocation"]["region"]["startLine"] == note["line"], loc)
            check(f"{name}: not suppressed", "suppressions" not in res)
            if "fix" not in diag:
                check(f"{name}: no fix when the finding has none", "fixes" not in res, res)
            else:  # fix-its come from the checks: SARIF carries the same edits as JSON
                changes = res.get("fixes", [{}])[0].get("artifactChanges", [])
                replacements = [(r["deletedRegion"]["byteOffset"], r["deletedRegion"]["byteLength"],
                                 r["insertedContent"]["text"])
                                for change in changes for r in change["replacements"]]
                check(f"{name}: the fix's edits", replacements ==
                      [(e["offset"], e["length"], e["replacement"]) for e in diag["fix"]["edits"]],
                      (replacements, diag["fix"]))
        expected_lines = {line_number(source, "opt.zero_grad()"), line_number(source, "loss.backward()")}
        check("sarif: result lines are the finding lines",
              {r["locations"][0]["physicalLocation"]["region"]["startLine"]
               for r in run_["results"]} == expected_lines)
        invocation = run_["invocations"][0]
        check("sarif: execution successful", invocation["executionSuccessful"] is True and
              invocation["toolExecutionNotifications"] == [], invocation)


def test_sarif_file_errors():
    missing = os.path.join(tempfile.gettempdir(), "gradlint-no-such-file.cpp")
    result, document = sarif(missing, os.path.join(INPUTS, "findings.cpp"))
    check("sarif errors: exit 2", result.returncode == 2)
    check("sarif errors: valid", not sarif_problems(document), sarif_problems(document))
    invocation = document["runs"][0]["invocations"][0]
    notes = invocation["toolExecutionNotifications"]
    check("sarif errors: execution not successful", invocation["executionSuccessful"] is False)
    check("sarif errors: one error notification naming the file",
          len(notes) == 1 and notes[0]["level"] == "error" and
          "No such file" in notes[0]["message"]["text"] and
          notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(
              "gradlint-no-such-file.cpp"), notes)
    check("sarif errors: other files still reported", len(document["runs"][0]["results"]) == 2)


def test_sarif_uris():
    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(os.path.join(tmp, "repo"))
        os.makedirs(os.path.join(repo, "my src"))
        source = os.path.join(repo, "my src", "train.cpp")
        shutil.copy(os.path.join(INPUTS, "findings.cpp"), source)
        elsewhere = os.path.join(tmp, "elsewhere")
        os.makedirs(elsewhere)
        # Run from outside the work tree with a relative path: the URI is still repo-relative.
        _, document = sarif(os.path.relpath(source, elsewhere), cwd=elsewhere)
        run_ = document["runs"][0]
        location = run_["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        check("uri: relative to the git work tree, percent-encoded",
              location == {"uri": "my%20src/train.cpp", "uriBaseId": "%SRCROOT%"}, location)
        root = run_["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        check("uri: %SRCROOT% is the work tree as a file URI with a trailing slash",
              root == "file://" + urllib.parse.quote(repo) + "/", root)
        related = run_["results"][0]["relatedLocations"][0]["physicalLocation"]["artifactLocation"]
        check("uri: notes use the same base", related["uriBaseId"] == "%SRCROOT%" and
              related["uri"] == "my%20src/train.cpp", related)

        # No work tree: relative to the current directory.
        plain = os.path.realpath(os.path.join(tmp, "plain"))
        os.makedirs(os.path.join(plain, "src"))
        shutil.copy(os.path.join(INPUTS, "findings.cpp"), os.path.join(plain, "src", "t.cpp"))
        _, document = sarif("src/t.cpp", cwd=plain)
        run_ = document["runs"][0]
        location = run_["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        check("uri: without git, relative to the current directory",
              location == {"uri": "src/t.cpp", "uriBaseId": "%SRCROOT%"} and
              run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file://" + plain + "/",
              (location, run_["originalUriBaseIds"]))


def fingerprints(document):
    return {(r["ruleId"], r["partialFingerprints"]["gradlintFindingHash/v1"]):
            r["locations"][0]["physicalLocation"]["region"]["startLine"]
            for r in document["runs"][0]["results"]}


def test_fingerprints():
    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(os.path.join(tmp, "repo"))
        source = os.path.join(repo, "train.cpp")
        original = lines_of(os.path.join(INPUTS, "findings.cpp"))
        with open(source, "w") as f:
            f.write("\n".join(original))
        before = fingerprints(sarif(source)[1])
        check("fingerprints: one per finding", len(before) == 2, before)

        # Unrelated lines inserted above the findings: same fingerprints, new line numbers.
        include = next(i for i, l in enumerate(original) if l.startswith("#include"))
        edited = original[:include + 1] + ["", "// a comment added above the loop", ""] + \
            original[include + 1:]
        with open(source, "w") as f:
            f.write("\n".join(edited))
        after = fingerprints(sarif(source)[1])
        check("fingerprints: stable when lines are inserted above", set(after) == set(before),
              (before, after))
        check("fingerprints: line numbers did change",
              all(after.get(key) == line + 3 for key, line in before.items()), (before, after))

        # Re-indenting the finding's line and suppressing it inline keep it the same finding.
        reset = next(i for i, l in enumerate(edited) if "opt.zero_grad()" in l)
        edited[reset] = "      opt.zero_grad();   // NOLINT(accum-misplaced-zero-grad)"
        with open(source, "w") as f:
            f.write("\n".join(edited))
        result, document = sarif(source)
        suppressed = [r for r in document["runs"][0]["results"] if "suppressions" in r]
        check("fingerprints: an inline NOLINT keeps the fingerprint",
              set(fingerprints(document)) == set(before) and len(suppressed) == 1 and
              suppressed[0]["ruleId"] == "accum-misplaced-zero-grad", document["runs"][0]["results"])

    # Identical (check, line text) pairs in one file are told apart by their occurrence.
    _, document = sarif(os.path.join(INPUTS, "suppressions.cpp"))
    prints = [r["partialFingerprints"]["gradlintFindingHash/v1"] for r in document["runs"][0]["results"]]
    check("fingerprints: unique within a file with repeated lines",
          len(prints) == len(set(prints)) == 18, prints)


# Each case of inputs/suppressions.cpp: which of its two findings stay reported.
RESET, LOSS = "accum-misplaced-zero-grad", "accum-missing-loss-division"
SUPPRESSION_CASES = {
    "bare-nolint": {LOSS},              # NOLINT on the reset's line silences every check there
    "nolint-list": {LOSS},              # NOLINT(other-tool-check, accum-misplaced-zero-grad)
    "nolint-glob": {RESET},             # NOLINT(accum-missing-*) on backward()
    "nolintnextline": {LOSS},           # NOLINTNEXTLINE(accum-misplaced-zero-grad)
    "nolint-block": set(),              # NOLINTBEGIN(accum-*) ... NOLINTEND(accum-*)
    "other-check": {RESET, LOSS},       # NOLINT naming another check does not suppress
    "excluded-by-glob": {RESET, LOSS},  # NOLINT(accum-*, -accum-missing-loss-division)
    "clang-tidy-only": {RESET, LOSS},   # NOLINT(bugprone-...) is not for gradlint
    "misspelt": {RESET, LOSS},          # NOLINT(accum-misplaced-zero-grads)
}
# The cases --report-unused-suppressions reports, and what the message names.
UNUSED_CASES = {"other-check": "suppresses no finding of 'accum-misplaced-zero-grad'",
                "excluded-by-glob": "suppresses no finding of 'accum-*'",
                "misspelt": "'accum-misplaced-zero-grads', which is no gradlint check"}


def suppression_case_lines(path):
    """{case: {check: line}} from the '// case:' markers of inputs/suppressions.cpp."""
    cases = {}
    for case in SUPPRESSION_CASES:
        start = line_number(path, f"// case: {case}")
        cases[case] = {RESET: line_number(path, "opt.zero_grad()", start),
                       LOSS: line_number(path, "loss.backward()", start)}
    return cases


def test_suppression_forms():
    path = os.path.join(INPUTS, "suppressions.cpp")
    cases = suppression_case_lines(path)
    expected_kept = {(check_id, cases[case][check_id])
                     for case, kept in SUPPRESSION_CASES.items() for check_id in kept}
    expected_all = {(check_id, line) for lines in cases.values() for check_id, line in lines.items()}
    result = run("--format=json", path)
    kept = {(d["check"], d["line"]) for d in json.loads(result.stdout)["diagnostics"]}
    check("suppressions: findings exit 1", result.returncode == 1)
    for case, lines in cases.items():
        got = {c for c, line in lines.items() if (c, line) in kept}
        check(f"suppressions: case {case}", got == SUPPRESSION_CASES[case], got)
    check("suppressions: nothing else reported", kept == expected_kept, kept ^ expected_kept)

    _, document = sarif(path)
    sarif_results = document["runs"][0]["results"]
    check("suppressions: SARIF is valid", not sarif_problems(document), sarif_problems(document))
    sarif_all = {(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]):
                 r.get("suppressions") for r in sarif_results}
    check("suppressions: SARIF keeps every finding", set(sarif_all) == expected_all,
          set(sarif_all) ^ expected_all)
    check("suppressions: SARIF marks exactly the suppressed ones inSource",
          {k for k, s in sarif_all.items() if s == [{"kind": "inSource"}]} ==
          expected_all - expected_kept and
          all(s is None for k, s in sarif_all.items() if k in expected_kept), sarif_all)

    text = run(path).stdout
    text_findings = {(m.group(2), int(m.group(1))) for m in
                     re.finditer(r"suppressions\.cpp:(\d+):\d+: warning: .* \[(\S+)\]", text)}
    check("suppressions: text output omits suppressed findings", text_findings == expected_kept,
          text_findings ^ expected_kept)
    github = run("--format=github", path).stdout.splitlines()
    check("suppressions: github output omits suppressed findings", len(github) == len(expected_kept),
          github)
    markdown = run("--format=markdown", path).stdout
    suppressed_count = len(expected_all - expected_kept)
    check("suppressions: markdown counts but omits them",
          f"{suppressed_count} findings suppressed by NOLINT comments are not shown" in markdown and
          markdown.count(" | accum-") == len(expected_kept), markdown)


def test_only_suppressed_findings_exit_0():
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "train.cpp")
        lines = lines_of(os.path.join(INPUTS, "findings.cpp"))
        lines = [l + "  // NOLINT" if "opt.zero_grad()" in l or "loss.backward()" in l else l
                 for l in lines]
        with open(source, "w") as f:
            f.write("\n".join(lines))
        result = run(source)
        check("all suppressed: exit 0 and no output", result.returncode == 0 and result.stdout == "",
              (result.returncode, result.stdout))
        document = json.loads(run("--format=sarif", source).stdout)
        check("all suppressed: SARIF still has both",
              len(document["runs"][0]["results"]) == 2 and
              all(r["suppressions"] == [{"kind": "inSource"}] for r in document["runs"][0]["results"]))


def test_unmatched_blocks():
    begin = os.path.join(INPUTS, "unmatched_begin.cpp")
    result = run(begin)
    begin_line = line_number(begin, "NOLINTBEGIN(")
    errors = [l for l in result.stderr.splitlines() if ": error: " in l]
    check("unmatched BEGIN: exit 2", result.returncode == 2, result.returncode)
    check("unmatched BEGIN: one error naming file and line",
          len(errors) == 1 and errors[0].startswith(begin + ": error: ") and
          f"unmatched_begin.cpp:{begin_line}:3: unmatched 'NOLINTBEGIN'" in errors[0], errors)
    check("unmatched BEGIN: suppresses nothing",
          f"unmatched_begin.cpp:{line_number(begin, 'opt.zero_grad()')}:5: warning:" in result.stdout,
          result.stdout)

    end = os.path.join(INPUTS, "unmatched_end.cpp")
    document = json.loads(run("--format=json", end).stdout)
    messages = [e["message"] for e in document["errors"]]
    check("mismatched END: BEGIN and END both reported",
          len(messages) == 2 and
          any(f":{line_number(end, 'NOLINTBEGIN(')}:3: unmatched 'NOLINTBEGIN'" in m for m in messages) and
          any(f":{line_number(end, 'NOLINTEND(')}:3: unmatched 'NOLINTEND'" in m for m in messages),
          messages)
    check("mismatched END: errors name the file", all(e["file"] == end for e in document["errors"]))


def test_unused_suppressions():
    path = os.path.join(INPUTS, "suppressions.cpp")
    cases = suppression_case_lines(path)
    plain = json.loads(run("--format=json", path).stdout)["diagnostics"]
    check("unused: not reported without the option",
          not any(d["check"] == "gradlint-unused-suppression" for d in plain))
    result = run("--format=json", "--report-unused-suppressions", path)
    unused = [d for d in json.loads(result.stdout)["diagnostics"]
              if d["check"] == "gradlint-unused-suppression"]
    file_lines = lines_of(path)
    expected = {}
    for case, fragment in UNUSED_CASES.items():
        line = next(l for l in cases[case].values() if "NOLINT" in file_lines[l - 1])
        expected[line] = fragment
    got = {d["line"]: d for d in unused}
    check("unused: exactly the comments that suppress nothing", set(got) == set(expected),
          (sorted(got), sorted(expected)))
    for line, fragment in expected.items():
        d = got.get(line, {})
        check(f"unused: line {line} message", fragment in d.get("message", ""), d.get("message"))
        check(f"unused: line {line} points at the comment",
              d.get("column") == file_lines[line - 1].index("//") + 1, d.get("column"))
    check("unused: exit 1", result.returncode == 1)

    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "clean.cpp")
        lines = lines_of(os.path.join(INPUTS, "clean.cpp"))
        lines = [l + "  // NOLINT(accum-missing-loss-division)" if "loss.backward()" in l else l
                 for l in lines]
        with open(source, "w") as f:
            f.write("\n".join(lines))
        check("unused: clean file with a stale NOLINT exits 0 without the option",
              run(source).returncode == 0)
        flagged = run("--report-unused-suppressions", source)
        check("unused: and 1 with it, as a gradlint-unused-suppression warning",
              flagged.returncode == 1 and "[gradlint-unused-suppression]" in flagged.stdout,
              flagged.stdout)
        disabled = run("--report-unused-suppressions", "--checks=-*,accum-misplaced-zero-grad", source)
        check("unused: a NOLINT naming a disabled check is not judged", disabled.returncode == 0,
              disabled.stdout)
        sarif_doc = json.loads(run("--format=sarif", "--report-unused-suppressions", source).stdout)
        rule_ids = [r["id"] for r in sarif_doc["runs"][0]["tool"]["driver"]["rules"]]
        check("unused: SARIF has a rule for it", "gradlint-unused-suppression" in rule_ids and
              not sarif_problems(sarif_doc), rule_ids)
        # Built without GRADLINT_DOCS_URL: the suppressions page copied beside the binary.
        unused_rule = next((r for r in sarif_doc["runs"][0]["tool"]["driver"]["rules"]
                            if r["id"] == "gradlint-unused-suppression"), {})
        check("unused: its rule links to docs/suppressions.md beside the binary",
              unused_rule.get("helpUri", "").endswith("/docs/suppressions.md") and
              same_document(local_document(unused_rule["helpUri"]),
                            source_text("docs", "suppressions.md")),
              unused_rule.get("helpUri"))


def decode_workflow_value(text):
    return re.sub(r"%([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), text)


def parse_workflow_command(line):
    match = re.fullmatch(r"::(\w+)(?: ([^:]*))?::(.*)", line)
    if not match:
        return None
    properties = {}
    for item in (match.group(2) or "").split(","):
        if item:
            key, value = item.split("=", 1)
            properties[key] = value
    return match.group(1), properties, match.group(3)


def test_github():
    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(os.path.join(tmp, "repo"))
        os.makedirs(os.path.join(repo, "src"))
        # ',' ':' and '%' in the name must be encoded in the file= property.
        source = os.path.join(repo, "src", "100%,a:b.cpp")
        shutil.copy(os.path.join(INPUTS, "findings.cpp"), source)
        missing = os.path.join(repo, "src", "missing.cpp")
        result = run("--format=github", source, missing, cwd=tmp)
        diagnostics = json.loads(run("--format=json", source).stdout)["diagnostics"]
        lines = result.stdout.splitlines()
        check("github: one line per finding and error", len(lines) == 3, lines)
        check("github: errors exit 2", result.returncode == 2)
        for line, diag in zip(lines, diagnostics):
            parsed = parse_workflow_command(line)
            check("github: a workflow command", parsed is not None, line)
            if not parsed:
                continue
            command, props, data = parsed
            check("github: ::warning for a warning", command == "warning", command)
            check("github: properties escaped",
                  props.get("file") == "src/100%25%2Ca%3Ab.cpp", props)
            check("github: line, col and title",
                  (props.get("line"), props.get("col"), props.get("title")) ==
                  (str(diag["line"]), str(diag["column"]), diag["check"]), props)
            message_lines = decode_workflow_value(data).split("\n")
            check("github: message first, then the notes",
                  message_lines[0] == diag["message"] and
                  [l.split(": note: ", 1)[1] for l in message_lines[1:]] ==
                  [n["message"] for n in diag["notes"]], message_lines)
            check("github: '%' in data encoded, newlines encoded",
                  "%0A" in data and "% accum_steps" not in data and "%25 accum_steps" in data, data)
        error = parse_workflow_command(lines[-1]) if lines else None
        check("github: file error as ::error file=...",
              error is not None and error[0] == "error" and
              error[1] == {"file": "src/missing.cpp"} and "No such file" in error[2], lines[-1:])


def test_github_error_severity_and_clean():
    result = run("--format=github", os.path.join(INPUTS, "clean.cpp"))
    check("github: clean prints nothing, exit 0", result.stdout == "" and result.returncode == 0,
          result.stdout)


def markdown_unescape(text):
    return re.sub(r"\\(.)", r"\1", text)


def test_markdown():
    findings = os.path.join(INPUTS, "findings.cpp")
    clean = os.path.join(INPUTS, "clean.cpp")
    missing = os.path.join(tempfile.gettempdir(), "gradlint-no-such-file.cpp")
    result = run("--format=markdown", findings, clean, missing)
    text = result.stdout
    diagnostics = json.loads(run("--format=json", findings).stdout)["diagnostics"]
    check("markdown: headline with counts", text.startswith("## gradlint: 2 findings in 1 file\n"),
          text[:80])
    check("markdown: files analysed", "3 files analysed" in text, text[:200])
    check("markdown: a section for the file", re.search(r"^### `.*findings\.cpp`$", text, re.M),
          text)
    rows = [l for l in text.splitlines() if re.match(r"\| \d+:\d+ \|", l)]
    check("markdown: a table row per finding", len(rows) == 2, rows)
    for row, diag in zip(rows, diagnostics):
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]
        check("markdown: line cell", cells[0] == f"{diag['line']}:{diag['column']}", cells)
        # No published URL in this build, and a comment cannot open this machine's files.
        check("markdown: check named, not linked to a local file",
              markdown_unescape(cells[1]) == diag["check"], cells[1])
        check("markdown: message (escaped)", markdown_unescape(cells[2]) == diag["message"] and
              "accum\\_steps" in cells[2], cells[2])
    check("markdown: errors listed", "### Errors" in text and
          "gradlint-no-such-file.cpp`: cannot open file" in text, text)
    check("markdown: errors exit 2", result.returncode == 2)

    clean_result = run("--format=markdown", clean)
    check("markdown: no-findings line", clean_result.stdout.startswith("## gradlint: no findings\n") and
          "No findings in 1 file analysed." in clean_result.stdout and clean_result.returncode == 0,
          clean_result.stdout)

    confirmed = run("--format=markdown", "--confirm", "--backend=cpu", findings).stdout
    confirmations = json.loads(run("--format=json", "--confirm", "--backend=cpu",
                                   findings).stdout)["diagnostics"]
    check("markdown --confirm: a confirmation column", "| Confirmation |" in confirmed, confirmed)
    for diag in confirmations:
        c = diag["confirmation"]
        expected = f"**{c['verdict']}** on {c['backend']}: {c['detail']}"
        check("markdown --confirm: verdict and figures",
              any(markdown_unescape(l).endswith(markdown_unescape(expected) + " |") and
                  f"{diag['line']}:{diag['column']}" in l for l in confirmed.splitlines()),
              (expected, confirmed))
    check("markdown without --confirm: no confirmation column", "Confirmation" not in text)


def test_fix_rendering():
    source = os.path.join(INPUTS, "fix_sample.cpp")
    with open(source, "rb") as f:
        data = f.read()
    old, new = "loss.backward()", "(loss / accum_steps).backward()"
    offset = data.index(old.encode())
    line = data[:offset].count(b"\n") + 1
    line_start = data.rfind(b"\n", 0, offset) + 1
    byte_column = offset - line_start + 1
    char_column = len(data[line_start:offset].decode("utf-8")) + 1
    check("fix sample: byte and character columns differ", byte_column != char_column)

    sample = subprocess.run([WRITE_FIX_SAMPLE, "json", source, old, new], capture_output=True,
                            text=True)
    diagnostics = json.loads(sample.stdout)["diagnostics"]
    fix = diagnostics[0].get("fix", {})
    check("json fix: description and safety",
          fix.get("description") == "divide the loss by the accumulation steps" and
          fix.get("safe") is True, fix)
    edit = (fix.get("edits") or [{}])[0]
    check("json fix: byte offset and length", (edit.get("offset"), edit.get("length")) ==
          (offset, len(old)), edit)
    check("json fix: line and column, end exclusive",
          (edit.get("line"), edit.get("column"), edit.get("end_line"), edit.get("end_column")) ==
          (line, byte_column, line, byte_column + len(old.encode())), edit)
    applied = data[:edit.get("offset", 0)] + edit.get("replacement", "").encode() + \
        data[edit.get("offset", 0) + edit.get("length", 0):]
    check("json fix: applying the edit gives the fixed text",
          b"/* Gr\xc3\xb6\xc3\x9fe */ (loss / accum_steps).backward();" in applied, applied)
    check("json: a finding without a fix has no 'fix'", "fix" not in diagnostics[1])

    sample = subprocess.run([WRITE_FIX_SAMPLE, "sarif", source, old, new], capture_output=True,
                            text=True)
    document = json.loads(sample.stdout)
    check("sarif fix: valid", not sarif_problems(document), sarif_problems(document))
    fixed, unfixed = document["runs"][0]["results"]
    fixes = fixed.get("fixes", [])
    check("sarif fix: one fix", len(fixes) == 1, fixed)
    if fixes:
        change = fixes[0]["artifactChanges"][0]
        replacement = change["replacements"][0]
        region = replacement["deletedRegion"]
        check("sarif fix: description", fixes[0]["description"]["text"] ==
              "divide the loss by the accumulation steps")
        check("sarif fix: artifact is the file", change["artifactLocation"]["uri"].endswith(
            "fix_sample.cpp"), change)
        check("sarif fix: deleted region in characters and bytes",
              (region["startLine"], region["startColumn"], region["endLine"], region["endColumn"],
               region["byteOffset"], region["byteLength"]) ==
              (line, char_column, line, char_column + len(old), offset, len(old)), region)
        check("sarif fix: inserted content", replacement["insertedContent"]["text"] == new)
    start = fixed["locations"][0]["physicalLocation"]["region"]["startColumn"]
    check("sarif: result columns count characters", start == char_column and
          document["runs"][0]["columnKind"] == "unicodeCodePoints", start)
    check("sarif: no fixes on a finding without one", "fixes" not in unfixed)


def test_gitlab():
    """GitLab's Code Quality report (the fields its merge-request widget reads)."""
    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(os.path.join(tmp, "repo"))
        os.makedirs(os.path.join(repo, "src"))
        source = os.path.join(repo, "src", "train.cpp")
        original = lines_of(os.path.join(INPUTS, "findings.cpp"))
        with open(source, "w") as f:
            f.write("\n".join(original))
        missing = os.path.join(repo, "src", "missing.cpp")
        result = run("--format=gitlab", source, missing, cwd=tmp)
        issues = json.loads(result.stdout)
        diagnostics = json.loads(run("--format=json", source).stdout)["diagnostics"]
        findings = [i for i in issues if i.get("check_name") != "gradlint-file-error"]
        check("gitlab: a JSON array, one issue per finding", isinstance(issues, list) and
              [(i["check_name"], i["location"]["positions"]["begin"]["line"]) for i in findings] ==
              [(d["check"], d["line"]) for d in diagnostics], issues)
        for issue in findings:
            check(f"gitlab {issue['check_name']}: the fields Code Quality needs",
                  issue["type"] == "issue" and issue["description"] and
                  issue["severity"] in {"info", "minor", "major", "critical", "blocker"} and
                  isinstance(issue["fingerprint"], str) and len(issue["fingerprint"]) == 32, issue)
            check(f"gitlab {issue['check_name']}: path relative to the repository",
                  issue["location"]["path"] == "src/train.cpp", issue["location"])
            check(f"gitlab {issue['check_name']}: the notes as the body",
                  "accumulation window" in issue.get("content", {}).get("body", ""), issue)
        check("gitlab: fingerprints unique", len({i["fingerprint"] for i in issues}) == len(issues),
              [i["fingerprint"] for i in issues])
        errors = [i for i in issues if i.get("check_name") == "gradlint-file-error"]
        check("gitlab: a file that cannot be analysed is a blocker issue",
              len(errors) == 1 and errors[0]["severity"] == "blocker" and
              errors[0]["location"]["path"] == "src/missing.cpp", errors)
        check("gitlab: exit status as with other formats", result.returncode == 2, result.returncode)

        # Lines inserted above: the same issues (GitLab matches them by fingerprint).
        with open(source, "w") as f:
            f.write("\n".join(["// added", ""] + original))
        moved = json.loads(run("--format=gitlab", source, cwd=tmp).stdout)
        check("gitlab: fingerprints stable when lines are inserted above",
              sorted(i["fingerprint"] for i in moved) == sorted(i["fingerprint"] for i in findings),
              moved)
        check("gitlab: clean file: an empty array",
              json.loads(run("--format=gitlab", os.path.join(INPUTS, "clean.cpp")).stdout) == [])


def test_junit():
    """JUnit XML: a suite per file, a failing case per finding, escaped text."""
    import xml.etree.ElementTree as ElementTree
    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(os.path.join(tmp, "repo"))
        # Markup characters in a path must be escaped to stay well-formed XML.
        source = os.path.join(repo, 'a&b <"loop">.cpp')
        shutil.copy(os.path.join(INPUTS, "findings.cpp"), source)
        clean = os.path.join(repo, "clean.cpp")
        shutil.copy(os.path.join(INPUTS, "clean.cpp"), clean)
        missing = os.path.join(repo, "missing.cpp")
        result = run("--format=junit", source, clean, missing, cwd=repo)
        try:
            root = ElementTree.fromstring(result.stdout)
        except ElementTree.ParseError as error:
            check("junit: well-formed XML", False, f"{error}: {result.stdout[:300]}")
            return
        check("junit: well-formed XML", True)
        diagnostics = json.loads(run("--format=json", source).stdout)["diagnostics"]
        suites = root.findall("testsuite")
        check("junit: a suite per file, in the order given",
              [s.get("name") for s in suites] == ['a&b <"loop">.cpp', "clean.cpp", "missing.cpp"],
              [s.get("name") for s in suites])
        cases = suites[0].findall("testcase")
        check("junit: a failing case per finding, its check as the failure type",
              [(c.find("failure").get("type"), c.get("line")) for c in cases] ==
              [(d["check"], str(d["line"])) for d in diagnostics], result.stdout[:500])
        check("junit: the failure text has the message and the notes",
              all(d["message"] in c.find("failure").text and "note:" in c.find("failure").text
                  for c, d in zip(cases, diagnostics)))
        clean_cases = suites[1].findall("testcase")
        check("junit: a clean file passes one case",
              len(clean_cases) == 1 and not list(clean_cases[0]) and suites[1].get("failures") == "0",
              ElementTree.tostring(suites[1]))
        check("junit: a file that cannot be analysed errors",
              suites[2].find("testcase/error") is not None and suites[2].get("errors") == "1",
              ElementTree.tostring(suites[2]))
        totals = [root.get(k) for k in ("tests", "failures", "errors")]
        check("junit: totals add up", totals == [str(len(diagnostics) + 2), str(len(diagnostics)),
                                                 "1"], totals)


def test_shards_and_merge():
    """--shard=K/N splits the inputs; merge-sarif makes the shards' logs one run."""
    sources = sorted(glob.glob(os.path.join(HERE, "..", "..", "examples", "*.cpp"))) + \
        [os.path.join(INPUTS, "findings.cpp"), os.path.join(INPUTS, "clean.cpp")]
    sources = [os.path.abspath(s) for s in sources]
    whole = json.loads(run("--format=json", *sources).stdout)["diagnostics"]
    key = lambda d: (d["file"], d["line"], d["column"], d["check"])  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        shards, logs = [], []
        for k in (1, 2, 3):
            # The inputs in another order: each shard splits the sorted list.
            shard = run("--format=json", f"--shard={k}/3", *reversed(sources))
            shards.append(json.loads(shard.stdout))
            log = os.path.join(tmp, f"shard{k}.sarif")
            run("--format=sarif", f"--shard={k}/3", *sources, "-o", log)
            logs.append(log)
        check("shard: the files split three ways, each once",
              sorted(n for s in shards for n in [s["files"]]) == [2, 3, 3], [s["files"] for s in shards])
        check("shard: together the findings of the whole run",
              sorted(key(d) for s in shards for d in s["diagnostics"]) == sorted(map(key, whole)),
              [len(s["diagnostics"]) for s in shards])
        merged_path = os.path.join(tmp, "merged.sarif")
        merge = subprocess.run([GRADLINT, "merge-sarif", "-o", merged_path, *logs],
                               capture_output=True, text=True)
        check("merge-sarif: exit 0", merge.returncode == 0, merge.stderr)
        with open(merged_path) as f:
            merged = json.load(f)
        check("merge-sarif: one run", len(merged["runs"]) == 1, len(merged["runs"]))
        problems = sarif_problems(merged)
        check("merge-sarif: the merged log passes the schema checks", not problems, problems)
        run_ = merged["runs"][0]
        rules = [r["id"] for r in run_["tool"]["driver"]["rules"]]
        check("merge-sarif: each rule once", len(rules) == len(set(rules)), rules)
        check("merge-sarif: every result's ruleIndex points at its rule",
              all(rules[r["ruleIndex"]] == r["ruleId"] for r in run_["results"]), run_["results"])
        _, unsharded = sarif(*sources)
        locate = lambda r: (r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],  # noqa: E731
                            r["locations"][0]["physicalLocation"]["region"]["startLine"])
        check("merge-sarif: the same results as one unsharded run",
              sorted(map(locate, run_["results"])) ==
              sorted(map(locate, unsharded["runs"][0]["results"])), len(run_["results"]))
        check("merge-sarif: an invocation per shard", len(run_["invocations"]) == 3,
              run_["invocations"])
        empty = run("--format=sarif", f"--shard={len(sources) + 1}/{len(sources) + 1}", *sources)
        check("shard: a shard without files writes a valid empty log, exit 0",
              empty.returncode == 0 and json.loads(empty.stdout)["runs"][0]["results"] == [],
              empty.stdout[:200])
        bad = os.path.join(tmp, "bad.sarif")
        with open(bad, "w") as f:
            f.write('{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "other"}}}]}')
        refused = subprocess.run([GRADLINT, "merge-sarif", logs[0], bad], capture_output=True,
                                 text=True)
        check("merge-sarif: another tool's log is a one-line error naming it, exit 2",
              refused.returncode == 2 and refused.stderr.startswith(bad + ": error:") and
              len(refused.stderr.splitlines()) == 1, refused.stderr)
        for option in ("--shard=0/3", "--shard=4/3", "--shard=2", "--shard=1/3x"):
            wrong = run(option, sources[0])
            check(f"{option}: a usage error, exit 2", wrong.returncode == 2 and
                  "--shard" in wrong.stderr, wrong.stderr)


def test_format_option():
    bad = run("--format=xml", os.path.join(INPUTS, "clean.cpp"))
    check("unknown format: exit 2 with the choices", bad.returncode == 2 and
          "sarif, github, markdown, gitlab or junit" in bad.stderr, bad.stderr)
    check("--help lists the formats and the option", all(
        word in run("--help").stdout for word in ("sarif", "github", "markdown", "gitlab", "junit",
                                                  "--report-unused-suppressions")))


for test in [test_schema_checker_rejects_invalid_sarif, test_sarif_structure, test_sarif_file_errors,
             test_sarif_uris, test_fingerprints, test_suppression_forms,
             test_only_suppressed_findings_exit_0, test_unmatched_blocks, test_unused_suppressions,
             test_github, test_github_error_severity_and_clean, test_markdown, test_fix_rendering,
             test_gitlab, test_junit, test_shards_and_merge, test_format_option]:
    try:
        test()
    except Exception as error:  # a crash in one test is a failure, not the end of the run
        check(test.__name__, False, f"{type(error).__name__}: {error}")
sys.exit(summary())
