// Which usernames mix writing systems, and that the table of scripts covers every letter Node.js knows.
import { describe, expect, it } from 'vitest';
import { usernameSkeleton } from './lookalikes.js';
import { KNOWN_SCRIPTS, mixesScripts } from './scripts.js';

describe('mixesScripts', () => {
  it('lets one script through, with digits and signs, and Latin beside Chinese, Japanese or Korean', () => {
    for (const name of ['alice', 'олена', 'Ярина.К_1990', 'νίκος', 'محمد', 'דוד', '田中', 'たなか', 'タナカ田中', '김민준', 'tanaka田中さん', 'kim김민준', '12345', 'a@b.c+d-e']) {
      expect(mixesScripts(name), name).toBe(false);
    }
  });

  it('catches Latin with Cyrillic or Greek, Cyrillic with Greek, and foreign digits in a Latin name', () => {
    for (const name of ['\u0430lice', '\u0391lice', 'ол\u0065на', 'ν\u0069kos', 'олена\u03b1', 'ali\u0661', 'tanaka田中олена']) {
      expect(mixesScripts(name), name).toBe(true);
    }
  });

  it('knows the script of every letter, digit and mark of this Node.js', () => {
    const missing: string[] = [];
    for (let code = 0; code <= 0x10ffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      if (/[\p{L}\p{N}\p{M}]/u.test(char) && !KNOWN_SCRIPTS!.test(char)) missing.push(code.toString(16));
    }
    expect(missing).toEqual([]);
  });
});

describe('usernameSkeleton', () => {
  it('is one for names that show alike, in any case, and differs for names that do not', () => {
    expect(usernameSkeleton('\u0430\u0441\u0435')).toBe(usernameSkeleton('ace'));
    expect(usernameSkeleton('Ivan')).toBe(usernameSkeleton('lvan'));
    expect(usernameSkeleton('B0B')).toBe(usernameSkeleton('bob'));
    expect(usernameSkeleton('mode')).toBe(usernameSkeleton('rnode'));
    expect(usernameSkeleton('ＡＣＥ\u200b')).toBe(usernameSkeleton('ace'));
    expect(usernameSkeleton('олена')).not.toBe(usernameSkeleton('olena'));
    expect(usernameSkeleton('Émile')).not.toBe(usernameSkeleton('Emile'));
  });
});
