import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { translate, translator } from '../platform/i18n/index.js';
import type { FormErrors } from '../platform/forms.js';

/** A failure the user can act on: printed as one line, exit status 1. */
export class CliError extends Error {}

/** The first of a form's errors, in English: the command line speaks English. */
export function firstError(errors: FormErrors): string {
  const first = Object.values(errors).flat()[0];
  return first === undefined ? 'invalid input' : translate(translator('en'), first);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let data = '';
  for await (const chunk of stream) data += chunk.toString();
  return data;
}

async function promptHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  const answer = new Promise<string>((resolve) => rl.question(question, resolve));
  muted = true;
  const value = await answer;
  rl.close();
  process.stdout.write('\n');
  return value;
}

/** The new password: from stdin with --password-stdin, else asked twice at the terminal. */
export async function readNewPassword(fromStdin: boolean): Promise<string> {
  if (fromStdin) {
    const password = (await readAll(process.stdin)).replace(/\r?\n$/, '');
    if (!password) throw new CliError('no password on standard input');
    return password;
  }
  if (!process.stdin.isTTY) throw new CliError('standard input is not a terminal: pass the password with --password-stdin');
  const first = await promptHidden('Password: ');
  const second = await promptHidden('Password (again): ');
  if (first !== second) throw new CliError('the two passwords did not match');
  return first;
}
