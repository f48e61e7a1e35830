import { describe, expect, it } from 'vitest';
import { type ObjectKind, ObjectKinds } from './object-kinds.js';

// The registry of kinds of object: each kind once, from the feature that owns it.

const kind = (name: string): ObjectKind => ({
  kind: name,
  noun: 'notes.card_label',
  path: `/${name}/`,
  visible: () => {
    throw new Error('not read here');
  },
});

describe('ObjectKinds', () => {
  it('hands back the kinds registered, by name and in the order they came', () => {
    const kinds = new ObjectKinds();
    kinds.register(kind('note'));
    kinds.register(kind('todo'));
    expect(kinds.get('todo')?.path).toBe('/todo/');
    expect(kinds.get('shopping')).toBeUndefined();
    expect(kinds.all().map((registered) => registered.kind)).toEqual(['note', 'todo']);
  });

  it('refuses a kind registered twice', () => {
    const kinds = new ObjectKinds();
    kinds.register(kind('todo'));
    expect(() => kinds.register(kind('todo'))).toThrow(/twice/);
  });
});
