import { ConfigurationError } from "../../errors/configuration-error.js";

/**
 * Where a served MCP server marks the rounds of MCP 2026-07-28
 * `input_required` it has taken an answer for (a person's approval, an
 * agent's wait), so each answer is used once, even when its retry is replayed
 * to another server process. The processes behind one endpoint share one
 * (`RedisMcpNonceStore` from `embabel-ts/distributed`, which `embabel-ts
 * mcp-serve --redis` uses); the default, {@link InMemoryMcpNonceStore}, is
 * this process's alone.
 */
export interface McpNonceStore {
  /**
   * Marks `nonce` used for `ttlMs` milliseconds (at least as long as the
   * signed state naming it stays valid); resolves `true` to the first claim
   * of a nonce only, `false` to every later one.
   */
  claim(nonce: string, ttlMs: number): Promise<boolean>;
}

/** How many nonces {@link InMemoryMcpNonceStore} keeps by default; beyond, the oldest claim is forgotten. */
const DEFAULT_MAX_NONCES = 10_000;

/**
 * An {@link McpNonceStore} in this process's memory: single use holds within
 * this process only (a replay to another process is not seen). Keeps up to
 * `maxNonces` claims, forgetting expired ones and then the oldest.
 */
export class InMemoryMcpNonceStore implements McpNonceStore {
  /** Claimed nonces and when each may be forgotten (epoch ms), oldest first. */
  private readonly claimed = new Map<string, number>();

  /** @param maxNonces how many claims to keep at most (at least 1). @default 10_000 */
  constructor(private readonly maxNonces = DEFAULT_MAX_NONCES) {
    if (!Number.isInteger(maxNonces) || maxNonces < 1) {
      throw new ConfigurationError(
        `InMemoryMcpNonceStore: maxNonces must be a whole number, 1 or more; got ${maxNonces}.`,
      );
    }
  }

  async claim(nonce: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const until = this.claimed.get(nonce);
    if (until !== undefined && until > now) return false;
    this.claimed.delete(nonce);
    this.claimed.set(nonce, now + ttlMs);
    for (const [each, expires] of this.claimed) {
      if (this.claimed.size <= this.maxNonces && expires > now) break;
      this.claimed.delete(each);
    }
    return true;
  }
}

/** The store of servers given none: one per process, shared by every server and HTTP session in it. */
export const processNonceStore: McpNonceStore = new InMemoryMcpNonceStore();
