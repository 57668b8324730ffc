/**
 * How far lists reach: the list queries (core/lists) keep to these, and the list envelope
 * (common-schemas.ts) and openapi.yaml's descriptions name them.
 */
export const defaultPerPage = 25;
export const maxPerPage = 100;
/** Page numbers reach this many items (page x per_page); cursors go on past it. */
export const pageWindow = 10_000;
/** Sorts, searches and filters that no index serves run over this many items, in key order. */
export const searchWindow = 1_000;
