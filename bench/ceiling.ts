// When a share of bare node may be reported. The ceiling is bare node:http asked by the same
// client (wrk) with the same requests in the same run: it is the server's limit only while the
// client can send much more than the app answers. Under three times the app's rate, the client may
// be what set the ceiling (a Node client did, near 10,000 requests a second here), and the share
// would flatter the app: it is refused, with the reason, instead of printed.

/** The client's ceiling must be at least this many times the app's rate for a share to count. */
export const CLIENT_HEADROOM = 3;

export type Share = { share: number; refused?: undefined } | { share?: undefined; refused: string };

const rate = (value: number) => Math.round(value).toLocaleString('en');

/** The app's rate as a share of the ceiling's, or why it is not reported. */
export function shareOfBare(appRps: number, ceilingRps: number): Share {
  if (!(appRps > 0) || !(ceilingRps > 0)) return { refused: `no share: a rate of ${rate(appRps)} against a ceiling of ${rate(ceilingRps)} req/s` };
  if (ceilingRps < CLIENT_HEADROOM * appRps) {
    return {
      refused:
        `no share: the client's ceiling (bare node:http through the same client) of ${rate(ceilingRps)} req/s is under ` +
        `${CLIENT_HEADROOM} times the app's ${rate(appRps)} req/s, so the client may be the limit`,
    };
  }
  return { share: appRps / ceilingRps };
}

/** "31.4% of bare", or the refusal. */
export function formatShare(appRps: number, ceilingRps: number): string {
  const { share, refused } = shareOfBare(appRps, ceilingRps);
  return refused ?? `${(share * 100).toFixed(1)}% of bare`;
}
