import { readFileSync, writeFileSync } from 'node:fs';

/** The repository's root, whence the guides' paths are named. */
const root = new URL('../../', import.meta.url);

const pattern = (name: string) => new RegExp(`(<!-- ${name}:[^\\n]*-->\\n)([\\s\\S]*?)(\\n<!-- /${name} -->)`);

/**
 * The text between `<!-- name: … -->` and `<!-- /name -->` in a guide: what `npm run docs`
 * (or the bench) wrote there, for a test to compare with what it would write now.
 */
export function generatedSection(file: string, name: string): string | undefined {
  return pattern(name).exec(readFileSync(new URL(file, root), 'utf8'))?.[2];
}

/** Replaces a guide's generated section with `content`, the rest of the file left as it is. */
export function rewriteGeneratedSection(file: string, name: string, content: string): void {
  const path = new URL(file, root);
  const text = readFileSync(path, 'utf8');
  if (!pattern(name).test(text)) throw new Error(`${file} has no <!-- ${name}: ... --> section`);
  writeFileSync(
    path,
    text.replace(pattern(name), (_match, start: string, _old: string, end: string) => start + content + end),
  );
}
