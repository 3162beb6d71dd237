// A token bucket: `burst` actions at once, then one more every `refillMs`. The caller passes the
// time, so a test can drive it with its own clock.

export class TokenBucket {
  private readonly burst: number;
  private readonly refillMs: number;
  private tokens: number;
  private at: number;

  constructor(burst: number, refillMs: number, now: number) {
    this.burst = burst;
    this.refillMs = refillMs;
    this.tokens = burst;
    this.at = now;
  }

  /** Takes a token if one is left at `now`; false (and nothing taken) when the bucket is empty. */
  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + (now - this.at) / this.refillMs);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
