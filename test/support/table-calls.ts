import { join, relative } from 'node:path';
import ts from 'typescript';
import { type FunctionName, projectRoot } from '#lib/bundling';
import { unminifiedBundle } from './unminified-bundles.ts';

/*
 * What a function's code does on the table, read from its deployed bundle with the TypeScript
 * checker (entity methods and document-client commands, by what they send), for the
 * least-privilege test to hold against its `tableAccess`. It may over-state, as a bundled
 * statement counts whole, but never under-states: a call it cannot classify is an error.
 */

export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'Scan'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

/** Actions by resource: `table`, or an index's name. Each list sorted, for comparison. */
export type TableCalls = Record<string, TableAction[]>;

const entityClasses = new Set(['Entity', 'TransactWriteEntity', 'TransactGetEntity']);
/** Entity members that build or parse but send nothing. */
const sendsNothing = new Set(['parse', 'schema', 'setIdentifier', 'setTableName', 'getTableName', 'setClient', 'client', 'model']);

const commands: Record<string, TableAction | 'raw-query'> = {
  GetCommand: 'GetItem',
  BatchGetCommand: 'BatchGetItem',
  TransactGetCommand: 'GetItem',
  PutCommand: 'PutItem',
  UpdateCommand: 'UpdateItem',
  DeleteCommand: 'DeleteItem',
  BatchWriteCommand: 'BatchWriteItem',
  ScanCommand: 'Scan',
  QueryCommand: 'raw-query',
};

let program: ts.Program | undefined;
function checkerProgram(): ts.Program {
  if (program) return program;
  const config = ts.getParsedCommandLineOfConfigFile(
    join(projectRoot, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const sources = config.fileNames.filter((file) => relative(projectRoot, file).startsWith('functions/'));
  program = ts.createProgram(sources, config.options);
  return program;
}

/**
 * The project's files with part of them in the bundle, and which top-level names: an unminified
 * build marks each file's statements; a file esbuild wraps lazily counts whole (`all`).
 */
async function bundledSources(name: FunctionName): Promise<Map<string, Set<string> | 'all'>> {
  const { text } = await unminifiedBundle(name);
  const sources = new Map<string, Set<string> | 'all'>();
  for (const [, path] of text.matchAll(/^[ \t]+\/\/ (functions\/\S+\.ts)$/gm)) sources.set(join(projectRoot, path!), 'all');
  for (const [, path, body] of text.matchAll(/^\/\/ (functions\/\S+\.ts)\n([\s\S]*?)(?=^\/\/ \S+\.[cm]?[jt]s\n|(?![\s\S]))/gm)) {
    const file = join(projectRoot, path!);
    const names = sources.get(file) ?? new Set<string>();
    if (names === 'all') continue;
    for (const [, , declared] of body!.matchAll(/^(async function\*? |function\*? |var |let |const |class )(\w+)/gm)) {
      names.add(declared!.replace(/\d+$/, ''));
    }
    sources.set(file, names);
  }
  return sources;
}

/** The names a top-level statement declares; none for one that declares nothing (it runs when its file is bundled). */
function declaredNames(statement: ts.Statement): string[] {
  if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) return [statement.name.text];
  if (ts.isVariableStatement(statement))
    return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  return [];
}

/** The function's calls on the table, as its bundled code makes them. */
export async function tableCallsOf(name: FunctionName): Promise<TableCalls> {
  const sources = await bundledSources(name);
  const found = new Map<string, Set<TableAction>>();
  const add = (resource: string, action: TableAction) => {
    if (!found.has(resource)) found.set(resource, new Set());
    found.get(resource)!.add(action);
  };
  const rawQueries: string[] = [];
  let rawQuery = false;
  const prog = checkerProgram();
  const checker = prog.getTypeChecker();
  for (const [file, bundledNames] of sources) {
    const source = prog.getSourceFile(file);
    if (!source) throw new Error(`${file} is bundled but not in the program`);
    const where = (node: ts.Node) => `${relative(projectRoot, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) {
        const schemas = entitySchemas(checker, node.expression);
        if (schemas) {
          const call = classify(checker, node, schemas, where(node));
          if (call) add(call.resource, call.action);
        }
      }
      if (ts.isNewExpression(node) && isDynamoDbExport(checker, node.expression)) {
        const command = node.expression.getText();
        // The client itself (`new DynamoDBClient`) sends nothing.
        const action = command.endsWith('Command') ? commands[command] : 'no-call';
        if (action === 'raw-query') rawQuery = true;
        else if (action && action !== 'no-call') add('table', action);
        else if (!action) throw new Error(`${where(node)}: ${command} is not a command this derivation knows`);
      }
      if (ts.isObjectLiteralExpression(node) && hasProperty(node, 'KeyConditionExpression'))
        rawQueries.push(rawQueryTarget(node, where(node)));
      ts.forEachChild(node, visit);
    };
    for (const statement of source.statements) {
      const names = declaredNames(statement);
      const bundled = bundledNames === 'all' || !names.length || names.some((n) => bundledNames.has(n.replace(/\d+$/, '')));
      if (bundled) visit(statement);
    }
  }
  if (rawQuery) {
    if (!rawQueries.length) throw new Error(`${name}: a raw QueryCommand is bundled, but no query input literal says where it reads`);
    for (const resource of rawQueries) add(resource, 'Query');
  }
  return Object.fromEntries(
    [...found].sort(([a], [b]) => a.localeCompare(b)).map(([resource, actions]) => [resource, [...actions].sort()]),
  );
}

/** The schema types of the entities an expression may be (several for an entity picked by name), or undefined for no entity. */
function entitySchemas(checker: ts.TypeChecker, expression: ts.Expression): ts.Type[] | undefined {
  const type = checker.getTypeAtLocation(expression);
  const constraint = checker.getBaseConstraintOfType(type) ?? type;
  const members = constraint.isUnion() ? constraint.types : [constraint];
  const schemas = members.flatMap((member) => {
    const symbol = member.getSymbol();
    const fromElectro = symbol?.declarations?.some((d) => d.getSourceFile().fileName.includes('/node_modules/electrodb/'));
    if (!symbol || !fromElectro || !entityClasses.has(symbol.getName())) return [];
    return [checker.getTypeArguments(member as ts.TypeReference)[3]!];
  });
  if (schemas.length && schemas.length !== members.length) throw new Error(`${expression.getText()} is an entity only sometimes`);
  return schemas.length ? schemas : undefined;
}

/** What `<entity>.<member>` sends: a call's action, or nothing for a member that sends none. */
function classify(
  checker: ts.TypeChecker,
  access: ts.PropertyAccessExpression,
  schemas: ts.Type[],
  where: string,
): { resource: string; action: TableAction } | undefined {
  const member = access.name.text;
  if (sendsNothing.has(member)) return undefined;
  if (member === 'scan') return { resource: 'table', action: 'Scan' };
  if (member === 'query') {
    const pattern = ts.isPropertyAccessExpression(access.parent) ? access.parent.name.text : undefined;
    if (!pattern) throw new Error(`${where}: a query whose access pattern is not named`);
    const indexes = new Set(schemas.map((schema) => indexOf(checker, schema, pattern, where)));
    if (indexes.size !== 1) throw new Error(`${where}: ${pattern} is on several indexes, depending on the entity`);
    return { resource: [...indexes][0]!, action: 'Query' };
  }
  // Through a cast to the call: `(entity.get as (key: unknown) => ...)(key)`.
  let callee: ts.Expression = access;
  while (ts.isParenthesizedExpression(callee.parent) || ts.isAsExpression(callee.parent)) callee = callee.parent;
  const call = callee.parent;
  if (!ts.isCallExpression(call) || call.expression !== callee) throw new Error(`${where}: ${member} of an entity, not called`);
  const [first] = call.arguments;
  const batch = first !== undefined && (ts.isArrayLiteralExpression(first) || checker.isArrayType(checker.getTypeAtLocation(first)));
  switch (member) {
    case 'get':
      return { resource: 'table', action: batch ? 'BatchGetItem' : 'GetItem' };
    case 'put':
    case 'create':
      return { resource: 'table', action: batch ? 'BatchWriteItem' : 'PutItem' };
    case 'delete':
    case 'remove':
      return { resource: 'table', action: batch ? 'BatchWriteItem' : 'DeleteItem' };
    case 'update':
    case 'patch':
    case 'upsert':
      return { resource: 'table', action: 'UpdateItem' };
    case 'check':
      return { resource: 'table', action: 'ConditionCheckItem' };
    default:
      throw new Error(`${where}: the entity method ${member} is not one this derivation knows`);
  }
}

/**
 * The index an access pattern reads, as the entity's schema declares it: `index: 'gsi1'`, or
 * the table for none. Read from the declaration, since the schema's type widens it to string.
 */
function indexOf(checker: ts.TypeChecker, schema: ts.Type, pattern: string, where: string): string {
  const indexes = schema.getProperty('indexes');
  const definition = indexes && checker.getTypeOfSymbol(indexes).getProperty(pattern);
  const declaration = definition?.valueDeclaration;
  if (!declaration || !ts.isPropertyAssignment(declaration)) throw new Error(`${where}: no access pattern ${pattern} declared`);
  const literal = objectLiteralOf(checker, declaration.initializer);
  if (!literal) throw new Error(`${where}: the access pattern ${pattern} is not an object literal`);
  const index = literal.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'index');
  if (!index) return 'table';
  if (ts.isPropertyAssignment(index) && ts.isStringLiteralLike(index.initializer)) return index.initializer.text;
  throw new Error(`${where}: the index of ${pattern} is not a string literal`);
}

/** The object literal an expression is, through `as const` and named constants (`prunableIndex`). */
function objectLiteralOf(checker: ts.TypeChecker, expression: ts.Expression): ts.ObjectLiteralExpression | undefined {
  if (ts.isObjectLiteralExpression(expression)) return expression;
  if (ts.isAsExpression(expression) || ts.isParenthesizedExpression(expression) || ts.isSatisfiesExpression(expression))
    return objectLiteralOf(checker, expression.expression);
  if (!ts.isIdentifier(expression)) return undefined;
  let symbol = checker.getSymbolAtLocation(expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration;
  return declaration && ts.isVariableDeclaration(declaration) && declaration.initializer
    ? objectLiteralOf(checker, declaration.initializer)
    : undefined;
}

function isDynamoDbExport(checker: ts.TypeChecker, expression: ts.Expression): boolean {
  let symbol = checker.getSymbolAtLocation(expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return !!symbol?.declarations?.some((d) => /\/node_modules\/@aws-sdk\/(lib|client)-dynamodb\//.test(d.getSourceFile().fileName));
}

const hasProperty = (literal: ts.ObjectLiteralExpression, name: string) =>
  literal.properties.some((p) => p.name && ts.isIdentifier(p.name) && p.name.text === name);

/** Where a raw query input reads: its `IndexName` (a string literal), or the table. */
function rawQueryTarget(literal: ts.ObjectLiteralExpression, where: string): string {
  const index = literal.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'IndexName');
  if (!index) return 'table';
  if (ts.isPropertyAssignment(index) && ts.isStringLiteralLike(index.initializer)) return index.initializer.text;
  throw new Error(`${where}: a raw query's IndexName that is not a string literal`);
}

/** What `granted` allows beyond `derived` (extra) and what `derived` needs that `granted` lacks (missing), as `<resource>:<action>`. */
export function tableCallDifferences(derived: TableCalls, granted: TableCalls): { missing: string[]; extra: string[] } {
  const pairs = (calls: TableCalls) =>
    new Set(Object.entries(calls).flatMap(([resource, actions]) => actions.map((a) => `${resource}:${a}`)));
  const [need, have] = [pairs(derived), pairs(granted)];
  return { missing: [...need].filter((p) => !have.has(p)).sort(), extra: [...have].filter((p) => !need.has(p)).sort() };
}
