import type { RedisClient } from "./load-bullmq.js";

/** Writes KEYS[2] only while KEYS[1] (the job's BullMQ lock) still holds ARGV[1] (this worker's token). */
const SAVE_IF_LOCK_HELD = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[3]) > 0 then
  redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
else
  redis.call('SET', KEYS[2], ARGV[2])
end
return 1`;

/** Where and as whom a fenced write goes. */
export interface Fence {
  /** The job's BullMQ lock key (`bull:<queue>:<id>:lock`). */
  readonly lockKey: string;
  /** The token this worker's hold on the job put there. */
  readonly token: string;
}

/**
 * Sets `key` to `text` (expiring after `ttlSeconds`, or never when 0) in one
 * atomic step with checking that the run's lock is still this worker's: a
 * worker that lost its run to another cannot write over the new owner's
 * checkpoint. Resolves `false` when the lock is not (or no longer) ours.
 */
export async function saveIfLockHeld(
  redis: RedisClient,
  fence: Fence,
  key: string,
  text: string,
  ttlSeconds = 0,
): Promise<boolean> {
  const saved = await redis.eval(SAVE_IF_LOCK_HELD, 2, fence.lockKey, key, fence.token, text, ttlSeconds);
  return Number(saved) === 1;
}
