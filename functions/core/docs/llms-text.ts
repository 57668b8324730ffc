import { type OpenApiDocument, type Operation, operationsOf, type Parameter, serverUrl } from './openapi-document.ts';

/** Where an operation's Markdown page is served. */
const llmsPagePath = (operationId: string) => `/api/llms/${operationId}.md`;

const firstParagraph = (text = '') => text.split(/\n\s*\n/)[0]!.trim();

/**
 * `/api/llms.txt` (the llms.txt convention): the API's name, what it is, how to call it, and
 * a link per operation grouped by tag, for agents that read Markdown rather than run the
 * pages' JavaScript.
 */
export function llmsIndex(document: OpenApiDocument, baseUrl: string): string {
  const byTag = new Map<string, string[]>();
  for (const { method, path, operation } of operationsOf(document)) {
    const tag = operation.tags?.[0] ?? 'Other';
    const line =
      `- [${operation.operationId}](${baseUrl}${llmsPagePath(operation.operationId)}): \`${method} ${path}\` ${operation.summary ?? ''}`.trimEnd();
    byTag.set(tag, [...(byTag.get(tag) ?? []), line]);
  }
  const sections = [...byTag].map(([tag, lines]) => `## ${tag}\n\n${lines.join('\n')}`);
  return `# ${document.info.title}

> ${firstParagraph(document.info.description)}

Base URL: ${serverUrl(document.servers?.[0])}. Send an API key as \`Authorization: Bearer sk_test_…\` (a test key reaches test data only).
The whole contract: [OpenAPI (JSON)](${baseUrl}/api/openapi.json), [OpenAPI (YAML)](${baseUrl}/api/openapi.yaml).

${sections.join('\n\n')}
`;
}

function parameterOf(document: OpenApiDocument, parameter: { $ref: string } | Parameter): Parameter | undefined {
  if (!('$ref' in parameter)) return parameter;
  return document.components?.parameters?.[parameter.$ref.split('/').pop()!];
}

const typeOf = (schema: unknown) => {
  const s = schema as { type?: unknown; enum?: unknown[] } | undefined;
  return s?.enum ? s.enum.map(String).join(' | ') : String(s?.type ?? 'object');
};

const authOf = (operation: Operation) => {
  // A requirement names its schemes together (the session cookie with its XSRF header on a change): one credential each.
  const schemes = (operation.security ?? []).map((requirement) => Object.keys(requirement).join(' + ')).filter(Boolean);
  if (!schemes.length) return 'None: a public endpoint.';
  const scope = operation['x-required-scope'] ? ` Scope: \`${operation['x-required-scope']}\`.` : '';
  return `One of ${schemes.map((s) => `\`${s}\``).join(', ')}.${scope}`;
};

/** One operation as Markdown: what it does, who may call it, what it takes and answers, and a curl to start from. */
export function operationPage(document: OpenApiDocument, operationId: string): string | undefined {
  const found = operationsOf(document).find(({ operation }) => operation.operationId === operationId);
  if (!found) return undefined;
  const { method, path, operation, servers } = found;
  const url = `${serverUrl(servers[0])}${path}`;
  const parameters = (operation.parameters ?? []).flatMap((p) => parameterOf(document, p) ?? []);
  const parameterLines = parameters.map(
    (p) => `- \`${p.name}\` (${p.in}, ${typeOf(p.schema)}${p.required ? ', required' : ''})${p.description ? `: ${p.description}` : ''}`,
  );
  const body = operation.requestBody?.content;
  const responses = Object.entries(operation.responses ?? {}).map(([status, r]) => `- ${status}: ${r.description.split('\n')[0]}`);
  const secured = (operation.security ?? []).length > 0;
  const curl = [
    `curl -X ${method} '${url}'`,
    ...(secured ? [`  -H "Authorization: Bearer $API_KEY"`] : []),
    ...(body ? [`  -H 'Content-Type: ${Object.keys(body)[0]}'`, `  -d '{}'`] : []),
  ].join(' \\\n');
  return `# ${operation.operationId}

\`${method} ${path}\`

${operation.summary ?? ''}

${operation.description ?? ''}

## Authentication

${authOf(operation)}

## Parameters

${parameterLines.join('\n') || 'None.'}

## Request body

${
  body
    ? Object.entries(body)
        .map(([type, { schema }]) => `${type}:\n\n\`\`\`json\n${JSON.stringify(schema, null, 2)}\n\`\`\``)
        .join('\n\n')
    : 'None.'
}

## Responses

${responses.join('\n')}

## Example

\`\`\`sh
${curl}
\`\`\`
`.replace(/\n{3,}/g, '\n\n');
}
