import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import {
  type CreateMcpServerOptions,
  createMcpServer,
  InputSchema,
  type McpHttpEndpoint,
  type McpInputRequest,
  McpServerCall,
  type McpServerPrompt,
  type McpServerResource,
  Param,
  serveMcpOverHttp,
  Tool,
  ToolContent,
  ToolResult,
} from "../../src/index.js";

// The tools, resources and prompts the MCP conformance suite's server scenarios
// ask for by name, each written with the project's public API as a user would.

/** A 1×1 red PNG. */
export const RED_PIXEL_PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="),
  (char) => char.charCodeAt(0),
);
/** A silent WAV (header only). */
const SILENT_WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The served call, which these tools need (they run only when served). */
function served(): McpServerCall {
  const call = McpServerCall.current();
  if (!call) throw new Error("This tool runs only when served over MCP.");
  return call;
}

function text(input: string, name: string): string {
  const value = (JSON.parse(input) as Record<string, unknown>)[name];
  return typeof value === "string" ? value : "";
}

const tools: Tool[] = [
  // SEP-1699 SSE polling: lets go of the stream mid-call, answers after the client reconnected.
  Tool.create(
    "test_reconnection",
    "Closes its SSE stream mid-call, then answers on the resumed stream",
    async () => {
      if (!served().closeStream()) throw new Error("This call's stream cannot be resumed.");
      await pause(200);
      return ToolResult.text("Reconnected: the result arrived on the resumed stream.");
    },
  ),
  Tool.create("test_simple_text", "Returns simple text", async () =>
    ToolResult.text("This is a simple text response for testing."),
  ),
  Tool.create("test_image_content", "Returns an image", async () =>
    ToolResult.withArtifact("", ToolContent.image(RED_PIXEL_PNG, "image/png")),
  ),
  Tool.create("test_audio_content", "Returns audio", async () =>
    ToolResult.withArtifact("", ToolContent.audio(SILENT_WAV, "audio/wav")),
  ),
  Tool.create("test_embedded_resource", "Returns an embedded resource", async () =>
    ToolResult.withArtifact(
      "",
      ToolContent.resource("test://embedded-resource", "text/plain", {
        text: "This is an embedded resource content.",
      }),
    ),
  ),
  Tool.create("test_multiple_content_types", "Returns text, an image and a resource", async () =>
    ToolResult.withArtifact("Multiple content types test:", [
      ToolContent.image(RED_PIXEL_PNG, "image/png"),
      ToolContent.resource("test://mixed-content-resource", "application/json", {
        text: JSON.stringify({ test: "data", value: 123 }),
      }),
    ]),
  ),
  Tool.create("test_error_handling", "Always fails", async () => {
    throw new Error("This tool intentionally returns an error for testing");
  }),
  Tool.create("test_tool_with_logging", "Logs while it runs", async () => {
    const call = served();
    await call.log("info", "Tool execution started");
    await pause(50);
    await call.log("info", "Tool processing data");
    await pause(50);
    await call.log("info", "Tool execution completed");
    return ToolResult.text("Logging test completed");
  }),
  Tool.create("test_tool_with_progress", "Reports progress", async () => {
    const call = served();
    await call.progress({ progress: 0, total: 100 });
    await pause(50);
    await call.progress({ progress: 50, total: 100 });
    await pause(50);
    await call.progress({ progress: 100, total: 100 });
    return ToolResult.text("Progress test completed");
  }),
  Tool.create(
    "test_sampling",
    "Asks the client's model",
    InputSchema.of(Param.string("prompt", "The prompt to send to the LLM")),
    async (input) => {
      const call = served();
      if (!call.canSample) return ToolResult.error("This client does not support sampling.");
      const reply = await call.createMessage({
        messages: [{ role: "user", content: { type: "text", text: text(input, "prompt") } }],
        maxTokens: 100,
      });
      return ToolResult.text(
        `LLM response: ${reply.content.type === "text" ? reply.content.text : reply.content.type}`,
      );
    },
  ),
  Tool.create(
    "test_elicitation",
    "Asks the user",
    InputSchema.of(Param.string("message", "The message to show the user")),
    async (input) => {
      const call = served();
      if (!call.canElicit) return ToolResult.error("This client does not support elicitation.");
      const answer = await call.elicit({
        message: text(input, "message"),
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return ToolResult.text(
        `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
      );
    },
  ),
  Tool.create("test_elicitation_sep1034_defaults", "Asks with defaults", async () => {
    const answer = await served().elicit({
      message: "Please review and update the form fields with defaults",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "User name", default: "John Doe" },
          age: { type: "integer", description: "User age", default: 30 },
          score: { type: "number", description: "User score", default: 95.5 },
          status: {
            type: "string",
            description: "User status",
            enum: ["active", "inactive", "pending"],
            default: "active",
          },
          verified: { type: "boolean", description: "Verification status", default: true },
        },
        required: [],
      },
    });
    return ToolResult.text(
      `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    );
  }),
  Tool.create("test_elicitation_sep1330_enums", "Asks with enums", async () => {
    const answer = await served().elicit({
      message: "Please select options from the enum fields",
      requestedSchema: {
        type: "object",
        properties: {
          untitledSingle: {
            type: "string",
            description: "Untitled single-select",
            enum: ["option1", "option2", "option3"],
          },
          titledSingle: {
            type: "string",
            description: "Titled single-select",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" },
            ],
          },
          legacyEnum: {
            type: "string",
            description: "Legacy titled enum",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: {
            type: "array",
            description: "Untitled multi-select",
            items: { type: "string", enum: ["option1", "option2", "option3"] },
          },
          titledMulti: {
            type: "array",
            description: "Titled multi-select",
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" },
              ],
            },
          },
        },
        required: [],
      },
    });
    return ToolResult.text(
      `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    );
  }),
  Tool.create(
    "json_schema_2020_12_tool",
    "Tool with JSON Schema 2020-12 features",
    InputSchema.fromJsonSchema({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: {
        address: {
          $anchor: "addressDef",
          type: "object",
          properties: { street: { type: "string" }, city: { type: "string" } },
        },
      },
      properties: {
        name: { type: "string" },
        address: { $ref: "#/$defs/address" },
        contactMethod: { type: "string", enum: ["phone", "email"] },
        phone: { type: "string" },
        email: { type: "string" },
      },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's conditional keyword, as the scenario asks.
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
    }),
    async (input) => ToolResult.text(`Received: ${input}`),
  ),
];

/** The accepted content of the client's answer to elicitation `key`, if it accepted. */
function accepted(call: McpServerCall, key: string): Record<string, unknown> | undefined {
  const answer = call.inputResponses?.[key] as { action?: unknown; content?: unknown } | undefined;
  return answer?.action === "accept" && typeof answer.content === "object" && answer.content !== null
    ? (answer.content as Record<string, unknown>)
    : undefined;
}

/** A form asking for one string (or boolean) field. */
function ask(message: string, field: string, type: "string" | "boolean" = "string"): McpInputRequest {
  return {
    method: "elicitation/create",
    params: {
      mode: "form",
      message,
      requestedSchema: { type: "object", properties: { [field]: { type } }, required: [field] },
    },
  };
}

function sample(text: string, maxTokens: number): McpInputRequest {
  return {
    method: "sampling/createMessage",
    params: { messages: [{ role: "user", content: { type: "text", text } }], maxTokens },
  };
}

const LIST_ROOTS: McpInputRequest = { method: "roots/list", params: {} };

/** The text of a sampling answer. */
function sampled(call: McpServerCall, key: string): string | undefined {
  const answer = call.inputResponses?.[key] as { content?: { text?: unknown } } | undefined;
  return typeof answer?.content?.text === "string" ? answer.content.text : undefined;
}

function roots(call: McpServerCall, key: string): unknown[] | undefined {
  const answer = call.inputResponses?.[key] as { roots?: unknown } | undefined;
  return Array.isArray(answer?.roots) ? answer.roots : undefined;
}

// MCP 2026-07-28 multi-round-trip (SEP-2322): each tool asks the client for input, then answers with it.
const inputRequiredTools: Tool[] = [
  Tool.create("test_input_required_result_elicitation", "Asks the user's name, then greets", async () => {
    const call = served();
    const name = accepted(call, "user_name")?.name;
    if (typeof name !== "string") return call.requireInput({ user_name: ask("What is your name?", "name") });
    return ToolResult.text(`Hello, ${name}!`);
  }),
  Tool.create("test_input_required_result_sampling", "Asks the client's model a question", async () => {
    const call = served();
    const answer = sampled(call, "capital_question");
    if (answer === undefined)
      return call.requireInput({ capital_question: sample("What is the capital of France?", 100) });
    return ToolResult.text(`The model answered: ${answer}`);
  }),
  Tool.create("test_input_required_result_list_roots", "Asks the client's roots", async () => {
    const call = served();
    const listed = roots(call, "client_roots");
    if (listed === undefined) return call.requireInput({ client_roots: LIST_ROOTS });
    return ToolResult.text(`The client has ${listed.length} root(s): ${JSON.stringify(listed)}`);
  }),
  Tool.create("test_input_required_result_request_state", "Keeps state between rounds", async () => {
    const call = served();
    const state = call.requestState as { round?: number } | undefined;
    if (state?.round !== 1 || accepted(call, "confirm") === undefined)
      return call.requireInput({ confirm: ask("Please confirm", "ok", "boolean") }, { round: 1 });
    return ToolResult.text("Confirmed: state-ok");
  }),
  Tool.create("test_input_required_result_multiple_inputs", "Asks three things at once", async () => {
    const call = served();
    const name = accepted(call, "user_name")?.name;
    const greeting = sampled(call, "greeting");
    const listed = roots(call, "client_roots");
    if (typeof name !== "string" || greeting === undefined || listed === undefined || !call.requestState) {
      return call.requireInput(
        {
          user_name: ask("What is your name?", "name"),
          greeting: sample("Generate a greeting", 50),
          client_roots: LIST_ROOTS,
        },
        { round: 1 },
      );
    }
    return ToolResult.text(`${greeting} ${name} (${listed.length} root(s))`);
  }),
  Tool.create("test_input_required_result_multi_round", "Asks twice, keeping what it learned", async () => {
    const call = served();
    const state = call.requestState as { step?: number; name?: string } | undefined;
    if (state?.step === 2 && typeof state.name === "string") {
      const color = accepted(call, "step2")?.color;
      if (typeof color === "string") return ToolResult.text(`${state.name} likes ${color}.`);
      return call.requireInput(
        { step2: ask("Step 2: What is your favorite color?", "color") },
        { step: 2, name: state.name },
      );
    }
    const name = accepted(call, "step1")?.name;
    if (state?.step === 1 && typeof name === "string") {
      return call.requireInput(
        { step2: ask("Step 2: What is your favorite color?", "color") },
        { step: 2, name },
      );
    }
    return call.requireInput({ step1: ask("Step 1: What is your name?", "name") }, { step: 1 });
  }),
  Tool.create("test_input_required_result_tampered_state", "Refuses state it did not sign", async () => {
    const call = served();
    if (!call.requestState || accepted(call, "confirm") === undefined)
      return call.requireInput({ confirm: ask("Please confirm", "ok", "boolean") }, { signed: true });
    return ToolResult.text("The state was intact.");
  }),
  Tool.create("test_input_required_result_capabilities", "Asks only what the client can answer", async () => {
    const call = served();
    const capabilities = call.clientCapabilities;
    if (call.inputResponses !== undefined) return ToolResult.text("Thanks for the input.");
    const requests: Record<string, McpInputRequest> = {};
    if (capabilities.elicitation) requests.user_name = ask("What is your name?", "name");
    if (capabilities.sampling) requests.greeting = sample("Generate a greeting", 50);
    if (capabilities.roots) requests.client_roots = LIST_ROOTS;
    if (Object.keys(requests).length === 0) return ToolResult.text("The client can answer nothing.");
    return call.requireInput(requests);
  }),
  // SEP-2575 diagnostics: an elicitation travels inside the result, never as a request on the stream.
  Tool.create("test_streaming_elicitation", "Asks for a name inside its result", async () => {
    const call = served();
    const name = accepted(call, "user_name")?.name;
    if (typeof name !== "string") return call.requireInput({ user_name: ask("What is your name?", "name") });
    return ToolResult.text(`Hello, ${name}!`);
  }),
  // Logs, which a 2026-07-28 request without a log level must not receive.
  Tool.create("test_logging_tool", "Logs a line, then answers", async () => {
    await served().log("info", "test_logging_tool ran");
    return ToolResult.text("Logged (if the request asked for logs).");
  }),
  // SEP-2243: a parameter mirrored in the Mcp-Param-Region header.
  Tool.create(
    "test_custom_headers",
    "Echoes a region sent in a header too",
    InputSchema.fromJsonSchema({
      type: "object",
      properties: { region: { type: "string", "x-mcp-header": "Region" } },
      required: ["region"],
    }),
    async (input) => ToolResult.text(`Region: ${text(input, "region")}`),
  ),
  // Asks for sampling whether or not the client declared it: one that did not gets -32021.
  Tool.create("test_missing_capability", "Needs the client's sampling capability", async () => {
    const call = served();
    const answer = sampled(call, "question");
    if (answer === undefined) return call.requireInput({ question: sample("Say hello", 20) });
    return ToolResult.text(answer);
  }),
];

/** Waits `ms`, or until `signal` aborts (then throws). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(new Error("aborted"));
      },
      { once: true },
    );
  });
}

function numberArg(input: string, name: string): number {
  const value = (JSON.parse(input) as Record<string, unknown>)[name];
  return typeof value === "number" ? value : 0;
}

// The tasks extension (SEP-2663): the tools its scenarios name, run as tasks per `TASK_TOOLS`.
const taskTools: Tool[] = [
  Tool.create(
    "greet",
    "Greets, at once (never a task)",
    InputSchema.of(Param.string("name", "Who to greet")),
    async (input) => ToolResult.text(`Hello, ${text(input, "name")}!`),
  ),
  Tool.create(
    "slow_compute",
    "Works for some seconds, then answers",
    InputSchema.fromJsonSchema({
      type: "object",
      properties: { seconds: { type: "number" }, label: { type: "string" } },
      required: ["seconds"],
    }),
    async (input, _context, options) => {
      await sleep(numberArg(input, "seconds") * 1000, options.signal);
      return ToolResult.text(`Computed ${text(input, "label") || "it"} in ${numberArg(input, "seconds")}s.`);
    },
  ),
  Tool.create("failing_job", "Fails after about a second", async (_input, _context, options) => {
    await sleep(1000, options.signal);
    return ToolResult.error("The job failed, as it always does.");
  }),
  Tool.create("protocol_error_job", "Ends in a protocol error", async (_input, _context, options) => {
    await sleep(200, options.signal);
    throw new ProtocolError(ProtocolErrorCode.InternalError, "The job broke down (a protocol error).");
  }),
  Tool.create(
    "confirm_delete",
    "Asks to confirm, then deletes",
    InputSchema.of(Param.string("filename", "The file to delete")),
    async (input) => {
      const call = served();
      if (accepted(call, "confirm") === undefined)
        return call.requireInput({
          confirm: ask(`Delete ${text(input, "filename")}?`, "confirm", "boolean"),
        });
      return ToolResult.text(`Deleted ${text(input, "filename")}.`);
    },
  ),
  Tool.create("multi_input", "Asks two things at once", async () => {
    const call = served();
    const first = accepted(call, "first");
    const second = accepted(call, "second");
    if (first === undefined || second === undefined)
      return call.requireInput({
        first: ask("First name?", "name"),
        second: ask("Confirm?", "confirm", "boolean"),
      });
    return ToolResult.text(`Got ${String(first.name)} and ${String(second.name ?? second.confirm)}.`);
  }),
  Tool.create("test_tool_with_task", "Asks a name, then works on it as a task", async () => {
    const call = served();
    const name = accepted(call, "user_name")?.name;
    if (typeof name !== "string") return call.requireInput({ user_name: ask("What is your name?", "name") });
    await pause(300);
    return ToolResult.text(`Worked on it for ${name}.`);
  }),
];

/** How the task tools run as tasks. */
const TASK_TOOLS = {
  slow_compute: "optional",
  failing_job: "required",
  protocol_error_job: "optional",
  confirm_delete: "optional",
  multi_input: "optional",
  // The name is asked in the request (multi-round-trip), the work then runs as a task.
  test_tool_with_task: { support: "required", when: ({ inputResponses }) => inputResponses !== undefined },
} as const satisfies NonNullable<Exclude<CreateMcpServerOptions["tasks"], false>>["tools"];

const resources: McpServerResource[] = [
  {
    uri: "test://static-text",
    name: "Static text",
    description: "A static text resource",
    mimeType: "text/plain",
    read: () => "This is the content of the static text resource.",
  },
  {
    uri: "test://static-binary",
    name: "Static binary",
    description: "A static PNG",
    mimeType: "image/png",
    read: () => RED_PIXEL_PNG,
  },
  {
    uri: "test://template/{id}/data",
    name: "Data by id",
    description: "Data for one id",
    mimeType: "application/json",
    read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    complete: { id: (value) => ["123", "456", "789"].filter((id) => id.startsWith(value)) },
  },
  {
    uri: "test://watched-resource",
    name: "Watched",
    description: "A resource to subscribe to",
    mimeType: "text/plain",
    read: () => "Watched resource content",
  },
];

const prompts: McpServerPrompt[] = [
  {
    name: "test_input_required_result_prompt",
    description: "A prompt that asks the user for its context first",
    get: () => {
      const call = served();
      const context = accepted(call, "user_context")?.context;
      if (typeof context !== "string") {
        call.requireInput({ user_context: ask("What context should the prompt use?", "context") });
        return [];
      }
      return `Answer with this context in mind: ${context}`;
    },
  },
  {
    name: "test_simple_prompt",
    description: "A simple prompt without arguments",
    get: () => "This is a simple prompt for testing.",
  },
  {
    name: "test_prompt_with_arguments",
    description: "A prompt with arguments",
    arguments: [
      {
        name: "arg1",
        description: "First test argument",
        required: true,
        complete: (value) => ["paris", "park", "party"].filter((word) => word.startsWith(value)),
      },
      { name: "arg2", description: "Second test argument", required: true },
    ],
    get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  },
  {
    name: "test_prompt_with_embedded_resource",
    description: "A prompt with an embedded resource",
    arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    get: ({ resourceUri }) => [
      {
        role: "user",
        content: ToolContent.resource(resourceUri ?? "", "text/plain", {
          text: "Embedded resource content for testing.",
        }),
      },
      { role: "user", content: "Please process the embedded resource above." },
    ],
  },
  {
    name: "test_prompt_with_image",
    description: "A prompt with an image",
    get: () => [
      { role: "user", content: ToolContent.image(RED_PIXEL_PNG, "image/png") },
      { role: "user", content: "Please analyze the image above." },
    ],
  },
];

/** The conformance fixture served over Streamable HTTP on 127.0.0.1 (stateful unless said otherwise). */
export function serveConformanceFixture(
  sessions: "stateful" | "stateless" = "stateful",
): Promise<McpHttpEndpoint> {
  return serveMcpOverHttp(
    () =>
      createMcpServer({
        name: "embabel-conformance",
        tools: [...tools, ...inputRequiredTools, ...taskTools],
        resources,
        prompts,
        tasks: { tools: TASK_TOOLS },
      }),
    {
      sessions,
    },
  );
}
