import { randomUUID } from 'node:crypto';
import { tiers } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { registerVerified } from '../support/accounts.ts';
import { type ApiAnswer, startTestApiWithDeps, type TestApi } from '../support/local-api.ts';
import { as } from '../support/sessions.ts';

/**
 * SEO reports over HTTP, through the local runner on DynamoDB Local: reports and their
 * issues, the issue list and a URL's score history, the `seo_reports` limit per month and
 * environment, and what a narrower credential or another tenant gets.
 */

let api: TestApi & { deps: Deps };
beforeAll(async () => {
  api = await startTestApiWithDeps();
});
afterAll(() => api.stop());

const scores = { performance: 91.5, accessibility: 80, best_practices: 100, seo: 0 };
const reportOf = (url: string, issues: unknown[] = []) => ({ url, scores, issues });

const inWorkspace = (workspaceId: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) => ({
  ...options,
  headers: { 'X-Workspace-ID': workspaceId, ...options.headers },
});

async function workspaceOnTier(name: string, tier: 'free' | 'pro'): Promise<string> {
  const made = await api.call('POST', '/workspaces', { body: { name, tier } });
  expect([made.status, made.body.data?.tier]).toEqual([201, tier]);
  return made.body.data.id;
}

async function report(workspaceId: string, body: unknown, key?: string) {
  const answer = await api.call('POST', '/seo/report', inWorkspace(workspaceId, { key, body }));
  if (answer.status !== 201) throw new Error(`reporting answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

async function keyOf(workspaceId: string, scopes: string[], environment: 'live' | 'test' = 'live') {
  const created = await api.call('POST', '/api-keys', {
    body: { name: `${environment} ${scopes.join(' ')}`, scopes, environment, workspace_id: workspaceId },
  });
  expect(created.status).toBe(201);
  return created.body.data.key as string;
}

const idsOf = (answer: ApiAnswer) => answer.body.data.map((item: { id: string }) => item.id);
const seoReportsUsed = async (workspaceId: string, key?: string) => {
  const summary = await api.call('GET', '/entitlements/summary', inWorkspace(workspaceId, { key }));
  expect(summary.status).toBe(200);
  return summary.body.data.entitlements.seo_reports.used as number;
};

describe('POST /seo/report', () => {
  let workspaceId: string;
  beforeAll(async () => {
    workspaceId = await workspaceOnTier('Reported', 'pro');
  });

  it('stores the report and each issue under seo_ ids, answers 201 with them, and writes seo.report_created', async () => {
    const body = reportOf('https://Example.com/pricing#plans', [
      { type: 'image-alt', severity: 'high', element: 'img.hero', message: 'Image elements do not have [alt] attributes' },
      { type: 'meta-description', severity: 'medium' },
    ]);
    const answer = await api.call('POST', '/seo/report', inWorkspace(workspaceId, { body }));
    expect(answer.status).toBe(201);
    expect(answer.body.message).toMatch(/stored/);
    const created = answer.body.data;
    expect(created).toMatchObject({
      url: 'https://example.com/pricing',
      scores,
      issue_count: 2,
      issues_by_severity: { critical: 0, high: 1, medium: 1, low: 0, info: 0 },
      environment: 'live',
      workspace_id: workspaceId,
    });
    expect(created.id).toMatch(/^seo_[0-9A-Z]{26}$/);
    expect(created.issues).toEqual([
      {
        id: expect.stringMatching(/^seo_[0-9A-Z]{26}$/),
        report_id: created.id,
        url: 'https://example.com/pricing',
        issue_type: 'image-alt',
        severity: 'high',
        details: { element: 'img.hero', message: 'Image elements do not have [alt] attributes' },
        environment: 'live',
        created_at: created.created_at,
      },
      expect.objectContaining({ issue_type: 'meta-description', details: { element: null, message: null } }),
    ]);

    const listed = await api.call('GET', `/seo/issues/${workspaceId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.meta.total).toBe(2);
    expect(new Set(idsOf(listed))).toEqual(new Set(created.issues.map((i: { id: string }) => i.id)));

    const { data: events } = await api.deps.db.entities.webhookEvent.scan.go({ pages: 'all' });
    const event = events.find((e) => e.type === 'seo.report_created' && JSON.parse(e.body).data.id === created.id);
    expect(event).toMatchObject({ workspaceId, environment: 'live' });
    expect(JSON.parse(event!.body)).toMatchObject({ type: 'seo.report_created', workspace_id: workspaceId, data: created });
  });

  it('refuses what is no report with 422 naming the field, and stores nothing', async () => {
    const before = (await api.call('GET', `/seo/issues/${workspaceId}`)).body.meta.total;
    const issue = { type: 'image-alt', severity: 'low' };
    const bad: [unknown, string][] = [
      [{ ...reportOf('https://example.com/'), scores: { ...scores, seo: 101 } }, 'scores.seo'],
      [{ ...reportOf('https://example.com/'), scores: { ...scores, performance: -1 } }, 'scores.performance'],
      [{ ...reportOf('https://example.com/'), scores: { ...scores, accessibility: '80' } }, 'scores.accessibility'],
      [{ ...reportOf('https://example.com/'), scores: { performance: 1, accessibility: 1, seo: 1 } }, 'scores.best_practices'],
      [{ ...reportOf('https://example.com/'), scores: { ...scores, speed: 1 } }, 'scores.speed'],
      [{ scores }, 'url'],
      [reportOf('example.com/pricing'), 'url'],
      [reportOf('ftp://example.com/'), 'url'],
      [reportOf('https://user:secret@example.com/'), 'url'],
      [reportOf('https://example.com/\nsecond-line'), 'url'],
      [reportOf(`https://example.com/${'a'.repeat(2048)}`), 'url'],
      // Within 2,048 characters as sent, but not as stored: each € is 9 characters percent-encoded.
      [reportOf(`https://example.com/${'€'.repeat(300)}`), 'url'],
      [reportOf('https://example.com/', Array(51).fill(issue)), 'issues'],
      [reportOf('https://example.com/', [{ ...issue, severity: 'severe' }]), 'issues.0.severity'],
      [reportOf('https://example.com/', [{ ...issue, type: '' }]), 'issues.0.type'],
      [reportOf('https://example.com/', [{ ...issue, element: 'x'.repeat(1001) }]), 'issues.0.element'],
      [reportOf('https://example.com/', [{ ...issue, score: 3 }]), 'issues.0.score'],
      [{ ...reportOf('https://example.com/'), extra: true }, 'extra'],
    ];
    for (const [body, field] of bad) {
      const answer = await api.call('POST', '/seo/report', inWorkspace(workspaceId, { body }));
      expect({ field, status: answer.status, error: answer.body.error }).toEqual({ field, status: 422, error: 'validation_failed' });
      expect({ field, keys: Object.keys(answer.body.errors) }).toEqual({ field, keys: [field] });
    }
    // Fifty issues are one report.
    const fifty = await report(workspaceId, reportOf('https://example.com/fifty', Array(50).fill(issue)));
    expect(fifty.issues).toHaveLength(50);
    expect((await api.call('GET', `/seo/issues/${workspaceId}`)).body.meta.total).toBe(before + 50);
  });

  it('replays an Idempotency-Key with the same report, and stores it once', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = reportOf('https://example.com/once', [{ type: 'viewport', severity: 'critical' }]);
    const first = await api.call('POST', '/seo/report', inWorkspace(workspaceId, { body, headers }));
    const again = await api.call('POST', '/seo/report', inWorkspace(workspaceId, { body, headers }));
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.data).toEqual(first.body.data);
    const history = await api.call('GET', `/seo/reports?url=${encodeURIComponent('https://example.com/once')}`, inWorkspace(workspaceId));
    expect(idsOf(history)).toEqual([first.body.data.id]);
  });

  it('needs seo:write to report and seo:read to list, naming the missing scope', async () => {
    const reader = await keyOf(workspaceId, ['seo:read']);
    const writer = await keyOf(workspaceId, ['seo:write']);
    const refused = await api.call('POST', '/seo/report', { key: reader, body: reportOf('https://example.com/') });
    expect([refused.status, refused.body.error_code, refused.body.required_scope]).toEqual([403, 'INSUFFICIENT_PERMISSIONS', 'seo:write']);
    expect((await api.call('GET', `/seo/issues/${workspaceId}`, { key: reader })).status).toBe(200);
    const blind = await api.call('GET', `/seo/issues/${workspaceId}`, { key: writer });
    expect([blind.status, blind.body.required_scope]).toEqual([403, 'seo:read']);
    expect((await api.call('GET', '/seo/reports?url=https://example.com/', { key: writer })).body.required_scope).toBe('seo:read');
    expect((await api.call('POST', '/seo/report', { key: writer, body: reportOf('https://example.com/') })).status).toBe(201);
  });
});

describe('GET /seo/issues/{workspace_id} and GET /seo/reports', () => {
  let workspaceId: string;
  const reports: { id: string; issues: { id: string }[] }[] = [];
  beforeAll(async () => {
    workspaceId = await workspaceOnTier('Listed', 'pro');
    const bodies = [
      reportOf('https://example.com/a', [
        { type: 'image-alt', severity: 'high' },
        { type: 'meta-description', severity: 'medium' },
      ]),
      reportOf('https://example.com/b', [
        { type: 'image-alt', severity: 'critical' },
        { type: 'link-text', severity: 'low' },
        { type: 'color-contrast', severity: 'info' },
      ]),
      reportOf('https://EXAMPLE.com/a#top', [{ type: 'meta-description', severity: 'high' }]),
    ];
    // One after another, a millisecond apart at least: ids (and created_at) are in creation order.
    for (const body of bodies) {
      reports.push(await report(workspaceId, body));
      await new Promise((r) => setTimeout(r, 5));
    }
  });

  const issuesOf = (query = '', options = {}) => api.call('GET', `/seo/issues/${workspaceId}${query}`, options);
  /** Ids of the reports' issues, in report order. */
  const issueIds = (...which: number[]) => which.flatMap((i) => reports[i]!.issues.map((issue) => issue.id));

  it('lists the issues newest first with a constant-cost total', async () => {
    const all = await issuesOf();
    expect(all.body.meta).toMatchObject({ total: 6, current_page: 1, per_page: 25, last_page: 1, from: 1, to: 6 });
    // Newest report first; the issues of one report share their created_at.
    expect(idsOf(all).slice(0, 1)).toEqual(issueIds(2));
    expect(new Set(idsOf(all).slice(1, 4))).toEqual(new Set(issueIds(1)));
    expect(new Set(idsOf(all).slice(4))).toEqual(new Set(issueIds(0)));
    const times = all.body.data.map((i: { created_at: string }) => i.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const oldestFirst = await issuesOf('?sort=created_at');
    expect(new Set(idsOf(oldestFirst).slice(0, 2))).toEqual(new Set(issueIds(0)));
  });

  it('filters by severity, url and issue_type, and trims with fields', async () => {
    expect(idsOf(await issuesOf('?severity=high'))).toEqual([...issueIds(2), reports[0]!.issues[0]!.id]);
    const onA = await issuesOf(`?url=${encodeURIComponent('https://example.com/a')}`);
    expect(new Set(idsOf(onA))).toEqual(new Set([...issueIds(2), ...issueIds(0)]));
    // The filter matches as reports store URLs: case of the host and fragment aside.
    expect(idsOf(await issuesOf(`?url=${encodeURIComponent('https://Example.COM/a#x')}`))).toEqual(idsOf(onA));
    const images = await issuesOf('?issue_type=image-alt');
    expect(images.body.data.map((i: { severity: string }) => i.severity)).toEqual(['critical', 'high']);
    expect((await issuesOf('?issue_type=image-alt&severity=low')).body.data).toEqual([]);
    const trimmed = await issuesOf('?fields=severity&per_page=1');
    expect(Object.keys(trimmed.body.data[0]).sort()).toEqual(['id', 'severity']);
    for (const query of ['?severity=severe', '?sort=score', '?status=open', '?per_page=0', '?reported_by=me']) {
      expect({ query, status: (await issuesOf(query)).status }).toEqual({ query, status: 422 });
    }
    expect((await issuesOf(`?created_after=${new Date(Date.now() + 60_000).toISOString()}`)).body.data).toEqual([]);
  });

  it('pages on with the cursor of links.next, newest first, each issue once', async () => {
    const seen: string[] = [];
    let next: string | null = `${api.runner.baseUrl}/seo/issues/${workspaceId}?per_page=4`;
    while (next) {
      const page: ApiAnswer = await api.call('GET', next);
      expect(page.status).toBe(200);
      seen.push(...idsOf(page));
      next = page.body.links.next;
    }
    expect(seen).toEqual(idsOf(await issuesOf('?per_page=100')));
    expect(new Set(seen).size).toBe(6);
    const second = await issuesOf('?per_page=4&page=2');
    expect(second.body.meta).toMatchObject({ current_page: 2, total: 6, from: 5, to: 6 });
  });

  it("shows a URL's score history at GET /seo/reports?url=, newest first", async () => {
    const history = await api.call('GET', `/seo/reports?url=${encodeURIComponent('https://example.com/a')}`, inWorkspace(workspaceId));
    expect(history.status).toBe(200);
    expect(idsOf(history)).toEqual([reports[2]!.id, reports[0]!.id]);
    expect(history.body.meta.total).toBe(2);
    expect(history.body.data[0]).toEqual({
      id: reports[2]!.id,
      url: 'https://example.com/a',
      scores,
      issue_count: 1,
      issues_by_severity: { critical: 0, high: 1, medium: 0, low: 0, info: 0 },
      environment: 'live',
      workspace_id: workspaceId,
      created_at: expect.any(String),
    });
    const paged = await api.call('GET', `/seo/reports?per_page=1&url=https://example.com/a`, inWorkspace(workspaceId));
    expect(idsOf(paged)).toEqual([reports[2]!.id]);
    expect(idsOf(await api.call('GET', paged.body.links.next, inWorkspace(workspaceId)))).toEqual([reports[0]!.id]);
    const none = await api.call('GET', '/seo/reports?url=https://example.com/never', inWorkspace(workspaceId));
    expect([none.body.data, none.body.meta.total]).toEqual([[], 0]);
    const missing = await api.call('GET', '/seo/reports', inWorkspace(workspaceId));
    expect([missing.status, missing.body.error_code]).toEqual([400, 'MISSING_PARAMETER']);
    for (const url of ['', 'not-a-url', 'mailto:a@example.com']) {
      expect((await api.call('GET', `/seo/reports?url=${encodeURIComponent(url)}`, inWorkspace(workspaceId))).status).toBe(422);
    }
  });

  it("answers 404 for another tenant's workspace, as for one that does not exist", async () => {
    const other = await registerVerified(api, { name: 'Other', email: 'seo-other@example.com', password: 'another tenant here' });
    const theirs = (await api.call('GET', '/workspaces', as(other.session))).body.data[0].id;
    for (const [path, options] of [
      [`/seo/issues/${theirs}`, {}],
      ['/seo/issues/wks_01ARZ3NDEKTSV4RRFFQ69G5FAV', {}],
      [`/seo/issues/${workspaceId}`, as(other.session)],
    ] as const) {
      const answer = await api.call('GET', path, options);
      expect({ path, status: answer.status, code: answer.body.error_code }).toEqual({ path, status: 404, code: 'RESOURCE_NOT_FOUND' });
    }
    // The path names the workspace: another of one's own in X-Workspace-ID does not change it.
    const home = api.runner.bootstrap!.workspaceId;
    const named = await issuesOf('', { headers: { 'X-Workspace-ID': home } });
    expect(named.body.meta.total).toBe(6);
    expect((await issuesOf('', as(other.session, { headers: { 'X-Workspace-ID': theirs } }))).status).toBe(404);
  });

  it('keeps test reports apart: a test key sees and writes only test issues', async () => {
    const testKey = await keyOf(workspaceId, ['*'], 'test');
    const empty = await issuesOf('', { key: testKey });
    expect([empty.status, empty.body.meta.total]).toEqual([200, 0]);
    const sandboxed = await report(workspaceId, reportOf('https://example.com/a', [{ type: 'sandbox', severity: 'info' }]), testKey);
    expect(sandboxed.environment).toBe('test');
    expect(idsOf(await issuesOf('', { key: testKey }))).toEqual(sandboxed.issues.map((i: { id: string }) => i.id));
    expect((await issuesOf()).body.meta.total).toBe(6);
    const history = await api.call('GET', '/seo/reports?url=https://example.com/a', { key: testKey });
    expect(idsOf(history)).toEqual([sandboxed.id]);
  });

  it('goes with its workspace: a deleted workspace leaves no report, issue or count behind', async () => {
    const doomed = await workspaceOnTier('Doomed', 'pro');
    await report(doomed, reportOf('https://example.com/doomed', [{ type: 'image-alt', severity: 'high' }]));
    await report(doomed, reportOf('https://example.com/doomed', []), await keyOf(doomed, ['seo:write'], 'test'));
    expect((await api.call('DELETE', `/workspaces/${doomed}`)).status).toBe(204);
    const { seoReport, seoIssue, counter } = api.deps.db.entities;
    const [reportsLeft, issuesLeft] = await Promise.all([seoReport.scan.go({ pages: 'all' }), seoIssue.scan.go({ pages: 'all' })]);
    expect([...reportsLeft.data, ...issuesLeft.data].filter((item) => item.workspaceId === doomed)).toEqual([]);
    const { data: counters } = await counter.scan.go({ pages: 'all' });
    expect(counters.filter((c) => c.name.includes(doomed))).toEqual([]);
  });
});

describe('the seo_reports limit', () => {
  const limit = tiers.free.entitlements.seo_reports;

  it('never passes the monthly limit, racing or not; then 403 feature_limit_reached', async () => {
    const workspaceId = await workspaceOnTier('Free audits', 'free');
    const answers = await Promise.all(
      Array.from({ length: limit + 5 }, (_, i) =>
        api.call('POST', '/seo/report', inWorkspace(workspaceId, { body: reportOf(`https://example.com/race-${i}`) })),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(limit);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        error: 'feature_limit_reached',
        error_code: 'ENTITLEMENT_DENIED',
        feature: 'seo_reports',
        limit,
      });
    }
    const eleventh = await api.call('POST', '/seo/report', inWorkspace(workspaceId, { body: reportOf('https://example.com/late') }));
    expect([eleventh.status, eleventh.body.feature, eleventh.body.current_usage]).toEqual([403, 'seo_reports', limit]);
    expect(await seoReportsUsed(workspaceId)).toBe(limit);
    // A refused report left nothing behind.
    const late = await api.call('GET', '/seo/reports?url=https://example.com/late', inWorkspace(workspaceId));
    expect(late.body.meta.total).toBe(0);

    // Test reports count apart: a sandbox at its own limit leaves live untouched, and the other way round.
    const testKey = await keyOf(workspaceId, ['seo:write', 'entitlements:read'], 'test');
    expect(await seoReportsUsed(workspaceId, testKey)).toBe(0);
    expect((await report(workspaceId, reportOf('https://example.com/sandbox'), testKey)).environment).toBe('test');
    expect(await seoReportsUsed(workspaceId, testKey)).toBe(1);
    expect(await seoReportsUsed(workspaceId)).toBe(limit);
  });

  it('is counted by the service: clients may no longer report seo_reports', async () => {
    const recorded = await api.call('POST', '/entitlements/usage', { body: { feature: 'seo_reports', quantity: 1 } });
    expect([recorded.status, recorded.body.errors?.feature?.[0]]).toEqual([422, expect.stringContaining('counted by the service')]);
  });
});
