import { reloadConfig } from '#core/config';

/**
 * Sets service variables (undefined unsets one) and has the configuration parsed again, as a function
 * started with them would: layers/core/config.ts parses the environment once per process.
 */
export const setEnv = (values: Readonly<Record<string, string | undefined>>): void => {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadConfig();
};
