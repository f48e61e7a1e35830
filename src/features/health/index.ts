// /healthz: whether this instance can serve (its database, and Redis when it fans out through it).

export { healthRoutes as healthFeature } from './routes.js';
