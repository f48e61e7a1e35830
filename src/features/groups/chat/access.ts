import type { SessionStore } from '../../../platform/chain/session.js';
import type { ChatConnection } from './connections.js';
import type { GroupsRepository } from '../repository.js';

const CHUNK = 500;

function chunks<T>(items: T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) result.push(items.slice(start, start + CHUNK));
  return result;
}

/**
 * Finds the open connections whose session ended or whose membership is gone, in a few
 * batched queries: events normally close those at once, this catches any that were missed.
 */
export function lostAccessCheck(sessions: SessionStore, groups: GroupsRepository) {
  return async <C extends Pick<ChatConnection, 'sessionKey' | 'groupId' | 'userId'>>(open: C[]): Promise<C[]> => {
    const liveKeys = new Set<string>();
    for (const keys of chunks([...new Set(open.map((c) => c.sessionKey))])) {
      for (const key of await sessions.liveKeys(keys)) liveKeys.add(key);
    }
    const usersByGroup = new Map<number, Set<number>>();
    for (const c of open) {
      let users = usersByGroup.get(c.groupId);
      if (!users) usersByGroup.set(c.groupId, (users = new Set()));
      users.add(c.userId);
    }
    const memberships = new Set<string>();
    for (const [groupId, users] of usersByGroup) {
      for (const userIds of chunks([...users])) {
        for (const pair of await groups.existingMemberships([groupId], userIds)) memberships.add(pair);
      }
    }
    return open.filter((c) => !liveKeys.has(c.sessionKey) || !memberships.has(`${c.groupId}:${c.userId}`));
  };
}
