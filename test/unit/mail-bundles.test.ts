import { build } from 'esbuild';
import { esbuildOptions, functionNames } from '#lib/bundling';

/** Only the functions that send mail hold the SES client: the others, the authorizer above all, stay small. */
describe('which bundles hold the SES mailer', () => {
  const mailing = ['users', 'sessions'];

  it.each(functionNames)('%s', async (name) => {
    const result = await build({ ...esbuildOptions(name, `/tmp/mail-bundles-${name}.mjs`), write: false, metafile: true, minify: false });
    const inputs = Object.keys(result.metafile.inputs);
    // The authorizer leaves @aws-sdk/* to the runtime: there the client would be an external import.
    const externals = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
    const holdsSes = [...inputs, ...externals].some((path) => path.includes('@aws-sdk/client-sesv2'));
    expect({ holdsSes, mailer: inputs.includes('functions/core/mail/ses-mailer.ts') }).toEqual({
      holdsSes: mailing.includes(name),
      mailer: mailing.includes(name),
    });
  });
});
