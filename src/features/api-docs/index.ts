// The API's OpenAPI document and its reference page, read from the operations every feature declared.

export { apiDocsPages as apiDocsFeature } from './routes.js';
