// The SDK warns once per process that Node 20 support ends in 2027; Lambda runs Node 22.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/**
 * Drops the SDK's "socket usage at capacity" warning, which tests that race hundreds of
 * requests on purpose provoke; every other warning still prints.
 */
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].startsWith('@smithy/node-http-handler:WARN - socket usage at capacity')) return;
  warn(...args);
};
