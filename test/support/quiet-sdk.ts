// The SDK warns once per process that Node 20 support ends in 2027; Lambda runs Node 22.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/**
 * Tests that race hundreds of requests on purpose (usage-meter.test.ts meters 400 at once)
 * queue them behind the SDK client's 50 sockets, and the SDK then warns, after 3 s, that
 * its "socket usage" is "at capacity": what the test does, not a fault, yet it reads as one
 * in `npm test`'s output. Only that warning is dropped; every other one still prints.
 */
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].startsWith('@smithy/node-http-handler:WARN - socket usage at capacity')) return;
  warn(...args);
};
