import type { LanguageModelV3 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { MaxIterationsExceededError } from "../errors/max-iterations-exceeded-error.js";
import { ReplanRequested } from "../errors/replan-requested.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { CoreToolGroups } from "./core-tool-groups.js";
import { LlmReference } from "./llm-reference.js";
import { Message } from "./message.js";
import { PromptRunner } from "./prompt-runner.js";
import { ToolGroup } from "./tool-group.js";
import { ToolGroupRegistry } from "./tool-group-registry.js";

function tool(name: string, answer = `${name} ran`): Tool {
  return Tool.create(name, `The ${name} tool`, async () => ToolResult.text(answer));
}

function runnerOn(model: LanguageModelV3, groups: ToolGroup[] = []): PromptRunner {
  return PromptRunner.create({
    resolveLlm: () => ({ model, name: "main", settings: {} }),
    toolGroups: new ToolGroupRegistry(groups),
  });
}

function systemText(model: ScriptedModel, request = 0): string | undefined {
  const first = model.requests[request]?.prompt[0];
  return first?.role === "system" ? first.content : undefined;
}

describe("PromptRunner", () => {
  describe("immutability", () => {
    it("returns a new runner from every with* and leaves the original unchanged", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("a"), ScriptedModel.text("b"));
      const base = runnerOn(model);
      const configured = base
        .withTool(tool("t"))
        .withSystemPrompt("Be brief")
        .withToolCallContext({ k: "v" })
        .withMaxIterations(3);
      expect(configured).not.toBe(base);
      expect(base.toolCallContext.isEmpty).toBe(true);
      expect(base.maxIterations).toBe(20);
      await base.generateText("hi");
      await configured.generateText("hi");
      expect(model.toolNamesPerRequest).toEqual([[], ["t"]]);
      expect(systemText(model, 0)).toBeUndefined();
      expect(systemText(model, 1)).toBe("Be brief");
    });

    it("shares no tool list between branches of one runner", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("a"), ScriptedModel.text("b"));
      const base = runnerOn(model).withTool(tool("shared"));
      const left = base.withTool(tool("left"));
      const right = base.withTool(tool("right"));
      await left.generateText("x");
      await right.generateText("x");
      expect(model.toolNamesPerRequest).toEqual([
        ["shared", "left"],
        ["shared", "right"],
      ]);
    });
  });

  describe("generateText", () => {
    it("sends the prompt as a user message and returns the answer", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("Paris"));
      expect(await runnerOn(model).generateText("Capital of France?")).toBe("Paris");
      expect(model.requests[0]?.prompt).toEqual([
        { role: "user", content: [{ type: "text", text: "Capital of France?" }] },
      ]);
    });

    it("runs tool calls and answers after them", async () => {
      const model = ScriptedModel.of(
        ScriptedModel.toolCall("weather", { city: "Oslo" }),
        ScriptedModel.text("Cold"),
      );
      const answer = await runnerOn(model).withTool(tool("weather", "-5C")).generateText("Weather in Oslo?");
      expect(answer).toBe("Cold");
      expect(model.requests[1]?.toolResults[0]?.output).toEqual({ type: "text", value: "-5C" });
    });

    it("offers tools in the order added across every kind of source", async () => {
      class Jokes {
        readonly tools = "not a tool";
      }
      const model = ScriptedModel.of(ScriptedModel.text("ok"));
      const web = ToolGroup.of(CoreToolGroups.WEB_DESCRIPTION, [tool("search")]);
      await runnerOn(model, [web])
        .withTool(tool("first"))
        .withToolGroup(CoreToolGroups.WEB)
        .withReference(LlmReference.of("Docs", "d", [tool("lookup")]))
        .withToolObject(new Jokes())
        .withTools([tool("last")])
        .generateText("go");
      expect(model.requests[0]?.toolNames).toEqual(["first", "search", "docs_lookup", "last"]);
    });

    it("offers a tool added twice once", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("ok"));
      const once = tool("once");
      const group = ToolGroup.of(CoreToolGroups.MATH_DESCRIPTION, [once]);
      await runnerOn(model, [group])
        .withTool(once)
        .withTools([once])
        .withToolGroup("math")
        .generateText("go");
      expect(model.requests[0]?.toolNames).toEqual(["once"]);
    });

    it("refuses two different tools with one name, naming it, before calling the model", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("never"));
      const group = ToolGroup.of(CoreToolGroups.WEB_DESCRIPTION, [tool("search")]);
      const failure = runnerOn(model, [group])
        .withTool(tool("search"))
        .withToolGroup("web")
        .generateText("go");
      await expect(failure).rejects.toThrow(ConfigurationError);
      await expect(failure).rejects.toThrow(
        /Two different tools are named 'search' \(from withTool and tool group 'web'\)/,
      );
      expect(model.requests).toHaveLength(0);
    });

    it("refuses two different plain tools with one name (resolved without loading anything)", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("never"));
      const failure = runnerOn(model, [])
        .withTool(tool("search"))
        .withTool(tool("search"))
        .generateText("go");
      await expect(failure).rejects.toThrow(
        /Two different tools are named 'search' \(from withTool and withTool\)/,
      );
      expect(model.requests).toHaveLength(0);
    });

    it("fails on an unknown tool group, naming it and the available roles, before calling the model", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("never"));
      const math = ToolGroup.of(CoreToolGroups.MATH_DESCRIPTION, [tool("add")]);
      const failure = runnerOn(model, [math]).withToolGroup(CoreToolGroups.WEB).generateText("go");
      await expect(failure).rejects.toThrow("No tool group matching role 'web'. Available roles: [math]");
      expect(model.requests).toHaveLength(0);
    });

    it("resolves tool groups at call time, so groups registered later are found", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("ok"));
      const registry = new ToolGroupRegistry();
      const runner = PromptRunner.create({
        resolveLlm: () => ({ model, name: "main", settings: {} }),
        toolGroups: registry,
      }).withToolGroup("math");
      registry.register(ToolGroup.of(CoreToolGroups.MATH_DESCRIPTION, [tool("add")]));
      await runner.generateText("1+1");
      expect(model.requests[0]?.toolNames).toEqual(["add"]);
    });

    it("checks required tool names of a group requirement", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("never"));
      const web = ToolGroup.of(CoreToolGroups.WEB_DESCRIPTION, [tool("search")]);
      await expect(
        runnerOn(model, [web])
          .withToolGroup({ role: "web", requiredToolNames: ["fetch"] })
          .generateText("go"),
      ).rejects.toThrow("Tool group with role='web' is missing required tools: [fetch]. Available: [search]");
    });

    it("adds a ToolGroup instance directly, without the registry", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("ok"));
      await runnerOn(model)
        .withToolGroup(ToolGroup.of({ role: "own", description: "d" }, [tool("mine")]))
        .generateText("x");
      expect(model.requests[0]?.toolNames).toEqual(["mine"]);
    });

    it("treats withTools(...roles) as tool groups", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("ok"));
      const groups = [
        ToolGroup.of(CoreToolGroups.WEB_DESCRIPTION, [tool("search")]),
        ToolGroup.of(CoreToolGroups.MATH_DESCRIPTION, [tool("add")]),
      ];
      await runnerOn(model, groups).withTools(CoreToolGroups.MATH, CoreToolGroups.WEB).generateText("x");
      expect(model.requests[0]?.toolNames).toEqual(["add", "search"]);
    });

    it("takes tools as varargs too", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("ok"));
      await runnerOn(model).withTools(tool("a"), tool("b")).generateText("x");
      expect(model.requests[0]?.toolNames).toEqual(["a", "b"]);
    });

    it("adds several tool objects, skipping null ones", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("ok"));
      await runnerOn(model).withToolObjects(tool("a"), null, tool("b")).generateText("x");
      expect(model.requests[0]?.toolNames).toEqual(["a", "b"]);
    });

    it("adds nothing for a null tool object", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("ok"));
      await runnerOn(model).withToolObject(null).withToolObject(undefined).generateText("x");
      expect(model.requests[0]?.toolNames).toEqual([]);
    });

    it("puts reference contributions first, then system prompts, in one system message", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("ok"));
      await runnerOn(model)
        .withSystemPrompt("You are terse.")
        .withReference(
          LlmReference.of("My API Reference", "How the API works", [tool("get")], "Call get first"),
        )
        .withSystemPrompt("Answer in French.")
        .generateText("x");
      expect(model.requests[0]?.prompt.filter((message) => message.role === "system")).toHaveLength(1);
      expect(systemText(model)).toBe(
        "Reference: My API Reference\nDescription: How the API works\nTool prefix: my_api_reference\nNotes: Call get first\n\nYou are terse.\n\nAnswer in French.",
      );
      expect(model.requests[0]?.toolNames).toEqual(["my_api_reference_get"]);
    });

    it("offers a reference's tools once, under the prefixed name only", async () => {
      const model = ScriptedModel.of(ScriptedModel.toolCall("docs_get"), ScriptedModel.text("done"));
      const reference = LlmReference.of("Docs", "d", [tool("get", "page 1")]);
      await runnerOn(model).withReference(reference).withReference(reference).generateText("x");
      expect(model.requests[0]?.toolNames).toEqual(["docs_get"]);
      expect(model.requests[1]?.toolResults[0]?.output).toEqual({ type: "text", value: "page 1" });
    });

    it("stops at maxIterations with the loop's limit error", async () => {
      const model = ScriptedModel.of(
        ScriptedModel.toolCall("t"),
        ScriptedModel.toolCall("t"),
        ScriptedModel.toolCall("t"),
      );
      await expect(
        runnerOn(model).withTool(tool("t")).withMaxIterations(2).generateText("x"),
      ).rejects.toThrow(MaxIterationsExceededError);
      expect(model.requests).toHaveLength(2);
    });

    it("rethrows a tool's replan request as ReplanRequested", async () => {
      const replanning = Tool.create("replan", "Asks to replan", async () => {
        throw new ReplanRequested("need more data");
      });
      const model = ScriptedModel.of(ScriptedModel.toolCall("replan"), ScriptedModel.text("never"));
      const failure = runnerOn(model).withTool(replanning).generateText("x");
      await expect(failure).rejects.toBeInstanceOf(ReplanRequested);
      await expect(failure).rejects.toMatchObject({ reason: "need more data" });
    });

    it("runs extra injection strategies after unfolding", async () => {
      const extra = tool("extra");
      const model = ScriptedModel.of(ScriptedModel.toolCall("t"), ScriptedModel.text("done"));
      await runnerOn(model)
        .withTool(tool("t"))
        .withToolInjectionStrategy({
          evaluate: ({ lastToolCall }) => (lastToolCall.toolName === "t" ? { add: [extra] } : undefined),
        })
        .generateText("x");
      expect(model.toolNamesPerRequest).toEqual([["t"], ["t", "extra"]]);
    });

    it("is aborted by the per-call signal", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("late", { delayMs: 1_000 }));
      const controller = new AbortController();
      const pending = runnerOn(model).generateText("x", { signal: controller.signal });
      controller.abort(new Error("stop"));
      await expect(pending).rejects.toThrow("stop");
    });

    it("is aborted by the runner's signal before any model call", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("never"));
      const failure = runnerOn(model)
        .withSignal(AbortSignal.abort(new Error("cancelled")))
        .generateText("x");
      await expect(failure).rejects.toThrow("cancelled");
      expect(model.requests).toHaveLength(0);
    });
  });

  describe("respond", () => {
    it("sends the conversation and returns the assistant's message", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("Nice to meet you, Ada."));
      const reply = await runnerOn(model).respond([
        Message.user("Hi"),
        Message.assistant("Hello! Who are you?"),
        Message.user("I am Ada."),
      ]);
      expect(reply).toEqual({ role: "assistant", content: "Nice to meet you, Ada." });
      expect(model.requests[0]?.prompt.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    });

    it("refuses an empty conversation before calling the model", async () => {
      const model = ScriptedModel.of(ScriptedModel.text("never"));
      await expect(runnerOn(model).respond([])).rejects.toThrow(
        "PromptRunner.respond needs at least one message; got an empty list.",
      );
      await expect(runnerOn(model).respond([])).rejects.toBeInstanceOf(ConfigurationError);
      expect(model.requests).toHaveLength(0);
    });
  });

  describe("configuration", () => {
    it("refuses a non-positive maxIterations", () => {
      expect(() => runnerOn(ScriptedModel.of()).withMaxIterations(0)).toThrow(ConfigurationError);
    });

    it("rejects tool chaining from a type without @llmTool methods", () => {
      const runner = runnerOn(ScriptedModel.of());
      expect(() => runner.withToolChainingFrom(z.object({}))).toThrow(ConfigurationError);
    });

    it("waits for a resolver answering with a promise or any other thenable, and fails with its rejection", async () => {
      const model = ScriptedModel.of(
        ScriptedModel.text("from a promise"),
        ScriptedModel.text("from a thenable"),
      );
      const resolved = { model, name: "main", settings: {} };
      const viaPromise = PromptRunner.create({
        resolveLlm: async () => resolved,
        toolGroups: new ToolGroupRegistry(),
      });
      const viaThenable = PromptRunner.create({
        resolveLlm: () => {
          const thenable = {
            // biome-ignore lint/suspicious/noThenProperty: a non-native thenable is what this test is about
            then: (resolve: (value: typeof resolved) => void) => resolve(resolved),
          };
          return thenable as unknown as Promise<typeof resolved>;
        },
        toolGroups: new ToolGroupRegistry(),
      });
      expect(await viaPromise.generateText("x")).toBe("from a promise");
      expect(await viaThenable.generateText("x")).toBe("from a thenable");
      const failing = PromptRunner.create({
        resolveLlm: () => Promise.reject(new ConfigurationError("no such model")),
        toolGroups: new ToolGroupRegistry(),
      });
      await expect(failing.generateText("x")).rejects.toThrow("no such model");
    });

    it("passes the chosen llm options to the platform's resolver; withDefaultLlm passes none", async () => {
      const model = ScriptedModel.of(
        ScriptedModel.text("ok"),
        ScriptedModel.text("ok"),
        ScriptedModel.text("ok"),
      );
      const seen: unknown[] = [];
      const runner = PromptRunner.create({
        resolveLlm: (options) => {
          seen.push(options);
          return { model, name: "main", settings: {} };
        },
        toolGroups: new ToolGroupRegistry(),
      });
      const options = { role: "smart" };
      await runner.withLlm(options).generateText("x");
      await runner.withLlm(options).withDefaultLlm().generateText("x");
      await runner.withLlm(options).withAutoLlm().generateText("x");
      expect(seen).toEqual([options, undefined, undefined]);
    });
  });
});

describe("PromptRunner.streamText", () => {
  it("streams the answer's deltas through doStream and resolves the whole text", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.text("Hello there world", { textChunks: ["Hello", " there", " world"] }),
    );
    const stream = runnerOn(model).streamText("hi");
    const deltas: string[] = [];
    for await (const delta of stream) deltas.push(delta);
    expect(deltas).toEqual(["Hello", " there", " world"]);
    expect(await stream.text).toBe("Hello there world");
    expect(model.requests[0]?.mode).toBe("stream");
  });

  it("runs tool rounds before the streamed answer", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("t"), ScriptedModel.text("done"));
    const stream = runnerOn(model).withTool(tool("t")).streamText("hi");
    expect(await stream.text).toBe("done");
    expect(model.toolNamesPerRequest).toEqual([["t"], ["t"]]);
  });
});
