import { Template } from 'aws-cdk-lib/assertions';
import { deployedApp } from '../support/cdk-app.ts';

const functionsOf = (context: Record<string, unknown>) => {
  // No stack is bundled: the template is the same, and nag.test.ts bundles in its full synthesis.
  const { stack } = deployedApp({ 'aws:cdk:bundling-stacks': [], ...context });
  return Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function')).map((f) => f.Properties.Environment.Variables);
};

describe('upgrade_url', () => {
  it('is the upgradeUrl context value in every function, and the functions’ placeholder without it', () => {
    const given = functionsOf({ upgradeUrl: 'https://acme.test/pricing' });
    expect(given.length).toBeGreaterThan(5);
    for (const variables of given) expect(variables.UPGRADE_URL).toBe('https://acme.test/pricing');
    for (const variables of functionsOf({})) expect(variables.UPGRADE_URL).toBeUndefined();
  });

  it('refuses a value that is no URL at synthesis, naming it', () => {
    expect(() => functionsOf({ upgradeUrl: 'pricing page' })).toThrow('Invalid CDK context: upgradeUrl: must be a URL');
  });
});
