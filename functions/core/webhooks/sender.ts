import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { responseExcerptBytes } from './delivery-history.ts';

/** One POST to a receiver. */
export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** WEBHOOK_ALLOW_INSECURE: `http://` and loopback or private addresses are let through (local use only). */
  allowInsecure: boolean;
}

/** What came of a send: the receiver's status and the start of its answer, or why there was none. */
export interface SendResult {
  statusCode?: number;
  responseExcerpt?: string;
  error?: string;
  /** True when the send was refused before any request (a scheme or an address not allowed): trying again changes nothing. */
  refused?: boolean;
  responseTimeMs: number;
}

/** Names the sender in receivers' logs and firewalls. */
const userAgent = 'tenant-api-webhooks/1';

/** How request-filtering-agent words its refusal of an address ("... is not allowed. Because, It is private IP address."). */
const refusedAddress = /is not allowed\. Because/;

/**
 * What is recorded and answered instead of the agent's words, which name the address a
 * host resolved to: shown to the tenant, they would map the resolver's private zones.
 */
const refusedAddressError = "The URL's host resolves to an address that is not public; refused.";

type Agents = { http: RequestFilteringHttpAgent; https: RequestFilteringHttpsAgent };
const agents = new Map<boolean, Agents>();

/**
 * The agents that refuse loopback, private, link-local, CGNAT and metadata addresses. They
 * check the address actually connected to, after DNS, so a name that resolves (or is made
 * to resolve, DNS rebinding) to such an address fails at send time whatever it resolved to
 * when the endpoint was saved. Node's global fetch is not guarded this way, so it is never used here.
 */
function agentsFor(allowInsecure: boolean): Agents {
  let made = agents.get(allowInsecure);
  if (!made) {
    const options = { allowPrivateIPAddress: allowInsecure, allowMetaIPAddress: false };
    made = { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
    agents.set(allowInsecure, made);
  }
  return made;
}

/** Reads at most `limit` bytes of an answer, then lets the rest go. */
function excerptOf(response: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => resolve(Buffer.concat(chunks).subarray(0, limit).toString('utf8'));
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) {
        response.destroy();
        finish();
      }
    });
    response.on('end', finish);
    response.on('error', reject);
  });
}

/**
 * Sends one POST and reports what happened; it never throws. Redirects are not followed
 * (node:http never does): a 3xx comes back as the status it is. The whole exchange, up to
 * the excerpt, must finish within `timeoutMs`.
 */
export async function send(req: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { error: 'The endpoint URL is not a valid URL.', refused: true, responseTimeMs: 0 };
  }
  const schemes = req.allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    return { error: `The endpoint URL must use https (got ${url.protocol}).`, refused: true, responseTimeMs: 0 };
  const { http, https } = agentsFor(req.allowInsecure);
  const call = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const agent = url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    const outgoing = call(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...req.headers, 'User-Agent': userAgent, 'Content-Length': String(Buffer.byteLength(req.body)) },
      },
      (response) => {
        excerptOf(response, responseExcerptBytes).then(
          (excerpt) => settle({ statusCode: response.statusCode, responseExcerpt: excerpt, responseTimeMs: elapsed() }),
          (error: Error) =>
            settle({ statusCode: response.statusCode, error: `The answer broke off: ${error.message}`, responseTimeMs: elapsed() }),
        );
      },
    );
    const timer = setTimeout(() => outgoing.destroy(new Error(`timed out after ${req.timeoutMs} ms`)), req.timeoutMs);
    let settled = false;
    function settle(result: SendResult) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    }
    outgoing.on('error', (error) =>
      settle(
        refusedAddress.test(error.message)
          ? { error: refusedAddressError, refused: true, responseTimeMs: elapsed() }
          : { error: `The request failed: ${error.message}`, responseTimeMs: elapsed() },
      ),
    );
    outgoing.end(req.body);
  });
}
