/**
 * Options for reads on every request's path: ElectroDB otherwise builds an error with a
 * stack trace before each call, in case it fails (about a tenth of its cost per call).
 */
export const hotPath = { originalErr: true } as const;
