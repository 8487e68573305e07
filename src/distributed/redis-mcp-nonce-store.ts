import type { McpNonceStore } from "../mcp/serve/mcp-nonce-store.js";
import { loadQueueLibraries, type RedisClient } from "./load-bullmq.js";
import { connectRedis } from "./queue-protocol.js";

/** Options of {@link RedisMcpNonceStore.create}. */
export interface RedisMcpNonceStoreOptions {
  /** The Redis URL (`redis://host:port`, `rediss://user:password@host:port/db`). */
  readonly connection: string;
  /** What each nonce's key starts with. @default "embabel:mcp:nonce:" */
  readonly prefix?: string;
}

/**
 * An `McpNonceStore` in Redis, shared by every MCP server process on it
 * (`createMcpServer({ nonceStore })`; `embabel-ts mcp-serve --redis` uses
 * one): a claim is one `SET key 1 NX PX ttl`, so of two processes taking the
 * same answer at once only one wins, and the key expires with the state it
 * guards. A Redis that cannot be reached fails the claim (the answer is not used).
 */
export class RedisMcpNonceStore implements McpNonceStore {
  private constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  /** Connects to Redis; rejects at once, naming the URL, when it cannot be reached. */
  static async create(options: RedisMcpNonceStoreOptions): Promise<RedisMcpNonceStore> {
    const redis = await connectRedis(await loadQueueLibraries(), options.connection);
    return new RedisMcpNonceStore(redis, options.prefix ?? "embabel:mcp:nonce:");
  }

  async claim(nonce: string, ttlMs: number): Promise<boolean> {
    const set = await this.redis.set(
      `${this.prefix}${nonce}`,
      "1",
      "PX",
      Math.max(1, Math.ceil(ttlMs)),
      "NX",
    );
    return set === "OK";
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
