// The hub events groups send: chat sockets, live lists and the bell close or re-check on them.

declare module '../../platform/hub/hub.js' {
  interface HubEvents {
    /** These members left or were removed: their sockets of the group close. */
    'group.members_removed': { groupId: number; userIds: number[] };
    /** The group is gone: every socket of it closes. */
    'group.deleted': { groupId: number };
  }
}

export {};
