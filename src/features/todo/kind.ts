import type { ListKind } from '../lists-sharing/views.js';

export const TODO: ListKind = { base: '/todo', name: 'todo', plural: 'To-do lists', noun: 'to-do list' };
