import { createApp } from '../../bin/app.ts';

/**
 * The CDK app as a deployment with its sender configured builds it: the placeholder of
 * cdk.json would add a warning to every synthesis (test/infra/mail.test.ts covers it).
 */
export const deployedApp = (context: Parameters<typeof createApp>[0] = {}) =>
  createApp({ mailFrom: 'Tenant API <no-reply@tenant-api.test>', ...context });
