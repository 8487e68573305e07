import { ConfigurationError } from "../errors/configuration-error.js";

type BullMq = typeof import("bullmq");
type IORedisModule = typeof import("ioredis");
/** The ioredis client class. */
export type RedisClient = import("ioredis").Redis;

/** The `bullmq` and `ioredis` modules, imported on first use so in-process users never need them. */
export interface QueueLibraries {
  readonly bullmq: BullMq;
  /** Creates an ioredis client for `url`. */
  redis(url: string, options?: Record<string, unknown>): RedisClient;
}

let loaded: Promise<QueueLibraries> | undefined;

/** Imports `bullmq` and `ioredis`; a {@link ConfigurationError} naming what to install when one is missing. */
export function loadQueueLibraries(): Promise<QueueLibraries> {
  loaded ??= (async () => {
    const bullmq = await importPeer<BullMq>("bullmq");
    const ioredis = await importPeer<IORedisModule>("ioredis");
    const Redis = (ioredis.Redis ?? ioredis.default) as unknown as new (
      url: string,
      options: Record<string, unknown>,
    ) => RedisClient;
    return { bullmq, redis: (url, options = {}) => new Redis(url, options) };
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/** Imports the optional peer `name`; a {@link ConfigurationError} naming the install command when it is missing. */
export async function importPeer<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND") {
      throw new ConfigurationError(
        `Scale-out needs the '${name}' package, which is an optional peer dependency: npm install bullmq ioredis`,
        { cause: error },
      );
    }
    throw error;
  }
}
