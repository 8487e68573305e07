import type { ScriptedRequest, ScriptedStepInit } from "../src/testing/index.js";

/** The model the examples' scripts were recorded from; `--scripted` runs report (and price) their tokens as on it. */
export const RECORDED_WITH = "openai:gpt-4.1-mini";

/**
 * A step that reports the usage a real model would for it (about four
 * characters a token: the messages and tool definitions sent, and the reply),
 * so a `--scripted` run shows realistic tokens and cost. A step that states
 * its own usage keeps it.
 */
export function withRecordedUsage(step: ScriptedStepInit): ScriptedStepInit {
  return async (request) => {
    const reply = typeof step === "function" ? await step(request) : step;
    if (reply.usage || reply.error !== undefined) return reply;
    const sent = JSON.stringify(request.prompt).length + JSON.stringify(request.tools).length;
    const answered = (reply.text ?? "").length + JSON.stringify(reply.toolCalls ?? []).length;
    return {
      ...reply,
      usage: { inputTokens: Math.ceil(sent / 4), outputTokens: Math.max(1, Math.ceil(answered / 4)) },
    };
  };
}

/** The text of the last user message of a request (the prompt an action sent). */
export function userText(request: ScriptedRequest): string {
  for (let index = request.prompt.length - 1; index >= 0; index--) {
    const message = request.prompt[index];
    if (message?.role === "user") {
      return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    }
  }
  return "";
}

/** The outputs (as text) of every earlier call of `toolName` in this request's conversation, oldest first. */
export function toolOutputs(request: ScriptedRequest, toolName: string): string[] {
  const outputs: string[] = [];
  for (const message of request.prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result" || part.toolName !== toolName) continue;
      const output = part.output;
      if (output.type === "text" || output.type === "error-text") outputs.push(output.value);
      else if (output.type === "json" || output.type === "error-json")
        outputs.push(JSON.stringify(output.value));
    }
  }
  return outputs;
}

/** The output of the most recent call of `toolName`, or `undefined`. */
export function lastToolOutput(request: ScriptedRequest, toolName: string): string | undefined {
  const outputs = toolOutputs(request, toolName);
  return outputs[outputs.length - 1];
}

/** Parses JSON, or `undefined` when it is not JSON. */
export function jsonOrUndefined(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The JSON object written after `<label>:` in `text` (the prompts of the
 * examples embed their inputs that way), or `undefined`.
 */
export function labelledJson(text: string, label: string): Record<string, unknown> | undefined {
  const start = text.indexOf(`${label}:`);
  if (start < 0) return undefined;
  const open = text.indexOf("{", start);
  if (open < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let index = open; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}") {
      depth--;
      if (depth === 0) {
        const parsed = jsonOrUndefined(text.slice(open, index + 1));
        return typeof parsed === "object" && parsed !== null
          ? (parsed as Record<string, unknown>)
          : undefined;
      }
    }
  }
  return undefined;
}
