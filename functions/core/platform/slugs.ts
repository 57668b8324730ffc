import { foldedText } from './text-folding.ts';

/** The longest slug made from a name; a client's own slug may be longer (each resource's schema says). */
const generatedSlugLength = 48;

/** A URL-safe slug of a name: accents dropped, lower case, runs of anything else one hyphen; `fallback` when nothing is left. */
export function slugify(name: string, fallback: string): string {
  const slug = foldedText(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, generatedSlugLength)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** The first of `base`, `base-2`, `base-3` ... not among `taken`. */
export function firstFree(base: string, taken: ReadonlySet<string>): string {
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`;
  return candidate;
}
