import type { Deps } from '#core/ports/deps';
import { registerVerified } from '../support/accounts.ts';
import { startTestApiWithDeps, type TestApi } from '../support/local-api.ts';
import { as } from '../support/sessions.ts';

/** Posts and categories over HTTP, through the local runner, against DynamoDB Local. */

let api: TestApi & { deps: Deps };
let home: string;
/** Keys of the bootstrap workspace: one without posts:read-content, a test key, one that may only read. */
let noContentKey: string;
let testKey: string;
let readOnlyKey: string;

async function keyWith(scopes: string[], extra: Record<string, unknown> = {}) {
  const made = await api.call('POST', '/api-keys', { body: { name: `scoped ${scopes.join(' ')}`, scopes, ...extra } });
  if (made.status !== 201) throw new Error(`making a key answered ${made.status} ${JSON.stringify(made.body)}`);
  return made.body.data.key as string;
}

beforeAll(async () => {
  api = await startTestApiWithDeps();
  home = api.runner.bootstrap!.workspaceId;
  noContentKey = await keyWith(['posts:read', 'posts:write', 'categories:read']);
  testKey = await keyWith(['*'], { environment: 'test' });
  readOnlyKey = await keyWith(['posts:read', 'posts:read-content']);
});
afterAll(() => api.stop());

async function createPost(body: Record<string, unknown>, key?: string) {
  const answer = await api.call('POST', '/posts', { key, body });
  if (answer.status !== 201) throw new Error(`creating a post answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

async function createCategory(name: string, key?: string) {
  const answer = await api.call('POST', '/categories', { key, body: { name } });
  if (answer.status !== 201) throw new Error(`creating a category answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

describe('posts', () => {
  it('creates a draft with a slug made from its title, and shows its content to a credential that may read it', async () => {
    const post = await createPost({ title: 'Hello, Wörld!', excerpt: 'First', content: '<p>Body</p>' });
    expect(post).toEqual({
      id: expect.stringMatching(/^post_[0-9A-HJKMNP-TV-Z]{26}$/),
      title: 'Hello, Wörld!',
      slug: 'hello-world',
      excerpt: 'First',
      content: '<p>Body</p>',
      status: 'draft',
      published_at: null,
      category_ids: [],
      created_at: expect.any(String),
      updated_at: post.created_at,
    });
    const again = await createPost({ title: 'Hello world' });
    expect(again.slug).toBe('hello-world-2');
  });

  it('hides content from a credential without posts:read-content, in answers, gets and lists alike', async () => {
    const made = await api.call('POST', '/posts', { key: noContentKey, body: { title: 'Secret body', content: 'hidden' } });
    expect(made.status).toBe(201);
    expect(made.body.data).not.toHaveProperty('content');
    const got = await api.call('GET', `/posts/${made.body.data.id}`, { key: noContentKey });
    expect(got.body.data).not.toHaveProperty('content');
    const listed = await api.call('GET', '/posts?per_page=100', { key: noContentKey });
    expect(listed.body.data.length).toBeGreaterThan(0);
    for (const item of listed.body.data) expect(item).not.toHaveProperty('content');
    expect((await api.call('GET', `/posts/${made.body.data.id}`)).body.data.content).toBe('hidden');
  });

  it('refuses a slug another post holds, naming it, and keeps slugs apart per environment', async () => {
    const first = await createPost({ title: 'Taken', slug: 'taken-slug' });
    const second = await api.call('POST', '/posts', { body: { title: 'Also', slug: 'taken-slug' } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error_code: 'DUPLICATE_RESOURCE', conflicting_field: 'slug', existing_resource_id: first.id });
    const other = await createPost({ title: 'Other' });
    const patched = await api.call('PATCH', `/posts/${other.id}`, { body: { slug: 'taken-slug' } });
    expect([patched.status, patched.body.conflicting_field]).toEqual([409, 'slug']);
    // The test environment has slugs of its own.
    expect((await createPost({ title: 'Taken', slug: 'taken-slug' }, testKey)).slug).toBe('taken-slug');
    // A slug given up is free again.
    expect((await api.call('PATCH', `/posts/${first.id}`, { body: { slug: 'moved-on' } })).status).toBe(200);
    expect((await api.call('PATCH', `/posts/${other.id}`, { body: { slug: 'taken-slug' } })).status).toBe(200);
  });

  it('publishes once: published_at is set the first time and kept by archive and publish again', async () => {
    const post = await createPost({ title: 'Lifecycle' });
    const published = await api.call('POST', `/posts/${post.id}/publish`);
    expect(published.status).toBe(200);
    expect(published.body.data.status).toBe('published');
    const at = published.body.data.published_at;
    expect(Date.parse(at)).toBeGreaterThan(0);
    const archived = await api.call('POST', `/posts/${post.id}/archive`);
    expect(archived.body.data).toMatchObject({ status: 'archived', published_at: at });
    const republished = await api.call('POST', `/posts/${post.id}/publish`);
    expect(republished.body.data).toMatchObject({ status: 'published', published_at: at });
    const draft = await api.call('PATCH', `/posts/${post.id}`, { body: { status: 'draft' } });
    expect(draft.body.data).toMatchObject({ status: 'draft', published_at: at });
  });

  it('answers bad input with a 4xx in the envelope', async () => {
    const cases: [unknown, number, string][] = [
      [{}, 422, 'title'],
      [{ title: 'x'.repeat(256) }, 422, 'title'],
      [{ title: '   ' }, 422, 'title'],
      [{ title: '\u200B\u0301' }, 422, 'title'],
      [{ title: 'ok', excerpt: 'x'.repeat(1001) }, 422, 'excerpt'],
      [{ title: 'ok', content: 'é'.repeat(51_201) }, 422, 'content'],
      [{ title: 'ok', status: 'live' }, 422, 'status'],
      [{ title: 'ok', slug: 'Not A Slug' }, 422, 'slug'],
      [{ title: 'ok', category_ids: ['cat_01ARZ3NDEKTSV4RRFFQ69G5FAV'] }, 422, 'category_ids'],
      [{ title: 'ok', category_ids: ['nope'] }, 422, 'category_ids.0'],
      [{ title: 'ok', unknown: true }, 422, ''],
      [{ title: 42 }, 422, 'title'],
    ];
    for (const [body, status, field] of cases) {
      const answer = await api.call('POST', '/posts', { body });
      expect({ body, status: answer.status }).toEqual({ body, status });
      expect(answer.body.error_code).toBe('VALIDATION_FAILED');
      if (field) expect(Object.keys(answer.body.errors)).toContain(field);
    }
    const huge = await api.call('POST', '/posts', { body: { title: 'huge', content: 'x'.repeat(300 * 1024) } });
    expect([huge.status, huge.body.error_code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect((await api.call('PATCH', '/posts/post_01ARZ3NDEKTSV4RRFFQ69G5FAV', { body: { title: 'x' } })).status).toBe(404);
    expect((await api.call('PATCH', '/posts/not-an-id', { body: { title: 'x' } })).status).toBe(422);
    const empty = await createPost({ title: 'Empty patch' });
    expect((await api.call('PATCH', `/posts/${empty.id}`, { body: {} })).status).toBe(422);
  });

  it('refuses a narrower credential with 403 naming the scope', async () => {
    const write = await api.call('POST', '/posts', { key: readOnlyKey, body: { title: 'no' } });
    expect([write.status, write.body.required_scope]).toEqual([403, 'posts:write']);
    const post = await createPost({ title: 'Undeletable' });
    const remove = await api.call('DELETE', `/posts/${post.id}`, { key: noContentKey });
    expect([remove.status, remove.body.required_scope]).toEqual([403, 'posts:delete']);
    const category = await api.call('POST', '/categories', { key: noContentKey, body: { name: 'no' } });
    expect([category.status, category.body.required_scope]).toEqual([403, 'categories:write']);
  });

  it('deletes a post with its slug, its index entries and its counts', async () => {
    const before = (await api.call('GET', '/posts')).body.meta.total;
    const post = await createPost({ title: 'Ephemeral zebra', slug: 'ephemeral' });
    expect((await api.call('GET', '/posts?search=zebra')).body.meta.total).toBe(1);
    expect((await api.call('DELETE', `/posts/${post.id}`)).status).toBe(204);
    expect((await api.call('GET', `/posts/${post.id}`)).status).toBe(404);
    expect((await api.call('DELETE', `/posts/${post.id}`)).status).toBe(404);
    expect((await api.call('GET', '/posts?search=zebra')).body.meta.total).toBe(0);
    expect((await api.call('GET', '/posts')).body.meta.total).toBe(before);
    expect((await createPost({ title: 'Reborn', slug: 'ephemeral' })).slug).toBe('ephemeral');
  });
});

describe('a page of large posts', () => {
  it('is refused with 422 naming per_page when it would not fit one answer, and served in smaller pages', async () => {
    const made = await api.call('POST', '/workspaces', { body: { name: 'Heavy posts' } });
    const headers = { 'X-Workspace-ID': made.body.data.id };
    // Quotes are escaped once in the JSON and again in Lambda's proxy result: 100 KB of them weigh 400 KB there.
    const content = '"'.repeat(100 * 1024);
    for (let n = 0; n < 14; n++)
      expect((await api.call('POST', '/posts', { headers, body: { title: `Heavy ${n}`, content } })).status).toBe(201);
    const all = await api.call('GET', '/posts?per_page=100', { headers });
    expect([all.status, Object.keys(all.body.errors)]).toEqual([422, ['per_page']]);
    const fewer = await api.call('GET', '/posts?per_page=5', { headers });
    expect([fewer.status, fewer.body.data.length, fewer.body.data[0].content.length]).toEqual([200, 5, content.length]);
    const without = await api.call('GET', '/posts?per_page=100&fields=title', { headers });
    expect([without.status, without.body.data.length]).toEqual([200, 14]);
  });
});

describe('categories', () => {
  it('links posts to categories, counts them, and includes them on request', async () => {
    const news = await createCategory('News');
    const tech = await createCategory('Tech & Science');
    expect(tech).toMatchObject({ slug: 'tech-science', post_count: 0, description: null });
    const post = await createPost({ title: 'Categorised', category_ids: [news.id, tech.id, news.id] });
    expect(post.category_ids).toEqual([news.id, tech.id]);
    expect((await api.call('GET', `/categories/${news.id}`)).body.data.post_count).toBe(1);
    const got = await api.call('GET', `/posts/${post.id}?include=categories`);
    expect(got.body.data.categories.map((c: { name: string }) => c.name)).toEqual(['News', 'Tech & Science']);
    const listed = await api.call('GET', '/posts?include=categories&per_page=100');
    expect(listed.body.data.find((p: { id: string }) => p.id === post.id).categories).toHaveLength(2);
    const trimmed = await api.call('GET', '/posts?include=categories&fields=title&per_page=100');
    expect(Object.keys(trimmed.body.data.find((p: { id: string }) => p.id === post.id)).sort()).toEqual(['categories', 'id', 'title']);
    expect((await api.call('GET', '/posts?fields=title,categories')).status).toBe(422);
    const moved = await api.call('PATCH', `/posts/${post.id}`, { body: { category_ids: [tech.id] } });
    expect(moved.body.data.category_ids).toEqual([tech.id]);
    expect((await api.call('GET', `/categories/${news.id}`)).body.data.post_count).toBe(0);
    expect((await api.call('GET', `/categories/${tech.id}`)).body.data.post_count).toBe(1);
    const inTech = await api.call('GET', `/posts?category_id=${tech.id}&per_page=100`);
    expect([inTech.body.data.map((p: { id: string }) => p.id), inTech.body.meta.total]).toEqual([[post.id], 1]);
    expect((await api.call('GET', `/posts?category_id=${news.id}`)).body.meta.total).toBe(0);
    expect((await api.call('GET', `/posts?category_id=${tech.id}&search=categorised`)).body.meta.total).toBe(1);
    expect((await api.call('GET', `/posts?category_id=${tech.id}&search=nowhere`)).body.meta.total).toBe(0);
    expect((await api.call('GET', '/posts?category_id=nope')).status).toBe(422);
  });

  it('refuses a category of another environment or workspace as unknown (422)', async () => {
    const testCategory = await createCategory('Test only', testKey);
    const refused = await api.call('POST', '/posts', { body: { title: 'x', category_ids: [testCategory.id] } });
    expect([refused.status, refused.body.errors.category_ids[0]]).toEqual([422, expect.stringContaining(testCategory.id)]);
  });

  it('deleting a category takes it out of its posts and leaves them otherwise as they were', async () => {
    const gone = await createCategory('Going');
    const kept = await createCategory('Staying');
    const posts = await Promise.all([1, 2, 3].map((n) => createPost({ title: `In two ${n}`, category_ids: [gone.id, kept.id] })));
    expect((await api.call('DELETE', `/categories/${gone.id}`)).status).toBe(204);
    expect((await api.call('GET', `/categories/${gone.id}`)).status).toBe(404);
    for (const post of posts) {
      const now = (await api.call('GET', `/posts/${post.id}`)).body.data;
      expect(now).toEqual({ ...post, category_ids: [kept.id] });
    }
    expect((await api.call('GET', `/categories/${kept.id}`)).body.data.post_count).toBe(3);
    // Its slug is free again, and linking to it is a 422.
    expect((await createCategory('Going')).slug).toBe('going');
    expect((await api.call('PATCH', `/posts/${posts[0].id}`, { body: { category_ids: [gone.id] } })).status).toBe(422);
  });

  it('updates a category and refuses a taken slug', async () => {
    const a = await createCategory('Alpha');
    await createCategory('Beta');
    const renamed = await api.call('PATCH', `/categories/${a.id}`, { body: { name: 'Alpha Two', description: 'More' } });
    expect(renamed.body.data).toMatchObject({ name: 'Alpha Two', slug: 'alpha', description: 'More' });
    const clash = await api.call('PATCH', `/categories/${a.id}`, { body: { slug: 'beta' } });
    expect([clash.status, clash.body.conflicting_field]).toEqual([409, 'slug']);
    const cleared = await api.call('PATCH', `/categories/${a.id}`, { body: { description: null } });
    expect(cleared.body.data.description).toBeNull();
  });
});

describe('search', () => {
  it('finds every post whose title or excerpt has words beginning with each term, ignoring case and accents', async () => {
    const made = [
      await createPost({ title: 'Crème Brûlée recipes', excerpt: 'A French dessert' }),
      await createPost({ title: 'Brulee at home', excerpt: 'Torch or grill' }),
      await createPost({ title: 'Dessert ideas', excerpt: 'crème anglaise and more' }),
      await createPost({ title: 'Unrelated', content: 'brulee only in the content' }),
      await createPost({ title: 'Beyond the BMP: 𠀀𠀁 and brûlées' }),
    ];
    const ids = async (search: string) =>
      (await api.call('GET', `/posts?search=${encodeURIComponent(search)}&per_page=100`)).body.data.map((p: { id: string }) => p.id);
    expect(await ids('BRULEE')).toEqual([made[0].id, made[1].id, made[4].id]);
    expect(await ids('brû')).toEqual([made[0].id, made[1].id, made[4].id]);
    expect(await ids('𠀀')).toEqual([made[4].id]);
    expect(await ids('creme dessert')).toEqual([made[0].id, made[2].id]);
    expect(await ids('dess')).toEqual([made[0].id, made[2].id]);
    expect(await ids('-crème brûl-')).toEqual([made[0].id]);
    expect(await ids('ulee')).toEqual([]);
    const page = await api.call('GET', '/posts?search=brulee&sort=-created_at&per_page=1');
    expect(page.body.data.map((p: { id: string }) => p.id)).toEqual([made[4].id]);
    expect(page.body.meta).toMatchObject({ total: 3, last_page: 3, window: null });
    expect(page.body.links.next).toContain('page=2');
    const refused = await api.call('GET', '/posts?search=a');
    expect([refused.status, Object.keys(refused.body.errors)]).toEqual([422, ['search']]);
  });

  it('counts every match however many, and combines with status over the matches', async () => {
    const posts = [];
    for (let n = 0; n < 30; n++) posts.push(await createPost({ title: `Numerous quokka ${n}`, status: n % 3 ? 'draft' : 'published' }));
    const all = await api.call('GET', '/posts?search=quokka&per_page=7&page=5');
    expect(all.body.meta).toMatchObject({ total: 30, current_page: 5, from: 29, to: 30 });
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual(posts.slice(28).map((p) => p.id));
    const published = await api.call('GET', '/posts?search=quokka&status=published&per_page=100');
    expect(published.body.meta).toMatchObject({ total: 10, window: { size: 1000, complete: true } });
    // Renaming a post moves it in the index.
    await api.call('PATCH', `/posts/${posts[0].id}`, { body: { title: 'Solitary wombat' } });
    expect((await api.call('GET', '/posts?search=quokka')).body.meta.total).toBe(29);
    expect((await api.call('GET', '/posts?search=wombat')).body.data.map((p: { id: string }) => p.id)).toEqual([posts[0].id]);
  });
});

describe('the largest change', () => {
  it('moves every category and every indexed word at once, keeping counts and index exact', async () => {
    const categories = await Promise.all(Array.from({ length: 20 }, (_, n) => createCategory(`Bulk ${n}`)));
    // 20 words in the title and 20 in the excerpt: the 40 a post is indexed by.
    const words = (tag: string, from: number) => Array.from({ length: 20 }, (_, n) => `${tag}${from + n}`).join(' ');
    const before = categories.slice(0, 10).map((c) => c.id);
    const after = categories.slice(10).map((c) => c.id);
    const post = await createPost({ title: words('alpha', 0), excerpt: words('alpha', 20), category_ids: before });
    const changed = await api.call('PATCH', `/posts/${post.id}`, {
      body: { title: words('omega', 0), excerpt: words('omega', 20), category_ids: after, slug: 'moved-in-bulk' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ category_ids: after, slug: 'moved-in-bulk' });
    // One change, one event, with the post as it ended, though it took two transactions.
    const { data: events } = await api.deps.db.entities.webhookEvent.scan.go({ pages: 'all' });
    const updates = events.filter((event) => event.type === 'post.updated' && JSON.parse(event.body).data.id === post.id);
    expect(updates.map((event) => JSON.parse(event.body).data)).toEqual([changed.body.data]);
    const count = async (search: string) => (await api.call('GET', `/posts?search=${search}`)).body.meta.total;
    expect([await count('alpha0'), await count('alpha39'), await count('omega0'), await count('omega39')]).toEqual([0, 0, 1, 1]);
    for (const category of categories) {
      const expected = after.includes(category.id) ? 1 : 0;
      expect((await api.call('GET', `/categories/${category.id}`)).body.data.post_count).toBe(expected);
    }
  });
});

describe('under contention', () => {
  it('gives racing creates each a slug of its own, never a 500', async () => {
    const [posts, categories] = await Promise.all([
      Promise.all(Array.from({ length: 15 }, () => api.call('POST', '/posts', { body: { title: 'Racing title' } }))),
      Promise.all(Array.from({ length: 15 }, () => api.call('POST', '/categories', { body: { name: 'Racing name' } }))),
    ]);
    for (const answers of [posts, categories]) {
      expect(answers.map((answer) => answer.status)).toEqual(Array(15).fill(201));
      expect(new Set(answers.map((answer) => answer.body.data.slug)).size).toBe(15);
    }
  });

  it('applies racing changes of one post one after another, never a 500', async () => {
    const post = await createPost({ title: 'Contended' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) => api.call('PATCH', `/posts/${post.id}`, { body: { title: `Contended ${n} kiwi${n}` } })),
    );
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    const final = (await api.call('GET', `/posts/${post.id}`)).body.data.title;
    const kiwi = final.split(' ')[2];
    // The index holds the last title's words only.
    for (let n = 0; n < 10; n++) {
      const found = (await api.call('GET', `/posts?search=kiwi${n}`)).body.meta.total;
      expect({ n, found }).toEqual({ n, found: `kiwi${n}` === kiwi ? 1 : 0 });
    }
  });

  it('never lets a racing rename put back a slug the category gave up', async () => {
    const category = await createCategory('Renamed under race');
    for (let round = 0; round < 5; round++) {
      const slug = `raced-${round}`;
      const answers = await Promise.all([
        api.call('PATCH', `/categories/${category.id}`, { body: { slug } }),
        api.call('PATCH', `/categories/${category.id}`, { body: { name: `Renamed ${round}` } }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect((await api.call('GET', `/categories/${category.id}`)).body.data).toMatchObject({ slug, name: `Renamed ${round}` });
      const clash = await api.call('POST', '/categories', { body: { name: 'Clash', slug } });
      expect(clash.status).toBe(409);
    }
  });

  it('refuses a big change whose slug is taken without changing anything', async () => {
    const categories = await Promise.all(Array.from({ length: 10 }, (_, n) => createCategory(`Refused ${n}`)));
    await createPost({ title: 'Holder', slug: 'held-slug' });
    const words = (tag: string) => Array.from({ length: 20 }, (_, n) => `${tag}${n}`).join(' ');
    const post = await createPost({ title: words('beta'), excerpt: words('gamma') });
    const refused = await api.call('PATCH', `/posts/${post.id}`, {
      body: { title: words('delta'), excerpt: words('epsilon'), slug: 'held-slug', category_ids: categories.map((c) => c.id) },
    });
    expect([refused.status, refused.body.conflicting_field]).toEqual([409, 'slug']);
    expect((await api.call('GET', `/posts/${post.id}`)).body.data).toEqual(post);
    for (const category of categories) expect((await api.call('GET', `/categories/${category.id}`)).body.data.post_count).toBe(0);
  });
});

describe('test mode and tenancy', () => {
  it('a test key sees and changes only test posts, which never count against live posts', async () => {
    const live = await createPost({ title: 'Live only' });
    const usage = async () => (await api.call('GET', '/entitlements/summary')).body.data.entitlements.posts.used;
    const liveUsed = await usage();
    const test = await createPost({ title: 'Test only' }, testKey);
    expect(await usage()).toBe(liveUsed);
    expect((await api.call('GET', `/posts/${live.id}`, { key: testKey })).status).toBe(404);
    expect((await api.call('PATCH', `/posts/${live.id}`, { key: testKey, body: { title: 'x' } })).status).toBe(404);
    expect((await api.call('GET', `/posts/${test.id}`)).status).toBe(404);
    const testList = await api.call('GET', '/posts?per_page=100', { key: testKey });
    expect(testList.body.data.map((p: { id: string }) => p.id)).toContain(test.id);
    expect(testList.body.data.map((p: { id: string }) => p.id)).not.toContain(live.id);
  });

  it("another tenant's ids are 404, in single routes and in a batch", async () => {
    const post = await createPost({ title: 'Mine alone' });
    const b = await registerVerified(api, { name: 'Tenant B', email: 'posts-b@example.com', password: 'tenant b password' });
    const bKey = (await api.call('POST', '/api-keys', as(b.session, { body: { name: 'b', scopes: ['*'] } }))).body.data.key;
    expect((await api.call('GET', `/posts/${post.id}`, { key: bKey })).status).toBe(404);
    expect((await api.call('POST', `/posts/${post.id}/publish`, { key: bKey })).status).toBe(404);
    const batch = await api.call('POST', '/resources/batch', {
      key: bKey,
      body: { operations: [{ action: 'update', id: post.id, data: { title: 'Taken over' } }] },
    });
    expect(batch.body.data[0]).toMatchObject({ index: 0, status: 404, error: { error_code: 'RESOURCE_NOT_FOUND' } });
    expect((await api.call('GET', `/posts/${post.id}`)).body.data.title).toBe('Mine alone');
    // B's X-Workspace-ID naming A's workspace is refused before anything is read.
    const named = await api.call('GET', '/posts', { key: bKey, headers: { 'X-Workspace-ID': home } });
    expect(named.status).toBe(403);
  });
});

describe('a deleted workspace', () => {
  it('takes its content with it', async () => {
    const made = await api.call('POST', '/workspaces', { body: { name: 'Short-lived' } });
    const workspaceId = made.body.data.id;
    const headers = { 'X-Workspace-ID': workspaceId };
    const category = (await api.call('POST', '/categories', { headers, body: { name: 'Doomed' } })).body.data;
    await api.call('POST', '/posts', { headers, body: { title: 'Doomed post', category_ids: [category.id] } });
    await api.call('POST', '/posts', { key: testKey, headers, body: { title: 'Doomed test post' } });
    const { data } = await api.deps.db.entities.post.scan.go({ pages: 'all' });
    expect(data.filter((post) => post.workspaceId === workspaceId)).toHaveLength(2);
    expect((await api.call('DELETE', `/workspaces/${workspaceId}`)).status).toBe(204);
    const { entities } = api.deps.db;
    type Scanned = { scan: { go(options: { pages: 'all' }): Promise<{ data: { workspaceId: string }[] }> } };
    const contentEntities = [entities.post, entities.category, entities.postWord, entities.postCategory, entities.contentSlug];
    const left = await Promise.all(
      (contentEntities as unknown as Scanned[]).map(async (entity) =>
        (await entity.scan.go({ pages: 'all' })).data.filter((item) => item.workspaceId === workspaceId),
      ),
    );
    expect(left.flat()).toEqual([]);
  });
});

describe('the posts entitlement', () => {
  it('parallel creates never pass the limit', async () => {
    const made = await api.call('POST', '/workspaces', { body: { name: 'Free posts', tier: 'free' } });
    const workspaceId = made.body.data.id;
    const headers = { 'X-Workspace-ID': workspaceId };
    const limit = (await api.call('GET', '/entitlements/summary', { headers })).body.data.entitlements.posts.limit;
    expect(limit).toBe(100);
    // Most of the allowance used already, by one batch (the free tier's 60 requests a minute); then more than is left, all at once.
    const operations = Array.from({ length: limit - 5 }, (_, n) => ({ action: 'create', data: { title: `Filler ${n}` } }));
    const filled = await api.call('POST', '/resources/batch', { headers, body: { operations } });
    expect(filled.body.meta).toEqual({ succeeded: limit - 5, failed: 0 });
    const racing = await Promise.all(
      Array.from({ length: 12 }, (_, n) => api.call('POST', '/posts', { headers, body: { title: `Racer ${n}` } })),
    );
    const statuses = racing.map((answer) => answer.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 403)).toHaveLength(7);
    const refused = racing.find((answer) => answer.status === 403)!;
    expect(refused.body).toMatchObject({ error: 'feature_limit_reached', feature: 'posts' });
    expect((await api.call('GET', '/posts', { headers })).body.meta.total).toBe(limit);
    // A delete makes room for one more.
    const one = (await api.call('GET', '/posts?per_page=1', { headers })).body.data[0];
    expect((await api.call('DELETE', `/posts/${one.id}`, { headers })).status).toBe(204);
    expect((await api.call('POST', '/posts', { headers, body: { title: 'Room again' } })).status).toBe(201);
  });
});
