import { AwsSolutionsChecks } from 'cdk-nag';
import { deployedApp } from '../support/cdk-app.ts';

// cdk-nag 3 reports through CDK's policy validation, not through annotations: synthesis
// fails on any finding. Running the pack directly lists the findings by rule and path.
const { app } = deployedApp({}, { validated: true });

describe('cdk-nag', () => {
  it('AWS Solutions checks find nothing that is not acknowledged with a reason', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    const findings = report.violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(findings).toEqual([]);
  });

  it('the app runs the checks on synthesis and passes them', () => {
    expect(() => app.synth()).not.toThrow();
  });
});
