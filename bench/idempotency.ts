import { randomUUID } from 'node:crypto';
import type { BootstrapResult } from '#core/operations/bootstrap';
import { type Counters, tally } from './counters.ts';
import { expectStatus, send } from './http.ts';

/**
 * POST /workspaces with an Idempotency-Key, sequentially: each first request (it runs the
 * handler and stores the outcome) and then its repeat (the stored answer, replayed).
 */
export async function measureIdempotentReplay(baseUrl: string, bootstrap: BootstrapResult, counters: Counters, requests: number) {
  const [first, replay] = [tally(counters), tally(counters)];
  const headers = { Authorization: `Bearer ${bootstrap.apiKey}` };
  for (let i = 0; i < requests; i++) {
    const options = { body: { name: `Bench idempotent ${i}` }, headers: { ...headers, 'Idempotency-Key': randomUUID() } };
    await first.time(async () => expectStatus(await send('POST', `${baseUrl}/workspaces`, options), 201, 'POST /workspaces (first)'));
    await replay.time(async () => {
      const answer = expectStatus(await send('POST', `${baseUrl}/workspaces`, options), 201, 'POST /workspaces (repeat)');
      if (answer.headers['idempotent-replayed'] !== 'true') throw new Error('the repeat was not a replay');
    });
  }
  return { first: first.figures(), replay: replay.figures() };
}
