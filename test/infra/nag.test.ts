import { AwsSolutionsChecks } from 'cdk-nag';
import { functionNames } from '#lib/bundling';
import { deployedApp } from '../support/cdk-app.ts';

// The CDK writes "Bundling asset <path>..." to stderr for each function it bundles: caught
// here, where it is expected, so that it does not read as a problem in `npm test`'s output.
const bundled: string[] = [];
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
  if (String(chunk).startsWith('Bundling asset ')) return bundled.push(String(chunk).trim()) > 0;
  return write(chunk, ...rest);
}) as typeof process.stderr.write;
// cdk-nag 3 reports through CDK's policy validation, not through annotations: synthesis
// fails on any finding. Running the pack directly lists the findings by rule and path.
const { app } = deployedApp({}, { validated: true });
process.stderr.write = write;

describe('cdk-nag', () => {
  it('runs over the stack as deployed, every function bundled', () => {
    expect(bundled).toHaveLength(functionNames.length);
  });

  it('AWS Solutions checks find nothing that is not acknowledged with a reason', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    const findings = report.violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(findings).toEqual([]);
  });

  it('the app runs the checks on synthesis and passes them', () => {
    expect(() => app.synth()).not.toThrow();
  });
});
