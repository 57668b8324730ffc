/**
 * How much of an answer one tool result carries: about 25,000 tokens at four characters a
 * token, what MCP clients take in one result before they refuse it or crowd out the rest
 * of their model's context.
 */
const resultGuardChars = 100_000;

/** What a tool result carries of its operation's answer. */
export interface CutAnswer {
  /** The answer's JSON, or as much of it as the guard lets through. */
  text: string;
  /** The answer as JSON (its list shortened when cut), unless it had to be cut as text. */
  structured?: Record<string, unknown>;
  cut: boolean;
}

interface ListAnswer {
  data: unknown[];
  meta?: Record<string, unknown>;
  [field: string]: unknown;
}

const isList = (body: unknown): body is ListAnswer =>
  typeof body === 'object' && body !== null && Array.isArray((body as { data?: unknown }).data);

const isObject = (body: unknown): body is Record<string, unknown> => typeof body === 'object' && body !== null && !Array.isArray(body);

/** A list's first `shown` items, with a note in `meta` of what was left out and how to ask for it. */
function shortened(list: ListAnswer, shown: number): ListAnswer {
  const note = {
    shown,
    of: list.data.length,
    hint: `Cut to ${shown} of ${list.data.length} items to stay within about 25,000 tokens: call again with per_page=${Math.max(1, shown)} and page (or cursor) for the rest, or with fields= for fewer fields.`,
  };
  return { ...list, data: list.data.slice(0, shown), meta: { ...list.meta, cut: note } };
}

/**
 * An operation's answer within the guard. A list too long is cut to the items that fit,
 * with a hint for the next call (the most items, found by bisection); anything else too
 * long is cut as text, with the same kind of hint. Never a failure.
 */
export function withinResultGuard(answer: { text: string; body: unknown }): CutAnswer {
  const { text, body } = answer;
  if (text.length <= resultGuardChars) return { text, structured: isObject(body) ? body : undefined, cut: false };
  if (isList(body)) {
    let fits = 0;
    let tooMany = body.data.length;
    while (tooMany - fits > 1) {
      const middle = Math.floor((fits + tooMany) / 2);
      if (JSON.stringify(shortened(body, middle)).length <= resultGuardChars) fits = middle;
      else tooMany = middle;
    }
    const cut = shortened(body, fits);
    return { text: JSON.stringify(cut), structured: cut, cut: true };
  }
  const hint = `\n[Cut at ${resultGuardChars} of ${text.length} characters to stay within about 25,000 tokens: ask with fields= for fewer fields.]`;
  return { text: text.slice(0, resultGuardChars - hint.length) + hint, cut: true };
}
