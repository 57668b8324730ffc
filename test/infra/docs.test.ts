import { Template } from 'aws-cdk-lib/assertions';
import { nodejsBundling } from '#lib/bundling';
import { docsThrottle, stageThrottle } from '#lib/constructs/api';
import { docsReservedConcurrency } from '#lib/constructs/docs-routes';
import { docsResources } from '../../functions/docs/routes.ts';
import { deployedApp } from '../support/cdk-app.ts';

// No stack is bundled: the templates are the same.
const bundlingOff = { 'aws:cdk:bundling-stacks': [] };

describe('the documentation', () => {
  const { stack } = deployedApp(bundlingOff);
  const nested = stack.node.tryFindChild('Documentation') as import('aws-cdk-lib').NestedStack;
  const template = Template.fromStack(nested);

  it('is a nested stack of its own, so the main stack stays under 500 resources', () => {
    const main = Template.fromStack(stack).toJSON();
    expect(Object.keys(main.Resources).length).toBeLessThan(500);
    // Its own and the monitoring's (test/infra/monitoring.test.ts).
    Template.fromStack(stack).resourceCountIs('AWS::CloudFormation::Stack', 2);
  });

  it('has its function, which every method of its resources reaches without the authorizer', () => {
    template.resourceCountIs('AWS::Lambda::Function', 1);
    const paths = Object.values(template.findResources('AWS::ApiGateway::Resource')).map((r) => r.Properties.PathPart);
    expect(paths.sort()).toEqual(['docs', 'llms', 'llms.txt', 'openapi.json', 'openapi.yaml', '{proxy+}', '{proxy+}'].sort());
    for (const method of Object.values(template.findResources('AWS::ApiGateway::Method'))) {
      expect(method.Properties).toMatchObject({ HttpMethod: 'ANY', AuthorizationType: 'NONE' });
    }
  });

  it('may run only a few executions at once, and each of its public resources has its own throttle under the stage-wide one', () => {
    template.hasResourceProperties('AWS::Lambda::Function', { ReservedConcurrentExecutions: docsReservedConcurrency });
    const stage = Object.values(Template.fromStack(stack).findResources('AWS::ApiGateway::Stage'))[0]!;
    const settings = stage.Properties.MethodSettings as { HttpMethod: string; ResourcePath: string; ThrottlingRateLimit?: number }[];
    for (const resource of docsResources) {
      const setting = settings.find((s) => s.HttpMethod === '*' && s.ResourcePath === `/${`/${resource}`.replaceAll('/', '~1')}`);
      expect(setting?.ThrottlingRateLimit).toBe(docsThrottle.rateLimit);
    }
    expect(docsThrottle.rateLimit).toBeLessThan(stageThrottle.rateLimit);
  });

  it('carries openapi.yaml and the bundles beside the function', () => {
    const copies = nodejsBundling('docs').commandHooks!.afterBundling('/in', '/out');
    expect(copies).toContain('cp "/in/openapi.yaml" "/out/openapi.yaml"');
    expect(copies).toContain(
      'cp "/in/node_modules/@scalar/api-reference/dist/browser/standalone.js" "/out/docs-assets/scalar-standalone.js"',
    );
    expect(copies).toContain('cp "/in/node_modules/swagger-ui-dist/swagger-ui-bundle.js" "/out/docs-assets/swagger-ui-bundle.js"');
    expect(copies).toContain('cp "/in/node_modules/redoc/bundles/redoc.standalone.js" "/out/docs-assets/redoc.standalone.js"');
    expect(copies).toContain('cp "/in/functions/docs/browser/favicon.svg" "/out/docs-assets/favicon.svg"');
  });

  it('is not deployed with documentationEnabled off', () => {
    const off = deployedApp({ ...bundlingOff, documentationEnabled: false }).stack;
    expect(off.node.tryFindChild('Documentation')).toBeUndefined();
    Template.fromStack(off).resourceCountIs('AWS::CloudFormation::Stack', 1);
  });
});
