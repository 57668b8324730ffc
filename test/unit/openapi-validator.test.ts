import { contractProblems } from '../support/openapi-validator.ts';

const base = 'http://127.0.0.1:3000/api/v1';
const json = { 'Content-Type': 'application/json', 'X-Request-ID': 'req-12345678' };
const counted = { ...json, 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59', 'X-RateLimit-Reset': '1800000000' };
const meta = { request_id: 'req-12345678', timestamp: '2026-11-22T13:22:02.822Z' };
const links = { first: `${base}/workspaces?page=1`, last: `${base}/workspaces?page=1`, prev: null, next: null };
const listMeta = { current_page: 1, per_page: 25, total: 1, last_page: 1, from: 1, to: 1, window: null };

const answer = (status: number, headers: Record<string, string>, body: unknown) => ({ status, headers: new Headers(headers), body });

/** The checker the e2e suite runs on every answer: it must refuse drift, not only pass what matches. */
describe('the contract check', () => {
  it('accepts a list trimmed by fields= and a 413 that says its limit', () => {
    const trimmed = { data: [{ id: 'wks_1', name: 'Alpha' }], meta: listMeta, links };
    expect(contractProblems('GET', `${base}/workspaces?fields=name`, answer(200, counted, trimmed))).toEqual([]);
    const tooLarge = { error: 'bad_request', error_code: 'PAYLOAD_TOO_LARGE', message: 'Too large.', limit: 262144, request_id: 'r', meta };
    expect(contractProblems('POST', `${base}/workspaces`, answer(413, json, tooLarge))).toEqual([]);
  });

  it('refuses an undeclared status, a missing header and a body off its schema', () => {
    expect(contractProblems('GET', `${base}/workspaces`, answer(418, counted, {}))).toEqual(['status 418 is not declared']);
    const page = { data: [{ name: 'no id' }], meta: listMeta, links };
    const problems = contractProblems('GET', `${base}/workspaces`, answer(200, json, page));
    expect(problems).toContain('header X-RateLimit-Limit is missing');
    expect(problems.join('\n')).toMatch(/\/data\/0 must have required property 'id'/);
    const noLimit = { error: 'bad_request', error_code: 'PAYLOAD_TOO_LARGE', message: 'Too large.', request_id: 'r', meta };
    expect(contractProblems('POST', `${base}/workspaces`, answer(413, json, noLimit)).join('\n')).toMatch(/required property 'limit'/);
  });

  it("holds unknown paths and methods to the fallback's 404 and 405", () => {
    const notFound = { error: 'not_found', error_code: 'ENDPOINT_NOT_FOUND', message: 'No.', requested_path: '/x', request_id: 'r', meta };
    expect(contractProblems('GET', `${base}/nowhere`, answer(404, json, notFound))).toEqual([]);
    expect(contractProblems('GET', `${base}/nowhere`, answer(200, json, {}))).toEqual(["expected the fallback's 404, got 200"]);
    const notAllowed = {
      error: 'method_not_allowed',
      error_code: 'METHOD_NOT_ALLOWED',
      message: 'No.',
      allowed_methods: ['GET'],
      request_id: 'r',
      meta,
    };
    expect(contractProblems('PUT', `${base}/workspaces`, answer(405, json, notAllowed))).toEqual(['header Allow is missing']);
  });
});
