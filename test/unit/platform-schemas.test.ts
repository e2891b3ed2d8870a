// The published shapes the e2e tier checks every Gradescope and Exercism document against
// (test/helpers/readers.ts): strict enough that a wrong status, a misspelt field or a broken
// rule of the platform's is refused, so that a document they accept is worth something.
import { describe, expect, it } from "vitest";
import { validateExercism, validateGradescope } from "../helpers/readers.ts";

describe("the schemas are strict enough to catch a wrong field", () => {
  const gradescopeTest = {
    name: "t",
    score: 1,
    max_score: 1,
    status: "passed",
    output: "",
    visibility: "visible",
  };
  it.each([
    ["a status Gradescope does not know", { tests: [{ ...gradescopeTest, status: "pass" }] }],
    ["a misspelt field", { tests: [{ ...gradescopeTest, maxScore: 1 }] }],
    ["an unknown visibility", { tests: [{ ...gradescopeTest, visibility: "private" }] }],
    ["no score anywhere", { tests: [{ name: "t", status: "passed" }] }],
  ])("gradescope rejects %s", (_, doc) => {
    expect(validateGradescope(doc)).toBe(false);
  });

  const exercismTest = { name: "t", status: "pass", message: null, output: null, test_code: "x" };
  it.each([
    ["version 2", { version: 2, status: "pass", tests: [exercismTest] }],
    ["status passed", { version: 3, status: "passed", tests: [exercismTest] }],
    [
      "a top-level message without status error",
      { version: 3, status: "pass", message: "x", tests: [] },
    ],
    ["status error without a message", { version: 3, status: "error" }],
    [
      "status pass with a failed test",
      { version: 3, status: "pass", tests: [{ ...exercismTest, status: "fail", message: "m" }] },
    ],
    [
      "a failed test without a message",
      { version: 3, status: "fail", tests: [{ ...exercismTest, status: "fail" }] },
    ],
    [
      "output over 500 characters",
      { version: 3, status: "pass", tests: [{ ...exercismTest, output: "x".repeat(501) }] },
    ],
    ["a task_id of 0", { version: 3, status: "pass", tests: [{ ...exercismTest, task_id: 0 }] }],
    ["no test_code", { version: 3, status: "pass", tests: [{ name: "t", status: "pass" }] }],
  ])("exercism rejects %s", (_, doc) => {
    expect(validateExercism(doc)).toBe(false);
  });
});
