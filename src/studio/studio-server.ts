// Over 400 lines: the routes of one Hono app that share its run store, token and runner; split the API routes out if it grows.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { type Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { streamSSE } from "hono/streaming";
import { codePath } from "../package-root.js";
import { ProcessOptions } from "../platform/process-options.js";
import { Logger } from "../tool/logger.js";
import { redactSecrets } from "../tool/redact-secrets.js";
import type { TraceRecord } from "../trace/trace-format.js";
import { TraceRecorder, type TraceRecorderOptions } from "../trace/trace-recorder.js";
import { TraceSink } from "../trace/trace-sink.js";
import { TraceTree } from "../trace/trace-tree.js";
import { openRequests, RunStore } from "./run-store.js";
import { STUDIO_PORT } from "./studio-port.js";

export { STUDIO_PORT };

/** An example the page can start. */
export interface StudioExample {
  readonly name: string;
  readonly summary: string;
  readonly sampleInput: string;
  /** Whether it has a recorded script the page may replay (`scripted` mode); without one it runs on a configured model. @default true */
  readonly scripted?: boolean;
}

/** What the page asks to run. */
export interface StudioRunRequest {
  readonly example: string;
  readonly input: string;
  /** `scripted` replays the example's recorded replies; `model` uses a configured model. */
  readonly mode: "scripted" | "model";
  /**
   * For `model` mode, the name of a configured model, always one of
   * {@link StudioOptions.models} (the page cannot name any other, nor a URL);
   * the configured default when absent.
   */
  readonly model?: string;
}

/** What {@link StudioRunStarter} gets to record its run into the page. */
export interface StudioRunHooks {
  /** The run's id on the page (give it to a `TraceRecorder` as `runId` when you make your own). */
  readonly runId: string;
  /** Receives each trace record (give it to a `TraceRecorder` as `onRecord` when you make your own). */
  readonly onRecord: (record: TraceRecord) => void;
  /** Process options that record the run into the page: pass them to `platform.runAgent(agent, input, { processOptions })`. */
  readonly processOptions: ProcessOptions;
}

/**
 * Starts one run, recording it with `hooks` (its `processOptions`, or a
 * `TraceRecorder` given `runId` and `onRecord`). Settle when the run ends or
 * when it waits for a person (return what `platform.runAgent` returns): a
 * waiting run stays live on the page, the page's Approve / Deny call
 * {@link StudioResponder}, and the page follows the run until it ends.
 */
export type StudioRunStarter = (request: StudioRunRequest, hooks: StudioRunHooks) => Promise<unknown>;

/** Which process of a run is waiting: what {@link StudioResponder} needs for `platform.respond`. */
export interface StudioWaitingRun {
  /** The id of the run's top process (`platform.respond(processId, requestId, response)`); `undefined` when the trace has none. */
  readonly processId: string | undefined;
}

/**
 * Answers request `requestId` of the waiting run `runId` (started from the
 * page), e.g. `platform.respond(run.processId, requestId, response, { respondent: "studio" })`;
 * rejects with a message for the person when it cannot.
 */
export type StudioResponder = (
  runId: string,
  requestId: string,
  response: unknown,
  run: StudioWaitingRun,
) => Promise<unknown>;

/** Options of `createStudioApp` and {@link startStudio}. */
export interface StudioOptions {
  /** The folder of kept runs. @default undefined (none) */
  readonly keptDir?: string;
  /** Trace files to show. @default [] */
  readonly files?: readonly string[];
  /** The examples the page offers to run. @default [] */
  readonly examples?: readonly StudioExample[];
  /** Runs an example for the page; without it the page cannot start runs. @default undefined */
  readonly startRun?: StudioRunStarter;
  /** Answers the waiting runs started from the page (its Approve / Deny buttons); without it they cannot be answered here. @default undefined */
  readonly respond?: StudioResponder;
  /** How many ended runs recorded in memory (live runs) the studio keeps; older ones are dropped. @default 100 */
  readonly keepLiveRuns?: number;
  /** The names of the configured models a run started from the page may use (`model` mode). @default [] */
  readonly models?: readonly string[];
  /** The most bytes of one trace record read from a file (a longer one is cut, with a note). @default 1_048_576 */
  readonly maxRecordBytes?: number;
  /**
   * The token every `/api` request must carry (the studio's cookie, or
   * `Authorization: Bearer <token>`); the page takes it once as `?token=`.
   * No token: no check. {@link startStudio} makes one per start.
   * @default undefined
   */
  readonly token?: string;
}

/** Options of {@link startStudio}. */
export interface StudioServeOptions extends Omit<StudioOptions, "token"> {
  /** The port on 127.0.0.1; 0 picks a free one. @default 4477 */
  readonly port?: number;
  /**
   * `token`: a random token per start, carried by {@link StudioServer.url},
   * required by every `/api` request (as Jupyter does), so other local users
   * and programs cannot read runs or start them. `none`: no check, for a
   * machine only you use.
   * @default "token"
   */
  readonly auth?: "token" | "none";
}

/** Options of {@link StudioServer.recorder}. */
export interface StudioRecorderOptions extends TraceRecorderOptions {
  /** Where the lines also go (a file to keep the run after the studio stops). @default none */
  readonly sink?: TraceSink;
}

/** The page's modules (native `<script type="module">`, same origin, no build step) and its style sheet. */
const PAGE_MODULES = [
  "studio.js",
  "state.js",
  "dom.js",
  "api.js",
  "runs-panel.js",
  "run-view.js",
  "trace-rows.js",
  "detail-panel.js",
  "run-form.js",
];

const ASSETS: ReadonlyMap<string, string> = new Map([
  ...PAGE_MODULES.map((name) => [name, "text/javascript; charset=utf-8"] as const),
  ["studio.css", "text/css; charset=utf-8"],
]);

/** Sent with every answer: the page may not be framed (clickjacking), loads only its own files, and leaks no URL. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/** The studio's cookie on this port (cookies are shared across ports of one host, tokens are not). */
function cookieName(host: string): string {
  return `embabel-studio-${/:(\d+)$/.exec(host)?.[1] ?? "80"}`;
}

/** Whether `given` is `token`, in time independent of where they differ. */
function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

const NEEDS_TOKEN_PAGE = (message: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>embabel-ts studio</title></head><body><h1>embabel-ts studio</h1><p>${message}</p></body></html>`;

function page(name: string): string {
  // The page is copied beside the built studio (dist/src/studio/page/); found from the package root, as this code may run from a chunk.
  return readFileSync(join(codePath("src/studio/page"), name), "utf8");
}

/**
 * The studio's HTTP app (Hono): the page, its assets, and a JSON API over
 * the runs — list, one run's tree, one LLM call's detail, live updates as
 * server-sent events, and starting a run.
 */
export function createStudioApp(options: StudioOptions = {}): { app: Hono; store: RunStore } {
  const store = new RunStore({
    ...(options.keptDir ? { keptDir: options.keptDir } : {}),
    files: options.files ?? [],
    ...(options.keepLiveRuns === undefined ? {} : { keepLiveRuns: options.keepLiveRuns }),
    ...(options.maxRecordBytes === undefined ? {} : { maxRecordBytes: options.maxRecordBytes }),
  });
  const { token } = options;
  const models = options.models ?? [];
  const app = new Hono();
  app.onError((error, c) => {
    Logger.current().warn(
      `The studio failed to answer ${c.req.method} ${c.req.path}: ${redactSecrets(error.message)}`,
    );
    return c.json({ error: "The studio failed to answer this request; its terminal has the details." }, 500);
  });
  app.use("*", async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
  });
  // Only pages served by this studio may use it: no other host name (DNS
  // rebinding), and no cross-site request starting runs on a paid model.
  app.use("*", async (c, next) => {
    const host = c.req.header("host") ?? "";
    // Over the network a request must name the host (HTTP/1.0 may leave it out); `app.request()` in a program need not.
    const fromNetwork = (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined;
    if ((host || fromNetwork) && !/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(host)) {
      return c.text(`The studio answers on 127.0.0.1 only, not '${host}'.`, 403);
    }
    const origin = c.req.header("origin");
    if (c.req.method !== "GET" && origin !== undefined && origin !== `http://${host}`) {
      return c.json({ error: `Requests from ${origin} are not accepted.` }, 403);
    }
    await next();
  });
  const authorised = (c: Context): boolean =>
    token === undefined ||
    sameToken(getCookie(c, cookieName(c.req.header("host") ?? "")), token) ||
    sameToken(/^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1], token);
  // The page takes the token once, from the printed URL: it becomes an HttpOnly cookie,
  // and the URL is loaded again without it (out of the history and the address bar).
  const html = (c: Context) => {
    const given = c.req.query("token");
    if (token !== undefined && given !== undefined) {
      if (!sameToken(given, token)) {
        return c.html(
          NEEDS_TOKEN_PAGE(
            "This link's token is not this studio's: open the URL the studio printed when it started.",
          ),
          401,
        );
      }
      setCookie(c, cookieName(c.req.header("host") ?? ""), token, {
        httpOnly: true,
        sameSite: "Strict",
        path: "/",
      });
      return c.redirect(c.req.path, 302);
    }
    if (!authorised(c)) {
      return c.html(
        NEEDS_TOKEN_PAGE(
          "Open the URL the studio printed when it started: it carries the token this studio asks for.",
        ),
        401,
      );
    }
    return c.html(page("index.html"));
  };
  const runErrors = new Map<string, string>();
  /** The top process of each run started from the page, for {@link StudioResponder}. */
  const rootProcesses = new Map<string, string>();
  app.get("/", html);
  app.get("/runs/:id", html);
  app.get("/assets/:name", (c) => {
    const name = c.req.param("name");
    const type = ASSETS.get(name);
    if (!type) return c.text(`No asset '${name}'.`, 404);
    return c.body(page(name), 200, { "content-type": type, "cache-control": "no-cache" });
  });
  app.use("/api/*", async (c, next) => {
    if (!authorised(c)) {
      return c.json({ error: "This studio needs its token: open the URL it printed when it started." }, 401);
    }
    await next();
  });

  app.get("/api/runs", (c) => c.json(store.list()));
  app.get("/api/examples", (c) =>
    c.json({ examples: options.examples ?? [], canRun: options.startRun !== undefined, models }),
  );
  app.get("/api/runs/:id", (c) => {
    const id = c.req.param("id");
    const found = store.find(id);
    if (!found) return c.json({ error: `There is no run '${id}'. Pick one from the list.` }, 404);
    if ("error" in found) return c.json({ error: found.error }, 422);
    const view = new TraceTree(found.trace).view();
    const open = openRequests(found.trace.records);
    return c.json({
      ...view,
      // The trace's process is still `running` while it waits: the page says `waiting`.
      status: found.live && open.length > 0 ? "waiting" : view.status,
      live: found.live,
      awaiting: found.live ? open : [],
      // A run that ended while it waited (its program exited): what it waited for, unanswerable here.
      unanswered: !found.live && view.status === "waiting" ? open : [],
      answerable: found.live && options.respond !== undefined,
    });
  });
  app.get("/api/runs/:id/llm/:callId", (c) => {
    const { id, callId } = c.req.param();
    const found = store.find(id);
    if (!found || "error" in found) return c.json({ error: `There is no run '${id}'.` }, 404);
    const detail = new TraceTree(found.trace).llmCall(callId);
    if (!detail) return c.json({ error: `Run '${id}' has no LLM call '${callId}'.` }, 404);
    return c.json(detail);
  });
  app.get("/api/runs/:id/events", (c) => {
    const id = c.req.param("id");
    return streamSSE(c, async (stream) => {
      const queue: (TraceRecord | undefined)[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = store.subscribe(id, (record) => {
        queue.push(record);
        wake?.();
      });
      if (!unsubscribe) {
        await stream.writeSSE({ event: "end", data: "{}" });
        return;
      }
      stream.onAbort(() => {
        unsubscribe();
        queue.push(undefined);
        wake?.();
      });
      for (;;) {
        if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        const record = queue.shift();
        if (record === undefined) {
          unsubscribe();
          await stream.writeSSE({ event: "end", data: "{}" });
          return;
        }
        await stream.writeSSE({ event: "record", id: String(record.seq), data: JSON.stringify(record) });
      }
    });
  });
  app.post("/api/runs/:id/respond", async (c) => {
    const { respond } = options;
    if (!respond) return c.json({ error: "This studio cannot answer waiting runs." }, 400);
    if (!c.req.header("content-type")?.startsWith("application/json")) {
      return c.json({ error: "Send the answer as application/json." }, 415);
    }
    const body = (await c.req.json().catch(() => undefined)) as
      | { readonly requestId?: unknown; readonly response?: unknown }
      | undefined;
    if (typeof body?.requestId !== "string" || typeof body.response !== "object" || body.response === null) {
      return c.json({ error: "Send { requestId, response }." }, 400);
    }
    const runId = c.req.param("id");
    try {
      await respond(runId, body.requestId, body.response, { processId: rootProcesses.get(runId) });
    } catch (error) {
      return c.json({ error: error instanceof Error ? error.message : String(error) }, 400);
    }
    return c.json({ ok: true });
  });
  app.post("/api/runs", async (c) => {
    const { startRun } = options;
    if (!startRun) return c.json({ error: "This studio cannot start runs." }, 400);
    if (!c.req.header("content-type")?.startsWith("application/json")) {
      return c.json({ error: "Send the run request as application/json." }, 415);
    }
    const body = (await c.req.json().catch(() => undefined)) as Partial<StudioRunRequest> | undefined;
    const example = (options.examples ?? []).find((candidate) => candidate.name === body?.example);
    if (!body || !example) {
      const names = (options.examples ?? []).map((candidate) => candidate.name).join(", ");
      return c.json({ error: `Unknown example '${String(body?.example)}'. Examples: ${names}.` }, 400);
    }
    const mode = body.mode === "model" ? "model" : "scripted";
    const model = mode === "model" && typeof body.model === "string" ? body.model.trim() : "";
    if (model && !models.includes(model)) {
      // Never a model id or URL from the page: it would send the configured key wherever it names.
      const known =
        models.length > 0 ? `Configured models: ${models.join(", ")}.` : "No model is configured.";
      return c.json({ error: `'${model.slice(0, 80)}' is not a configured model. ${known}` }, 400);
    }
    const runId = crypto.randomUUID();
    let started = false;
    const request: StudioRunRequest = {
      example: example.name,
      input: typeof body.input === "string" && body.input.trim() ? body.input : example.sampleInput,
      mode,
      ...(model ? { model } : {}),
    };
    let settled = false;
    const ready = new Promise<void>((resolve) => {
      const onRecord = (record: TraceRecord) => {
        if (!started) {
          started = true;
          store.startLive({
            format: "embabel-ts-trace",
            version: 1,
            runId,
            startedAt: record.timestamp,
            meta: { example: request.example, input: request.input, mode: request.mode },
          });
          resolve();
        }
        if (record.type === "process-started" && !rootProcesses.has(runId)) {
          rootProcesses.set(runId, record.processId);
        }
        store.addLive(runId, record);
        // A run whose starter settled while it waited ends when its top process does.
        const ended = record.type === "process-finished" || record.type === "process-result";
        if (settled && ended && record.processId === rootProcesses.get(runId)) finish();
      };
      const finish = () => {
        store.finishLive(runId);
        rootProcesses.delete(runId);
        resolve();
      };
      let processOptions: ProcessOptions | undefined;
      const run = startRun(request, {
        runId,
        onRecord,
        // Made on first use: a starter with its own TraceRecorder records each event once.
        get processOptions() {
          processOptions ??= new TraceRecorder(
            TraceSink.lines(() => {}),
            { runId, onRecord },
          ).attach(ProcessOptions.DEFAULT);
          return processOptions;
        },
      });
      run.then(
        () => {
          settled = true;
          const found = store.find(runId);
          const waiting =
            found !== undefined &&
            "trace" in found &&
            found.live &&
            openRequests(found.trace.records).length > 0;
          // Waiting for a person the page can answer: keep the run live, and follow it after the answer.
          if (waiting && options.respond) resolve();
          else finish();
        },
        (error: unknown) => {
          runErrors.set(runId, redactSecrets(error instanceof Error ? error.message : String(error)));
          finish();
        },
      );
    });
    await ready;
    const error = runErrors.get(runId);
    runErrors.delete(runId);
    if (!started) return c.json({ error: error ?? "The run ended before it started." }, 400);
    return c.json({ runId });
  });
  return { app, store };
}

/** A running studio. */
export interface StudioServer {
  /** The address to open: `http://127.0.0.1:<port>/?token=<token>` (without `?token=` when `auth` is `none`). */
  readonly url: string;
  /** `http://127.0.0.1:<port>`, to build API addresses from. */
  readonly origin: string;
  /** This start's token (send it as `Authorization: Bearer <token>`); `undefined` when `auth` is `none`. */
  readonly token: string | undefined;
  /**
   * A trace recorder whose run the page shows live, as it happens: attach it
   * to a process's options, and `close()` it when the run ends.
   */
  recorder(options?: StudioRecorderOptions): TraceRecorder;
  /** Stops the server. */
  close(): Promise<void>;
}

/** A recorder feeding `store` live (and `options.sink`, when given). */
function liveRecorder(store: RunStore, options: StudioRecorderOptions): TraceRecorder {
  const { sink, onRecord, ...recorderOptions } = options;
  // Both callbacks run only after the constructor (it writes the header, a no-op here).
  const live: TraceSink = { write: () => {}, close: () => store.finishLive(recorder.header.runId) };
  const recorder: TraceRecorder = new TraceRecorder(sink ? TraceSink.all(sink, live) : live, {
    ...recorderOptions,
    onRecord: (record) => {
      store.addLive(recorder.header.runId, record);
      onRecord?.(record);
    },
  });
  store.startLive(recorder.header);
  return recorder;
}

/**
 * Serves the studio on 127.0.0.1: the runs of `files` and `keptDir`, the
 * examples it may start, and the runs recorded through
 * {@link StudioServer.recorder}, live. Every `/api` request needs this
 * start's token unless `auth` is `none`: open {@link StudioServer.url}.
 *
 * @example
 * const studio = await startStudio({ port: 0 });
 * console.log(`studio at ${studio.url}`); // http://127.0.0.1:<port>/?token=…
 * const recorder = studio.recorder({ meta: { input } });
 * await platform.runAgent(agent, input, { processOptions: recorder.attach(ProcessOptions.DEFAULT) });
 * recorder.close();
 */
export async function startStudio(options: StudioServeOptions = {}): Promise<StudioServer> {
  const { auth = "token", port, ...appOptions } = options;
  const token = auth === "none" ? undefined : randomBytes(24).toString("base64url");
  const { app, store } = createStudioApp({ ...appOptions, ...(token ? { token } : {}) });
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch, port: port ?? STUDIO_PORT, hostname: "127.0.0.1" },
      (info: AddressInfo) => {
        const origin = `http://127.0.0.1:${info.port}`;
        resolve({
          url: token ? `${origin}/?token=${token}` : `${origin}/`,
          origin,
          token,
          recorder: (recorderOptions = {}) => liveRecorder(store, recorderOptions),
          close: () =>
            new Promise<void>((done) => {
              if ("closeAllConnections" in server) server.closeAllConnections();
              server.close(() => done());
            }),
        });
      },
    );
    server.once("error", reject);
  });
}
