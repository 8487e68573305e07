import type { Job } from "bullmq";

/**
 * A worker's hold on one run, kept by renewing the job's BullMQ lock with
 * the run's own token. The lease lasts `lockDurationMs` from the moment the
 * last successful renewal was *sent*, so it ends no later than the lock in
 * Redis: when Redis says the lock is gone (another worker may own the run),
 * or when no renewal got through before the lease ran out (Redis unreachable
 * for longer than the lock), `onLost` is called once, before any other
 * worker can have taken the run over.
 */
export class RunLease {
  private leaseUntil: number;
  private heartbeat: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private ended = false;
  /** Why the lease was lost, once it was. */
  lostReason: string | undefined;

  private constructor(
    private readonly job: Job,
    private readonly token: string,
    private readonly lockDurationMs: number,
    private readonly onLost: (reason: string) => void,
    startedAt: number,
  ) {
    this.leaseUntil = startedAt + lockDurationMs;
  }

  /** Starts renewing the lock that `token` holds on `job`, taken at `startedAt` (or just before). */
  static start(
    job: Job,
    token: string,
    options: {
      readonly lockDurationMs: number;
      readonly startedAt: number;
      readonly onLost: (reason: string) => void;
    },
  ): RunLease {
    const lease = new RunLease(job, token, options.lockDurationMs, options.onLost, options.startedAt);
    lease.armDeadline();
    void lease.renew();
    return lease;
  }

  /** Whether the lease is still held. */
  get held(): boolean {
    return this.lostReason === undefined;
  }

  /** Stops renewing (the run ended). */
  end(): void {
    this.ended = true;
    clearTimeout(this.heartbeat);
    clearTimeout(this.deadline);
  }

  private async renew(): Promise<void> {
    if (this.ended || !this.held) return;
    const sentAt = Date.now();
    try {
      const extended = await this.job.extendLock(this.token, this.lockDurationMs);
      if (this.ended || !this.held) return;
      if (Number(extended) === 1) {
        this.leaseUntil = Math.max(this.leaseUntil, sentAt + this.lockDurationMs);
        this.armDeadline();
      } else {
        this.lose(
          "its lock in Redis is gone or held by another worker (Redis lost it, or the run was taken over)",
        );
        return;
      }
    } catch {
      // Redis unreachable: the deadline decides.
    }
    if (!this.ended) {
      this.heartbeat = setTimeout(() => void this.renew(), Math.max(50, this.lockDurationMs / 4));
      this.heartbeat.unref();
    }
  }

  private armDeadline(): void {
    clearTimeout(this.deadline);
    this.deadline = setTimeout(
      () => this.lose(`no lock renewal reached Redis for ${this.lockDurationMs} ms (Redis unreachable)`),
      Math.max(0, this.leaseUntil - Date.now()),
    );
    this.deadline.unref();
  }

  private lose(reason: string): void {
    if (this.ended || !this.held) return;
    this.lostReason = reason;
    this.end();
    this.onLost(reason);
  }
}
