import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { llmsIndex } from '#core/docs/llms-text';
import { type OpenApiDocument, servedDocument } from '#core/docs/openapi-document';
import { docsRoot } from '#core/docs/return-path';
import { readOpenApi } from './openapi-file.ts';

/**
 * The document as served at a base URL, parsed once per process and each rendering kept per
 * base URL: parsing and writing 1.6 MB of YAML takes seconds, and the few base URLs of a
 * deployment repeat.
 */
let parsed: Promise<OpenApiDocument> | undefined;

/** The contact is this deployment's documentation, as the servers are this deployment. */
function contactAt(document: OpenApiDocument, baseUrl: string): OpenApiDocument {
  const info: OpenApiDocument['info'] & { contact?: { name?: string; url?: string } } = document.info;
  if (!info.contact) return document;
  const served: typeof info = { ...info, contact: { ...info.contact, url: `${baseUrl}${docsRoot}` } };
  return { ...document, info: served };
}

export const documentServedAt = async (baseUrl: string): Promise<OpenApiDocument> =>
  contactAt(servedDocument(await (parsed ??= readOpenApi().then((text) => parseYaml(text) as OpenApiDocument)), baseUrl), baseUrl);

const renderers = {
  json: (document: OpenApiDocument) => JSON.stringify(document),
  yaml: (document: OpenApiDocument) => stringifyYaml(document),
  llms: (document: OpenApiDocument, baseUrl: string) => llmsIndex(document, baseUrl),
};

const renderings = new Map<string, string>();
const renderingsKept = 8;

export async function renderedDocument(format: keyof typeof renderers, baseUrl: string): Promise<string> {
  const key = `${format} ${baseUrl}`;
  const kept = renderings.get(key);
  if (kept !== undefined) return kept;
  const text = renderers[format](await documentServedAt(baseUrl), baseUrl);
  if (renderings.size >= renderingsKept) renderings.delete(renderings.keys().next().value!);
  renderings.set(key, text);
  return text;
}
