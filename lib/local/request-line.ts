import type { Server } from 'node:http';

/**
 * The local runner's short request log, one line per answered request:
 * `GET /api/v1/workspaces 200 12 ms`. The path stays as sent, minus its query string,
 * which may carry a key or a search a user would rather not see on screen.
 */
export function printRequestLines(server: Server, print: (line: string) => void): void {
  server.on('request', (req, res) => {
    const started = performance.now();
    res.once('finish', () => {
      const path = (req.url ?? '/').split('?')[0];
      print(`${req.method} ${path} ${res.statusCode} ${Math.round(performance.now() - started)} ms`);
    });
  });
}
