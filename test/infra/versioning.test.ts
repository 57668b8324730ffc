import { Template } from 'aws-cdk-lib/assertions';
import { deployedApp } from '../support/cdk-app.ts';

const functionsOf = (context: Record<string, unknown>) => {
  // No stack is bundled: the template is the same, and nag.test.ts bundles in its full synthesis.
  const { stack } = deployedApp({ 'aws:cdk:bundling-stacks': [], ...context });
  return Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function')).map((f) => f.Properties.Environment.Variables);
};

describe('deprecation and maintenance from CDK context', () => {
  it('give every function API_DEPRECATED_AT, API_SUNSET_AT, API_DEPRECATION_LINK and MAINTENANCE_MODE; none of the dates without them', () => {
    const given = functionsOf({
      deprecatedAt: '2027-01-31',
      sunsetAt: '2028-01-31T00:00:00Z',
      deprecationLink: 'https://acme.test/deprecations/v1',
      maintenanceMode: 'true',
    });
    expect(given.length).toBeGreaterThan(5);
    for (const variables of given) {
      expect(variables).toMatchObject({
        API_DEPRECATED_AT: '2027-01-31',
        API_SUNSET_AT: '2028-01-31T00:00:00Z',
        API_DEPRECATION_LINK: 'https://acme.test/deprecations/v1',
        MAINTENANCE_MODE: '1',
      });
    }
    for (const variables of functionsOf({})) {
      expect(variables.API_DEPRECATED_AT).toBeUndefined();
      expect(variables.MAINTENANCE_MODE).toBe('0');
    }
  });

  it('refuses a date that is not ISO 8601 at synthesis, naming it', () => {
    expect(() => functionsOf({ sunsetAt: 'next year' })).toThrow('Invalid CDK context: sunsetAt: must be an ISO 8601 date');
  });
});
