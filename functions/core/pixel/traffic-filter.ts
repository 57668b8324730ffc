import { isbot } from 'isbot';
import { spamReferrers } from './spam-referrers.ts';

/**
 * What is not counted, before anything is: crawlers and other automated clients (isbot's
 * patterns, headless browsers among them), automation frameworks that announce themselves,
 * an absent user agent, and referrer spam.
 */
const automation = /headless|phantomjs|puppeteer|playwright|selenium|webdriver|electron|lighthouse|pingdom/i;

export function isAutomated(userAgent: string): boolean {
  return userAgent.trim() === '' || isbot(userAgent) || automation.test(userAgent);
}

const spam = new Set(spamReferrers);

/** Whether a referrer host is spam: one of the list, or a subdomain of one. */
export function isSpamReferrer(host: string | undefined): boolean {
  if (!host) return false;
  const labels = host.split('.');
  return labels.some((_, i) => spam.has(labels.slice(i).join('.')));
}
