/** Django's ALLOWED_HOSTS matching: exact names, `*`, or `.example.com` for the domain and its subdomains. */
export function isAllowedHost(hostHeader: string | undefined, allowedHosts: string[]): boolean {
  if (!hostHeader) return false;
  const host = hostHeader.toLowerCase().replace(/:\d+$/, '');
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/.test(host)) return false;
  return allowedHosts.some((pattern) => {
    if (pattern === '*') return true;
    if (pattern.startsWith('.')) return host === pattern.slice(1) || host.endsWith(pattern);
    return host === pattern;
  });
}
