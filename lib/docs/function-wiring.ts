import ts from 'typescript';
import { type Code, objectLiteralIn, pathOf } from './code-walk.ts';

/** A property of an object literal by its name. */
const propertyNamed = (literal: ts.ObjectLiteralExpression, name: string) =>
  literal.properties.find((property) => property.name && ts.isIdentifier(property.name) && property.name.text === name);

/** How one function serves its routes, as its definition.ts wires them. */
export interface Wiring {
  folder: string;
  /** Each operation's handler: its key in a `handlersFor` table. */
  handlers: Map<string, ts.ObjectLiteralElementLike>;
  /** A function with no table (`serve`) handles every route with that one node. */
  serve?: ts.ObjectLiteralElementLike;
  /** Each operation's entry in the route table, with the table's defaults. */
  entries: Map<string, ts.Node[]>;
  tableFile: string;
}

/** A function's wiring, read from its `definition.ts`: the `handlers` table (or `serve`) and the `routes` table it names. */
export function wiringOf(code: Code, name: string): Wiring {
  const folder = `functions/${name}/`;
  const definition = code.sourceFile(`${folder}definition.ts`);
  if (!definition) throw new Error(`${folder}definition.ts is not in the program`);
  const properties = new Map<string, ts.ObjectLiteralElementLike>();
  const collect = (node: ts.Node) => {
    if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isIdentifier(node.name))
      properties.set(node.name.text, node);
    ts.forEachChild(node, collect);
  };
  collect(definition);

  /** What a variable holds, or what a function made by an arrow answers (`mcpHandlers(catalogue)`). */
  const heldBy = (expression: ts.Expression): ts.Expression | undefined => {
    const called = ts.isCallExpression(expression);
    const declaration = code.symbolOf(called ? expression.expression : expression)?.symbol.valueDeclaration;
    const initializer = declaration && ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined;
    if (!called) return initializer;
    return initializer && ts.isArrowFunction(initializer) && !ts.isBlock(initializer.body) ? initializer.body : undefined;
  };

  /** The object literal a definition's property names (`handlers: apiKeyHandlers`), or the call it makes. */
  const declared = (property: ts.ObjectLiteralElementLike | undefined) => {
    const value =
      property &&
      (ts.isShorthandPropertyAssignment(property) ? property.name : ts.isPropertyAssignment(property) ? property.initializer : undefined);
    return value && heldBy(value);
  };

  const handlers = new Map<string, ts.ObjectLiteralElementLike>();
  const addTable = (expression: ts.Expression | undefined) => {
    for (const property of (expression && objectLiteralIn(expression))?.properties ?? []) {
      if (ts.isSpreadAssignment(property)) {
        const spread = code.symbolOf(property.expression)?.symbol.valueDeclaration;
        if (spread && ts.isVariableDeclaration(spread)) addTable(spread.initializer);
      } else if (property.name && ts.isIdentifier(property.name)) handlers.set(property.name.text, property);
    }
  };
  addTable(declared(properties.get('handlers')));

  const table = declared(properties.get('routes'));
  if (!table || !ts.isCallExpression(table)) throw new Error(`${folder}definition.ts names no route table made by a call`);
  const defaults = table.arguments.filter(ts.isObjectLiteralExpression);
  const entries = new Map<string, ts.Node[]>();
  for (const list of table.arguments.filter(ts.isArrayLiteralExpression)) {
    for (const entry of list.elements.filter(ts.isObjectLiteralExpression)) {
      const id = propertyNamed(entry, 'operationId');
      if (id && ts.isPropertyAssignment(id) && ts.isStringLiteral(id.initializer)) entries.set(id.initializer.text, [entry, ...defaults]);
    }
  }
  return {
    folder,
    handlers,
    serve: handlers.size ? undefined : properties.get('serve'),
    entries,
    tableFile: pathOf(table.getSourceFile()),
  };
}
