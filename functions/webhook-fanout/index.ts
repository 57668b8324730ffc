// Replaced by the delivery engine (issue 9): webhook-fanout's Lambda entry point.
export const handler = async (): Promise<void> => {
  throw new Error('not built yet');
};
