/**
 * What a running twin stops, in the reverse order of its starting: each subsystem's start function adds the stops
 * of the parts it started, so a part that started is stopped with the twin, also when another fails to start.
 */
export class Stops {
  private readonly stops: (() => Promise<void> | void)[] = [];

  constructor(private readonly log: (line: string) => void) {}

  add(stop: () => Promise<void> | void): void {
    this.stops.push(stop);
  }

  /** the part once started, with its stop added */
  async started<T>(starting: Promise<T>, stopOf: (started: T) => () => Promise<void> | void): Promise<T> {
    const started = await starting;
    this.add(stopOf(started));
    return started;
  }

  /** every stop, the latest first; a failing one is logged and the others still run */
  async run(): Promise<void> {
    for (const stop of this.stops.splice(0).reverse())
      await Promise.resolve()
        .then(stop)
        .catch((error: unknown) => this.log(`stopping: ${String(error)}`));
  }
}
