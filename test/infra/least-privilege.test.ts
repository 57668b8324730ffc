import { NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { functionDefinitions } from '../../functions/definitions.ts';
import { type FunctionName, functionNames } from '../../lib/bundling.ts';
import { deployedApp } from '../support/cdk-app.ts';
import { type TableAction, type TableCalls, tableCallDifferences, tableCallsOf } from '../support/table-calls.ts';

// No stack is bundled: the policies are the same; the derivation bundles each function itself.
const { stack } = deployedApp({ 'aws:cdk:bundling-stacks': [] });
const docsStack = stack.node.findAll().find((c): c is NestedStack => NestedStack.isNestedStack(c) && c.node.id === 'Documentation')!;
const templates = new Map<Stack, Template>();
const templateOf = (of: Stack) => templates.get(of) ?? templates.set(of, Template.fromStack(of)).get(of)!;

/** The stream's actions, which the fan-out's event source grants on the stream (lib/constructs/webhooks.ts), not on the table. */
const streamActions = new Set(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams']);

type Json = Record<string, unknown>;
const asList = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);

/** Where a statement's resource points: `table`, an index's name, or the resource itself as JSON (never expected). */
function resourceOf(resource: unknown): string {
  const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (join) {
    const [first, ...rest] = join[1];
    const tail = rest.join('');
    const index = /^\/index\/(\w+)$/.exec(tail);
    if (resourceOf(first) === 'table' && index) return index[1]!;
    return JSON.stringify(resource);
  }
  const getAtt = (resource as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'];
  if (getAtt?.[1] === 'Arn' && getAtt[0].startsWith('DataTable')) return 'table';
  const ref = (resource as { Ref?: string }).Ref;
  if (ref && /^referenceto.*DataTable.*Arn$/.test(ref)) return 'table';
  return JSON.stringify(resource);
}

/** The DynamoDB actions the function's role holds, by resource, from the synthesized template. */
function grantedTableCalls(name: FunctionName): TableCalls {
  const template = templateOf(name === 'docs' ? docsStack : stack);
  const functions = template.findResources('AWS::Lambda::Function');
  const prefix = `${name.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase())}Function`;
  const [fn] = Object.entries(functions).filter(([id]) => id.startsWith(prefix));
  if (!fn) throw new Error(`no function ${name} in the template`);
  const roleId = (fn[1].Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const granted: Record<string, Set<TableAction>> = {};
  for (const policy of Object.values(template.findResources('AWS::IAM::Policy'))) {
    if (!asList(policy.Properties.Roles as Json[]).some((role) => role.Ref === roleId)) continue;
    for (const statement of policy.Properties.PolicyDocument.Statement as Json[]) {
      const actions = asList(statement.Action as string | string[]).filter((a) => a.startsWith('dynamodb:') && !streamActions.has(a));
      for (const resource of asList(statement.Resource)) {
        for (const action of actions) (granted[resourceOf(resource)] ??= new Set()).add(action.replace('dynamodb:', '') as TableAction);
      }
    }
  }
  return Object.fromEntries(Object.entries(granted).map(([resource, actions]) => [resource, [...actions].sort()]));
}

describe('least privilege on the table', () => {
  it.each(functionNames)("%s's role may do on the table exactly what its code does", async (name) => {
    const derived = await tableCallsOf(name);
    expect(tableCallDifferences(derived, grantedTableCalls(name))).toEqual({ missing: [], extra: [] });
  });

  it('no role may Scan, nor name every index', () => {
    for (const name of functionNames) {
      const granted = grantedTableCalls(name);
      expect(Object.values(granted).flat()).not.toContain('Scan');
      expect(Object.keys(granted).every((resource) => resource === 'table' || /^gsi\d$/.test(resource))).toBe(true);
    }
  });

  it('the functions that declare no table get no table action', () => {
    const tableless = functionNames.filter((name) => functionDefinitions[name].table === false);
    expect(tableless).toEqual(['mcp-protocol']);
    for (const name of tableless) expect(grantedTableCalls(name)).toEqual({});
  });

  it('the comparison fails on a grant missing an action and on one with an action too many', () => {
    const derived: TableCalls = { table: ['GetItem', 'UpdateItem'], gsi1: ['Query'] };
    expect(tableCallDifferences(derived, { table: ['GetItem'], gsi1: ['Query'] })).toEqual({ missing: ['table:UpdateItem'], extra: [] });
    expect(tableCallDifferences(derived, { table: ['GetItem', 'Scan', 'UpdateItem'], gsi1: ['Query'], gsi2: ['Query'] })).toEqual({
      missing: [],
      extra: ['gsi2:Query', 'table:Scan'],
    });
  });
});
