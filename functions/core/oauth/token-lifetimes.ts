export const accessTokenLifetimeSeconds = 3600;
export const refreshTokenLifetimeSeconds = 30 * 24 * 3600;
/** Short, as RFC 6749 section 4.1.2 asks: a code only bridges one redirect. */
export const authorizationCodeLifetimeSeconds = 120;
