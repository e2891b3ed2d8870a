// The handout's GitHub Classroom workflow (handout/workflow-classroom.yml), parsed: Classroom's
// own names for it, the step that writes Classroom's points, and the handout built with
// --classroom getting it instead of grade.yml. That its step reports the points Classroom's
// reporter would sum is test/e2e/formats.test.ts's ("GitHub Classroom's points").
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import { fillTemplate, handoutFiles } from "../../scripts/handout.ts";
import { ROOT } from "../helpers/program.ts";

interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { if?: string; "runs-on": string; steps: { id?: string; run?: string }[] }>;
}

const workflow = parseYaml(
  readFileSync(join(ROOT, "handout", "workflow-classroom.yml"), "utf8"),
) as Workflow;

describe("handout/workflow-classroom.yml", () => {
  it("has the names of the workflow GitHub Classroom writes for its autograding", () => {
    // Classroom's generated .github/workflows/classroom.yml, as in the reporter's README and
    // integration workflow: "Autograding Tests", job run-autograding-tests (the check run the
    // reporter's earlier versions updated by that name), push and repository_dispatch, not for
    // Classroom's own bot's commits.
    expect(workflow.name).toBe("Autograding Tests");
    expect(Object.keys(workflow.jobs)).toEqual(["run-autograding-tests"]);
    expect(Object.keys(workflow.on)).toEqual(
      expect.arrayContaining(["push", "repository_dispatch"]),
    );
    expect(workflow.permissions).toEqual({ checks: "write", actions: "read", contents: "read" });
    expect(workflow.jobs["run-autograding-tests"]?.if).toBe(
      "github.actor != 'github-classroom[bot]'",
    );
  });

  it("grades with --format classroom, as root, in one step", () => {
    const steps = workflow.jobs["run-autograding-tests"]?.steps ?? [];
    const grading = steps.filter((s) => s.run?.includes("grade") === true);
    expect(grading.map((s) => s.run?.trim())).toEqual([
      'sudo -E env "PATH=$PATH" npm run -s grade -- --format classroom',
    ]);
  });
});

describe("npm run handout -- OUT --classroom", () => {
  it("ships classroom.yml instead of grade.yml, and nothing else differs", () => {
    const own = handoutFiles().map((f) => f.path);
    const classroom = handoutFiles(ROOT, "classroom").map((f) => f.path);
    expect(own).toContain(".github/workflows/grade.yml");
    expect(own).not.toContain(".github/workflows/classroom.yml");
    expect(classroom.filter((p) => !own.includes(p))).toEqual([".github/workflows/classroom.yml"]);
    expect(own.filter((p) => !classroom.includes(p))).toEqual([".github/workflows/grade.yml"]);
  });
});

describe("the handout README's grading command", () => {
  it.each([
    ["own", "handout/workflow-grade.yml"],
    ["classroom", "handout/workflow-classroom.yml"],
  ] as const)("is the %s workflow's own grading step", (variant, file) => {
    const stamp = { kit: { version: "1.0.0", fixtures: "0" }, cases: 1, builtFrom: null };
    const readme = fillTemplate(
      readFileSync(join(ROOT, "handout", "README.md"), "utf8"),
      stamp,
      "handout/README.md",
      variant,
    );
    const grading = Object.values(
      (parseYaml(readFileSync(join(ROOT, file), "utf8")) as Workflow).jobs,
    )
      .flatMap((job) => job.steps)
      .flatMap((step) => (step.run ?? "").split("\n"))
      .map((line) => line.trim())
      .filter((line) => line.includes("npm run -s grade"));
    expect(grading).toHaveLength(1);
    // The command the README's "Grading on GitHub" shows is the one the workflow runs.
    const section = readme.slice(readme.indexOf("## Grading on GitHub"));
    expect(section.slice(0, section.indexOf("### "))).toContain(`\n${grading[0] ?? "?"}\n`);
  });
});
