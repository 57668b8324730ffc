/**
 * The absolute URLs of other pages of the same list: the client's own URL and query, with
 * `per_page` as applied (a clamped value is echoed clamped) and either `page` or `cursor`.
 */
export function listUrls(url: URL, perPage: number) {
  const with_ = (name: 'page' | 'cursor', value: string) => {
    const other = new URL(url);
    if (other.searchParams.has('per_page')) other.searchParams.set('per_page', String(perPage));
    other.searchParams.delete(name === 'page' ? 'cursor' : 'page');
    other.searchParams.set(name, value);
    return other.toString();
  };
  return {
    page: (page: number) => with_('page', String(page)),
    cursor: (cursor: string) => with_('cursor', cursor),
  };
}
