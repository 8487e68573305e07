import type { GetPromptResult, Server, ServerContext } from "@modelcontextprotocol/server";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { ToolContent } from "../../tool/tool-content.js";
import type { McpCompleter } from "./served-resources.js";
import { contentBlockOf } from "./served-tool-result.js";

/** One argument of a {@link McpServerPrompt}. */
export interface McpServerPromptArgument {
  readonly name: string;
  /** What to give. @default none */
  readonly description?: string;
  /** Whether `prompts/get` must give it. @default false */
  readonly required?: boolean;
  /** Suggests values as the user types (`completion/complete`). @default none */
  readonly complete?: McpCompleter;
}

/** One message of a prompt: text, or an image, audio or resource ({@link ToolContent}). */
export interface McpServerPromptMessage {
  readonly role: "user" | "assistant";
  readonly content: string | ToolContent;
}

/** A prompt template served by {@link createMcpServer}. */
export interface McpServerPrompt {
  readonly name: string;
  readonly description: string;
  /** Its arguments. @default [] */
  readonly arguments?: readonly McpServerPromptArgument[];
  /** The messages for `args`: a string is one user message. */
  get(
    args: Readonly<Record<string, string>>,
    options: { readonly signal: AbortSignal },
  ): string | readonly McpServerPromptMessage[] | Promise<string | readonly McpServerPromptMessage[]>;
}

function messageOf(message: McpServerPromptMessage): GetPromptResult["messages"][number] {
  const content = message.content;
  if (typeof content === "string") return { role: message.role, content: { type: "text", text: content } };
  if (!ToolContent.isToolContent(content))
    return { role: message.role, content: { type: "text", text: String(content) } };
  return {
    role: message.role,
    content: contentBlockOf(content) as GetPromptResult["messages"][number]["content"],
  };
}

/**
 * Installs `prompts/list` and `prompts/get` on `server`; a missing required
 * argument or an unknown prompt is a JSON-RPC error -32602. Returns the
 * completer of a prompt's argument.
 */
export function servePrompts(
  server: Server,
  prompts: readonly McpServerPrompt[],
  run: (
    ctx: ServerContext,
    name: string,
    body: () => Promise<GetPromptResult>,
  ) => Promise<GetPromptResult> = (_ctx, _name, body) => body(),
): (prompt: string, argument: string) => McpCompleter | undefined {
  const byName = new Map<string, McpServerPrompt>();
  for (const prompt of prompts) {
    if (byName.has(prompt.name))
      throw new ConfigurationError(`createMcpServer: two prompts are named '${prompt.name}'.`);
    byName.set(prompt.name, prompt);
  }
  server.setRequestHandler("prompts/list", () => ({
    prompts: prompts.map((prompt) => ({
      name: prompt.name,
      description: prompt.description,
      arguments: (prompt.arguments ?? []).map((argument) => ({
        name: argument.name,
        ...(argument.description === undefined ? {} : { description: argument.description }),
        required: argument.required ?? false,
      })),
    })),
  }));
  server.setRequestHandler("prompts/get", async (request, ctx): Promise<GetPromptResult> => {
    const prompt = byName.get(request.params.name);
    if (!prompt) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Prompt ${request.params.name} not found. Available prompts: ${[...byName.keys()].join(", ")}`,
      );
    }
    const args = request.params.arguments ?? {};
    const missing = (prompt.arguments ?? []).filter(
      (argument) => argument.required && args[argument.name] === undefined,
    );
    if (missing.length > 0) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Prompt ${prompt.name} needs the argument(s) ${missing.map((argument) => argument.name).join(", ")}.`,
      );
    }
    // Run as a served call: the prompt may ask the client for input (McpServerCall.requireInput).
    return run(ctx, prompt.name, async () => {
      const messages = await prompt.get(args, { signal: ctx.mcpReq.signal });
      return {
        description: prompt.description,
        messages:
          typeof messages === "string"
            ? [{ role: "user", content: { type: "text", text: messages } }]
            : messages.map(messageOf),
      };
    });
  });
  return (name, argument) =>
    byName.get(name)?.arguments?.find((candidate) => candidate.name === argument)?.complete;
}
