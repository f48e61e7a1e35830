import { accountCommands } from './account-commands.js';
import { adminCommands } from './admin-commands.js';
import type { Command } from './command.js';
import { dataCommands } from './data-commands.js';
import { dumpCommands } from './dump-commands.js';
import { groupCommands } from './group-commands.js';

/** Every command of `groupnotes`, by name: each file adds its own here. */
export const commands: Record<string, Command> = { ...accountCommands, ...adminCommands, ...groupCommands, ...dataCommands, ...dumpCommands };
