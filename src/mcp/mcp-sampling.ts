import type { LanguageModelV3 } from "@ai-sdk/provider";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  SamplingMessage,
} from "@modelcontextprotocol/client";
import { McpServerError } from "../errors/mcp-server-error.js";
import type { AgentProcess } from "../platform/agent-process.js";
import { Message } from "../prompt/message.js";
import { AmbientProcess } from "../tool/ambient-process.js";
import { Logger } from "../tool/logger.js";

/** The most output tokens one sampling request gets, whatever the server asks. @default 4096 */
export const DEFAULT_SAMPLING_MAX_TOKENS = 4_096;
/** The most sampling requests answered during one tool call. @default 10 */
export const DEFAULT_SAMPLING_CALLS_PER_TOOL_CALL = 10;

/** How a server's `sampling/createMessage` is answered: the model the platform maps `role` to. */
export interface McpSamplingModel {
  /** The role whose model answers. */
  readonly role: string;
  /** Finds the model of a role (the platform's model registry). */
  readonly model: (role: string) => Promise<{ readonly model: LanguageModelV3; readonly name: string }>;
  /** The most output tokens per request (a server asking more gets this). @default 4096 */
  readonly maxTokens?: number;
  /** The most requests answered during one tool call; more are refused. @default 10 */
  readonly maxCallsPerToolCall?: number;
}

/** Sampling requests answered per call (its scope object). */
const callsOf = new WeakMap<object, number>();

/**
 * Answers one sampling request through the prompt runner of the agent
 * process whose tool call the server is serving (`call`), so that the
 * process's budget, usage, cost, trace and retries apply: `maxTokens` is
 * capped and so is the number of requests per tool call. Outside an agent
 * process nobody pays for it, so it is refused. Text in, text out (images and
 * audio are described, not sent).
 */
export async function answerSampling(
  params: CreateMessageRequestParams,
  sampling: McpSamplingModel,
  context: {
    readonly server: string;
    readonly signal: AbortSignal;
    /** The call being served: its process, and the object its requests are counted on. */
    readonly call: { readonly process: AgentProcess; readonly key: object } | undefined;
  },
): Promise<CreateMessageResult> {
  const { server, call } = context;
  const platform = call?.process.platform;
  if (call === undefined || platform === undefined) {
    throw new McpServerError(
      server,
      `MCP server '${server}' asked to sample outside a tool call of an agent process; sampling is answered only during such calls, whose budget pays for it.`,
    );
  }
  const limit = sampling.maxCallsPerToolCall ?? DEFAULT_SAMPLING_CALLS_PER_TOOL_CALL;
  const made = callsOf.get(call.key) ?? 0;
  if (made >= limit) {
    throw new McpServerError(
      server,
      `MCP server '${server}' asked to sample more than ${limit} times during one tool call; the rest are refused.`,
    );
  }
  callsOf.set(call.key, made + 1);
  const maxTokens = Math.min(params.maxTokens, sampling.maxTokens ?? DEFAULT_SAMPLING_MAX_TOKENS);
  Logger.current().debug(`MCP server '${server}' asks the model of role ${sampling.role} to sample`, {
    server,
    maxTokens,
  });
  let runner = platform
    .ai()
    .withLlm({
      role: sampling.role,
      maxTokens,
      ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      ...(params.stopSequences ? { stopSequences: params.stopSequences } : {}),
    })
    .withSignal(context.signal);
  if (params.systemPrompt) runner = runner.withSystemPrompt(params.systemPrompt);
  const messages = params.messages.map(messageOf);
  const answer = await AmbientProcess.run(call.process, () => runner.respond(messages));
  const { name } = await sampling.model(sampling.role);
  return {
    role: "assistant",
    content: { type: "text", text: answer.content },
    model: name,
    stopReason: "endTurn",
  };
}

function messageOf(message: SamplingMessage): Message {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  const text = blocks
    .map((block) => (block.type === "text" ? block.text : `[${block.type} content omitted]`))
    .join("\n");
  return message.role === "user" ? Message.user(text) : Message.assistant(text);
}
