// The site's root: where a visitor lands.

export { homeRoutes as homeFeature } from './routes.js';
