import type { ListKind } from '../lists-sharing/views.js';

export const SHOPPING: ListKind = { base: '/shopping', name: 'shopping', plural: 'Shopping lists', noun: 'shopping list' };
