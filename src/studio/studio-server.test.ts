import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentPlatform } from "../platform/agent-platform.js";
import { defineAgent } from "../platform/define-agent.js";
import { ProcessOptions } from "../platform/process-options.js";
import { WaitFor } from "../platform/wait-for.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { domainType } from "../tool/type-token.js";
import { TraceRecorder } from "../trace/trace-recorder.js";
import { TraceSink } from "../trace/trace-sink.js";
import { createStudioApp, type StudioRunStarter, type StudioServer, startStudio } from "./studio-server.js";

const examples = [{ name: "waiter", summary: "Waits for the test", sampleInput: "hello" }];

/** A run that starts, then waits for `release` before it finishes. */
function gatedStarter(): { startRun: StudioRunStarter; release: () => void } {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const startRun: StudioRunStarter = async (request, hooks) => {
    const recorder = new TraceRecorder(
      TraceSink.lines(() => {}),
      hooks,
    );
    const platform = AgentPlatform.create({ models: { default: new ScriptedModel() } });
    await platform.runInProcess(
      async () => {
        await gate;
        return request.input;
      },
      { processOptions: recorder.attach(ProcessOptions.DEFAULT) },
    );
    recorder.close();
  };
  return { startRun, release: () => release() };
}

async function readEvents(response: Response): Promise<string[]> {
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("event:"))
    .map((line) => line.slice("event:".length).trim());
}

describe("createStudioApp with a user's startRun and respond", () => {
  // What a user writes: startRun returns what runAgent returns (it settles when the run waits),
  // recording with hooks.processOptions; respond answers with the run's process id.
  const Person = domainType("Person", z.object({ name: z.string() }));
  const Greeting = domainType("Greeting", z.object({ text: z.string() }));
  const greeter = defineAgent({
    name: "Greeter",
    description: "Greets once approved",
    actions: [
      {
        name: "greet",
        input: Person,
        output: Greeting,
        achievesGoal: { description: "greeted" },
        run: async (person: { name: string }) => {
          const answer = await WaitFor.confirmation(person, `Greet ${person.name}?`);
          return Greeting.create({ text: answer.approved ? `Hello, ${person.name}!` : "no" });
        },
      },
    ],
  });

  it("keeps a run live when startRun settles while it waits, answers it with the process id, and follows it to the end", async () => {
    const platform = AgentPlatform.create({ models: {} });
    platform.deploy(greeter);
    const answeredWith: unknown[] = [];
    const { app } = createStudioApp({
      examples: [{ name: "Greeter", summary: "Greets", sampleInput: "Ada", scripted: false }],
      startRun: (request, hooks) =>
        platform.runAgent("Greeter", Person.create({ name: request.input }), {
          processOptions: hooks.processOptions,
        }),
      respond: (runId, requestId, response, run) => {
        answeredWith.push({ runId, requestId, processId: run.processId });
        return platform.respond(run.processId as string, requestId, response as { approved: boolean }, {
          respondent: "studio",
        });
      },
    });
    const started = await app.request("/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ example: "Greeter", input: "Ada", mode: "model" }),
    });
    const { runId } = (await started.json()) as { runId: string };
    const view = async () =>
      (await (await app.request(`/api/runs/${runId}`)).json()) as Record<string, unknown>;
    for (let tries = 0; tries < 100 && ((await view()).awaiting as unknown[]).length === 0; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const waiting = await view();
    expect(waiting).toMatchObject({
      live: true,
      status: "waiting",
      answerable: true,
      awaiting: [{ id: "r1" }],
    });
    const list = (await (await app.request("/api/runs")).json()) as { id: string; status: string }[];
    expect(list.find((run) => run.id === runId)?.status).toBe("waiting");

    const answer = await app.request(`/api/runs/${runId}/respond`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ requestId: "r1", response: { approved: true } }),
    });
    expect(answer.status).toBe(200);
    const processId = (waiting.roots as { id: string }[])[0]?.id;
    expect(answeredWith).toEqual([{ runId, requestId: "r1", processId }]);
    const ended = await view();
    expect(ended).toMatchObject({ live: false, status: "completed", awaiting: [], unanswered: [] });
    expect(JSON.stringify(ended)).toContain("Hello, Ada!");
  });

  it("ends a run that settles while waiting when nothing here can answer it, listing what it waits for", async () => {
    const platform = AgentPlatform.create({ models: {} });
    platform.deploy(greeter);
    const { app } = createStudioApp({
      examples: [{ name: "Greeter", summary: "Greets", sampleInput: "Ada" }],
      startRun: async (request, hooks) => {
        const recorder = new TraceRecorder(
          TraceSink.lines(() => {}),
          hooks,
        );
        const process = await platform.runAgent("Greeter", Person.create({ name: request.input }), {
          processOptions: recorder.attach(ProcessOptions.DEFAULT),
        });
        recorder.recordResult(process);
        recorder.close();
      },
    });
    const started = await app.request("/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ example: "Greeter", input: "Ada" }),
    });
    const { runId } = (await started.json()) as { runId: string };
    let view: Record<string, unknown> = {};
    for (let tries = 0; tries < 100 && view.live !== false; tries += 1) {
      view = (await (await app.request(`/api/runs/${runId}`)).json()) as Record<string, unknown>;
      if (view.live !== false) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(view).toMatchObject({ live: false, status: "waiting", awaiting: [], unanswered: [{ id: "r1" }] });
  });
});

describe("createStudioApp", () => {
  it("starts a run, shows it live, and streams its records as server-sent events until it ends", async () => {
    const { startRun, release } = gatedStarter();
    const { app } = createStudioApp({ examples, startRun });
    const started = await app.request("/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ example: "waiter", input: "hi there" }),
    });
    const { runId } = (await started.json()) as { runId: string };
    const running = (await (await app.request(`/api/runs/${runId}`)).json()) as Record<string, unknown>;
    expect(running).toMatchObject({
      live: true,
      status: "running",
      meta: { example: "waiter", input: "hi there" },
    });
    const stream = await app.request(`/api/runs/${runId}/events`);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    release();
    const events = await readEvents(stream);
    expect(events.at(-1)).toBe("end");
    expect(events.filter((event) => event === "record").length).toBeGreaterThan(0);
    const done = (await (await app.request(`/api/runs/${runId}`)).json()) as Record<string, unknown>;
    expect(done).toMatchObject({ live: false, status: "completed" });
    expect((await (await app.request("/api/runs")).json()) as unknown[]).toEqual([
      expect.objectContaining({ id: runId, source: "live", title: "waiter", status: "completed" }),
    ]);
  });

  it("ends the event stream at once for a run that is not live", async () => {
    const { app } = createStudioApp();
    expect(await readEvents(await app.request("/api/runs/nope/events"))).toEqual(["end"]);
  });

  it("answers unknown runs, LLM calls and examples with a readable message", async () => {
    const { app } = createStudioApp({ examples, startRun: gatedStarter().startRun });
    const missing = await app.request("/api/runs/nope");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "There is no run 'nope'. Pick one from the list." });
    expect((await app.request("/api/runs/nope/llm/x")).status).toBe(404);
    const unknown = await app.request("/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ example: "frobnicate" }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: "Unknown example 'frobnicate'. Examples: waiter." });
    expect((await app.request("/assets/secrets.txt")).status).toBe(404);
  });

  it("reports a run that fails before it starts", async () => {
    const { app } = createStudioApp({
      examples,
      startRun: async () => {
        throw new Error("No model configured: set OPENAI_API_KEY");
      },
    });
    const response = await app.request("/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ example: "waiter", mode: "model" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "No model configured: set OPENAI_API_KEY" });
  });

  it("refuses other host names, cross-site posts and non-JSON run requests", async () => {
    const { app } = createStudioApp({ examples, startRun: gatedStarter().startRun });
    const rebound = await app.request("http://evil.example/api/runs", { headers: { host: "evil.example" } });
    expect(rebound.status).toBe(403);
    const crossSite = await app.request("http://127.0.0.1:4477/api/runs", {
      method: "POST",
      headers: { host: "127.0.0.1:4477", origin: "https://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ example: "waiter" }),
    });
    expect(crossSite.status).toBe(403);
    const plain = await app.request("http://127.0.0.1:4477/api/runs", {
      method: "POST",
      headers: { host: "127.0.0.1:4477", "content-type": "text/plain" },
      body: JSON.stringify({ example: "waiter" }),
    });
    expect(plain.status).toBe(415);
  });

  it("serves the page and its assets", async () => {
    const { app } = createStudioApp();
    const html = await (await app.request("/runs/anything")).text();
    expect(html).toContain('<script type="module" src="/assets/studio.js"></script>');
    const script = await app.request("/assets/studio.js");
    expect(script.headers.get("content-type")).toContain("text/javascript");
  });

  it("serves every module of the page, and every module a module imports", async () => {
    const { app } = createStudioApp();
    const pageDir = fileURLToPath(new URL("./page/", import.meta.url));
    const modules = readdirSync(pageDir).filter((name) => name.endsWith(".js"));
    expect(modules.length).toBeGreaterThan(1);
    for (const name of modules) {
      const response = await app.request(`/assets/${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/javascript");
      for (const [, imported] of (await response.text()).matchAll(/from "\.\/([\w-]+\.js)"/g)) {
        expect(modules, `${name} imports ${imported}`).toContain(imported);
      }
    }
  });
});

describe("startStudio", () => {
  /** A request to `studio` with its token. */
  const api = (studio: StudioServer, path: string) =>
    fetch(`${studio.origin}${path}`, { headers: { authorization: `Bearer ${studio.token}` } });
  const json = async (studio: StudioServer, path: string) =>
    (await api(studio, path)).json() as Promise<Record<string, unknown>>;

  it("shows a run recorded through studio.recorder() live, then ended, and also writes it to the given sink", async () => {
    const studio = await startStudio({ port: 0 });
    try {
      const lines: string[] = [];
      const recorder = studio.recorder({
        meta: { input: "hello" },
        sink: TraceSink.lines((line) => lines.push(line)),
      });
      const runId = recorder.header.runId;
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const platform = AgentPlatform.create({ models: { default: new ScriptedModel() } });
      const run = platform.runInProcess(
        async () => {
          await gate;
          return "done";
        },
        { processOptions: recorder.attach(ProcessOptions.DEFAULT) },
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(await json(studio, `/api/runs/${runId}`)).toMatchObject({
        live: true,
        status: "running",
        meta: { input: "hello" },
      });
      const stream = api(studio, `/api/runs/${runId}/events`);
      release();
      await run;
      recorder.close();
      const events = await readEvents(await stream);
      expect(events.at(-1)).toBe("end");
      const done = await json(studio, `/api/runs/${runId}`);
      expect(done).toMatchObject({ live: false, status: "completed" });
      expect(await json(studio, "/api/runs")).toEqual([
        expect.objectContaining({ id: runId, source: "live", input: "hello", status: "completed" }),
      ]);
      // The sink got the same trace: the header, then every record the studio shows.
      expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ format: "embabel-ts-trace", runId });
      expect(lines.slice(1).map((line) => JSON.parse(line).type)).toContain("process-finished");
    } finally {
      await studio.close();
    }
  });

  it("keeps the newest ended runs recorded in memory, keepLiveRuns of them, and every run still going", async () => {
    const studio = await startStudio({ port: 0, keepLiveRuns: 2 });
    try {
      const recorders = [1, 2, 3, 4].map((n) => studio.recorder({ meta: { input: `run ${n}` } }));
      for (const recorder of recorders.slice(0, 3)) recorder.close();
      const listed = (await json(studio, "/api/runs")) as unknown as { input: string }[];
      expect(listed.map((run) => run.input).sort()).toEqual(["run 2", "run 3", "run 4"]);
      expect((await api(studio, `/api/runs/${recorders[0]?.header.runId}`)).status).toBe(404);
    } finally {
      await studio.close();
    }
  });

  it("fails with the port's error when the port is taken", async () => {
    const first = await startStudio({ port: 0 });
    try {
      const port = Number(new URL(first.url).port);
      await expect(startStudio({ port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});
