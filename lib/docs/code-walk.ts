import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository's root, whence every path here is named (`functions/api-keys/handlers.ts`). */
const root = fileURLToPath(new URL('../../', import.meta.url));

const core = 'functions/core/';
const entityFolder = 'functions/core/store/entities/';
/** The member of the ElectroDB service that is the table itself, for the writes no entity can express. */
const rawTableMember = 'table';
/**
 * Where one operation runs another, by file and name: dispatch (a batch's operations) and
 * the route invoker (an MCP tool call's, in the function that serves it). The walk stops
 * there: each operation's row lists what its own code reaches.
 */
const operationRunners = new Map([
  ['functions/core/http/dispatch.ts', 'dispatch'],
  ['functions/core/ports/route-invoker.ts', 'RouteInvoker'],
]);

/** Whether a declaration is an operation runner, or a member of one (`RouteInvoker.invoke`). */
function isRunner(declaration: ts.Declaration): boolean {
  const runner = operationRunners.get(pathOf(declaration.getSourceFile()));
  if (runner === undefined || ts.isSourceFile(declaration)) return false;
  const named = ts.isInterfaceDeclaration(declaration.parent) ? declaration.parent : declaration;
  return ts.getNameOfDeclaration(named)?.getText() === runner;
}

/**
 * ElectroDB as far as the walk needs it: which member of the service a name is
 * (`deps.db.entities.apiKey`, a transaction's `apiKey`). Every other package is read as
 * empty: their types tell the walk nothing, and inferring them (ElectroDB's above all) made
 * the map take several times as long, where its test must take seconds.
 */
const electroDb = `
export declare class Entity { constructor(schema: unknown, config?: unknown); [member: string]: any }
export declare class Service<E> {
  constructor(entities: E, config?: unknown);
  entities: E;
  transaction: { write(build: (entities: E) => unknown): any; get(build: (entities: E) => unknown): any };
  [member: string]: any;
}
export declare const createSchema: (schema: unknown) => any;
`;

/** A compiler host that reads the project's files and TypeScript's own declarations as they are, and packages as above. */
function lightHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile;
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (!fileName.includes('/node_modules/') || fileName.includes('/node_modules/typescript/lib/'))
      return read(fileName, languageVersion, ...rest);
    return ts.createSourceFile(fileName, fileName.includes('/node_modules/electrodb/') ? electroDb : 'export {};', languageVersion);
  };
  return host;
}

/** A file's path from the repository's root. */
const paths = new WeakMap<ts.SourceFile, string>();
export const pathOf = (file: ts.SourceFile): string => {
  let path = paths.get(file);
  if (path === undefined) paths.set(file, (path = relative(root, file.fileName)));
  return path;
};

/** A name that is a member of what comes before it (`deps.db.entities.apiKey`, `const { apiKey } = …`): resolving it takes the types. */
function isMemberName(name: ts.Identifier): boolean {
  const parent = name.parent;
  if (ts.isPropertyAccessExpression(parent)) return parent.name === name;
  return ts.isBindingElement(parent) && ts.isObjectBindingPattern(parent.parent) && (parent.propertyName ?? parent.name) === name;
}

/** What a piece of code reaches, following every value it names, across files. */
export interface Reach {
  /** Modules of the function folders (not core) that the code imports from. */
  helpers: Set<string>;
  /** The core modules the function folders' code imports from. */
  coreModules: Set<string>;
  /** The entity files of the ElectroDB entities it touches (`deps.db.entities.apiKey`, a transaction's `apiKey`). */
  entities: Set<string>;
  /** Other operations' handlers it names (a batch's operations). */
  operations: Set<string>;
  /** Whether it sends commands to the table itself, not through an entity (the pixel's rollups, the usage meter). */
  rawTable: boolean;
  /** Whether it runs other operations: those it names, or else the one its request names (a tool call). */
  runsOperations: boolean;
}

interface WalkOptions {
  /** Declarations in these files are not followed (the route tables, which the schema column shows). */
  stopAt?: (path: string) => boolean;
  /** Whether to follow the code into core, as for the entities; otherwise the walk stops at the core modules it names. */
  intoCore: boolean;
  /** Handlers by their node, each counted as an operation of its own rather than followed. */
  handlers?: ReadonlyMap<ts.Node, string>;
}

/**
 * The project's code with its types: the function folders' definitions and everything they
 * import. Made once per process, as the checker is what takes the time.
 */
export function codeOf(roots: readonly string[]) {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const options = { ...config.options, types: [], noEmit: true };
  const program = ts.createProgram(
    roots.map((path) => join(root, path)),
    options,
    lightHost(options),
  );
  const checker = program.getTypeChecker();

  const sourceFile = (path: string) => program.getSourceFile(join(root, path));

  /** The symbol a name stands for, through imports and re-exports. */
  function symbolOf(name: ts.Node): { symbol: ts.Symbol; imported: boolean } | undefined {
    let symbol = checker.getSymbolAtLocation(name);
    const parent = name.parent;
    if (parent && ts.isShorthandPropertyAssignment(parent) && parent.name === name)
      symbol = checker.getShorthandAssignmentValueSymbol(parent);
    // `const { apiKey } = deps.db.entities`: the property destructured, not the local it makes.
    if (parent && ts.isBindingElement(parent) && parent.name === name && ts.isObjectBindingPattern(parent.parent) && !parent.propertyName) {
      symbol = checker.getTypeAtLocation(parent.parent).getProperty((name as ts.Identifier).text);
    }
    if (!symbol) return undefined;
    const imported = (symbol.flags & ts.SymbolFlags.Alias) !== 0;
    return { symbol: imported ? checker.getAliasedSymbol(symbol) : symbol, imported };
  }

  /** The node to read for a declaration: a destructured name's whole declaration; nothing for a parameter or a module. */
  function unitOf(declaration: ts.Declaration): ts.Node | undefined {
    let node: ts.Node = declaration;
    while (ts.isBindingElement(node) || ts.isObjectBindingPattern(node) || ts.isArrayBindingPattern(node)) node = node.parent;
    if (ts.isParameter(node) || ts.isSourceFile(node) || ts.isModuleDeclaration(node)) return undefined;
    return node;
  }

  /** The entity file of a member of the ElectroDB service: `apiKey: new Entity(apiKeySchema, config)`. */
  function entityOf(declaration: ts.Declaration): string | undefined {
    if (!ts.isPropertyAssignment(declaration) || !ts.isNewExpression(declaration.initializer)) return undefined;
    const [schema] = declaration.initializer.arguments ?? [];
    const found = schema && ts.isIdentifier(schema) ? symbolOf(schema) : undefined;
    const file = found?.symbol.declarations?.[0]?.getSourceFile();
    return file && pathOf(file).startsWith(entityFolder) ? pathOf(file) : undefined;
  }

  /** `table.member`, where `table` is a constant object (a handlers table included): that member alone. */
  function memberOfConstant(access: ts.PropertyAccessExpression): ts.Node | undefined {
    if (!ts.isIdentifier(access.expression)) return undefined;
    const declaration = symbolOf(access.expression)?.symbol.valueDeclaration;
    if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer) return undefined;
    const table = objectLiteralIn(declaration.initializer);
    return table?.properties.find((property) => property.name && ts.isIdentifier(property.name) && property.name.text === access.name.text);
  }

  /** `parameter.member`, where the parameter is typed: the member's declarations, as its type states them. */
  function handedInMember(access: ts.PropertyAccessExpression): readonly ts.Declaration[] {
    if (!ts.isIdentifier(access.expression)) return [];
    const declaration = symbolOf(access.expression)?.symbol.valueDeclaration;
    if (!declaration || !ts.isParameter(declaration) || !declaration.type) return [];
    return checker.getTypeAtLocation(access.expression).getProperty(access.name.text)?.declarations ?? [];
  }

  let service: { members: Set<string>; files: Set<ts.SourceFile> } | undefined;
  /**
   * The members the walk resolves (the entities' names, the service's `table` and the route
   * invoker's methods), and the files that make the ElectroDB service. A member is resolved
   * through the type of what it is a member of, which is what costs, and only these tell the
   * walk something that naming the value did not.
   */
  function serviceOf(): { members: Set<string>; files: Set<ts.SourceFile> } {
    if (service) return service;
    const found = { members: new Set([rawTableMember]), files: new Set<ts.SourceFile>() };
    const find = (node: ts.Node) => {
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && entityOf(node)) {
        found.members.add(node.name.text);
        found.files.add(node.getSourceFile());
      }
      if (ts.isInterfaceDeclaration(node) && isRunner(node)) {
        for (const member of node.members) if (member.name && ts.isIdentifier(member.name)) found.members.add(member.name.text);
      }
      ts.forEachChild(node, find);
    };
    for (const file of program.getSourceFiles()) if (pathOf(file).startsWith('functions/')) find(file);
    service = found;
    return found;
  }

  /** The service's `table`: the table itself, not through an entity. */
  const isRawTable = (declaration: ts.Declaration) =>
    ts.isPropertyAssignment(declaration) &&
    declaration.name.getText() === rawTableMember &&
    serviceOf().files.has(declaration.getSourceFile());

  /** What one node names: each declaration with whether it was imported and from where, or a constant's member. */
  type Edge = { declaration: ts.Declaration; imported: boolean; fromCore: boolean } | { member: ts.Node };
  const edgesByUnit = new Map<ts.Node, Edge[]>();

  /** The edges of a unit, read once for every walk: the names inside it that lead out of it. */
  function edgesOf(unit: ts.Node): Edge[] {
    const known = edgesByUnit.get(unit);
    if (known) return known;
    const file = unit.getSourceFile();
    const fromCore = pathOf(file).startsWith(core);
    const inside = (node: ts.Node) => node.getSourceFile() === file && node.pos >= unit.pos && node.end <= unit.end;
    const edges: Edge[] = [];
    const read = (node: ts.Node): void => {
      // Types say what a value is, not what the code does.
      if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node)) return;
      if (ts.isPropertyAccessExpression(node)) {
        const member = memberOfConstant(node);
        if (member) {
          if (!inside(member)) edges.push({ member });
          return;
        }
        // A method of something handed in (`catalogue.visibleServers`): the module that declares it.
        for (const declaration of handedInMember(node)) edges.push({ declaration, imported: true, fromCore });
      }
      if (ts.isIdentifier(node) && (!isMemberName(node) || serviceOf().members.has(node.text))) {
        const found = symbolOf(node);
        for (const declaration of found?.symbol.declarations ?? []) {
          if (!inside(declaration)) edges.push({ declaration, imported: found!.imported, fromCore });
        }
      }
      ts.forEachChild(node, read);
    };
    read(unit);
    edgesByUnit.set(unit, edges);
    return edges;
  }

  /** Everything `starts` reach, following each value named to its declaration. */
  function walk(starts: readonly ts.Node[], options: WalkOptions): Reach {
    const reach: Reach = {
      helpers: new Set(),
      coreModules: new Set(),
      entities: new Set(),
      operations: new Set(),
      rawTable: false,
      runsOperations: false,
    };
    const seen = new Set<ts.Node>(starts);
    const queue = [...starts];
    const visit = (unit: ts.Node | undefined) => {
      if (!unit || seen.has(unit)) return;
      seen.add(unit);
      queue.push(unit);
    };

    const reached = ({ declaration, imported, fromCore }: Extract<Edge, { declaration: unknown }>) => {
      const path = pathOf(declaration.getSourceFile());
      if (!path.startsWith('functions/') || options.stopAt?.(path)) return;
      const entity = entityOf(declaration);
      if (entity) {
        reach.entities.add(entity);
        return;
      }
      if (isRawTable(declaration)) {
        reach.rawTable = true;
        return;
      }
      if (imported && !fromCore) (path.startsWith(core) ? reach.coreModules : reach.helpers).add(path);
      if (isRunner(declaration)) {
        reach.runsOperations = true;
        return;
      }
      if (path.startsWith(core) && !options.intoCore) return;
      const operation = options.handlers?.get(declaration);
      if (operation) reach.operations.add(operation);
      else visit(unitOf(declaration));
    };

    while (queue.length) {
      for (const edge of edgesOf(queue.shift()!)) {
        if (!('member' in edge)) reached(edge);
        else if (options.handlers?.has(edge.member)) reach.operations.add(options.handlers.get(edge.member)!);
        else visit(edge.member);
      }
    }
    return reach;
  }

  return { sourceFile, symbolOf, walk };
}

export type Code = ReturnType<typeof codeOf>;

/** The object literal a table is made of: as it is, or the last argument of the call that makes it (`handlersFor<…>()({ … })`). */
export function objectLiteralIn(expression: ts.Expression): ts.ObjectLiteralExpression | undefined {
  while (ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression) || ts.isParenthesizedExpression(expression))
    expression = expression.expression;
  if (ts.isObjectLiteralExpression(expression)) return expression;
  if (ts.isCallExpression(expression)) {
    const last = expression.arguments.at(-1);
    return last && ts.isObjectLiteralExpression(last) ? last : undefined;
  }
  return undefined;
}
