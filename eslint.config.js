// ESLint flat config: typescript-eslint's recommended rules over every TypeScript file.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".grader/",
      "**/input-validator.js",
      "test/vectors/",
      "test/submissions/",
      "test/naming-corpus/",
      "test/naming-corpus-dev/",
      "test/naming-corpus-test/",
      "test/naming-corpus-sync-dev/",
      "test/naming-corpus-sync-test/",
      "test/naming-corpus-sync-dev2/",
      "test/naming-corpus-sync-dev3/",
      "test/naming-corpus-sync-dev4/",
      "test/naming-corpus-sync-dev5/",
      "test/naming-corpus-sync-dev6/",
      "test/naming-corpus-sync-dev7/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The starter's stubs take their parameters without using them yet.
    files: ["starter/src/**/*.ts"],
    rules: { "@typescript-eslint/no-unused-vars": ["error", { args: "none" }] },
  },
  {
    // Plain JavaScript that Node runs directly (the grader's launcher and build worker).
    files: ["**/*.mjs"],
    languageOptions: { globals: { URL: "readonly", process: "readonly", console: "readonly" } },
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
);
