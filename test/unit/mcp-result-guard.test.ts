import { withinResultGuard } from '#core/mcp/result-guard';

/** A tool's result stays within about 25,000 tokens (100,000 characters): a list is cut to what fits, with a hint. */
const answerOf = (body: unknown) => ({ text: JSON.stringify(body), body });

describe('the MCP result guard', () => {
  it('passes an answer within the guard as it is, structured', () => {
    const body = { data: [{ id: 'post_1' }], meta: { total: 1 } };
    expect(withinResultGuard(answerOf(body))).toEqual({ text: JSON.stringify(body), structured: body, cut: false });
  });

  it('cuts a long list to the most items that fit, and says in meta.cut how to ask for the rest', () => {
    const items = Array.from({ length: 40 }, (_, i) => ({ id: `post_${i}`, content: 'x'.repeat(9_000) }));
    const result = withinResultGuard(answerOf({ data: items, meta: { total: 40, per_page: 40 } }));
    const shown = (result.structured as { data: unknown[] }).data.length;
    expect(result.cut).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(100_000);
    // One more item (about 9,030 characters) would not have fitted.
    expect(result.text.length + JSON.stringify(items[shown]).length).toBeGreaterThan(100_000);
    expect(result.structured).toMatchObject({
      meta: { total: 40, cut: { shown, of: 40, hint: expect.stringContaining(`per_page=${shown}`) } },
    });
    expect(JSON.parse(result.text)).toEqual(result.structured);
  });

  it('cuts anything else as text, with a hint, and gives no structured content', () => {
    const result = withinResultGuard(answerOf({ data: { id: 'post_1', content: 'y'.repeat(150_000) } }));
    expect(result.cut).toBe(true);
    expect(result.structured).toBeUndefined();
    expect(result.text.length).toBe(100_000);
    expect(result.text).toMatch(/\[Cut at 100000 of \d+ characters/);
  });
});
