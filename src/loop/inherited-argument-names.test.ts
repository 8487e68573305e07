import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PromptRunner } from "../prompt/prompt-runner.js";
import { ToolGroupRegistry } from "../prompt/tool-group-registry.js";
import { ScriptedModel } from "../testing/index.js";
import { InputSchema } from "../tool/input-schema.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";

// Parameters named like Object.prototype's properties (security review L4):
// arguments are read as own properties only, through the public PromptRunner.

function runner(model: ScriptedModel): PromptRunner {
  return PromptRunner.create({
    resolveLlm: () => ({ name: "scripted", model, settings: {} }),
    toolGroups: new ToolGroupRegistry([]),
  });
}

/** What the model was told of its first tool call. */
async function answerTo(tool: Tool, args: unknown): Promise<string> {
  const model = ScriptedModel.of(
    ScriptedModel.toolCall(tool.definition.name, args),
    ScriptedModel.text("done"),
  );
  await runner(model).withTool(tool).generateText("go");
  return String((model.requests[1]?.toolResults[0]?.output as { value?: unknown } | undefined)?.value);
}

/** The server schema of the review: an optional `constructor` object, a required `toString`. */
const oddSchema = InputSchema.fromJsonSchema({
  type: "object",
  properties: {
    constructor: { type: "object" },
    toString: { type: "string" },
    ["__proto__"]: { type: "string" },
    n: { type: "number" },
  },
  required: ["toString", "n"],
});

function received(): { tool: Tool; inputs: string[] } {
  const inputs: string[] = [];
  const tool = Tool.of("odd", "Odd names", oddSchema, ToolMetadata.DEFAULT, (input) => {
    inputs.push(input);
    return ToolResult.text("ran");
  });
  return { tool, inputs };
}

describe("argument names Object.prototype also has", () => {
  it("never lets an inherited property satisfy a required one", async () => {
    const { tool, inputs } = received();
    expect(await answerTo(tool, { n: 1 })).toBe(
      "Invalid arguments for tool 'odd': missing required field 'toString'. Call the tool again with arguments that match its input schema.",
    );
    expect(inputs).toEqual([]);
  });

  it("does not check an absent optional `constructor` against its schema", async () => {
    const { tool, inputs } = received();
    expect(await answerTo(tool, { n: 1, toString: "x" })).toBe("ran");
    expect(inputs).toEqual(['{"n":1,"toString":"x"}']);
  });

  it("takes `constructor`, `toString` and `__proto__` the model sent, and checks them", async () => {
    const { tool, inputs } = received();
    const sent = '{"n":1,"toString":"x","constructor":{},"__proto__":"p"}';
    expect(await answerTo(tool, sent)).toBe("ran");
    expect(inputs).toEqual([sent]);
    expect(await answerTo(tool, '{"n":1,"toString":"x","__proto__":5}')).toContain(
      "field '__proto__' must be string, got integer",
    );
  });

  it("coerces a quoted number only for an own property", async () => {
    const { tool, inputs } = received();
    expect(await answerTo(tool, { n: "2", toString: "x" })).toBe("ran");
    expect(inputs).toEqual(['{"n":2,"toString":"x"}']);
  });

  it("lets a zod-typed tool leave `constructor` and `toString` out", async () => {
    const seen: unknown[] = [];
    const tool = Tool.fromFunction(
      "typed",
      "Typed odd names",
      z.object({ constructor: z.string().optional(), toString: z.string().optional(), n: z.number() }),
      z.string(),
      (input) => {
        seen.push(Object.hasOwn(input, "constructor") ? input.constructor : "(absent)", input.n);
        return "ok";
      },
    );
    expect(await answerTo(tool, { n: 3 })).toBe("ok");
    expect(await answerTo(tool, { n: 4, constructor: "given" })).toBe("ok");
    expect(seen).toEqual(["(absent)", 3, "given", 4]);
  });

  it("lets an @llmTool method leave `constructor` out", async () => {
    class Catalogue {
      @llmTool({
        description: "Finds parts",
        input: z.object({ constructor: z.string().optional(), q: z.string() }),
      })
      find(input: { q: string }): string {
        return `found ${input.q}`;
      }
    }
    const [tool] = Tool.fromInstance(new Catalogue());
    expect(tool).toBeDefined();
    expect(await answerTo(tool as Tool, { q: "bolts" })).toBe("found bolts");
  });
});
