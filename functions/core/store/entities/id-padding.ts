/**
 * How integer ids (users, user tokens) are written in keys: zero-padded to ten digits, so
 * that string order is numeric order and a list in key order is a list in creation order.
 * Ten digits hold every id an atomic counter will reach (2^31 is ten digits).
 */
export const idPadding = { length: 10, char: '0' } as const;
