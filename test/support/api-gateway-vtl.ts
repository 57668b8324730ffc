import velocity from 'velocityjs';

/** A request as a MOCK integration's response template sees it. */
export interface MappedRequest {
  httpMethod: string;
  headers: Record<string, string>;
  pathParameters: Record<string, string>;
  requestId: string;
  requestTime: string;
}

/** What the template made of it: the body, and the status and headers it overrode. */
export interface MappedAnswer {
  body: string;
  status?: number;
  headers: Record<string, string>;
}

/** commons-lang's StringEscapeUtils.escapeJavaScript, which API Gateway's $util.escapeJavaScript is: `'` and `/` escaped too. */
const escapeJavaScript = (text: string) =>
  JSON.stringify(text)
    .slice(1, -1)
    .replace(/'/g, "\\'")
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);

/** The methods of java.lang.String the templates call, where JavaScript's differ or do not exist. */
const javaStringMethods: Record<string, (text: string, ...args: never[]) => unknown> = {
  length: (text) => text.length,
  // Java's replace is literal and replaces every occurrence.
  replace: (text, target: string, replacement: string) => text.split(target).join(replacement),
};

/**
 * Renders a response mapping template as API Gateway's Velocity would (velocityjs, with
 * Java's String methods where they differ), for the request given.
 */
export function renderMapping(template: string, request: MappedRequest): MappedAnswer {
  const responseOverride: { status?: number; header: Record<string, string> } = { header: {} };
  const header = { keySet: () => Object.keys(request.headers), get: (name: string) => request.headers[name] };
  const path = { get: (name: string) => request.pathParameters[name] };
  const body = velocity.render(
    template,
    {
      context: { httpMethod: request.httpMethod, requestId: request.requestId, requestTime: request.requestTime, responseOverride },
      input: { params: () => ({ header, path }) },
      util: { escapeJavaScript },
    },
    undefined,
    {
      customMethodHandlers: [
        {
          uid: 'java-string',
          match: ({ property, context }) => typeof context === 'string' && property in javaStringMethods,
          resolve: ({ property, params, context }) => javaStringMethods[property]!(context as string, ...(params as never[])),
        },
      ],
    },
  );
  return { body: body.trim(), status: responseOverride.status, headers: responseOverride.header };
}
