import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { importPeer, loadQueueLibraries } from "./load-bullmq.js";

describe("loadQueueLibraries", () => {
  it("imports bullmq and ioredis on first use", async () => {
    const libraries = await loadQueueLibraries();
    expect(typeof libraries.bullmq.Queue).toBe("function");
    const client = libraries.redis("redis://127.0.0.1:1", { lazyConnect: true });
    expect(client.status).toBe("wait");
    client.disconnect();
  });

  it("names the install command when an optional peer is missing", async () => {
    const attempt = importPeer("embabel-ts-no-such-peer");
    await expect(attempt).rejects.toThrow(ConfigurationError);
    await expect(importPeer("embabel-ts-no-such-peer")).rejects.toThrow(
      "Scale-out needs the 'embabel-ts-no-such-peer' package, which is an optional peer dependency: npm install bullmq ioredis",
    );
  });
});
