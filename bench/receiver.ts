import { arrivals } from './arrivals.ts';
import { listen } from './servers.ts';

export interface Receiver {
  /** The base URL; endpoints add a path of their own. */
  url: string;
  /** Signed POSTs received so far, and the wait for a number of them. */
  requests: ReturnType<typeof arrivals>;
  /** Requests that were not signed POSTs: must stay 0. */
  unsigned(): number;
  stop(): Promise<void>;
}

/**
 * A webhook receiver that answers every request at once with 200 and a two-byte body, in
 * this process: the fastest endpoint the machine offers, so that delivery figures measure
 * the sender's side. It counts a request once its body has arrived.
 */
export async function startReceiver(): Promise<Receiver> {
  const requests = arrivals();
  let unsigned = 0;
  const server = await listen((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 2 }).end('ok');
      if (req.method === 'POST' && req.headers['x-webhook-signature'] && req.headers['webhook-signature']) requests.add();
      else unsigned++;
    });
  }, '');
  return { url: server.url, requests, unsigned: () => unsigned, stop: server.stop };
}
