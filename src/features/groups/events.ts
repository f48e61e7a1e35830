// The hub events groups send: chat sockets, live lists and the bell close or re-check on them.

declare module '../../platform/hub/hub.js' {
  interface HubEvents {
    /**
     * These members left or were removed: their sockets of the group close. `unshared`: what they
     * had shared with the group and took out of it (kind and id), whose sockets re-check.
     */
    'group.members_removed': { groupId: number; userIds: number[]; unshared?: { kind: string; id: number }[] };
    /** The group is gone: every socket of it closes. */
    'group.deleted': { groupId: number };
  }
}

export {};
