import { z } from 'zod';
import { msg } from '../../platform/i18n/index.js';

// What every kind's list form has: its title.

export const TITLE_MAX = 200;

/** A list's title: required, trimmed, at most TITLE_MAX characters. */
export const listTitle = z
  .string({ error: msg('lists.title_required') })
  .trim()
  .min(1, msg('lists.title_required'))
  .max(TITLE_MAX, msg('lists.title_max'));
