/**
 * Time as a dependency: the quota and the shedder never read the clock themselves, so tests can
 * simulate minutes of traffic in milliseconds.
 */
export type Clock = () => Date;
export type Sleep = (ms: number) => Promise<void>;

export const systemClock: Clock = () => new Date();
export const realSleep: Sleep = (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms));
