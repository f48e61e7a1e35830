/** A request URL split into its path and its query (with the `?`, or ''). */
export function splitUrl(url: string): [path: string, query: string] {
  const index = url.indexOf('?');
  return index === -1 ? [url, ''] : [url.slice(0, index), url.slice(index)];
}

/** The request's path, without its query. */
export function pathOf(url: string): string {
  const index = url.indexOf('?');
  return index === -1 ? url : url.slice(0, index);
}
