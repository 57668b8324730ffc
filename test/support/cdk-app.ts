import { createApp } from '../../bin/app.ts';

/**
 * The CDK app as a deployment with its sender configured builds it: the placeholder of
 * cdk.json would add a warning to every synthesis (test/infra/mail.test.ts covers it).
 * CloudFormation's own validation of the templates, a WASM engine that takes seconds to
 * start in each test file, is off unless `validated`: test/infra/template-validation.test.ts
 * runs it over the option sets the infra tests synthesize, and nag.test.ts over `cdk synth`'s.
 */
export const deployedApp = (context: Parameters<typeof createApp>[0] = {}, { validated = false } = {}) =>
  createApp({ mailFrom: 'Tenant API <no-reply@tenant-api.test>', ...context }, { builtinCloudFormationValidation: validated });
