// Secret params of a path are taken out of any log line that holds the path, in whatever form it is written.
import { describe, expect, it } from 'vitest';
import { SecretPaths } from './secret-paths.js';

const paths = new SecretPaths();
paths.add('/accounts/reset/:uidb64/:token/', ['token']);
paths.add('/invites/:group/:code/accept/', ['group', 'code']);

describe('secret paths in log lines', () => {
  it.each([
    ['{"msg":"request","path":"/accounts/reset/MTI/ab-Cd_e/"}', '{"msg":"request","path":"/accounts/reset/MTI/[redacted]/"}'],
    ['{"path":"/accounts/reset/MTI/ab-Cd_e"}', '{"path":"/accounts/reset/MTI/[redacted]"}'],
    ['Follow https://notes.example.com/accounts/reset/MTI/ab-Cd_e/ within 3 days', 'Follow https://notes.example.com/accounts/reset/MTI/[redacted]/ within 3 days'],
    ['at GET /accounts/reset/MTI/ab-Cd_e/?next=x and /accounts/reset/Mg/zz/', 'at GET /accounts/reset/MTI/[redacted]/?next=x and /accounts/reset/Mg/[redacted]/'],
    ['{"err":{"message":"bad \\"/accounts/reset/MTI/ab-Cd_e\\""}}', '{"err":{"message":"bad \\"/accounts/reset/MTI/[redacted]\\""}}'],
    ['/invites/7/s3cret/accept/', '/invites/[redacted]/[redacted]/accept/'],
  ])('%s', (line, redacted) => {
    expect(paths.redact(line)).toBe(redacted);
  });

  it('leaves other paths alone, and the fixed pages below the secret one', () => {
    for (const line of ['{"path":"/accounts/reset/done/"}', '{"path":"/accounts/password_reset/"}', '{"path":"/notes/42/"}']) {
      expect(paths.redact(line)).toBe(line);
    }
  });

  it('refuses a secret that is not a param of the path', () => {
    expect(() => new SecretPaths().add('/accounts/reset/:uidb64/:token/', ['tokn'])).toThrow('secretParams of /accounts/reset/:uidb64/:token/ names no param of its path: tokn');
  });
});
