import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseForm, textField } from './forms.js';
import { translate, translator } from './i18n/index.js';

// The form messages every feature shares: a key with the bound broken, said in the page's language.

const schema = z.object({ title: textField(5), note: textField(3, 0), code: textField(10, 3) });

describe('textField', () => {
  it('names the shared keys with their bounds', () => {
    const form = parseForm(schema, { title: '  ', note: 'abcd', code: 'ab' });
    expect(form.ok).toBe(false);
    if (form.ok) return;
    expect(form.errors).toEqual({
      title: [{ key: 'form.required', values: { min: 1 } }],
      note: [{ key: 'form.max_chars', values: { max: 3 } }],
      code: [{ key: 'form.min_chars', values: { min: 3 } }],
    });
    expect(parseForm(schema, { title: 7 }).ok).toBe(false);
    expect(parseForm(schema, { title: ' Soup ', note: '', code: 'abc' })).toEqual({ ok: true, data: { title: 'Soup', note: '', code: 'abc' } });
  });

  it('is said with each language’s plurals', () => {
    const uk = translator('uk');
    expect(translate(uk, { key: 'form.max_chars', values: { max: 5 } })).toBe('Не більше 5 символів.');
    expect(translate(uk, { key: 'form.max_chars', values: { max: 21 } })).toBe('Не більше 21 символу.');
    expect(translate(translator('en'), { key: 'form.max_chars', values: { max: 1 } })).toBe('Use at most 1 character.');
    expect(translate(uk, 'form.required')).toBe('Це поле обов’язкове.');
  });
});
