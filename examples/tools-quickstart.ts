// A tiny tour of the tool layer, no LLM needed: `npm run build && node dist/examples/tools-quickstart.js`.
// It also proves that TC39-decorated classes (@llmTool) run for real from dist/ on Node 20.
import { z } from "zod";
import { InputSchema, ListSink, llmTool, Param, Tool, ToolCallContext, ToolResult } from "../src/index.js";

const AddInput = z.object({
  a: z.number().describe("First number"),
  b: z.number().describe("Second number"),
});

class MathService {
  @llmTool({ description: "Adds two numbers together", input: AddInput })
  add({ a, b }: z.output<typeof AddInput>): number {
    return a + b;
  }

  @llmTool({ description: "Says who is asking", name: "whoami" })
  whoAmI(_input: unknown, context: ToolCallContext): string {
    return `tenant ${context.get("tenantId") ?? "unknown"}`;
  }
}

const greet = Tool.create(
  "greet",
  "Greets someone",
  InputSchema.of(Param.string("name", "Who to greet")),
  (input) => ToolResult.text(`Hello, ${JSON.parse(input).name}!`),
);

const multiply = Tool.fromFunction(
  "multiply",
  "Multiplies two numbers",
  AddInput,
  z.object({ product: z.number() }),
  ({ a, b }) => ({ product: a * b }),
);

async function main(): Promise<void> {
  const mathTools = Tool.fromInstance(new MathService());
  const sums = new ListSink<number>();
  const [add, whoami] = mathTools.map((tool) => Tool.sinkArtifacts(tool, Number, sums));
  const context = ToolCallContext.of({ tenantId: "acme" });

  console.log(Tool.formatToolTree("quickstart", [...mathTools, greet, multiply]));
  console.log(`add -> ${(await add!.call('{"a": 5, "b": 3}', context)).content}`);
  console.log(`whoami -> ${(await whoami!.call("", context)).content}`);
  console.log(`greet -> ${(await greet.call('{"name": "Ada"}')).content}`);
  console.log(`multiply -> ${(await multiply.call('{"a": 6, "b": 7}')).content}`);
  console.log(`bad input -> ${(await add!.call('{"a": "five", "b": 3}')).content}`);
  console.log(`sunk artifacts -> ${JSON.stringify(sums.items())}`);
}

await main();
