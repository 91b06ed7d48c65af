/** Placeholder while issue 26 is built: replaced before it lands. */
export const handler = async (): Promise<never> => {
  throw new Error('not built yet');
};
