import * as z from 'zod/mini';
import { timestamp } from '#core/platform/common-schemas';
import { environments } from '#core/platform/environments';
import { describe, withMeta } from '#core/platform/schema-meta';
import { multiLine, singleLine } from '#core/platform/text-rules';
import { seoSeverities } from '#core/store/entities/seo-severity';
import { maxSeoUrlLength, seoUrlProblem } from './seo-urls.ts';

/** The most issues one report may carry: with the report, its counters and its event, one transaction holds them all. */
const maxIssuesPerReport = 50;

/** An audited page's URL: a fresh schema each time, as each use describes it its own way. */
const auditedUrl = () =>
  z.string().check(
    singleLine(),
    z.minLength(1, 'is required'),
    z.maxLength(maxSeoUrlLength, `must be at most ${maxSeoUrlLength} characters`),
    z.superRefine((text, ctx) => {
      const problem = seoUrlProblem(text);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  );

const url = describe(
  auditedUrl(),
  'The audited page: an absolute http:// or https:// URL, without user name or password. Stored normalised (lower-case scheme and host, no fragment).',
);

const score = z.number().check(z.gte(0, 'must be between 0 and 100'), z.lte(100, 'must be between 0 and 100'));

const scores = describe(
  z.strictObject({ performance: score, accessibility: score, best_practices: score, seo: score }),
  'The four category scores, each a number from 0 to 100 (as Lighthouse shows them); all four are required.',
);

const severity = describe(z.enum(seoSeverities), `How serious the issue is: ${seoSeverities.join(', ')} (most serious first).`);

const reportedIssue = z.strictObject({
  type: describe(
    z.string().check(singleLine(), z.minLength(1, 'is required'), z.maxLength(100, 'must be at most 100 characters')),
    'What kind of issue: a Lighthouse audit id such as `image-alt` or `meta-description`, or your own name.',
  ),
  severity,
  element: describe(
    z.optional(z.string().check(multiLine(), z.maxLength(1000, 'must be at most 1000 characters'))),
    'Where on the page: a CSS selector or an HTML snippet.',
  ),
  message: describe(
    z.optional(z.string().check(multiLine(), z.maxLength(1000, 'must be at most 1000 characters'))),
    'What is wrong, in words (an audit title or explanation).',
  ),
});

export const createSeoReportBody = z.strictObject({
  url,
  scores,
  issues: describe(
    z._default(z.array(reportedIssue).check(z.maxLength(maxIssuesPerReport, `must hold at most ${maxIssuesPerReport} issues`)), []),
    `The issues the audit found, at most ${maxIssuesPerReport}; default none.`,
  ),
});

export const seoIssue = withMeta(
  z.object({
    id: z.string(),
    report_id: describe(z.string(), 'The report that found it.'),
    url: z.string(),
    issue_type: z.string(),
    severity: z.enum(seoSeverities),
    details: describe(
      z.object({ element: z.nullable(z.string()), message: z.nullable(z.string()) }),
      'Where the issue is (`element`: a CSS selector or an HTML snippet) and what the audit said of it (`message`); null when the report did not say.',
    ),
    environment: z.enum(environments),
    created_at: timestamp,
  }),
  { id: 'SeoIssue', description: 'One issue of an SEO report, as GET /seo/issues/{workspace_id} lists it.' },
);

const scoresView = z.object({ performance: z.number(), accessibility: z.number(), best_practices: z.number(), seo: z.number() });
const severityCount = z.int().check(z.gte(0));

export const seoReportSummary = withMeta(
  z.object({
    id: z.string(),
    url: z.string(),
    scores: scoresView,
    issue_count: z.int().check(z.gte(0)),
    issues_by_severity: describe(
      z.object({ critical: severityCount, high: severityCount, medium: severityCount, low: severityCount, info: severityCount }),
      'How many of its issues have each severity.',
    ),
    environment: z.enum(environments),
    workspace_id: z.string(),
    created_at: timestamp,
  }),
  { id: 'SeoReportSummary', description: "An SEO report as its URL's score history lists it: its scores and the count of its issues." },
);

export const seoReport = withMeta(z.extend(seoReportSummary, { issues: z.array(seoIssue) }), {
  id: 'SeoReport',
  description: 'An SEO report with its issues, as POST /seo/report answers it and `seo.report_created` carries it.',
});

export const seoReportsQueryUrl = describe(auditedUrl(), 'The URL whose reports to list, as reported (it is normalised as reports are).');
