import {
  createMcpServer,
  InputSchema,
  type McpHttpEndpoint,
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
        address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
      },
      properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
    }),
    async (input) => ToolResult.text(`Received: ${input}`),
  ),
];

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
  return serveMcpOverHttp(() => createMcpServer({ name: "embabel-conformance", tools, resources, prompts }), {
    sessions,
  });
}
