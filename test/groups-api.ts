import type { User } from '../src/db/schema.js';
import { ApiClient, type ApiResponse, createToken } from './api.js';
import { type TestApp, createGroup, createUser } from './helpers.js';

export interface Caller {
  user: User;
  /** With a read-write token. */
  api: ApiClient;
  /** With a read-only token of the same user. */
  readOnly: ApiClient;
}

export async function apiCaller(t: TestApp, user?: User): Promise<Caller> {
  const who = user ?? (await createUser(t.db));
  return {
    user: who,
    api: new ApiClient(t.app, { token: await createToken(t.db, who, 'write') }),
    readOnly: new ApiClient(t.app, { token: await createToken(t.db, who, 'read') }),
  };
}

/** An owner, a member and a stranger around one group, each with tokens. */
export async function groupCast(t: TestApp) {
  const owner = await apiCaller(t);
  const member = await apiCaller(t);
  const stranger = await apiCaller(t);
  const group = await createGroup(t.db, owner.user, [member.user]);
  return { owner, member, stranger, group };
}

/** The user ids of a group's members, ascending. */
export async function memberIds(t: TestApp, groupId: number): Promise<number[]> {
  const rows = await t.db.selectFrom('group_members').select('user_id').where('group_id', '=', groupId).orderBy('user_id').execute();
  return rows.map((row) => row.user_id);
}

/** The `error` of an API error answer (`{"error": {"code", "message", "fields"?}}`). */
export function errorOf(response: ApiResponse): { code: string; message: string; fields?: Record<string, string[]> } {
  return response.data.error as unknown as { code: string; message: string; fields?: Record<string, string[]> };
}

/** The per-field messages of a 400. */
export function fieldsOf(response: ApiResponse): Record<string, string[]> {
  return errorOf(response).fields ?? {};
}
