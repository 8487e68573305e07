import { Message } from "../prompt/message.js";
import type { McpClient } from "./mcp-client.js";

/** A server's prompt, filled in: its messages, ready for `PromptRunner.respond`, and its text for `generateText`. */
export interface McpPrompt {
  readonly description?: string;
  /** The messages (non-text content is described in a line). */
  readonly messages: readonly Message[];
  /** The messages' text, joined by blank lines. */
  readonly text: string;
}

/** The prompt `name` of `server`, filled in with `args`, as an {@link McpPrompt}. */
export async function mcpPrompt(
  server: McpClient,
  name: string,
  args: Readonly<Record<string, string>> = {},
  options: { readonly signal?: AbortSignal } = {},
): Promise<McpPrompt> {
  const result = await server.getPrompt(name, args, options);
  const messages = result.messages.map((message) => {
    const content = message.content;
    const text =
      content.type === "text"
        ? content.text
        : content.type === "resource" && "text" in content.resource
          ? String(content.resource.text)
          : `[${content.type} content]`;
    return message.role === "user" ? Message.user(text) : Message.assistant(text);
  });
  return {
    ...(result.description ? { description: result.description } : {}),
    messages,
    text: messages.map((message) => message.content).join("\n\n"),
  };
}
