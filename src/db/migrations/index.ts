import type { Migration } from 'kysely';
import * as accounts from './0001_accounts.js';
import * as groups from './0002_groups.js';
import * as notes from './0003_notes.js';
import * as lists from './0004_lists.js';
import * as chat from './0005_chat.js';
import * as nameKeys from './0006_name_keys.js';
import * as viewVersions from './0007_view_versions.js';
import * as mailOutbox from './0009_mail_outbox.js';
import * as twoFactor from './0010_two_factor.js';
import * as sessionAddress from './0011_session_address.js';
import * as userTimeZone from './0012_user_time_zone.js';
import * as admin from './0013_admin.js';
import * as notifications from './0014_notifications.js';
import * as reminders from './0015_reminders.js';
import * as accessTokens from './0016_access_tokens.js';
import * as listPermissions from './0017_list_permissions.js';
import * as groupActivity from './0018_group_activity.js';
import * as chatReads from './0019_chat_reads.js';
import * as userCurrency from './0020_user_currency.js';
import * as notebookTitleKeys from './0021_notebook_title_keys.js';
import * as userLanguage from './0022_user_language.js';
import * as notificationMessages from './0023_notification_messages.js';
import * as listItemDone from './0024_list_item_done.js';
import * as enrolmentSecrets from './0025_enrolment_secrets.js';
import * as usernameSkeletons from './0026_username_skeletons.js';
import * as shoppingListCurrency from './0027_shopping_list_currency.js';
import * as chatMessageChanges from './0028_chat_message_changes.js';
import * as notices from './0029_notices.js';
import * as todoListGroups from './0030_todo_list_groups.js';
import * as searchWords from './0031_search_words.js';
import * as noteTombstones from './0032_note_tombstones.js';

/** Every migration, in order. Names are frozen: never rename or edit a migration that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
  '0002_groups': groups,
  '0003_notes': notes,
  '0004_lists': lists,
  '0005_chat': chat,
  '0006_name_keys': nameKeys,
  '0007_view_versions': viewVersions,
  '0009_mail_outbox': mailOutbox,
  '0010_two_factor': twoFactor,
  '0011_session_address': sessionAddress,
  '0012_user_time_zone': userTimeZone,
  '0013_admin': admin,
  '0014_notifications': notifications,
  '0015_reminders': reminders,
  '0016_access_tokens': accessTokens,
  '0017_list_permissions': listPermissions,
  '0018_group_activity': groupActivity,
  '0019_chat_reads': chatReads,
  '0020_user_currency': userCurrency,
  '0021_notebook_title_keys': notebookTitleKeys,
  '0022_user_language': userLanguage,
  '0023_notification_messages': notificationMessages,
  '0024_list_item_done': listItemDone,
  '0025_enrolment_secrets': enrolmentSecrets,
  '0026_username_skeletons': usernameSkeletons,
  '0027_shopping_list_currency': shoppingListCurrency,
  '0028_chat_message_changes': chatMessageChanges,
  '0029_notices': notices,
  '0030_todo_list_groups': todoListGroups,
  '0031_search_words': searchWords,
  '0032_note_tombstones': noteTombstones,
};
