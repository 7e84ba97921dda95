#!/usr/bin/env python3
"""Checks the GitHub Action (action.yml) and runs its steps here, as GitHub would.

- action.yml parses, is a composite action, and every input it declares is used by a step and
  documented in docs/ci.md (and the table there lists no input the action lacks);
- every TP_* variable a step sets is read by scripts/action.sh, and the other way round;
- the repository's workflow (.github/workflows/toolproof.yml) uses the action with its inputs only;
- the steps run against a local build: the `run:` steps with bash, the `uses:` steps emulated
  (setup-go: nothing; upload/download-artifact: copies; upload-sarif: the file is checked against
  the SARIF 2.1.0 schema). Scenarios: the embedded corpus; a gate with findings, failing, and held
  by the committed baseline; a run split into two shards and merged, equal to the unsharded run.

Needs python3 with PyYAML and jsonschema (scripts/test installs python3-yaml when missing).
Usage: scripts/check-action.py
"""
import fnmatch
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import jsonschema
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def load(path):
    with open(os.path.join(ROOT, path)) as f:
        return yaml.safe_load(f)


def check_structure(action):
    if action.get("runs", {}).get("using") != "composite":
        fail("action.yml: runs.using is not composite")
    steps = action["runs"]["steps"]
    text = yaml.safe_dump(steps)
    inputs = action.get("inputs", {})
    for name, spec in inputs.items():
        if not spec.get("description"):
            fail(f"action.yml: input {name} has no description")
        if f"inputs.{name}" not in text:
            fail(f"action.yml: input {name} is used by no step")
    used = set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", text + yaml.safe_dump(action.get("outputs", {}))))
    for name in used - set(inputs):
        fail(f"action.yml: a step uses inputs.{name}, which is not declared")
    with open(os.path.join(ROOT, "docs/ci.md")) as f:
        doc = f.read()
    table = set(re.findall(r"^\| `([a-z-]+)` \|", doc, re.M))
    for name in inputs:
        if name not in table:
            fail(f"docs/ci.md: input {name} is not in the inputs table")
    for name in table - set(inputs):
        fail(f"docs/ci.md: the inputs table lists {name}, which action.yml does not declare")
    with open(os.path.join(ROOT, "scripts/action.sh")) as f:
        script = f.read()
    set_vars = set(re.findall(r"\b(TP_[A-Z_]+):", text))
    read_vars = set(re.findall(r"\b(TP_[A-Z_]+)\b", script)) - {"TP_OUT", "TP_BIN"}
    for v in set_vars - read_vars:
        fail(f"action.yml sets {v}, which scripts/action.sh does not read")
    for v in read_vars - set_vars:
        fail(f"scripts/action.sh reads {v}, which no step of action.yml sets")
    for step in steps:
        if "run" in step and "toolproof.sh" in step["run"]:
            sub = step["run"].split("toolproof.sh\"")[-1].strip().strip("'")
            if sub not in ("install", "run", "merge", "finish"):
                fail(f"action.yml: step {step.get('name')} runs toolproof.sh {sub!r}")
        if "shell" not in step and "run" in step:
            fail(f"action.yml: step {step.get('name')} has no shell (composite steps need one)")


def check_workflow(action):
    wf = load(".github/workflows/toolproof.yml")
    uses = 0
    for job, spec in wf["jobs"].items():
        for step in spec["steps"]:
            if step.get("uses") == "./":
                uses += 1
                for key in step.get("with", {}):
                    if key not in action["inputs"]:
                        fail(f"workflow job {job}: with {key}, which the action does not declare")
    if uses == 0:
        fail("the workflow does not use the action (uses: ./)")


class Job:
    """One job on a fake runner: the files GitHub gives a step, and the artifacts store."""

    def __init__(self, root, name, artifacts, env):
        self.dir = os.path.join(root, name)
        os.makedirs(self.dir)
        self.temp = os.path.join(self.dir, "temp")
        os.makedirs(self.temp)
        self.artifacts = artifacts
        self.files = {k: os.path.join(self.dir, k) for k in ("output", "summary", "path")}
        for f in self.files.values():
            open(f, "w").close()
        self.env = dict(os.environ, RUNNER_TEMP=self.temp, GITHUB_ACTION_PATH=ROOT, GITHUB_OUTPUT=self.files["output"],
                        GITHUB_STEP_SUMMARY=self.files["summary"], GITHUB_PATH=self.files["path"], **env)
        self.outputs = {}

    def expr(self, text, inputs):
        """The value of a ${{ }} expression: inputs, github and runner contexts, || defaults."""
        def value(e):
            e = e.strip()
            if "||" in e:
                for part in e.split("||"):
                    v = value(part)
                    if v:
                        return v
                return ""
            if e.startswith("inputs."):
                return inputs[e[len("inputs."):]]
            if e.startswith("steps."):
                _, sid, _, key = e.split(".")
                return self.outputs.get(sid, {}).get(key, "")
            return {"github.action_path": ROOT, "runner.temp": self.temp, "github.run_id": "4242",
                    "github.action_ref": ""}[e]
        return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(value(m.group(1))), str(text))

    def cond(self, text, inputs):
        """Evaluates an if: of the forms the action uses (==, !=, &&, ||, always(), parentheses)."""
        if text is None:
            return True
        py = re.sub(r"inputs\.([A-Za-z0-9_-]+)", lambda m: repr(inputs[m.group(1)]), text)
        py = py.replace("&&", " and ").replace("||", " or ").replace("always()", "True")
        return eval(py, {}, {})  # the action's own conditions, nothing from outside

    def run(self, action, inputs):
        """Runs the action's steps; returns the exit status of the first failing step, else 0."""
        for step in action["runs"]["steps"]:
            if not self.cond(step.get("if"), inputs):
                continue
            if "uses" in step:
                self.uses(step["uses"], {k: self.expr(v, inputs) for k, v in step.get("with", {}).items()})
                continue
            env = dict(self.env, **{k: self.expr(v, inputs) for k, v in step.get("env", {}).items()})
            open(self.files["output"], "w").close()
            p = subprocess.run(["bash", "-c", step["run"]], env=env, cwd=ROOT, capture_output=True, text=True)
            with open(self.files["output"]) as f:
                self.outputs[step.get("id", "")] = dict(line.split("=", 1) for line in f.read().splitlines() if "=" in line)
            self.log = getattr(self, "log", "") + p.stdout + p.stderr
            if p.returncode != 0:
                return p.returncode
        return 0

    def uses(self, name, args):
        if name.startswith("actions/setup-go"):
            return
        if name.startswith("actions/upload-artifact"):
            dest = os.path.join(self.artifacts, args["name"])
            os.makedirs(dest, exist_ok=True)
            for p in args["path"].split("\n"):
                if p.strip() and os.path.exists(p.strip()):
                    shutil.copy(p.strip(), dest)
            return
        if name.startswith("actions/download-artifact"):
            for a in os.listdir(self.artifacts):
                if fnmatch.fnmatch(a, args["pattern"]):
                    shutil.copytree(os.path.join(self.artifacts, a), os.path.join(args["path"], a))
            return
        if name.startswith("github/codeql-action/upload-sarif"):
            with open(args["sarif_file"]) as f:
                sarif = json.load(f)
            with open(os.path.join(ROOT, "harness/report/testdata/sarif/sarif-schema-2.1.0.json")) as f:
                schema = json.load(f)
            jsonschema.Draft4Validator(schema).validate(sarif)
            self.sarif = sarif
            return
        fail(f"action.yml uses {name}, which this check cannot emulate")


def inputs_of(action, **given):
    out = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    out.update({k.replace("_", "-"): v for k, v in given.items()})
    return out


def scenarios(action, root, coerce):
    def job(name, **given):
        j = Job(root, name, os.path.join(root, "artifacts-" + name.split("-")[0]), {})
        os.makedirs(j.artifacts, exist_ok=True)
        code = j.run(action, inputs_of(action, **given))
        return j, code

    # The seed: 1 by default, the same cases every CI run; 'fresh' is the run's id (4242 here).
    for seed, want in (("", "seed 1"), ("fresh", "seed 4242")):
        given = {"seed": seed} if seed else {}
        j, code = job("seed" + (seed or "default"), checks="2", **given)
        if code != 0 or want + " (toolproof run --seed" not in j.log:
            fail(f"seed {seed or '(default)'}: exit {code}, want 0 and {want!r} in the report\n{j.log[-2000:]}")
    # Exit 3 is reported as an interruption, not as bad usage, and keeps its status.
    fake = os.path.join(root, "fake-bin")
    os.makedirs(fake, exist_ok=True)
    with open(os.path.join(fake, "toolproof"), "w") as f:
        f.write("#!/bin/sh\necho 'FAIL  validator x (interrupted)'\nexit 3\n")
    os.chmod(os.path.join(fake, "toolproof"), 0o755)
    env = dict(os.environ, TP_BIN=fake, TP_OUT=os.path.join(root, "out-interrupted"), TP_SEED="1")
    p = subprocess.run(["bash", os.path.join(ROOT, "scripts/action.sh"), "run"], env=env, capture_output=True, text=True)
    if p.returncode != 3 or "interrupted" not in p.stderr or "bad usage" in p.stderr:
        fail(f"exit 3: the action exited {p.returncode} saying {p.stderr!r}; want 3 and 'interrupted'")

    # The embedded corpus against the reference: passes, with every report.
    j, code = job("corpus", checks="10", seed="1")
    out = j.outputs.get("run", {})
    if code != 0 or out.get("exit-code") != "0" or out.get("passed") != "true":
        fail(f"corpus: exit {code}, outputs {out}\n{j.log[-3000:]}")
    with open(j.files["summary"]) as f:
        if "### toolproof: reference passed" not in f.read():
            fail("corpus: the job summary lacks the Markdown report")
    art = os.path.join(j.artifacts, "toolproof-report")
    for name in ("report.html", "report.json", "report.sarif", "badge.json"):
        if not os.path.exists(os.path.join(art, name)):
            fail(f"corpus: the artifact lacks {name}")
    if not hasattr(j, "sarif"):
        fail("corpus: no SARIF was uploaded")
    with open(os.path.join(art, "report.json")) as f:
        whole = f.read()

    # A gate with findings fails the job, after the reports are kept; fail-on-findings false does not.
    spec = "exec:" + coerce
    j, code = job("coerce", validators=spec, checks="20", seed="1")
    if code != 1 or j.outputs.get("run", {}).get("passed") != "false":
        fail(f"coerce: exit {code}, want 1 (findings)\n{j.log[-3000:]}")
    if not os.path.exists(os.path.join(j.artifacts, "toolproof-report", "report.html")):
        fail("coerce: the HTML report was not kept")
    if not getattr(j, "sarif", {}).get("runs", [{}])[0].get("results"):
        fail("coerce: the SARIF has no results")
    j, code = job("coerce2", validators=spec, checks="20", seed="1", fail_on_findings="false")
    if code != 0:
        fail(f"coerce, fail-on-findings false: exit {code}")

    # The same gate held by the committed baseline (the workflow's baseline job): passes.
    j, code = job("baseline", validators=spec, checks="20", seed="1", baseline=".github/toolproof/coerce-baseline.json",
                  artifact_name="toolproof-baseline")
    if code != 0:
        fail(f"baseline: exit {code}: .github/toolproof/coerce-baseline.json is not the baseline of the coerce adapter "
             f"(go build -o /tmp/coerce ./cmd/toolproof/testdata/coerce; toolproof run --validator exec:/tmp/coerce "
             f"--checks 20 --seed 1 --format json > r.json; toolproof baseline r.json > .github/toolproof/coerce-baseline.json)\n{j.log[-3000:]}")

    # Two shards and a merge: the merged report is the unsharded one.
    for i in ("0", "1"):
        j, code = job(f"sharded-{i}", checks="10", seed="1", shards="2", shard=i, artifact_name="toolproof-sharded")
        if code != 0:
            fail(f"shard {i}: exit {code}\n{j.log[-3000:]}")
    j, code = job("sharded-merge", checks="10", seed="1", shards="2", merge="true", artifact_name="toolproof-sharded")
    if code != 0:
        fail(f"merge: exit {code}\n{j.log[-3000:]}")
    merged = os.path.join(j.artifacts, "toolproof-sharded", "report.json")
    if not os.path.exists(merged):
        fail("merge: no merged report kept")
    else:
        with open(merged) as f:
            if f.read() != whole:
                fail("merge: the merged report differs from the unsharded run's")


def main():
    action = load("action.yml")
    check_structure(action)
    check_workflow(action)
    with tempfile.TemporaryDirectory() as root:
        coerce = os.path.join(root, "coerce-adapter")
        subprocess.run(["go", "build", "-o", coerce, "./cmd/toolproof/testdata/coerce"], cwd=ROOT, check=True)
        scenarios(action, root, coerce)
    if failures:
        print(f"check-action: {len(failures)} failures", file=sys.stderr)
        sys.exit(1)
    print("check-action: action.yml parses, its inputs are used and documented, its steps run")


if __name__ == "__main__":
    main()
