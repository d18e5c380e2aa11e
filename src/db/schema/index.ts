export * from './identity.js';
export * from './delivery.js';
export * from './organisation.js';
export * from './activity.js';
export * from './jobs.js';
export * from './surveys.js';
export * from './oauth.js';
export * from './integrations.js';
