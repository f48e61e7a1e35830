// Administration: the users of the instance and the audit log, for administrators only. The
// front door: the pages, and the service the command line's promote and demote use.

export { adminPages as adminFeature } from './routes.js';
export { type Actor, AdminService } from './service.js';
