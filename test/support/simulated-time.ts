import type { Sleep } from '#core/ai/quota';

/**
 * One simulated clock shared by many parallel callers (discrete-event time): it jumps to the next
 * wake-up only once every caller is asleep or done, and everyone due at that moment runs concurrently.
 */
export class SimulatedTime {
  private t: number;
  private running = 0;
  private sleepers: { until: number; wake: () => void }[] = [];

  constructor(startMs: number) {
    this.t = startMs;
  }

  now = (): Date => new Date(this.t);

  sleep: Sleep = (ms) =>
    new Promise<void>((wake) => {
      this.sleepers.push({ until: this.t + ms, wake });
      this.running--;
      this.advance();
    });

  /** Runs `fn` as a caller arriving at startMs + offsetMs. Call start() once every caller is added. */
  spawn<T>(offsetMs: number, fn: () => Promise<T>): Promise<T> {
    return new Promise<void>((wake) => this.sleepers.push({ until: this.t + offsetMs, wake })).then(fn).finally(() => {
      this.running--;
      this.advance();
    });
  }

  start(): void {
    this.advance();
  }

  private advance(): void {
    if (this.running > 0 || this.sleepers.length === 0) return;
    this.t = Math.min(...this.sleepers.map((s) => s.until));
    const due = this.sleepers.filter((s) => s.until === this.t);
    this.sleepers = this.sleepers.filter((s) => s.until !== this.t);
    this.running += due.length;
    due.forEach((s) => s.wake());
  }
}
