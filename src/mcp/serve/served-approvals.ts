import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ApprovalAnswer, ApprovalAuthority, ApprovalCheck } from "../../tool/approval-authority.js";
import type { McpServerCallTarget } from "./mcp-server-call.js";

/** The name of the tool a served MCP server offers to answer its approval requests. */
export const RESPOND_TOOL_NAME = "respond_to_request";

/** The reason of a served approval nobody answered in time. */
export const SERVED_TIMED_OUT = "timed out";

/** How many approval requests a process keeps open for MCP clients; beyond, the oldest is dropped (its call never runs). */
const MAX_PENDING = 1_000;

/** How long a served approval without its own `timeoutMs` stays answerable. */
const DEFAULT_TTL_MS = 24 * 3_600_000;

/** A served call waiting for a person's approval, answerable with {@link RESPOND_TOOL_NAME}. */
export interface PendingApproval {
  /** Ours, random: what the client passes to the respond tool. */
  readonly id: string;
  /** The gate's key of the call. */
  readonly callKey: string;
  readonly toolName: string;
  /** The digest of the exact arguments the answer is bound to. */
  readonly digest: string;
  readonly message: string;
  /** The validated arguments, as the tool would get them. */
  readonly arguments: unknown;
  /** Why the person is asked again (their edit was refused). */
  readonly problem: string | undefined;
  /** When it is denied as timed out, in milliseconds since the epoch. */
  readonly expiresAt: number;
  /** Whether the approval's own `timeoutMs` set `expiresAt` (then the call is denied "timed out" after it). */
  readonly timed: boolean;
  /** Serves the original call again (same tool, arguments and context): the gate then finds the answer and uses it once. */
  readonly rerun: (site: McpServerCallTarget) => Promise<CallToolResult>;
}

interface StoredAnswer {
  readonly toolName: string;
  readonly digest: string;
  readonly answer: ApprovalAnswer;
}

/**
 * The approval requests of served tools that nobody could be asked about
 * during the call (the client has no elicitation), and the answers given with
 * {@link RESPOND_TOOL_NAME}: one store per process, shared by every server
 * and HTTP session (a client may answer on a new session). Ids are random; an
 * answer is bound to the call's key, tool name and argument digest, and used once.
 */
export class ServedApprovals {
  private readonly pending = new Map<string, PendingApproval>();
  private readonly idOfKey = new Map<string, string>();
  private readonly answers = new Map<string, StoredAnswer>();

  /** Opens (or re-opens, keeping its id) the request for `check`; `rerun` serves the call again. */
  open(check: ApprovalCheck, rerun: PendingApproval["rerun"], now = Date.now()): PendingApproval {
    const existing = this.idOfKey.get(check.callKey);
    if (existing !== undefined) this.pending.delete(existing);
    const id = existing ?? `req-${randomUUID()}`;
    const entry: PendingApproval = {
      id,
      callKey: check.callKey,
      toolName: check.toolName,
      digest: check.digest,
      message: check.message,
      arguments: check.value,
      problem: check.problem,
      expiresAt: now + (check.timeoutMs ?? DEFAULT_TTL_MS),
      timed: check.timeoutMs !== undefined,
      rerun,
    };
    this.pending.set(id, entry);
    this.idOfKey.set(check.callKey, id);
    while (this.pending.size > MAX_PENDING) {
      const oldest = this.pending.keys().next().value as string;
      this.forget(oldest);
    }
    return entry;
  }

  /** The open request `id`, if any; an expired one without its own timeout is forgotten. */
  get(id: string, now = Date.now()): PendingApproval | undefined {
    const entry = this.pending.get(id);
    if (entry && !entry.timed && entry.expiresAt <= now) {
      this.forget(id);
      return undefined;
    }
    return entry;
  }

  /** Closes request `id` with `answer` (a request past its `timeoutMs` is answered "timed out"); returns what was stored. */
  answer(entry: PendingApproval, answer: ApprovalAnswer, now = Date.now()): ApprovalAnswer {
    const given: ApprovalAnswer =
      entry.timed && entry.expiresAt <= now ? { approved: false, reason: SERVED_TIMED_OUT } : answer;
    // The id stays mapped to the call while it is served again: a refused edit re-opens the same request.
    this.pending.delete(entry.id);
    this.answers.set(entry.callKey, { toolName: entry.toolName, digest: entry.digest, answer: given });
    return given;
  }

  /** The answer stored for this exact call, used up; `undefined` when none fits. */
  take(check: ApprovalCheck): ApprovalAnswer | undefined {
    const stored = this.answers.get(check.callKey);
    if (stored === undefined) return undefined;
    this.answers.delete(check.callKey);
    if (stored.toolName !== check.toolName || stored.digest !== check.digest) return undefined;
    return stored.answer;
  }

  /** After the answered call was served again: drops an answer it did not use, and the request's id unless it was re-opened. */
  settle(entry: PendingApproval): void {
    this.answers.delete(entry.callKey);
    if (!this.pending.has(entry.id) && this.idOfKey.get(entry.callKey) === entry.id)
      this.idOfKey.delete(entry.callKey);
  }

  private forget(id: string): void {
    const entry = this.pending.get(id);
    this.pending.delete(id);
    if (entry && this.idOfKey.get(entry.callKey) === id) this.idOfKey.delete(entry.callKey);
  }
}

/** The store every served MCP server of this process uses. */
export const servedApprovals = new ServedApprovals();

/** How a served call's authority asks the client at once (elicitation); `undefined` = it could not. */
export type AskClient = (check: ApprovalCheck) => Promise<ApprovalAnswer | undefined>;

/**
 * The approval authority of one served call: an answer given with the
 * respond tool for exactly this call, else the client asked by elicitation
 * (when it can), else a request opened in `store` (collected in `opened`) and "ask".
 */
export function servedAuthority(
  store: ServedApprovals,
  askClient: AskClient | undefined,
  rerun: PendingApproval["rerun"],
  opened: PendingApproval[],
): ApprovalAuthority {
  return {
    async decide(check) {
      const answered = store.take(check);
      if (answered !== undefined) return answered;
      if (check.peek) return "ask";
      const asked = askClient ? await askClient(check) : undefined;
      if (asked !== undefined) return asked;
      opened.push(store.open(check, rerun));
      return "ask";
    },
  };
}

/** The `isError` result of a call that waits for approval: what is asked, and how to answer it. */
export function pendingApprovalResult(opened: readonly PendingApproval[]): CallToolResult {
  const lines = opened.map((entry) => {
    const again = entry.problem ? ` (asked again: ${entry.problem})` : "";
    return `Tool '${entry.toolName}' needs a person's approval${again}: ${entry.message}\nArguments: ${JSON.stringify(entry.arguments)}\nRequest id: ${entry.id}`;
  });
  const [first] = opened;
  const example = first ? first.id : "<request id>";
  return {
    content: [
      {
        type: "text",
        text: `${lines.join("\n\n")}\n\nThe call has not run. A person answers with the tool '${RESPOND_TOOL_NAME}': {"requestId":"${example}","approve":true} (or "approve":false with a "reason", or edited arguments as a JSON string in "input"). The approved call then runs once, and its result is that tool's result.`,
      },
    ],
    isError: true,
  };
}
