/**
 * Scores in the service are fractions (0..1) but people see whole percents. Every rule that puts a
 * score in a band compares the percent that is shown, not the raw fraction, so a label can never
 * contradict the number beside it (0.8449 shows "84 %" and is never called "85 % and above").
 *
 * Pure: no I/O, no clock, no environment.
 */

/**
 * The whole percent shown for a fraction: nearest integer, halves rounded up.
 *
 * `x * 100` carries binary noise (0.575 * 100 === 57.49999999999999), which would make 0.575 show
 * as 57 % but 0.585 as 59 %; cutting the product to 12 significant digits first removes that noise,
 * so a value written with two or three decimals rounds the way a person would round it.
 */
export const toPercent = (fraction: number): number => Math.round(Number((fraction * 100).toPrecision(12)));

/** Throws a RangeError unless `value` is a finite number in [min, max]. Returns the value. */
export const assertInRange = (name: string, value: number, min: number, max: number): number => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a finite number between ${min} and ${max}, got ${String(value)}`);
  }
  return value;
};
