import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, without types
import { nameClassesAsWritten } from "../scripts/build.mjs";
import { ensureBuilt, root } from "./support/dist.js";

// dist/ is bundled by esbuild without keepNames: names come from the code as
// written, mended by the build where esbuild would change a class's name.
const ENTRIES = ["index", "testing/index", "distributed/index", "studio/index", "mcp/index"];

describe("the built package's names", () => {
  beforeAll(() => ensureBuilt(), 300_000);

  it.each(ENTRIES)(
    "dist/src/%s.js: every exported class and function has the name it is exported as",
    async (entry) => {
      const module = (await import(pathToFileURL(join(root, `dist/src/${entry}.js`)).href)) as Record<
        string,
        unknown
      >;
      const renamed = Object.entries(module)
        .filter(([, value]) => typeof value === "function")
        .filter(([name, value]) => (value as { name: string }).name !== name)
        .map(([name, value]) => `${name} is named ${(value as { name: string }).name}`);
      expect(renamed).toEqual([]);
    },
  );
});

describe("nameClassesAsWritten", () => {
  const classes = new Set(["Blackboard", "AgentPlatform", "Tool2"]);
  const getter = (name: string) => `\n  static get name() {\n    return "${name}";\n  }`;

  it("leaves a class esbuild names as written", () => {
    const code = "var Blackboard = class {\nvar Tool = class extends Base {";
    expect(nameClassesAsWritten(code, classes)).toBe(code);
  });

  it("gives a class that refers to itself (esbuild calls it `_X` inside) its own name inside, no getter", () => {
    const code = [
      "var Blackboard = class _Blackboard extends Base {",
      "  static EMPTY = new _Blackboard();",
      "  copy() {",
      "    return new _Blackboard(_Blackboard.EMPTY, my_Blackboard);",
      "  }",
      "};",
      "var after = 1;",
    ].join("\n");
    expect(nameClassesAsWritten(code, classes)).toBe(
      [
        "var Blackboard = class Blackboard extends Base {",
        "  static EMPTY = new Blackboard();",
        "  copy() {",
        "    return new Blackboard(Blackboard.EMPTY, my_Blackboard);",
        "  }",
        "};",
        "var after = 1;",
      ].join("\n"),
    );
  });

  it("names a class by a getter when where its body ends cannot be told", () => {
    expect(nameClassesAsWritten("var Blackboard = class _Blackboard {", classes)).toBe(
      `var Blackboard = class _Blackboard {${getter("Blackboard")}`,
    );
    // A `};` line inside a template literal: the inner name occurs after it, so the body is not renamed.
    const templated = [
      "var Blackboard = class _Blackboard {",
      "  text = `",
      "};",
      `\${_Blackboard.name}\`;`,
      "};",
    ].join("\n");
    expect(nameClassesAsWritten(templated, classes)).toBe(
      templated.replace("class _Blackboard {", `class _Blackboard {${getter("Blackboard")}`),
    );
  });

  it("names a class esbuild renamed for a clash by its name as written", () => {
    expect(
      nameClassesAsWritten("var AgentPlatform2 = class _AgentPlatform extends AgentPlatform {", classes),
    ).toBe(`var AgentPlatform2 = class _AgentPlatform extends AgentPlatform {${getter("AgentPlatform")}`);
    expect(nameClassesAsWritten("var AgentPlatform3 = class {", classes)).toBe(
      `var AgentPlatform3 = class {${getter("AgentPlatform")}`,
    );
  });

  it("keeps a name that ends in a digit as written", () => {
    expect(nameClassesAsWritten("var Tool2 = class {", classes)).toBe("var Tool2 = class {");
  });
});
