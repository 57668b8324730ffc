import { adminCli } from '#lib/admin/cli';

// The SDK's notice that its 2027 releases need Node 22 is noise for an operator.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

adminCli(process.argv.slice(2), { env: process.env, out: (line) => console.log(line), err: (line) => console.error(line) }).then(
  (status) => (process.exitCode = status),
);
