/** The data API engine (see README.md). */
export { odataGet, odataRead, odataCount, clearStatementCache } from './read.js';
export { odataPost, odataPatch, odataDelete, type PostResult } from './write.js';
export { odataActionableIds, odataPermittedIds, odataReadIds, odataResourceOf } from './actionable-ids.js';
export { RuleRegistry, type ReadObserver, type RowSnapshot, type WriteAuditor, type WriteOrigin, type Hook, type HookArgs, type HookBody, type RuleHost, type WriteMethod } from './hooks.js';
export { asRoot, ROOT_PERMISSIONS, type DataContext } from './permissions.js';
export { dataApiRoutes } from './routes.js';
export { translateDbError, withDbErrors, type ConstraintMessages } from './db-errors.js';
export { StoredWebResource } from './web-resource.js';
