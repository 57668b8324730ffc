import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/** README.md and every guide: the pages a reader follows links between. */
const pages = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

/** The text outside code blocks and inline code, where a `[…](…)` is a link. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsIn(path: string): Set<string> {
  const headings = readFileSync(path, 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .split('\n')
    .flatMap((line) => /^#{1,6} (.*)$/.exec(line)?.[1] ?? []);
  return new Set(headings.map((heading) => anchorOf(heading.replaceAll('`', ''))));
}

/** Every relative link of a page as `target` (a path from the repository's root) and `anchor`. */
function relativeLinks(page: string) {
  return [...prose(readFileSync(page, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((href) => !/^[a-z]+:/i.test(href))
    .map((href) => {
      const [path = '', anchor] = href.split('#');
      return { href, target: path ? normalize(join(dirname(page), path)) : page, anchor };
    });
}

describe('the links of README.md and docs/', () => {
  it.each(pages)('%s links only to files and headings that exist', (page) => {
    const broken = relativeLinks(page).filter(
      ({ target, anchor }) => !existsSync(target) || (anchor !== undefined && target.endsWith('.md') && !anchorsIn(target).has(anchor)),
    );
    expect(broken.map(({ href }) => href)).toEqual([]);
  });

  it('README.md links to every guide', () => {
    const linked = new Set(relativeLinks('README.md').map(({ target }) => target));
    expect(pages.filter((page) => page !== 'README.md' && !linked.has(page))).toEqual([]);
  });
});
