import type { RedisClient } from "./load-bullmq.js";

/**
 * Writes KEYS[2] (and adds ARGV[4] to the set KEYS[3], when given) only while
 * KEYS[1] (the job's BullMQ lock) still holds ARGV[1] (this worker's token).
 */
const SAVE_IF_LOCK_HELD = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[3]) > 0 then
  redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
else
  redis.call('SET', KEYS[2], ARGV[2])
end
if KEYS[3] then redis.call('SADD', KEYS[3], ARGV[4]) end
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
 * checkpoint. `alsoAdd` puts a member in a set in the same step (a waiting
 * run on the waiting list). Resolves `false` when the lock is not (or no longer) ours.
 */
export async function saveIfLockHeld(
  redis: RedisClient,
  fence: Fence,
  key: string,
  text: string,
  ttlSeconds = 0,
  alsoAdd?: { readonly set: string; readonly member: string },
): Promise<boolean> {
  const saved = alsoAdd
    ? await redis.eval(
        SAVE_IF_LOCK_HELD,
        3,
        fence.lockKey,
        key,
        alsoAdd.set,
        fence.token,
        text,
        ttlSeconds,
        alsoAdd.member,
      )
    : await redis.eval(SAVE_IF_LOCK_HELD, 2, fence.lockKey, key, fence.token, text, ttlSeconds);
  return Number(saved) === 1;
}
