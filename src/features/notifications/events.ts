// The hub event notifications send: open pages of these users update their bell.

declare module '../../platform/hub/hub.js' {
  interface HubEvents {
    /** These users' unread notification counts moved. */
    'notifications.changed': { userIds: number[] };
  }
}

export {};
