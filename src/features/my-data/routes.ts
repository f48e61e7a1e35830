import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceUnavailable } from '../../errors.js';
import { logOut } from '../../platform/chain/authentication.js';
import { type Message, requestTranslator } from '../../platform/i18n/index.js';
import { type FormErrors, parseForm } from '../../platform/forms.js';
import type { Services } from '../../services.js';
import { uploadFailure, uploadParts } from '../../platform/uploads.js';
import { viewContext } from '../../platform/views/context.js';
import { AttemptThrottle, passwordChangeLimits, type Refusal, reauthenticationFor, reauthFields } from '../accounts/index.js';
import { AccountDeletion } from './delete-account.js';
import { ExportRepository } from './export-repository.js';
import { exportZip } from './export-zip.js';
import { describeSummary, importIntoAccount } from './import-service.js';
import { Slots } from './slots.js';
import { DeleteAccountPage, ImportPage } from './views.js';
import { BadZip, readZipUpload } from './zip-reader.js';

/** Exports streaming at once per process; more are answered 503 with Retry-After. */
const MAX_RUNNING_EXPORTS = 2;
const EXPORT_RETRY_SECONDS = 30;

/**
 * Imports at once per process (each may hold a 64 MiB document): more are answered 503 with
 * Retry-After. One user's second import while their first runs is a 409, not a 503: their own
 * import is in the way, not the load, and they should see what it brought in before sending again.
 */
const MAX_RUNNING_IMPORTS = 2;
const IMPORT_RETRY_SECONDS = 30;
/** This process's imports: per process, as the memory they hold is. */
export const importSlots = new Slots(MAX_RUNNING_IMPORTS);

/** Deleting the account: the password, and with two-factor sign-in on a code (checked in that order). */
const deleteForm = z.object(reauthFields);

/** The largest zip accepted for import. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

class UploadProblem extends Error {
  constructor(
    readonly problem: Message,
    readonly status: number,
  ) {
    super(typeof problem === 'string' ? problem : problem.key);
  }
}

/** Streams the form's `file` to a temporary file (yauzl reads a zip from a file, never from memory). */
async function receiveZip(request: FastifyRequest, folder: string): Promise<string> {
  const path = join(folder, 'upload.zip');
  try {
    for await (const part of uploadParts(request)) {
      if (part.type !== 'file' || part.fieldname !== 'file') {
        if (part.type === 'file') part.file.resume();
        continue;
      }
      await pipeline(part.file, createWriteStream(path));
      if (part.file.truncated) throw new UploadProblem({ key: 'import.file_too_large', values: { max: MAX_UPLOAD_BYTES / 1024 / 1024 } }, 413);
      if (part.filename === '') throw new UploadProblem('import.choose_file', 400);
      return path;
    }
  } catch (error) {
    if (error instanceof UploadProblem) throw error;
    // A body cut short fails the file's stream, not the parts' iterator.
    const failure = uploadFailure(error);
    throw new UploadProblem(failure.message, failure.statusCode);
  }
  throw new UploadProblem('import.choose_file', 400);
}

export const myDataPages: FastifyPluginAsync<Services> = async (app, services) => {
  const { db, config, hub, sessions } = services;
  const throttle = new AttemptThrottle(db);
  const deletion = new AccountDeletion(db, config, hub);
  const reauthentication = reauthenticationFor(services, throttle);
  // Uploads are accepted here only: one file, a few small fields.
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, parts: 6, fieldSize: 1024 } });

  const exports = new Slots(MAX_RUNNING_EXPORTS);
  app.get('/accounts/export/', async (request, reply) => {
    const slot = exports.take();
    if (!slot.ok) throw new ServiceUnavailable('export.busy', EXPORT_RETRY_SECONDS);
    const user = request.user!;
    const now = Date.now();
    const day = new Date(now).toISOString().slice(0, 10);
    const zip = exportZip(new ExportRepository(db), user, requestTranslator(request), now);
    // Finished, failed or abandoned by the client: the stream closes in every case.
    zip.once('close', slot.release);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="groupnotes-export-${day}.zip"`)
      .header('cache-control', 'no-store')
      .send(zip);
  });

  const maxMegabytes = MAX_UPLOAD_BYTES / 1024 / 1024;
  app.get('/accounts/import/', async (request, reply) => reply.render(ImportPage({ ctx: viewContext(request), maxMegabytes })));

  app.post('/accounts/import/', async (request, reply) => {
    const refuse = (message: Message, status: number) => reply.render(ImportPage({ ctx: viewContext(request), maxMegabytes, errors: { __all__: [message] } }), status);
    if (!request.isMultipart()) return refuse('import.choose_file', 400);
    // Taken before the upload is read; given back however the import ends (done, refused, failed, cut short).
    const slot = importSlots.take(request.user!.id);
    if (!slot.ok && slot.reason === 'owner-busy') return refuse('import.already_running', 409);
    if (!slot.ok) {
      reply.header('retry-after', String(IMPORT_RETRY_SECONDS));
      return refuse('import.busy', 503);
    }
    let folder: string | undefined;
    try {
      folder = await mkdtemp(join(tmpdir(), 'groupnotes-import-'));
      const contents = await readZipUpload(await receiveZip(request, folder));
      const summary = await importIntoAccount(db, request.user!.id, contents);
      request.flash(describeSummary(summary));
      return await reply.redirect('/accounts/import/', 302);
    } catch (error) {
      if (error instanceof UploadProblem) return refuse(error.problem, error.status);
      if (error instanceof BadZip) return refuse({ key: 'import.nothing_imported', values: { problem: requestTranslator(request).t(error.key, error.values) } }, 400);
      throw error;
    } finally {
      slot.release();
      if (folder) await rm(folder, { recursive: true, force: true });
    }
  });

  // With two-factor sign-in on, the page asks for a code as well as the password.
  const showDelete = async (request: FastifyRequest, reply: FastifyReply, status: number, errors: FormErrors = {}) =>
    reply.render(DeleteAccountPage({ ctx: viewContext(request), errors, withCode: await reauthentication.asksForCode(request.user!.id) }), status);

  app.get('/accounts/delete/', async (request, reply) => showDelete(request, reply, 200));

  app.post('/accounts/delete/', async (request, reply) => {
    const userId = request.user!.id;
    const form = parseForm(deleteForm, request.body);
    if (!form.ok) return showDelete(request, reply, 400, form.errors);
    const { password, code } = form.data;
    const withCode = await reauthentication.asksForCode(userId);
    const missing: FormErrors = {};
    if (password === '') missing.password = ['delete_account.password_required'];
    if (withCode && code === '') missing.code = ['reauth.code_required'];
    if (Object.keys(missing).length > 0) return showDelete(request, reply, 400, missing);
    // Wrong passwords here count with those of the password-change form: both guess at the signed-in account.
    const attempt = await throttle.reserve(passwordChangeLimits(userId));
    if (!attempt.ok) {
      reply.header('retry-after', String(attempt.retryAfterSeconds));
      return showDelete(request, reply, 429, { password: [{ key: 'delete_account.throttled', values: { minutes: Math.max(1, Math.ceil(attempt.retryAfterSeconds / 60)) } }] });
    }
    const refused: { code?: Refusal } = {};
    const secondFactor = async () => {
      if (!withCode) return true;
      const checked = await reauthentication.checkCode(request, reply, userId, code);
      if (!checked.ok) refused.code = checked;
      return checked.ok;
    };
    const outcome = await throttle.checking(attempt, () => deletion.delete(userId, password, secondFactor));
    if (!outcome.ok && outcome.reason === 'wrong-password') return showDelete(request, reply, 400, { password: ['delete_account.wrong_password'] });
    await throttle.release(attempt);
    if (!outcome.ok && outcome.reason === 'second-factor') return showDelete(request, reply, refused.code?.status ?? 400, refused.code?.errors);
    if (!outcome.ok && outcome.reason === 'last-administrator') return showDelete(request, reply, 400, { __all__: ['delete_account.last_administrator'] });
    await logOut(request, reply, { config, store: sessions });
    request.flash('delete_account.done', 'info');
    return reply.redirect('/accounts/login/', 302);
  });
};
