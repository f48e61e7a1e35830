import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../src/db/schema.js';
import type { AudienceMember, AudienceRole } from '../src/platform/audience.js';

/** "Does the feature's query admit this user to the object?", one per rule the panel shows. */
export interface RuleChecks {
  read(userId: number): Promise<boolean>;
  change(userId: number): Promise<boolean>;
  tick?(userId: number): Promise<boolean>;
}

/**
 * Asks each rule about every user of the database and holds the panel to the answers: its people
 * are exactly those the read query admits, and each one's role is the most the rules allow.
 */
export async function expectPanelAgreesWithRules(db: Kysely<Database>, panel: AudienceMember[], rules: RuleChecks): Promise<void> {
  const users = await db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
  const expected: Record<string, AudienceRole> = {};
  for (const user of users) {
    if (!(await rules.read(user.id))) continue;
    if (await rules.change(user.id)) expected[user.username] = 'change';
    else if (rules.tick && (await rules.tick(user.id))) expected[user.username] = 'tick';
    else expected[user.username] = 'read';
  }
  expect(Object.fromEntries(panel.map((member) => [member.username, member.role]))).toEqual(expected);
  expect(new Set(panel.map((member) => member.id)).size).toBe(panel.length);
}

/** The people of a page's panel as rendered: username and what they may do, in page order. */
export function panelRows(html: string): string[] {
  const section = /<section class="audience"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
  return [...section.matchAll(/<span class="audience-name">([^<]*)[\s\S]*?<span class="audience-role[^"]*">([^<]*)<\/span>/g)].map((match) => `${match[1]}: ${match[2]}`);
}
