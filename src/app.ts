import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, LogController } from 'fastify';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { apiDocsFeature } from './features/api-docs/index.js';
import { accountsFeature } from './features/accounts/index.js';
import { adminFeature } from './features/admin/index.js';
import { groupsFeature } from './features/groups/index.js';
import { healthFeature } from './features/health/index.js';
import { homeFeature } from './features/home/index.js';
import { myDataFeature } from './features/my-data/index.js';
import { notebooksFeature } from './features/notebooks/index.js';
import { notesFeature } from './features/notes/index.js';
import { notificationsFeature } from './features/notifications/index.js';
import { tagsFeature } from './features/tags/index.js';
import { listsFeature } from './features/lists/index.js';
import { BackgroundJobs } from './platform/background.js';
import { apiTokenLayer } from './platform/api/layer.js';
import { TokenStore } from './platform/api/tokens.js';
import { authenticationLayer } from './platform/chain/authentication.js';
import { commonLayer } from './platform/chain/common.js';
import { csrfLayer } from './platform/chain/csrf.js';
import { writesFirst } from './platform/process/writes-first.js';
import { drainOnClose } from './platform/process/drain.js';
import { installErrorHandler } from './platform/error-handler.js';
import { answerClientError, answerFrameworkError } from './platform/framework-errors.js';
import { frameOptionsLayer } from './platform/chain/frame-options.js';
import { createHub } from './platform/hub/create.js';
import { createMailer } from './platform/mail/mailer.js';
import { Outbox } from './platform/mail/outbox.js';
import { Notifications } from './features/notifications/index.js';
import { ObjectKinds } from './platform/object-kinds.js';
import { MailSender } from './platform/mail/sender.js';
import { messagesLayer } from './platform/chain/messages.js';
import { requestLog } from './platform/process/request-log.js';
import { requestLoggerFactory } from './platform/process/request-logger.js';
import { SecretPaths } from './platform/process/secret-paths.js';
import { securityLayer } from './platform/chain/security.js';
import { SessionStore } from './platform/chain/session.js';
import { sessionLayer } from './platform/chain/session-layer.js';
import type { Services } from './services.js';
import { PUBLIC_DIR } from './platform/views/assets.js';
import { renderDecorator } from './platform/views/render.js';
import { websocketSupport } from './platform/hub/websocket.js';

export const BODY_LIMIT = 1024 * 1024;
/**
 * A request must have arrived in full by then, or it is answered 408 and its connection closed:
 * a client that announces a body and never sends it would otherwise hold a connection for good.
 * Behind nginx it never triggers (nginx reads the whole body before passing it on); 1 MiB takes
 * 30 s only below 35 KB/s. Node looks for such requests every CONNECTION_CHECK_MS.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
const CONNECTION_CHECK_MS = 2_000;
const HEADERS_TIMEOUT_MS = 20_000;

/** Every feature of the service, in one readable list. */
const features: FastifyPluginAsync<Services>[] = [
  homeFeature,
  accountsFeature,
  myDataFeature,
  healthFeature,
  notesFeature,
  notebooksFeature,
  tagsFeature,
  listsFeature,
  groupsFeature,
  adminFeature,
  notificationsFeature,
  apiDocsFeature,
];

export interface AppDeps {
  database: DatabaseHandle;
  /** Where the log goes (stdout by default); tests read it. */
  logStream?: { write(line: string): void };
}

export async function buildApp(config: Config, { database, logStream }: AppDeps): Promise<FastifyInstance> {
  // Routes name the secrets in their paths (a reset link's token); every log line is written without them.
  const secretPaths = new SecretPaths();
  const app = Fastify({
    logger: { level: config.logLevel, hooks: { streamWrite: (line) => secretPaths.redact(line) }, ...(logStream ? { stream: logStream } : {}) },
    // requestLog writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // request.log makes its pino child only when a line is written (platform/process/request-logger.ts).
    childLoggerFactory: requestLoggerFactory,
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT,
    requestTimeout: REQUEST_TIMEOUT_MS,
    http: { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: CONNECTION_CHECK_MS },
    // Graceful shutdown behind nginx (a rolling restart loses no request; see server.ts and
    // platform/process/drain.ts): the instance stops accepting (nginx's connect is refused and it tries
    // the next instance, safe for any method), lets nginx's kept-alive connections run out, and
    // only then closes what is left (forceCloseConnections: 'idle', the default). A request that
    // arrives on an open connection meanwhile is *served*, with `Connection: close`, instead of
    // Fastify's default 503, which nginx would hand straight to the browser for a POST.
    return503OnClosing: false,
    // Requests refused before the first hook (a path that is not percent-encoding, a request line
    // Node cannot parse) are answered as the error handler answers the others.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  app.addHook('onRoute', secretPaths.collect);
  const hub = createHub(config, app.log);
  await hub.start();
  app.addHook('onClose', () => hub.close());
  // Ended sessions (logout, password change) close their chat sockets on every instance.
  const sessions = new SessionStore(database.db, config.sessionCookieAge, (sessionKeys) => hub.publish({ type: 'sessions.ended', sessionKeys }));
  // Pages queue mail; the sender loop (started by server.ts) sends it, from whichever instance.
  const outbox = new Outbox(database.db, database.dialect, () => mailSender.wake());
  const mailSender = new MailSender(outbox, createMailer(config.smtpUrl, config.mailFrom, app.log), app.log);
  app.decorate('mailSender', mailSender);
  app.addHook('onClose', () => mailSender.stop());
  // Features add their loops (the reminder scheduler); server.ts starts them once listening.
  const background = new BackgroundJobs();
  app.decorate('background', background);
  app.addHook('onClose', () => background.stop());
  const services: Services = { config, db: database.db, dialect: database.dialect, sessions, hub, outbox, notifications: new Notifications(hub, { outbox, publicUrl: config.publicUrl }), background, objectKinds: new ObjectKinds() };

  await app.register(cookie, { secret: config.secretKey });
  await app.register(formbody, { bodyLimit: BODY_LIMIT });
  await app.register(requestLog);
  await app.register(drainOnClose);
  await app.register(writesFirst, { dialect: database.dialect });
  // Pages kept while the caller's view token is unchanged (PAGE_CACHE_MB > 0, both databases).
  await app.register(renderDecorator, { budgetBytes: config.pageCacheBytes });
  installErrorHandler(app, config);

  // The request chain, in order: security, session, common, CSRF, authentication, messages, frame options.
  await app.register(securityLayer, { config }); //       1. HTTPS redirect, security headers
  await app.register(sessionLayer, { store: sessions }); // 2. sessionid -> session (+ user)
  await app.register(apiTokenLayer, { config, tokens: new TokenStore(database.db, sessions.callerColumns) }); // or an API token -> user
  await app.register(commonLayer, { config }); //         3. Host check, trailing slash, 404/405
  await app.register(csrfLayer, { config }); //           4. CSRF token and Origin on unsafe methods
  await app.register(authenticationLayer, { config, store: sessions }); // 5. request.user, login required
  await app.register(messagesLayer, { config }); //       6. one-time flash messages
  await app.register(frameOptionsLayer); //               7. X-Frame-Options: DENY
  await app.register(websocketSupport); //                upgrades pass through the same chain

  await app.register(async (assets) => {
    // Static files need neither a login nor a session lookup.
    assets.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true, sessionless: true };
    });
    await assets.register(fastifyStatic, {
      root: PUBLIC_DIR,
      prefix: '/static/',
      decorateReply: false,
      maxAge: config.production ? '365d' : 0,
      immutable: config.production,
    });
  });
  for (const feature of features) await app.register(feature, services);
  return app;
}
