import type { ListKind } from '../lists-sharing/views.js';

export const SHOPPING: ListKind = { base: '/shopping', plural: 'Shopping lists', noun: 'shopping list' };
